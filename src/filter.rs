//! The filter: one meaning for every source. For the live API the first five parts travel as query
//! parameters; all of them are also applied to what is loaded.

use crate::cli::GroupKey;
use crate::event::EventType;
use crate::insight::GroupValue;
use crate::store::{NO_TIME, Needle, SearchBits, Store, Sym, TERMINAL_FALSE, TERMINAL_TRUE};

/// A time bound as the user wrote it, and what it resolved to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeBound {
    pub text: String,
    pub nanos: i64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Any of these types; empty means every type.
    pub types: Vec<EventType>,
    pub room: Option<String>,
    pub session: Option<String>,
    pub peer: Option<String>,
    pub user: Option<String>,
    /// `Some(true)`: only final errors (`--terminal`); `Some(false)`: only retried ones (`--retried`).
    pub terminal: Option<bool>,
    pub code: Option<i64>,
    pub search: Option<String>,
    pub since: Option<TimeBound>,
    pub until: Option<TimeBound>,
    /// Only the events of one group of the groups view (applied to what is loaded).
    pub group: Option<GroupFilter>,
}

/// A group of the groups view as a filter: the key and the values of its fields, as strings so
/// that the filter outlives the store it was picked from (a new live query makes a new store).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupFilter {
    pub key: GroupKey,
    pub first: Option<String>,
    pub second: Option<String>,
    pub code: Option<i64>,
    /// How the group is named for people.
    pub label: String,
}

impl GroupFilter {
    pub fn of(store: &Store, key: GroupKey, value: &GroupValue) -> GroupFilter {
        let text = |s: Sym| (!s.is_none()).then(|| store.str(s).to_string());
        GroupFilter {
            key,
            first: text(value.first),
            second: text(value.second),
            code: value.code,
            label: value.label(store, key),
        }
    }

    /// The group's value in a store, `None` when the store has never seen one of its strings.
    fn resolve(&self, store: &Store) -> Option<GroupValue> {
        let sym = |s: &Option<String>| match s {
            None => Some(Sym::NONE),
            Some(s) => store.strings().lookup(s),
        };
        Some(GroupValue {
            first: sym(&self.first)?,
            second: sym(&self.second)?,
            code: self.code,
        })
    }
}

impl Filter {
    pub fn is_empty(&self) -> bool {
        *self == Filter::default()
    }

    /// Whether the type is selected (an empty selection selects every type).
    pub fn has_type(&self, t: &EventType) -> bool {
        self.types.is_empty() || self.types.contains(t)
    }

    /// Turns one type on or off. Turning off the last selected type selects every type again
    /// rather than showing nothing.
    pub fn toggle_type(&mut self, t: EventType) {
        if let Some(pos) = self.types.iter().position(|x| *x == t) {
            self.types.remove(pos);
        } else {
            self.types.push(t);
            self.types.sort();
        }
    }

    /// The query parameters the live API takes for this filter (repeated `type`, ids).
    pub fn api_params(&self) -> Vec<(&'static str, String)> {
        let mut params: Vec<(&'static str, String)> = self
            .types
            .iter()
            .map(|t| ("type", t.name().to_string()))
            .collect();
        for (name, value) in [
            ("room_id", &self.room),
            ("session_id", &self.session),
            ("peer_id", &self.peer),
            ("user_id", &self.user),
        ] {
            if let Some(v) = value {
                params.push((name, v.clone()));
            }
        }
        params
    }

    /// A short description for headers and messages, e.g. `type=join room=65af… terminal`.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        if !self.types.is_empty() {
            let names: Vec<&str> = self.types.iter().map(|t| t.alias()).collect();
            parts.push(format!("type={}", names.join(",")));
        }
        for (name, value) in [
            ("room", &self.room),
            ("session", &self.session),
            ("peer", &self.peer),
            ("user", &self.user),
        ] {
            if let Some(v) = value {
                parts.push(format!("{name}={v}"));
            }
        }
        match self.terminal {
            Some(true) => parts.push("final only".into()),
            Some(false) => parts.push("retried only".into()),
            None => {}
        }
        if let Some(code) = self.code {
            parts.push(format!("code={code}"));
        }
        if let Some(s) = &self.search {
            parts.push(format!("search=\"{s}\""));
        }
        if let Some(t) = &self.since {
            parts.push(format!("since={}", t.text));
        }
        if let Some(t) = &self.until {
            parts.push(format!("until={}", t.text));
        }
        if let Some(g) = &self.group {
            parts.push(format!("{}={}", g.key.name(), g.label));
        }
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join("  ")
        }
    }

    /// Resolves the filter against a store's strings, so that matching a row is integer work.
    pub fn compile(&self, store: &Store) -> Compiled {
        let strings = store.strings();
        // A value the store has never seen matches nothing: `Some(None)`.
        let sym = |v: &Option<String>| v.as_ref().map(|s| strings.lookup(s));
        Compiled {
            types: if self.types.is_empty() {
                None
            } else {
                Some(
                    self.types
                        .iter()
                        .filter_map(|t| strings.lookup(t.name()))
                        .collect(),
                )
            },
            room: sym(&self.room),
            session: sym(&self.session),
            peer: sym(&self.peer),
            user: sym(&self.user),
            terminal: self
                .terminal
                .map(|t| if t { TERMINAL_TRUE } else { TERMINAL_FALSE }),
            code: self.code,
            search: self
                .search
                .as_deref()
                .filter(|s| !s.is_empty())
                .map(|s| store.search_bits(&Needle::new(s))),
            since: self.since.as_ref().map(|t| t.nanos),
            until: self.until.as_ref().map(|t| t.nanos),
            group: self.group.as_ref().map(|g| (g.key, g.resolve(store))),
        }
    }
}

/// A filter resolved against one store's strings.
#[derive(Debug)]
pub struct Compiled {
    types: Option<Vec<Sym>>,
    room: Option<Option<Sym>>,
    session: Option<Option<Sym>>,
    peer: Option<Option<Sym>>,
    user: Option<Option<Sym>>,
    terminal: Option<u8>,
    code: Option<i64>,
    search: Option<SearchBits>,
    since: Option<i64>,
    until: Option<i64>,
    /// The group's key and value; a value of `None` matches nothing.
    group: Option<(GroupKey, Option<GroupValue>)>,
}

impl Compiled {
    /// Whether the search text is in event `i`'s description, for an event
    /// [`Compiled::matches_unread`] leaves undecided.
    pub fn in_description(&self, store: &Store, i: usize) -> bool {
        self.search
            .as_ref()
            .is_some_and(|search| search.in_description(store, i))
    }

    /// Asks for event `i`'s description to be fetched into the cache, ahead of
    /// [`Compiled::in_description`].
    pub fn fetch_description(&self, store: &Store, i: usize) {
        if let Some(search) = &self.search {
            search.fetch_description(store, i);
        }
    }

    /// Whether event `i` matches, answered from its row alone; `None` when the answer takes
    /// reading its description from the dump (it matches if and only if the search text is
    /// there).
    pub fn matches_unread(&self, store: &Store, i: usize) -> Option<bool> {
        let row = store.row(i);
        if let Some(types) = &self.types
            && !types.contains(&row.kind)
        {
            return Some(false);
        }
        for (want, have) in [
            (self.room, row.room_id),
            (self.session, row.session_id),
            (self.peer, row.peer_id),
            (self.user, row.user_id),
        ] {
            if let Some(want) = want
                && want != Some(have)
            {
                return Some(false);
            }
        }
        if let Some(t) = self.terminal
            && row.terminal != t
        {
            return Some(false);
        }
        if self.code.is_some() && row.error_code() != self.code {
            return Some(false);
        }
        if let Some(since) = self.since
            && (row.ts == NO_TIME || row.ts < since)
        {
            return Some(false);
        }
        if let Some(until) = self.until
            && (row.ts == NO_TIME || row.ts > until)
        {
            return Some(false);
        }
        if let Some((key, value)) = &self.group {
            match value {
                Some(v) if v.matches(*key, row) => {}
                _ => return Some(false),
            }
        }
        match &self.search {
            Some(search) => search.matches_unread(store, i),
            None => Some(true),
        }
    }
}

#[cfg(test)]
mod tests;
