//! A filter run over the store's rows: its [`Plan`] with strings as the store's symbols, so that
//! matching a row is integer work, and the text search answered from the search index.

use super::{NO_TIME, Needle, Row, SearchBits, Store, Sym, TERMINAL_FALSE, TERMINAL_TRUE};
use crate::event::Field;
use crate::filter::{Filter, Plan, Record};

impl Row {
    /// The symbol of a string field (`Sym::NONE` when absent, and for the number `error_code`).
    pub fn text(&self, field: Field) -> Sym {
        match field {
            Field::Room => self.room_id,
            Field::Session => self.session_id,
            Field::Peer => self.peer_id,
            Field::User => self.user_id,
            Field::Type => self.kind,
            Field::Code => Sym::NONE,
            Field::ErrorName => self.error_name,
            Field::Action => self.action,
            Field::RoomName => self.room_name,
            Field::UserName => self.user_name,
            Field::Role => self.role,
            Field::Domain => self.domain,
            Field::Sdk => self.sdk,
            Field::SdkVersion => self.sdk_version,
            Field::Os => self.os,
            Field::OsVersion => self.os_version,
            Field::Device => self.device_model,
            Field::Env => self.env,
        }
    }
}

/// A filter resolved against one store's strings.
#[derive(Debug)]
pub struct Query {
    plan: Plan<Sym>,
    search: Option<SearchBits>,
}

/// A row as the plan reads it.
struct RowRecord<'a> {
    store: &'a Store,
    i: usize,
    row: &'a Row,
    search: Option<&'a SearchBits>,
}

impl Record for RowRecord<'_> {
    type Text = Sym;

    fn text(&self, field: Field) -> Option<Sym> {
        let sym = self.row.text(field);
        (!sym.is_none()).then_some(sym)
    }

    fn number(&self, field: Field) -> Option<i64> {
        match field {
            Field::Code => self.row.error_code(),
            _ => None,
        }
    }

    fn terminal(&self) -> Option<bool> {
        match self.row.terminal {
            TERMINAL_TRUE => Some(true),
            TERMINAL_FALSE => Some(false),
            _ => None,
        }
    }

    fn time(&self) -> Option<i64> {
        (self.row.ts != NO_TIME).then_some(self.row.ts)
    }

    fn has_search_text(&self) -> Option<bool> {
        self.search
            .map_or(Some(true), |s| s.matches_unread(self.store, self.i))
    }
}

impl Query {
    pub fn new(store: &Store, filter: &Filter) -> Query {
        let strings = store.strings();
        let plan = Plan::new(filter, |s| strings.lookup(s));
        let search = plan.search().map(|s| store.search_bits(&Needle::new(s)));
        Query { plan, search }
    }

    /// Whether event `i` matches, answered from its row alone; `None` when the answer takes
    /// reading its description from the dump (it matches if and only if the search text is
    /// there).
    pub fn matches_unread(&self, store: &Store, i: usize) -> Option<bool> {
        self.plan.matches(&RowRecord {
            store,
            i,
            row: store.row(i),
            search: self.search.as_ref(),
        })
    }

    /// Whether the search text is in event `i`'s description, for an event
    /// [`Query::matches_unread`] leaves undecided.
    pub fn in_description(&self, store: &Store, i: usize) -> bool {
        self.search
            .as_ref()
            .is_some_and(|search| search.in_description(store, i))
    }

    /// Asks for event `i`'s description to be fetched into the cache, ahead of
    /// [`Query::in_description`].
    pub fn fetch_description(&self, store: &Store, i: usize) {
        if let Some(search) = &self.search {
            search.fetch_description(store, i);
        }
    }
}
