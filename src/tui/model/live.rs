//! The live query's state and follow mode's: what the header says of them, and what `update`
//! needs to drop the reports of older queries and to mark new events.

use crate::source::worker::InFlight;
use crate::tui::rooms_used::UsedRoom;

/// The live query's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Live {
    pub url: String,
    /// The id of the current query; reports of older queries are dropped.
    pub query: u64,
    /// The last page's `next`: `None` before the first page, `Some("")` at the end. It says
    /// only whether more pages follow: with one cursor per type, it may be any cursor's.
    pub next: Option<String>,
    /// The service's cursor of the query where its own paging stopped, as the fetch task's
    /// last tally says it: what a saved part of the answer carries (empty when none is known).
    pub cursor: String,
    pub total: Option<u64>,
    pub pages: usize,
    pub fetch: Fetch,
    pub loading_all: bool,
    /// Whether the query is a follow mode refresh, which fetches again what is loaded.
    pub refresh: bool,
    /// Whether every page of the query was loaded once: only then are the events a refresh
    /// adds new ones, rather than old ones never loaded.
    pub complete: bool,
    /// Events that follow mode's refreshes fetched again, already loaded: the store counts
    /// them among the duplicates it dropped, which they are not.
    pub refetched: usize,
    /// A new query runs while the old one's events stay on screen: its first answer replaces
    /// them.
    pub replacing: bool,
    /// Where the user was when the new query's answer replaced the old events, while the
    /// selected event has not been found again among the pages that came (its id is looked for
    /// in each new page until it is found or the user moves).
    pub pending: Option<super::Place>,
    /// A query without a room was asked for and not sent (the API answers queries of one room
    /// only), or a room's name was given that no loaded event has: the room prompt opens at the
    /// end of the update, looking the name up if one is given.
    pub ask_room: Option<String>,
    /// The rooms used before, every API's, newest first (see [`crate::tui::rooms_used`]).
    pub rooms_used: Vec<UsedRoom>,
    /// The room whose loaded events were last remembered: each room is remembered once a run.
    pub remembered: Option<String>,
    /// The room last chosen in the prompt and the name it was chosen by, for remembering it
    /// when its events do not name it.
    pub chosen: Option<(String, Option<String>)>,
    /// The time as the runtime last told it: what the header's waits and countdowns count
    /// from.
    pub clock: Clock,
    /// The requests of the query on their way, as the fetch task last reported them.
    pub requests: Vec<InFlight>,
}

/// A moment, on the monotonic clock (for waits) and the wall clock (for dates).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    pub at: std::time::Instant,
    /// Seconds since the epoch.
    pub unix: i64,
}

impl Clock {
    pub fn now() -> Clock {
        Clock {
            at: std::time::Instant::now(),
            unix: chrono::Utc::now().timestamp(),
        }
    }
}

impl Live {
    pub fn new(url: String) -> Live {
        Live {
            url,
            query: 0,
            next: None,
            cursor: String::new(),
            total: None,
            pages: 0,
            fetch: Fetch::Idle,
            loading_all: false,
            refresh: false,
            complete: false,
            refetched: 0,
            replacing: false,
            pending: None,
            ask_room: None,
            rooms_used: Vec::new(),
            remembered: None,
            chosen: None,
            clock: Clock::now(),
            requests: Vec::new(),
        }
    }

    /// Why the load failed, while it stands failed.
    pub fn failure(&self) -> Option<&str> {
        match &self.fetch {
            Fetch::Failed(message) => Some(message),
            _ => None,
        }
    }

    /// Whether a further page exists and nothing is in flight or failed.
    pub fn can_fetch_more(&self) -> bool {
        self.fetch == Fetch::Idle && self.next.as_deref().is_some_and(|n| !n.is_empty())
    }
}

/// What the live fetch is doing, as the header says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetch {
    Idle,
    Fetching {
        page: usize,
    },
    Retrying {
        attempt: u32,
        wait_secs: u64,
        /// When the request is given up if it keeps failing: the header counts down to it.
        gives_up: std::time::Instant,
        reason: String,
        /// When the wait ends (the countdown's end).
        until: std::time::Instant,
        /// The server asked for the wait (a rate limit), rather than the client backing off.
        asked: bool,
    },
    Done,
    Failed(String),
    /// The filter names no room, so no query was sent.
    NoRoom,
}

/// Follow mode: the query runs again every `every`, longer after failures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Follow {
    pub every: std::time::Duration,
    /// Failed refreshes in a row: each doubles the wait, up to a few minutes.
    pub failures: u32,
    /// Events that arrived since follow mode started (once the query was loaded whole).
    pub new_events: usize,
    /// Store indices from here on arrived with a refresh ("new").
    pub new_from: Option<usize>,
    /// A refresh is running: its pages add to what is loaded instead of replacing it.
    pub refreshing: bool,
}

impl Follow {
    pub fn new(every: std::time::Duration) -> Follow {
        Follow {
            every,
            failures: 0,
            new_events: 0,
            new_from: None,
            refreshing: false,
        }
    }

    /// The wait before the next refresh.
    pub fn wait(&self) -> std::time::Duration {
        let backoff = self.every.saturating_mul(1 << self.failures.min(4));
        backoff.min(std::time::Duration::from_secs(300).max(self.every))
    }
}
