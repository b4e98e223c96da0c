//! What a grouping key reads of a row, and how its values are named and ordered.

use std::cmp::Ordering;

use rustc_hash::FxHashMap;

use crate::event::{EventType, Field};
use crate::filter::Condition;
use crate::store::{Agent, Row, Store, Sym};

/// What `list --group-by` and the groups view group the shown events by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GroupKey {
    Error,
    Sdk,
    Os,
    Device,
    Role,
    Room,
    Domain,
    Env,
    Peer,
}

/// The order of groups: the largest first, or the most recently seen first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GroupSort {
    #[default]
    Count,
    Last,
}

impl GroupSort {
    pub const ALL: [GroupSort; 2] = [GroupSort::Count, GroupSort::Last];

    /// The name on the command line (`--sort last`).
    pub fn name(self) -> &'static str {
        match self {
            GroupSort::Count => "count",
            GroupSort::Last => "last",
        }
    }
}

impl GroupKey {
    pub const ALL: [GroupKey; 9] = [
        GroupKey::Error,
        GroupKey::Sdk,
        GroupKey::Os,
        GroupKey::Device,
        GroupKey::Role,
        GroupKey::Room,
        GroupKey::Domain,
        GroupKey::Env,
        GroupKey::Peer,
    ];

    /// The name on the command line (`--group-by error`).
    pub fn name(self) -> &'static str {
        match self {
            GroupKey::Error => "error",
            GroupKey::Sdk => "sdk",
            GroupKey::Os => "os",
            GroupKey::Device => "device",
            GroupKey::Role => "role",
            GroupKey::Room => "room",
            GroupKey::Domain => "domain",
            GroupKey::Env => "env",
            GroupKey::Peer => "peer",
        }
    }

    /// The event fields that make up a group's `key` object, in order. The last field of `room`
    /// and `peer` (the room's name, the user's name) is shown beside the id, not grouped on.
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            GroupKey::Error => &["type", "error_code", "error_name"],
            GroupKey::Sdk => &["sdk", "sdk_version"],
            GroupKey::Os => &["os", "os_version"],
            GroupKey::Device => &["device_model"],
            GroupKey::Role => &["role"],
            GroupKey::Room => &["room_id", "room_name"],
            GroupKey::Domain => &["domain"],
            GroupKey::Env => &["env"],
            GroupKey::Peer => &["peer_id", "user_name"],
        }
    }

    /// The fields of a group's value: the first, and the second (an error's name, a version).
    pub fn value_fields(self) -> (Field, Option<Field>) {
        match self {
            GroupKey::Error => (Field::Type, Some(Field::ErrorName)),
            GroupKey::Sdk => (Field::Sdk, Some(Field::SdkVersion)),
            GroupKey::Os => (Field::Os, Some(Field::OsVersion)),
            GroupKey::Device => (Field::Device, None),
            GroupKey::Role => (Field::Role, None),
            GroupKey::Room => (Field::Room, None),
            GroupKey::Domain => (Field::Domain, None),
            GroupKey::Env => (Field::Env, None),
            GroupKey::Peer => (Field::Peer, None),
        }
    }

    /// The field shown beside the grouped one (`room_name`, `user_name`), if any: what a
    /// group's name is read from.
    pub fn display_field(self) -> Option<Field> {
        match self {
            GroupKey::Room => Some(Field::RoomName),
            GroupKey::Peer => Some(Field::UserName),
            _ => None,
        }
    }

    /// The conditions that keep exactly the events of a group, as strings, so that they outlive
    /// the store the group was counted in (a new live query makes a new store).
    pub fn conditions(self, store: &Store, value: &GroupValue) -> Vec<Condition> {
        let text = |s: Sym| (!s.is_none()).then(|| store.str(s).to_string());
        let is = |field, value| Condition {
            field,
            value,
            negate: false,
        };
        let (first, second) = self.value_fields();
        let mut conditions = vec![is(first, text(value.first))];
        if let Some(second) = second {
            conditions.push(is(second, text(value.second)));
        }
        if self == GroupKey::Error {
            conditions.push(is(Field::Code, value.code.map(|c| c.to_string())));
        }
        conditions
    }

    /// The value of a row under this key.
    pub fn value_of(self, store: &Store, row: &Row) -> GroupValue {
        let (first, second, code) = match self {
            GroupKey::Error => (row.kind, row.error_name, row.error_code()),
            GroupKey::Role => (row.role, Sym::NONE, None),
            GroupKey::Room => (row.room_id, Sym::NONE, None),
            GroupKey::Domain => (row.domain, Sym::NONE, None),
            GroupKey::Peer => (row.peer_id, Sym::NONE, None),
            // The keys of the agent's fields, which `of_agent` lists.
            agent_key => {
                let (first, second) = agent_key
                    .of_agent(store.agent(row))
                    .unwrap_or((Sym::NONE, Sym::NONE));
                (first, second, None)
            }
        };
        GroupValue {
            first,
            second,
            code,
        }
    }

    /// Whether the key's value is read from the event's agent (sdk, os, device, env).
    pub fn of_the_agent(self) -> bool {
        self.of_agent(&Agent::NONE).is_some()
    }

    /// The value under this key of every row whose agent is `agent`, for a key of the agent's
    /// fields (see [`GroupKey::of_the_agent`]); `None` for the other keys, whose values are the
    /// row's own.
    pub fn agent_value(self, agent: &Agent) -> Option<GroupValue> {
        self.of_agent(agent).map(|(first, second)| GroupValue {
            first,
            second,
            code: None,
        })
    }

    /// The first and second symbols of a key of the agent's fields; `None` for the keys whose
    /// values are the row's own. The one list of which keys are the agent's.
    fn of_agent(self, agent: &Agent) -> Option<(Sym, Sym)> {
        match self {
            GroupKey::Sdk => Some((agent.sdk, agent.sdk_version)),
            GroupKey::Os => Some((agent.os, agent.os_version)),
            GroupKey::Device => Some((agent.device_model, Sym::NONE)),
            GroupKey::Env => Some((agent.env, Sym::NONE)),
            GroupKey::Error
            | GroupKey::Role
            | GroupKey::Room
            | GroupKey::Domain
            | GroupKey::Peer => None,
        }
    }

    /// The field shown beside the grouped one (`room_name`, `user_name`), if any.
    pub(super) fn display_of(self, row: &Row) -> Sym {
        match self {
            GroupKey::Room => row.room_name,
            GroupKey::Peer => row.user_name,
            _ => Sym::NONE,
        }
    }
}

/// What the events of one group share: up to two interned strings and, for `error`, the code.
/// `Sym::NONE` and `None` stand for an absent field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroupValue {
    /// The type (error), sdk, os, device model, role, room id, domain, env or peer id.
    pub first: Sym,
    /// The error name (error) or the version (sdk, os).
    pub second: Sym,
    pub code: Option<i64>,
}

impl GroupValue {
    pub fn matches(&self, key: GroupKey, store: &Store, row: &Row) -> bool {
        key.value_of(store, row) == *self
    }
}

/// One field of a group's key, for display or output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part<'a> {
    Absent,
    Text(&'a str),
    Code(i64),
}

impl GroupValue {
    /// The key's fields, in [`GroupKey::fields`] order (a room's or user's name absent).
    pub fn parts<'a>(&self, store: &'a Store, key: GroupKey) -> Vec<Part<'a>> {
        parts_of(store, key, self, Sym::NONE)
    }

    /// One line naming the value for people, as [`Group::label`](super::Group::label).
    pub fn label(&self, store: &Store, key: GroupKey) -> String {
        label_of(key, &self.parts(store, key))
    }
}

pub(super) fn parts_of<'a>(
    store: &'a Store,
    key: GroupKey,
    v: &GroupValue,
    display: Sym,
) -> Vec<Part<'a>> {
    let text = |sym: Sym| {
        if sym.is_none() {
            Part::Absent
        } else {
            Part::Text(store.str(sym))
        }
    };
    match key {
        GroupKey::Error => vec![
            text(v.first),
            v.code.map_or(Part::Absent, Part::Code),
            text(v.second),
        ],
        GroupKey::Sdk | GroupKey::Os => vec![text(v.first), text(v.second)],
        GroupKey::Room | GroupKey::Peer => vec![text(v.first), text(display)],
        _ => vec![text(v.first)],
    }
}

pub(super) fn label_of(key: GroupKey, parts: &[Part]) -> String {
    let word = |p: &Part| match p {
        Part::Absent => None,
        Part::Text(s) => Some(s.to_string()),
        Part::Code(c) => Some(c.to_string()),
    };
    let label = match key {
        GroupKey::Room | GroupKey::Peer => match (word(&parts[0]), word(&parts[1])) {
            (Some(id), Some(name)) => format!("{name} ({id})"),
            (id, name) => id.or(name).unwrap_or_default(),
        },
        GroupKey::Error => parts
            .iter()
            .enumerate()
            .filter_map(|(k, p)| match (k, p) {
                (0, Part::Text(t)) => Some(EventType::from_name(t).alias().to_string()),
                _ => word(p),
            })
            .collect::<Vec<_>>()
            .join(" "),
        _ => parts.iter().filter_map(word).collect::<Vec<_>>().join(" "),
    };
    if label.is_empty() {
        crate::text::NONE.to_string()
    } else {
        label
    }
}

/// A value's first string cut to its first eight bytes, ordered as the strings are (absent
/// last), so that sorting thousands of groups rarely has to read their strings.
pub(super) fn rank(store: &Store, sym: Sym) -> u64 {
    if sym.is_none() {
        return u64::MAX;
    }
    let mut bytes = [0u8; 8];
    let s = store.str(sym).as_bytes();
    let n = s.len().min(8);
    bytes[..n].copy_from_slice(&s[..n]);
    // 0xFF never occurs in UTF-8, so no string ranks with the absent value.
    u64::from_be_bytes(bytes)
}

/// Group numbers by value: an array indexed by symbol when the key is one string; for a key of
/// two strings (and a code), a hash map behind an array by the second string that remembers
/// the last group met with it, which most values repeat (an error's name, a version).
pub(super) enum Index {
    Dense(Vec<u32>),
    Keyed {
        /// By the value's second symbol, the last group met with it, plus one (zero: none yet,
        /// so that the array starts as untouched zeroed pages).
        last: Vec<u32>,
        /// The value of each group, by number.
        values: Vec<GroupValue>,
        hashed: FxHashMap<GroupValue, u32>,
    },
}

impl Index {
    pub(super) fn new(key: GroupKey, symbols: usize) -> Index {
        match key {
            GroupKey::Error | GroupKey::Sdk | GroupKey::Os => Index::Keyed {
                last: vec![0; symbols.max(1)],
                values: Vec::new(),
                hashed: FxHashMap::default(),
            },
            _ => Index::Dense(vec![0; symbols]),
        }
    }

    /// An index by one string for `events` events of a store of `symbols` strings (the peers'
    /// of a slice of a grouping by peer). Where the events are many, nearly every page of the
    /// array is read, then written: it is then written first (see
    /// [`crate::memory::zeros_for`]).
    pub(super) fn dense_for(symbols: usize, events: usize) -> Index {
        Index::Dense(crate::memory::zeros_for(symbols, events))
    }

    /// The number of the group of `value`, when one was numbered.
    pub(super) fn get(&self, value: GroupValue) -> Option<u32> {
        match self {
            Index::Dense(ids) => ids.get(value.first.0 as usize)?.checked_sub(1),
            Index::Keyed { hashed, .. } => hashed.get(&value).copied(),
        }
    }

    /// The number of the group of `value`, or `next` for a value not met before, which must be
    /// the number of groups numbered so far.
    pub(super) fn get_or_insert(&mut self, value: GroupValue, next: u32) -> u32 {
        match self {
            // Holds the group's number plus one: zero is no group yet, so that the array starts
            // as zeroed memory from the system.
            Index::Dense(ids) => {
                let slot = &mut ids[value.first.0 as usize];
                if *slot == 0 {
                    *slot = next + 1;
                }
                *slot - 1
            }
            Index::Keyed {
                last,
                values,
                hashed,
            } => {
                let slot = &mut last[value.second.0 as usize];
                if let Some(g) = slot.checked_sub(1)
                    && values[g as usize] == value
                {
                    return g;
                }
                let g = *hashed.entry(value).or_insert(next);
                if g == next {
                    values.push(value);
                }
                *slot = g + 1;
                g
            }
        }
    }
}

pub(super) fn compare_values(store: &Store, a: &GroupValue, b: &GroupValue) -> Ordering {
    let s = |sym: Sym| (sym.is_none(), store.str(sym));
    s(a.first)
        .cmp(&s(b.first))
        .then_with(|| a.code.cmp(&b.code))
        .then_with(|| s(a.second).cmp(&s(b.second)))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::insight::testing::{ev, store};

    fn sample() -> Store {
        let mut e = ev(1, 0, "join", "p1", true);
        e["data"]["role"] = json!("host");
        e["data"]["user_name"] = json!("Ada");
        e["data"]["room_name"] = json!("standup");
        e["data"]["agent"] = json!({
            "sdk": "web", "sdk_version": "0.11.4", "os": "macOS", "os_version": "14.5",
            "device_model": "Chrome 130", "domain": "prod-in2.100ms.live",
            "string": "sdk:web,env:prod"
        });
        store(&[e])
    }

    #[test]
    fn every_key_names_its_fields_and_labels_its_value() {
        let s = sample();
        let row = s.row(0);
        let labels: Vec<(&str, String)> = GroupKey::ALL
            .iter()
            .map(|&k| (k.name(), k.value_of(&s, row).label(&s, k)))
            .collect();
        assert_eq!(
            labels,
            [
                ("error", "join 500 ServerErrors".to_string()),
                ("sdk", "web 0.11.4".to_string()),
                ("os", "macOS 14.5".to_string()),
                ("device", "Chrome 130".to_string()),
                ("role", "host".to_string()),
                ("room", "room-1".to_string()),
                ("domain", "prod-in2.100ms.live".to_string()),
                ("env", "prod".to_string()),
                ("peer", "p1".to_string()),
            ]
        );
        for key in GroupKey::ALL {
            let parts = key.value_of(&s, row).parts(&s, key);
            assert_eq!(parts.len(), key.fields().len(), "{key:?}");
            // A key of the agent's fields has the value of the row's agent; no other has one.
            let of_agent = key.agent_value(s.agent(row));
            assert_eq!(of_agent.is_some(), key.of_the_agent(), "{key:?}");
            if let Some(value) = of_agent {
                assert_eq!(value, key.value_of(&s, row), "{key:?}");
            }
        }
        let of_the_agent: Vec<GroupKey> = GroupKey::ALL
            .into_iter()
            .filter(|k| k.of_the_agent())
            .collect();
        assert_eq!(
            of_the_agent,
            [GroupKey::Sdk, GroupKey::Os, GroupKey::Device, GroupKey::Env]
        );
        // The name beside an id comes from the group, not the value.
        assert_eq!(
            GroupKey::Peer.display_of(row),
            s.strings().lookup("Ada").unwrap()
        );
        assert_eq!(
            label_of(GroupKey::Room, &[Part::Text("r"), Part::Text("standup")]),
            "standup (r)"
        );
        assert_eq!(label_of(GroupKey::Env, &[Part::Absent]), "(none)");
    }

    #[test]
    fn ranks_keep_the_order_of_the_strings_and_put_absent_last() {
        let s = store(&[
            ev(1, 0, "join", "a", false),
            ev(2, 0, "join", "abcdefghij", false),
        ]);
        let sym = |t: &str| s.strings().lookup(t).unwrap();
        assert!(rank(&s, sym("a")) < rank(&s, sym("abcdefghij")));
        assert!(rank(&s, sym("abcdefghij")) < rank(&s, Sym::NONE));
        assert!(rank(&s, sym("JOIN")) < rank(&s, sym("a")));
    }

    #[test]
    fn both_indexes_number_values_in_the_order_they_are_met() {
        let v = |n: u32| GroupValue {
            first: Sym(n),
            second: Sym::NONE,
            code: None,
        };
        for key in [GroupKey::Error, GroupKey::Peer] {
            let mut index = Index::new(key, 10);
            assert_eq!(index.get_or_insert(v(7), 0), 0);
            assert_eq!(index.get_or_insert(v(3), 1), 1);
            assert_eq!(index.get_or_insert(v(7), 2), 0);
            assert_eq!(index.get_or_insert(v(0), 2), 2);
        }
    }

    #[test]
    fn the_keyed_index_numbers_values_as_a_plain_map_would() {
        // Values that share their second symbol and differ in the first or the code, met in
        // an order that keeps changing which of them the array remembers.
        let mut plain: FxHashMap<GroupValue, u32> = FxHashMap::default();
        let mut index = Index::new(GroupKey::Error, 8);
        let mut state = 12345u64;
        for _ in 0..2_000 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = (state >> 33) as u32;
            let value = GroupValue {
                first: Sym(r % 3),
                second: Sym((r >> 2) % 4),
                code: (!(r >> 4).is_multiple_of(3)).then_some(i64::from((r >> 6) % 2)),
            };
            let next = plain.len() as u32;
            let expected = *plain.entry(value).or_insert(next);
            assert_eq!(index.get_or_insert(value, next), expected, "{value:?}");
        }
        assert!(plain.len() > 20, "many values share a second symbol");
    }
}
