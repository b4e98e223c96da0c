//! Saving to a file (`s` or `S`): the shown or loaded events, as an envelope (or NDJSON for a
//! `.ndjson` or `.jsonl` path), written atomically. A part of a live query's answer is saved as
//! a part: the envelope carries the service's cursor, and its total where it counts what was
//! saved, so that the file opens again as partial; a file that cannot say so is said to.

use super::action::Action;
use super::effect::SaveWhat;
use super::model::{Live, Model};
use crate::output::{Format, Head, write_atomically};
use crate::text::thousands;

/// Carries out a save to `path` (a folder's is [`super::folder::save`]).
pub fn save(model: &Model, path: &str, what: SaveWhat, replace: bool) -> Action {
    let target = &crate::folders::expand_home(std::path::Path::new(path));
    if target.is_dir() || path.ends_with('/') {
        return super::folder::save(model, path, target, what, replace);
    }
    if !replace && target.exists() {
        return Action::SaveNeedsConfirm {
            path: path.to_string(),
            what,
        };
    }
    let store = &model.events.store;
    let rows: Vec<u32> = match what {
        SaveWhat::Shown => model.events.matching.clone(),
        SaveWhat::Loaded => (0..store.len() as u32).collect(),
    };
    let format = Format::of_dump_path(target);
    let head = head(model, rows.len());
    let result = write_atomically(target, |out| {
        if model.config.redact {
            crate::redact::write_events(store, &rows, format, &head, out)
        } else {
            crate::output::write_events(store, &rows, format, &head, out)
        }
    });
    let redacted = if model.config.redact {
        " (redacted)"
    } else {
        ""
    };
    let mut saved = format!("saved {} events to {path}{redacted}", rows.len());
    // A save is a dump, to open again: a name that asks for csv or a table gets an envelope.
    if let Some(asked @ (Format::Csv | Format::Table)) = Format::of_path(target) {
        saved.push_str(&format!(
            " as a JSON envelope, a dump to open again (not {}: `callscope list -o` writes that)",
            match asked {
                Format::Csv => "csv",
                _ => "a table",
            }
        ));
    }
    Action::Saved(match result {
        Ok(()) => Ok(
            match partial_note(model, (format == Format::Json).then_some(&head), "NDJSON") {
                Some(note) => format!("{saved}: {note}"),
                None => saved,
            },
        ),
        Err(e) => Err(format!("{path}: {e}; the events are still loaded")),
    })
}

/// What the envelope of `n` saved events says of their query: the whole answer, unless a
/// live query has pages not loaded. Then the service's cursor of the rest (the query's own, as
/// `list` saves it; none where the service gave none), and its total where the events saved are
/// all those loaded (the shown ones, narrowed by the explorer's own filters, are a part of no
/// known total).
pub fn head(model: &Model, n: usize) -> Head {
    let Some(live) = pages_left(model) else {
        return Head::whole(n);
    };
    let total = live.total.filter(|_| n == model.events.store.len());
    Head::part(total, n, live.cursor.clone())
}

/// The live query, when it has pages not loaded.
fn pages_left(model: &Model) -> Option<&Live> {
    let live = model.session.live.as_ref()?;
    // Follow mode's refreshes page through a query loaded whole once: no part missing.
    let more = live.next.as_deref().is_some_and(|n| !n.is_empty());
    (more && !live.complete).then_some(live)
}

/// What the status line adds to a save of part of a live answer: what the envelope written
/// with `head` says of it (as it reads on opening again), or (without one) that `what`
/// (NDJSON, a folder: events alone) cannot say so.
pub(super) fn partial_note(model: &Model, head: Option<&Head>, what: &str) -> Option<String> {
    let live = pages_left(model)?;
    let of = match live.total {
        Some(total) => format!(
            "part of the {} the query matched",
            thousands(total as usize)
        ),
        None => "part of what the query matched".to_string(),
    };
    let Some(head) = head else {
        return Some(format!(
            "{of}, and {what} cannot say so: save to a .json path to keep it"
        ));
    };
    Some(match (head.total, head.next.is_empty()) {
        (Some(_), false) => format!("{of}; the file says so, with the cursor of the rest"),
        (Some(_), true) => {
            format!(
                "{of}; the file says so with the query's total (no cursor of the rest is known)"
            )
        }
        (None, false) => format!("{of}; the file says more exist, with their cursor"),
        // Opened again, an envelope with neither reads as the whole answer.
        (None, true) => format!(
            "{of}, and the file cannot say so: no cursor of the rest is known, nor a total of \
             what was saved, so it opens again as if whole"
        ),
    })
}
