//! A page of events as the events endpoint sends it: `{"limit", "total", "next", "events"}`.

use std::sync::Arc;

use super::FetchError;
use crate::source::dump;
use crate::source::merge::Entry;
use crate::store::{Batch, BatchBuilder, Blob};

/// A page that arrived.
#[derive(Debug)]
pub struct Page {
    /// Boxed: a batch is large to move through the channels that carry a page.
    pub batch: Box<Batch>,
    pub next: String,
    pub total: Option<u64>,
}

/// A page as it arrived: its body and each event's place in it. Every event has been read once,
/// so [`Fetched::into_page`] cannot meet a bad one; the pages of several cursors are merged from
/// the entries without it.
pub struct Fetched {
    pub blob: Arc<Blob>,
    pub entries: Vec<Entry>,
    pub next: String,
    pub total: Option<u64>,
}

impl std::fmt::Debug for Fetched {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Fetched")
            .field("events", &self.entries.len())
            .field("next", &self.next)
            .field("total", &self.total)
            .finish()
    }
}

impl Fetched {
    /// The page, its events in a batch over the body.
    pub fn into_page(self) -> Page {
        let mut builder = BatchBuilder::new(Arc::clone(&self.blob));
        for e in &self.entries {
            if let Err(error) = builder.push(e.start, e.end) {
                tracing::error!(%error, "an event that was read once could not be read again");
            }
        }
        Page {
            batch: Box::new(builder.finish()),
            next: self.next,
            total: self.total,
        }
    }
}

/// Reads a 200 body: an envelope whose events go into a batch. Anything else is a bad page, so
/// that what was loaded before is kept and the user is told.
pub fn parse_page(body: Vec<u8>) -> Result<Page, FetchError> {
    parse_fetched(body).map(Fetched::into_page)
}

/// Reads a 200 body as [`parse_page`] does, keeping where each event is.
pub fn parse_fetched(body: Vec<u8>) -> Result<Fetched, FetchError> {
    #[derive(serde::Deserialize)]
    struct Head<'a> {
        #[serde(default)]
        next: Option<String>,
        #[serde(default)]
        total: Option<serde_json::Value>,
        #[serde(borrow)]
        events: &'a serde_json::value::RawValue,
    }
    let (next, total) = {
        let head: Head = serde_json::from_slice(&body).map_err(|e| {
            let what = if e.is_eof() {
                "it ends too early"
            } else {
                "invalid JSON"
            };
            FetchError::BadPage(format!("{what} at line {} column {}", e.line(), e.column()))
        })?;
        if !head.events.get().starts_with('[') {
            return Err(FetchError::BadPage(
                "its events field is not an array".into(),
            ));
        }
        (
            head.next.unwrap_or_default(),
            head.total.and_then(|t| t.as_u64()),
        )
    };
    let blob = Arc::new(Blob::Owned(body));
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    dump::scan(
        &blob,
        &mut |s, e| {
            entries.push(Entry::read(&blob, s, e)?);
            Ok(())
        },
        &mut errors,
    );
    if let Some(e) = errors.first() {
        return Err(FetchError::BadPage(e.message.clone()));
    }
    Ok(Fetched {
        blob,
        entries,
        next,
        total,
    })
}
