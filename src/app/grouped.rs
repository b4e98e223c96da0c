//! `list --group-by` counted straight off a line-delimited dump or an envelope, without a store
//! of every event (see [`crate::source::ndjson::group`]): the same groups, printed the same way.

use crate::filter::Filter;
use crate::insight::{Group, GroupKey, GroupSort, Groups};
use crate::source::ndjson::group::GroupFields;
use crate::source::{DumpProblem, Source};
use crate::store::{Store, Sym};

/// The groups of the events of `source` that match `filter` (the first `max` of them) under
/// `key`, with the store their strings are read from (which counts the events read), the
/// problems met and how many events that match were dropped as later copies of an id read
/// before; `None` when the full way counts them: a source the fast path does not read.
/// The input is read once: when nothing matches, the store holds what tells why (the events
/// that may name the room asked for, the time the events span; see `insight::why_empty`).
pub fn groups_of(
    source: &Source,
    filter: &Filter,
    key: GroupKey,
    sort: GroupSort,
    max: Option<usize>,
) -> Option<(Store, Groups, Vec<DumpProblem>, usize)> {
    let (first, second) = key.value_fields();
    let fields = GroupFields {
        first,
        second,
        code: key == GroupKey::Error,
        display: key.display_field(),
    };
    let (grouped, problems) = match source.group_offline(filter, fields, max) {
        Some(grouped) => (grouped, Vec::new()),
        None => source.group_streamed(filter, fields, max)?,
    };
    let (store, dropped) = (grouped.store, grouped.dropped);
    let groups: Vec<Group> = grouped
        .groups
        .iter()
        .map(|c| {
            let row = store.row(c.row as usize);
            let named = store.row(c.named.unwrap_or(c.row) as usize);
            Group {
                value: key.value_of(&store, row),
                display: key
                    .display_field()
                    .map_or(Sym::NONE, |f| store.text(named, f)),
                count: c.count,
                finals: c.finals,
                peers: c.peers,
                rooms: c.rooms,
                first_seen: c.first_seen,
                last_seen: c.last_seen,
            }
        })
        .collect();
    let groups = Groups::of_counts(&store, key, sort, &groups);
    Some((store, groups, problems, dropped))
}
