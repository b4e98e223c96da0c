//! A filter run over the store's rows: its [`Plan`] with strings as the store's symbols, so that
//! matching a row is integer work, and the text search answered from the search index.

use super::brief::Sieve;
use super::{NO_TIME, Needle, Row, SearchBits, Store, Sym};
use crate::event::Field;
use crate::filter::{Filter, Plan, Record};

impl Store {
    /// The symbol of a string field of `row`, one of this store's (`Sym::NONE` when absent,
    /// and for the number `error_code`).
    pub fn text(&self, row: &Row, field: Field) -> Sym {
        match field {
            Field::Room => row.room_id,
            Field::Session => row.session_id,
            Field::Peer => row.peer_id,
            Field::User => row.user_id,
            Field::Type => row.kind,
            Field::Code => Sym::NONE,
            Field::ErrorName => row.error_name,
            Field::Action => row.action,
            Field::RoomName => row.room_name,
            Field::UserName => row.user_name,
            Field::Role => row.role,
            Field::Domain => row.domain,
            Field::Sdk => self.agent(row).sdk,
            Field::SdkVersion => self.agent(row).sdk_version,
            Field::Os => self.agent(row).os,
            Field::OsVersion => self.agent(row).os_version,
            Field::Device => self.agent(row).device_model,
            Field::Env => self.agent(row).env,
        }
    }
}

/// A filter resolved against one store's strings.
#[derive(Debug)]
pub struct Query {
    plan: Plan<Sym>,
    search: Option<SearchBits>,
    /// What each row's type and `is_terminal` byte says, when the plan asks about either.
    sieve: Option<Sieve>,
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
        let sym = self.store.text(self.row, field);
        (!sym.is_none()).then_some(sym)
    }

    fn number(&self, field: Field) -> Option<i64> {
        match field {
            Field::Code => self.row.error_code(),
            _ => None,
        }
    }

    fn terminal(&self) -> Option<bool> {
        self.row.is_terminal()
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
        let sieve = Sieve::of(&plan, &store.briefs);
        Query {
            plan,
            search,
            sieve,
        }
    }

    /// The verdicts of each row's type and `is_terminal` byte, when the plan asks about
    /// either: a row ruled out there need not be read, and one ruled in matches (see
    /// [`Sieve`]).
    pub(super) fn sieve(&self) -> Option<&Sieve> {
        self.sieve.as_ref()
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
