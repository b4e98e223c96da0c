//! How far a query's load got: reported after each page and as it ends, finished or failed, so
//! that a partial answer can say what it holds and what it lacks, and be saved with the service's
//! own total and cursor rather than as if it were whole.

/// How far a query's load got.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// The query's total, as the service said it last (a count taken after the typed cursors'
    /// totals wins over the query's own pages').
    pub total: Option<u64>,
    /// The service's cursor of the query where its own paging stopped: asked with it, the
    /// service gives the rest of the query (with what was loaded, all of it) for as long as the
    /// cursor lives, 24 hours after the first query. Kept when the service refused it and the
    /// query is asked again from its first page, until a page of the new run replaces it. Empty
    /// when the query's own cursor reached its end, or holds no cursor the service gave.
    pub next: String,
    /// Whether the pages came newest first (`Some(false)`: oldest first; `None`: not known, or
    /// in no order of time). A part whose loading stopped holds its newest events when so.
    pub newest_first: Option<bool>,
    /// The types that had cursors of their own, in the order they started (none when the query
    /// was loaded by its own cursor alone).
    pub types: Vec<TypeTally>,
    /// Failures that no longer mattered: every event of the query arrived all the same.
    pub redundant: Vec<String>,
}

/// How far the events of one type were loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeTally {
    /// The type's name: `client.join.failed`.
    pub kind: String,
    /// The service's total of the query's events of the type, once its cursor read a page.
    pub total: Option<u64>,
    /// Events of the type that arrived, through any cursor, each once.
    pub arrived: u64,
    /// Whether every event of the type arrived: its cursor reached its end, or the other
    /// cursors brought as many as its total.
    pub whole: bool,
}
