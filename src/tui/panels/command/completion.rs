//! Tab on the command line: the commands whose names start with what was typed, then the values
//! of the command's argument among the loaded events, the most common first.

use tui_input::Input;

use super::{Arg, COMMANDS, CommandLine, Completion, command_named};
use crate::event::{EventType, Field};
use crate::insight::SortKey;
use crate::store::Store;
use crate::tui::model::Model;

/// Tab: the next completion of what was typed (Shift-Tab: the one before), round to what was
/// typed. A completion that is the only one is taken, and the next Tab completes from it.
pub(super) fn complete(line: &mut CommandLine, model: &mut Model, forward: bool) {
    if line.completion.is_none() {
        line.completion = completions(line.input.value(), &model.events.store);
    }
    let Some(c) = &mut line.completion else {
        model.status = Some("nothing to complete: the command takes no value".into());
        return;
    };
    let n = c.candidates.len();
    if n == 0 {
        model.status = Some("no loaded value starts so".into());
        line.completion = None;
        return;
    }
    // Place 0 is what was typed; 1..=n the candidates.
    c.at = if forward {
        (c.at + 1) % (n + 1)
    } else {
        (c.at + n) % (n + 1)
    };
    let text = match c.at {
        0 => c.typed.clone(),
        k => format!("{}{}", c.head, c.candidates[k - 1]),
    };
    let end = text.chars().count();
    line.input = Input::new(text).with_cursor(end);
    if n == 1 {
        line.completion = None;
    }
}

/// The completions of a command line as typed: the commands whose names start with it, or the
/// values of the command's argument that start with what is typed of it (in any case), the
/// most common first.
pub fn completions(typed: &str, store: &Store) -> Option<Completion> {
    let Some((name, arg)) = typed.split_once(' ') else {
        let candidates: Vec<String> = COMMANDS
            .iter()
            .filter(|s| s.name.starts_with(&typed.to_ascii_lowercase()))
            .map(|s| format!("{} ", s.name))
            .collect();
        return Some(Completion {
            typed: typed.to_string(),
            head: String::new(),
            candidates,
            at: 0,
        });
    };
    let spec = command_named(name)?;
    // After the last comma of a list, and after a `!`.
    let start = arg.rfind(',').map_or(0, |k| k + 1);
    let word = arg[start..].trim_start();
    let (bang, word) = match word.strip_prefix('!') {
        Some(rest) => ("!", rest),
        None => ("", word),
    };
    let head = format!(
        "{name} {}{}{bang}",
        &arg[..start],
        if start > 0 { " " } else { "" }
    );
    let values = values_of(spec.arg, store);
    let lower = word.to_lowercase();
    let candidates = values
        .into_iter()
        .filter(|v| v.to_lowercase().starts_with(&lower))
        .map(|v| v.replace('\\', "\\\\").replace(',', "\\,"))
        .take(200)
        .collect();
    Some(Completion {
        typed: typed.to_string(),
        head,
        candidates,
        at: 0,
    })
}

/// The values an argument can take among the loaded events, the most common first.
pub(super) fn values_of(arg: Arg, store: &Store) -> Vec<String> {
    let counted = |fields: &[Field]| -> Vec<String> {
        let mut counts: rustc_hash::FxHashMap<String, usize> = Default::default();
        for row in store.rows() {
            for &field in fields {
                let text = match field {
                    Field::Code => row.error_code().map(|c| c.to_string()),
                    field => {
                        let sym = store.text(row, field);
                        (!sym.is_none()).then(|| store.str(sym).to_string())
                    }
                };
                if let Some(text) = text {
                    *counts.entry(text).or_default() += 1;
                }
            }
        }
        let mut values: Vec<(String, usize)> = counts.into_iter().collect();
        values.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        values.into_iter().map(|(v, _)| v).collect()
    };
    match arg {
        Arg::Field(field) => counted(&[field]),
        Arg::Room => counted(&[Field::RoomName, Field::Room]),
        Arg::Types => EventType::KNOWN
            .iter()
            .map(|t| t.alias().to_string())
            .collect(),
        Arg::SortKey => SortKey::ALL.iter().map(|k| k.name().to_string()).collect(),
        Arg::Bound => ["15m", "1h", "6h", "1d"].map(String::from).to_vec(),
        _ => Vec::new(),
    }
}
