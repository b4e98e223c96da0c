//! A live `list` stopped part-way by a failure: what arrived is written all the same, said on
//! stderr to be partial with how far each type got, and saved as a `json` envelope with what the
//! service said of the rest, so that it reopens as partial.

use std::collections::BTreeMap;

use super::{List, note_dropped, note_odd_fields, write_list};
use crate::app::{Ended, Failure};
use crate::event::Field;
use crate::filter::Filter;
use crate::output::Head;
use crate::source::ndjson::matching_copies;
use crate::source::worker::Tally;
use crate::store::{NO_TIME, Store};
use crate::text::{for_terminal, plural, thousands};
use crate::time::format_nanos;

/// Writes what arrived of the query of `filter` before `failure`, and says how much that is.
/// The exit status says the answer is incomplete.
pub(super) fn write(
    list: &List,
    store: &Store,
    filter: &Filter,
    failure: String,
    tally: &Tally,
) -> Result<Ended, Failure> {
    let mut rows = store.filter(filter);
    if let Some(max) = list.max {
        rows.truncate(max);
    }
    let narrowed = narrowed(filter);
    let head = head(narrowed, rows.len(), tally);
    if let Err(w) = write_list(list, store, rows.clone(), Some(&head)) {
        return Err(Failure::Runtime(format!(
            "{failure}; what arrived before it could not be written: {w}"
        )));
    }
    note_dropped(matching_copies(store.dropped_raws(), filter), filter);
    note_odd_fields(store.odd_fields(), false);
    crate::text::say!("{}", note(store, &rows, narrowed, tally));
    Err(Failure::Runtime(failure))
}

/// Whether the filter has a part the API does not take, applied to what arrived: the
/// service's total of the query then counts events the answer leaves out.
fn narrowed(filter: &Filter) -> bool {
    let mut sent = Filter {
        types: filter.types.clone(),
        ..Filter::default()
    };
    for field in [Field::Room, Field::Session, Field::Peer, Field::User] {
        sent.set(field, filter.wanted(field).map(str::to_string));
    }
    sent != *filter
}

/// What the envelope of a partial answer of `held` events says of the rest: the service's
/// total, where it counts what the answer would hold in full (no filter of ours narrowed it)
/// and is more than it holds; else none, the total being unknown. The `next` is the service's
/// cursor of the query where its paging stopped.
fn head(narrowed: bool, held: usize, tally: &Tally) -> Head {
    Head::part(tally.total.filter(|_| !narrowed), held, tally.next.clone())
}

/// The events that arrived of one type: how many, and the earliest and latest times.
#[derive(Clone, Copy)]
struct Arrived {
    count: usize,
    earliest: i64,
    latest: i64,
}

/// The events of `store` by type.
fn by_type(store: &Store) -> BTreeMap<&str, Arrived> {
    let mut by_type: BTreeMap<&str, Arrived> = BTreeMap::new();
    for row in store.rows() {
        let a = by_type.entry(store.str(row.kind)).or_insert(Arrived {
            count: 0,
            earliest: i64::MAX,
            latest: NO_TIME,
        });
        a.count += 1;
        if row.ts != NO_TIME {
            a.earliest = a.earliest.min(row.ts);
            a.latest = a.latest.max(row.ts);
        }
    }
    by_type
}

/// Where a part of the query whose loading stopped got to, as the service's order runs: what
/// arrived of it is the start of that order (through its own cursor or the query's), and
/// nothing past its last event arrived. Events of one time are "at" it, not "from" it "up to"
/// it.
fn stopped_at(a: &Arrived, newest_first: Option<bool>) -> String {
    if a.latest == NO_TIME {
        return "none with a time".into();
    }
    let (earliest, latest) = (format_nanos(a.earliest), format_nanos(a.latest));
    if a.earliest == a.latest {
        // One event, or several of one time: no span.
        return match newest_first {
            Some(true) => format!("at {latest}; none earlier arrived"),
            Some(false) => format!("at {latest}; none later arrived"),
            None => format!("at {latest}"),
        };
    }
    match newest_first {
        Some(true) => format!("from {latest} back to {earliest}; none earlier arrived"),
        Some(false) => format!("from {earliest} up to {latest}; none later arrived"),
        None => format!("between {earliest} and {latest}"),
    }
}

/// A type's name as a message shows it.
fn kind_name(kind: &str) -> std::borrow::Cow<'_, str> {
    for_terminal(if kind.is_empty() { "(none)" } else { kind })
}

/// A type whose events all arrived: its count and latest time.
fn whole_type(kind: &str, a: &Arrived) -> String {
    let count = plural(a.count, "event", "events");
    match a.latest {
        NO_TIME => format!("{} {count}", kind_name(kind)),
        t => format!(
            "{} {count}, the latest at {}",
            kind_name(kind),
            format_nanos(t)
        ),
    }
}

/// What is said of a live `list` stopped by a failure, before the failure: how many events
/// arrived of how many, which types arrived in full, which stopped early and where, and which
/// got none.
fn note(store: &Store, rows: &[u32], narrowed: bool, tally: &Tally) -> String {
    let arrived = by_type(store);
    let of_total = |n: usize| match tally.total {
        Some(total) if total > n as u64 => format!(
            "{} of the query's {} events",
            thousands(n),
            thousands(total as usize)
        ),
        _ => plural(n, "event", "events"),
    };
    let held = if rows.is_empty() {
        format!("none matched of the {} that arrived", of_total(store.len()))
    } else if narrowed {
        format!(
            "{}, of the {} that arrived",
            plural(rows.len(), "matching event", "matching events"),
            of_total(store.len())
        )
    } else {
        of_total(rows.len())
    };
    let lead = format!(
        "callscope: partial: the answer holds only what arrived before the failure below, {held}"
    );
    if tally.types.is_empty() {
        // One cursor loaded the query: it stopped where its events stop.
        let all = Arrived {
            count: store.len(),
            earliest: arrived
                .values()
                .map(|a| a.earliest)
                .min()
                .unwrap_or(NO_TIME),
            latest: arrived.values().map(|a| a.latest).max().unwrap_or(NO_TIME),
        };
        let types: Vec<String> = arrived.iter().map(|(k, a)| whole_type(k, a)).collect();
        return format!(
            "{lead}, {}. By type: {}",
            stopped_at(&all, tally.newest_first),
            types.join("; ")
        );
    }
    let none = Arrived {
        count: 0,
        earliest: i64::MAX,
        latest: NO_TIME,
    };
    let (mut whole, mut stopped, mut nothing) = (Vec::new(), Vec::new(), Vec::new());
    for t in &tally.types {
        let a = arrived.get(t.kind.as_str()).copied().unwrap_or(none);
        let total = |a: &Arrived| match t.total {
            Some(total) => format!(
                "{} of {}",
                thousands(a.count),
                plural(total as usize, "event", "events")
            ),
            None => plural(a.count, "event", "events"),
        };
        if t.whole {
            whole.push(whole_type(&t.kind, &a));
        } else if a.count == 0 {
            nothing.push(match t.total {
                Some(total) => format!(
                    "{} ({} not loaded)",
                    kind_name(&t.kind),
                    plural(total as usize, "event", "events")
                ),
                None => kind_name(&t.kind).into_owned(),
            });
        } else {
            stopped.push(format!(
                "{} {}, {}",
                kind_name(&t.kind),
                total(&a),
                stopped_at(&a, tally.newest_first)
            ));
        }
    }
    // Types no cursor of their own loaded: what the query's cursor brought of them.
    let others: Vec<String> = arrived
        .iter()
        .filter(|(k, _)| !tally.types.iter().any(|t| t.kind == **k))
        .map(|(k, a)| whole_type(k, a))
        .collect();
    let mut parts = Vec::new();
    for (name, list) in [
        ("In full", whole),
        ("Stopped early", stopped),
        ("None arrived", nothing),
        (
            "Of other types, as far as the query's own cursor got",
            others,
        ),
    ] {
        if !list.is_empty() {
            parts.push(format!("{name}: {}", list.join("; ")));
        }
    }
    format!("{lead}. {}", parts.join(". "))
}
