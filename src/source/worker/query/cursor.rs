//! A cursor of a query: the part of the query it pages, where it stands, and when it stops
//! paging or asks its query again from the first page.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use crate::event::EventType;
use crate::filter::Filter;
use crate::source::api::FetchError;
use crate::source::merge::{Entry, EventKey};
use crate::source::worker::REPEATED_CURSOR;

/// Where a cursor stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum CursorState {
    /// More pages may come.
    Open,
    /// Its last page had an empty `next`.
    Ended,
    /// The untyped cursor once the typed cursors are shown to cover the query.
    Retired,
    /// A typed cursor no longer needed: the untyped cursor loads the query alone.
    Dropped,
    /// Failed for good; `retry`: asking again may pass (not so after a cursor that stopped
    /// paging: a repeated cursor, pages past the total, a run of empty pages).
    Failed { reason: String, retry: bool },
}

pub(super) struct Cursor {
    /// `None` for the query's own cursor; else the type added to the query's filter.
    pub(super) kind: Option<EventType>,
    pub(super) filter: Filter,
    /// `None` before the first page; then the last page's `next`.
    pub(super) next: Option<String>,
    /// The last page's `next` as the service gave it, kept where paging stopped on it, and
    /// while the query is asked again from its first page after the service refused it: a
    /// partial answer saved then says that more exist, with the cursor where its paging
    /// stopped (with none, and no total, it would read as whole).
    pub(super) given: String,
    pub(super) used: HashSet<String>,
    pub(super) total: Option<u64>,
    /// Events its pages brought, duplicates included.
    pub(super) received: u64,
    /// Pages in a row, up to the last, that were sparse (see [`SPARSE_RUN`]) while promising more.
    pub(super) sparse_run: u32,
    /// Pages its run read: from its first page, or from the first page it was asked for again.
    pub(super) run: u64,
    /// Set when the service refused the cursor and its query was asked again from its first
    /// page: how many pages the refused run had read. Until the new run reads past them, a
    /// refusal of its cursor stops it, so that a service refusing every cursor is not asked
    /// for the same pages over and over.
    pub(super) restarted: Option<u64>,
    /// Copies of the events read before the query was asked again, handed on as they came (one
    /// cursor, nothing merged): as many copies of each in the new run's pages are read again,
    /// not new, and are not handed on twice.
    pub(super) owed: HashMap<EventKey, u32>,
    pub(super) busy: bool,
    /// Why the request on its way was last retried, if it was: set by the request as it
    /// retries, cleared as it lands.
    pub(super) retrying: Arc<Mutex<Option<String>>>,
    pub(super) state: CursorState,
}

impl Cursor {
    pub(super) fn new(kind: Option<EventType>, filter: Filter) -> Cursor {
        Cursor {
            kind,
            filter,
            next: None,
            given: String::new(),
            used: HashSet::new(),
            total: None,
            received: 0,
            sparse_run: 0,
            run: 0,
            restarted: None,
            owed: HashMap::new(),
            busy: false,
            retrying: Arc::default(),
            state: CursorState::Open,
        }
    }

    pub(super) fn may_ask(&self) -> bool {
        !self.busy && self.state == CursorState::Open
    }

    /// The part of the query this cursor loads, as a message names it: "the query", or "the
    /// join events" for a typed cursor.
    pub(super) fn part(&self) -> String {
        match &self.kind {
            None => "the query".into(),
            Some(t) => format!("the {} events", t.name()),
        }
    }

    /// What a failure of this cursor's load is said to have stopped: "loading the query".
    pub(super) fn label(&self) -> String {
        format!("loading {}", self.part())
    }

    /// Whether asking the query again from its first page may get past `error`: the request
    /// carried a cursor, and the service refused it with a 4xx that is not about the token,
    /// the address or the rate (the query itself was accepted before, so the cursor is what
    /// changed: expired, or from a server that restarted), for the first time since the cursor's
    /// run began or got past the pages of the run it replaced.
    pub(super) fn may_restart(&self, error: &FetchError) -> bool {
        let refused = error
            .status()
            .is_some_and(|s| (400..500).contains(&s) && !matches!(s, 401 | 403 | 404 | 429));
        refused
            && self.state == CursorState::Open
            && self.restarted.is_none()
            && self.next.as_deref().is_some_and(|n| !n.is_empty())
    }

    /// Starts the cursor's run again from its first page, the refused run having read `run`
    /// pages. Its `given` stays until the new run's first page replaces it.
    pub(super) fn restart(&mut self) {
        self.restarted = Some(self.run);
        self.run = 0;
        self.next = None;
        self.used.clear();
        self.received = 0;
        self.sparse_run = 0;
    }

    /// Notes a page its run read: past the pages of a refused run, the run is a new one.
    pub(super) fn read_page(&mut self) {
        self.run += 1;
        if self.restarted.is_some_and(|before| self.run > before) {
            self.restarted = None;
        }
    }

    /// Takes out of `entries` the copies of events read before the query was asked again.
    pub(super) fn drop_owed(&mut self, entries: &mut Vec<Entry>) {
        if self.owed.is_empty() {
            return;
        }
        entries.retain(|e| match self.owed.get_mut(&e.key) {
            Some(n) => {
                *n -= 1;
                if *n == 0 {
                    self.owed.remove(&e.key);
                }
                false
            }
            None => true,
        });
    }
}

/// A cursor stops after this many pages in a row that each held under a tenth of the events asked
/// for (none at all, most often) while saying more follow: a service that has more fills its
/// pages, and one that keeps handing fresh cursors over empty pages would be paged forever.
const SPARSE_RUN: u32 = 10;

/// Why a cursor stops paging though its page gave a next cursor, if it must.
pub(super) fn paging_stops(
    cursor: &Cursor,
    next: &str,
    repeated: bool,
    asked: u32,
) -> Option<String> {
    if repeated {
        return Some(REPEATED_CURSOR.into());
    }
    if next.is_empty() {
        return None;
    }
    // Overlapping pages and events that arrive while paging may pass the total by a little; a
    // page's worth more is past anything but a service paging on and on.
    if let Some(total) = cursor.total
        && cursor.received > total + u64::from(asked)
    {
        return Some(format!(
            "the server sent {} events where its total says {total}, and still gave a next page; paging stopped instead of going on",
            cursor.received
        ));
    }
    (cursor.sparse_run >= SPARSE_RUN).then(|| {
        format!(
            "the server sent {SPARSE_RUN} pages in a row with (almost) none of the {asked} events asked for, and still gave a next page; paging stopped instead of going on"
        )
    })
}
