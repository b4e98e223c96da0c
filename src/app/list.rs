//! `callscope list`: the matching events (or their groups) printed in a format, without the
//! terminal UI.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use super::fetch::{Stopped, fetch};
use super::{Ended, Failure};
use crate::filter::Filter;
use crate::insight::{GroupKey, GroupSort, WhyEmpty};
use crate::output::Format;
use crate::source::Source;
use crate::source::ndjson::{Spans, matching_copies};
use crate::store::{OddFields, Store};

mod partial;

/// What `list` is asked to print.
#[derive(Debug, Clone)]
pub struct List {
    pub source: Source,
    pub filter: Filter,
    /// The format asked for; by default the one the output file's extension names, else a
    /// table on a terminal and NDJSON anywhere else.
    pub format: Option<Format>,
    /// Written atomically instead of to stdout.
    pub output: Option<PathBuf>,
    /// At most this many events (or the groups of the first this many).
    pub max: Option<usize>,
    pub group_by: Option<GroupKey>,
    pub sort: GroupSort,
    /// Pseudonyms for IP addresses, user names and user ids.
    pub redact: bool,
}

/// Whether `--output` names a folder: it ends with `/`, or is one already. A folder gets the
/// events and the related data beside them, each in a file of its own.
fn folder(list: &List) -> Option<&std::path::Path> {
    let path = list.output.as_deref()?;
    (path.as_os_str().to_string_lossy().ends_with('/') || path.is_dir()).then_some(path)
}

pub fn run(list: List) -> Result<Ended, Failure> {
    // Not a problem (the exit status stays 0), but zero events from it should not pass unsaid.
    for path in list.source.empty_files() {
        crate::text::say!("{}", empty_file_note(&path));
    }
    if folder(&list).is_some() {
        return to_folder(&list);
    }
    // Live, the filter the events were fetched by: its room is the id the name given resolved
    // to, so that no note takes the name for an id that was never looked up.
    let mut fetched_by = None;
    let (store, problems, rows, dropped) = match &list.source {
        Source::Live(live) => match fetch(live, &list.filter, list.max) {
            Ok((store, filter)) => {
                let rows = store.filter(&filter);
                let dropped = matching_copies(store.dropped_raws(), &filter);
                fetched_by = Some(filter);
                (store, Vec::new(), rows, dropped)
            }
            Err(Stopped::Before(failure)) => return Err(failure),
            Err(Stopped::PartWay(store, _, e, _)) if store.is_empty() => {
                // Nothing arrived: there is no partial answer to write or speak of.
                return Err(Failure::Runtime(e));
            }
            Err(Stopped::PartWay(store, filter, e, tally)) => {
                return partial::write(&list, &store, &filter, e, &tally);
            }
        },
        offline => {
            if copies_json(&list)
                && let Some(spans) = offline.select_offline_spans(&list.filter)
            {
                // Nothing chosen: the same reading tells why, when it can be told (which room
                // a name given as an id names, what time the events span).
                if spans.is_empty() {
                    note_why_empty(&list.filter, spans.why_empty());
                }
                write_spans(&list, &spans).map_err(Failure::Runtime)?;
                note_dropped(spans.dropped(), &list.filter);
                note_odd_fields(spans.odd(), !list.filter.is_empty());
                note_saved_pages(offline);
                // The process ends here: unmapping the dump would only cost time.
                std::mem::forget(spans);
                return Ok(Ended::Done);
            }
            if let Some(ended) = stream_every_event(&list) {
                return ended;
            }
            if let Some((store, groups, problems, dropped)) = fast_groups(&list) {
                if groups.is_empty() {
                    // Groups that are none: their store holds what tells why.
                    note_why_empty(&list.filter, Some(&store));
                }
                let format = list_format(&list);
                write_out(&list, |out| {
                    crate::insight::write_groups_within(&store, &groups, format, None, out)
                })
                .map_err(Failure::Runtime)?;
                note_dropped(dropped, &list.filter);
                note_saved_pages(offline);
                return ended(&list, &problems, store.events_read());
            }
            offline.select_offline(&list.filter)
        }
    };
    if rows.is_empty() {
        note_why_empty(fetched_by.as_ref().unwrap_or(&list.filter), Some(&store));
    }
    write_list(&list, &store, rows, None).map_err(Failure::Runtime)?;
    note_dropped(dropped, &list.filter);
    // Without a filter, every event read is in the store; live, every event fetched; offline
    // with a filter, the events it may match at least.
    note_odd_fields(
        store.odd_fields(),
        !list.filter.is_empty() && fetched_by.is_none(),
    );
    note_saved_pages(&list.source);
    ended(&list, &problems, store.events_read())
}

/// The events that hold a field of another type than the API's, read as absent (and so matched
/// by no filter of that field), said after the answer. `filtered`: a filter read only the events
/// it may match (those holding its types, ids and text as written; no other can match it,
/// whatever its fields hold), and the count is said to be of those.
fn note_odd_fields(odd: OddFields, filtered: bool) {
    if let Some(sentence) = odd.sentence() {
        match filtered {
            true => crate::text::say!("callscope: note: of the events the filter read, {sentence}"),
            false => crate::text::say!("callscope: note: {sentence}"),
        }
    }
}

/// Events dropped as later copies of an id read before (the first copy is kept), said after the
/// answer so that a count of its lines is not read as the input's: those that `filter` matches
/// (every one without a filter; see [`matching_copies`]).
fn note_dropped(dropped: usize, filter: &Filter) {
    if dropped > 0 {
        crate::text::say!("{}", dropped_note(dropped, !filter.is_empty()));
    }
}

/// What is said of `dropped` events dropped as later copies (that match, when `filtered`).
pub fn dropped_note(dropped: usize, filtered: bool) -> String {
    let count = crate::text::thousands(dropped);
    let matching = if filtered { " matching" } else { "" };
    match dropped {
        1 => format!(
            "callscope: note: 1{matching} event dropped: its id was read before (the first copy \
             is kept)"
        ),
        _ => format!(
            "callscope: note: {count}{matching} events dropped: their ids were read before (the \
             first copy of each is kept)"
        ),
    }
}

/// Done, or the problems met in the input (the output was written all the same) and how many of
/// its events (`read`) were used.
fn ended(
    list: &List,
    problems: &[crate::source::DumpProblem],
    read: usize,
) -> Result<Ended, Failure> {
    if problems.is_empty() {
        // An empty file is said before the answer; standard input, known empty only once
        // read, after it. Without a filter every event read is counted, so none means none.
        let stdin = matches!(&list.source, Source::Files(files) if files == &["-"]);
        if stdin && read == 0 && list.filter.is_empty() {
            crate::text::say!("callscope: note: the standard input held no events");
        }
        return Ok(Ended::Done);
    }
    let mut lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
    lines.push(format!(
        "{} in the input; the {} readable {} used",
        crate::text::plural(problems.len(), "problem", "problems"),
        crate::text::thousands(read),
        if read == 1 {
            "event was"
        } else {
            "events were"
        }
    ));
    Err(Failure::Problems(lines))
}

/// `list --output DIR/`: the matching events, and the related data of their rooms (live: the
/// rooms and their sessions over the events' time, fetched; offline: what the source holds),
/// all of it redacted alike when asked.
fn to_folder(list: &List) -> Result<Ended, Failure> {
    let dir = folder(list).expect("a folder");
    if list.group_by.is_some() || list.format.is_some_and(|f| f != Format::Ndjson) {
        return Err(Failure::usage(
            "a folder gets the events as NDJSON and the related data beside them: leave out \
             --format and --group-by, or name a file",
        ));
    }
    // Said before anything is read: the folder is to hold what is written, and nothing else,
    // and what is read there is not to be replaced by it.
    if let Source::Files(files) = &list.source {
        crate::output::refuse_reading(dir, files).map_err(Failure::Usage)?;
    }
    crate::output::refuse_others(dir).map_err(Failure::Usage)?;
    let (store, filter, related, problems) = match &list.source {
        Source::Live(live) => {
            let (store, filter) = match fetch(live, &list.filter, list.max) {
                Ok(fetched) => fetched,
                Err(Stopped::Before(f)) => return Err(f),
                Err(Stopped::PartWay(_, _, e, _)) => return Err(Failure::Runtime(e)),
            };
            let connection = live.connect().map_err(Failure::Usage)?;
            let room = filter.room().unwrap_or_default().to_string();
            let related = super::fetch::related(&connection, &store, &room, None)?;
            (store, filter, related, Vec::new())
        }
        offline => {
            let (store, problems) = offline.load_offline();
            (store, list.filter.clone(), offline.related(), problems)
        }
    };
    let mut rows = store.filter(&filter);
    if let Some(max) = list.max {
        rows.truncate(max);
    }
    if rows.is_empty() {
        note_why_empty(&filter, Some(&store));
    }
    // Offline, the source may hold every room's data: only what belongs to the events written
    // goes with them, as live.
    let related = match &list.source {
        Source::Live(_) => related,
        _ => related.of_events(&crate::output::named_by(&store, &rows)),
    };
    let dropped = matching_copies(store.dropped_raws(), &filter);
    // Those of the events read: the store written with pseudonyms holds only the rows written.
    let odd = store.odd_fields();
    // Redacted, every file of the folder reads one set of pseudonyms: the sessions name their
    // peers as the events do, and nothing real is left beside them.
    let (store, related, rows) = if list.redact {
        let (store, related) = crate::redact::redacted_with_related(&store, &rows, &related)
            .map_err(Failure::Runtime)?;
        let rows = (0..store.len() as u32).collect();
        (store, related, rows)
    } else {
        (store, related, rows)
    };
    let written =
        crate::output::write_folder(dir, rows.iter().map(|&i| store.raw(i as usize)), &related)
            .map_err(|e| Failure::runtime(format!("cannot write into {}: {e}", dir.display())))?;
    let names: Vec<String> = written
        .iter()
        .map(|p| {
            p.file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    crate::text::say!(
        "callscope: wrote {} into {}: {}",
        crate::output::holds(rows.len(), &related),
        crate::text::for_terminal(&dir.display().to_string()),
        names.join(", ")
    );
    note_dropped(dropped, &filter);
    note_odd_fields(odd, false);
    if problems.is_empty() {
        Ok(Ended::Done)
    } else {
        let mut lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
        lines.push(format!(
            "{} in the input",
            crate::text::plural(problems.len(), "problem", "problems")
        ));
        Err(Failure::Problems(lines))
    }
}

/// Saved API pages whose `total` or `next` say that their query matched more than they hold:
/// said on stderr, so that a partial answer is not read as the whole.
fn note_saved_pages(source: &Source) {
    let Source::Files(files) = source else {
        return;
    };
    let pages = crate::source::pages::of_args(files);
    if !pages.say_more_than(pages.events as usize) {
        return;
    }
    let thousands = crate::text::thousands;
    let events = pages.events as usize;
    let held = thousands(events);
    let saved = match pages.pages {
        1 => "the saved page holds".to_string(),
        n => format!("the {n} saved pages hold"),
    };
    match pages.total {
        Some(total) => crate::text::say!(
            "callscope: partial: {saved} {held} of the {} events their query matched",
            thousands(total as usize)
        ),
        None => crate::text::say!(
            "callscope: partial: {saved} {}, and more followed (no page is the query's last)",
            crate::text::plural(events, "event", "events")
        ),
    }
}

/// What is said of an input file that holds nothing.
pub fn empty_file_note(path: &str) -> String {
    format!(
        "callscope: note: {} is empty: it holds no events (was it written in full?)",
        crate::text::for_terminal(path)
    )
}

/// Why nothing matched, when the events read can say (a room's name given for its id, a time
/// range that misses them all) or the filter alone does (a value that reads as a list), with
/// how to ask again. Without `store`, only what the filter says.
pub(super) fn note_why_empty(filter: &Filter, store: Option<&Store>) {
    let reasons = match store {
        Some(store) => crate::insight::why_empty(filter, store),
        None => crate::insight::literal_values(filter),
    };
    for why in reasons {
        let how = match &why {
            WhyEmpty::RoomName { ids, .. } => match ids.as_slice() {
                [id] => format!(": --room {}", crate::text::for_terminal(id)),
                _ => ": give one with --room".to_string(),
            },
            WhyEmpty::TimeSpan { .. } | WhyEmpty::Reversed { .. } | WhyEmpty::Literal { .. } => {
                String::new()
            }
        };
        crate::text::say!("callscope: {}{how}", why.words());
    }
}

/// The format `list` writes in: the one asked for, else the one the `--output` file's extension
/// names (as the explorer's save picks it: [`Format::of_path`]), else a table on a terminal and
/// NDJSON anywhere else.
fn list_format(list: &List) -> Format {
    let named = || list.output.as_deref().and_then(Format::of_path);
    list.format.or_else(named).unwrap_or_else(|| {
        if list.output.is_none() && std::io::stdout().is_terminal() {
            Format::Table
        } else {
            Format::Ndjson
        }
    })
}

/// Whether `list` writes each selected event's JSON as it was read, and nothing else.
fn copies_json(list: &List) -> bool {
    matches!(list_format(list), Format::Ndjson | Format::Json)
        && !list.redact
        && list.group_by.is_none()
}

/// `list` without a filter on a stream (stdin, a pipe, a gzip'd file), as NDJSON: each event
/// written as it comes, rather than held; `None` when it is not that.
fn stream_every_event(list: &List) -> Option<Result<Ended, Failure>> {
    if !list.filter.is_empty()
        || list_format(list) != Format::Ndjson
        || !copies_json(list)
        || !list.source.reads_one_stream()
    {
        return None;
    }
    let mut streamed = None;
    let written = write_out(list, |out| {
        let each = |raw: &[u8]| {
            crate::output::write_compact(raw, &mut *out)?;
            out.write_all(b"\n")
        };
        let Some((read, problems, written)) = list.source.each_streamed(list.max, each) else {
            return Ok(());
        };
        streamed = Some((read, problems));
        written
    });
    let (read, problems) = streamed?;
    if let Err(e) = written {
        return Some(Err(Failure::Runtime(e)));
    }
    note_dropped(read.dropped, &list.filter);
    note_saved_pages(&list.source);
    Some(ended(list, &problems, read.events))
}

/// The groups `list --group-by` prints, counted without a store of every event, when they can
/// be: a table (whose activity column reads each event's time) and redacted names are left to
/// the full way.
fn fast_groups(
    list: &List,
) -> Option<(
    Store,
    crate::insight::Groups,
    Vec<crate::source::DumpProblem>,
    usize,
)> {
    let key = list.group_by?;
    if list.redact || list_format(list) == Format::Table {
        return None;
    }
    super::grouped::groups_of(&list.source, &list.filter, key, list.sort, list.max)
}

fn write_spans(list: &List, spans: &Spans) -> Result<(), String> {
    let n = list.max.map_or(spans.len(), |m| m.min(spans.len()));
    let format = list_format(list);
    write_out(list, |out| {
        crate::output::write_raw_events(spans.raws().take(n), n, format == Format::Json, out)
    })
}

/// Writes to `--output` (atomically) or to stdout, where a closed pipe is no error.
fn write_out(
    list: &List,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<(), String> {
    match &list.output {
        Some(path) => crate::output::write_atomically(path, write)
            .map_err(|e| format!("cannot write {}: {e}", path.display())),
        None => {
            let stdout = std::io::stdout();
            // On a terminal, text from the data must not drive it, whatever the format; a pipe
            // or a file gets the bytes as they are.
            let on_terminal = stdout.is_terminal();
            let out =
                std::io::BufWriter::with_capacity(crate::output::OUTPUT_BUFFER, stdout.lock());
            let mut out: Box<dyn Write> = if on_terminal {
                Box::new(crate::text::ForTerminal::new(out))
            } else {
                Box::new(out)
            };
            match write(&mut out).and_then(|()| out.flush()) {
                Err(e) if closed_pipe(&e) => Ok(()),
                other => other.map_err(|e| format!("cannot write to stdout: {e}")),
            }
        }
    }
}

/// Whether a failure to write is the reader closing the pipe (`| head`): the error itself, or
/// the one beneath a CSV writer's.
fn closed_pipe(e: &std::io::Error) -> bool {
    let beneath = e.get_ref().and_then(|e| e.downcast_ref::<csv::Error>());
    let kind = match beneath.map(csv::Error::kind) {
        Some(csv::ErrorKind::Io(e)) => e.kind(),
        _ => e.kind(),
    };
    kind == std::io::ErrorKind::BrokenPipe
}

/// Writes the answer in the list's format; a `json` envelope of events says `head` of its
/// query where given (a partial answer), else that it is the whole.
fn write_list(
    list: &List,
    store: &Store,
    mut rows: Vec<u32>,
    head: Option<&crate::output::Head>,
) -> Result<(), String> {
    if let Some(max) = list.max {
        rows.truncate(max);
    }
    let format = list_format(list);
    // Redacting makes a store of its own: every format and grouping then reads pseudonyms.
    let redacted;
    let (store, rows) = if list.redact {
        redacted = crate::redact::redacted_store(store, &rows)?;
        (&redacted, (0..redacted.len() as u32).collect())
    } else {
        (store, rows)
    };
    let groups = list
        .group_by
        .map(|key| crate::insight::Groups::compute(store, &rows, key, list.sort));
    // A table for people fits the terminal it is printed on, rather than wrapping there.
    let columns = (format == Format::Table && list.output.is_none())
        .then(terminal_columns)
        .flatten();
    let write = |out: &mut dyn Write| match (&groups, head) {
        (Some(groups), _) => {
            crate::insight::write_groups_within(store, groups, format, columns, out)
        }
        (None, Some(head)) if format == Format::Json => {
            crate::output::write_events(store, &rows, format, head, out)
        }
        (None, _) => crate::output::write_events_within(store, &rows, format, columns, out),
    };
    write_out(list, write)
}

/// The width of the terminal that stdout is, if it is one.
fn terminal_columns() -> Option<usize> {
    if !std::io::stdout().is_terminal() {
        return None;
    }
    crossterm::terminal::size()
        .ok()
        .map(|(columns, _)| usize::from(columns))
        .filter(|&c| c > 0)
}
