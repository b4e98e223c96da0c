//! The live fetch task: commands in, events out, one request in flight per query.
//!
//! Every event carries the id of the query it belongs to; the receiver drops what belongs to an
//! older query. Retries (connection errors, timeouts, 429, 5xx) back off exponentially with jitter
//! and are reported as they happen.

use std::collections::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;

use super::api::{Api, FetchError, Page};
use super::token::TokenSource;
use crate::filter::Filter;

/// Tries per request, the first included.
pub const MAX_ATTEMPTS: u32 = 5;
const BACKOFF_BASE: Duration = Duration::from_secs(1);
const BACKOFF_CAP: Duration = Duration::from_secs(30);
/// A server's `Retry-After` is honoured up to this long.
const RETRY_AFTER_CAP: Duration = Duration::from_secs(300);

/// What the worker is asked to do.
#[allow(clippy::large_enum_variant)] // a few commands a second: boxing the filter buys nothing
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Start a new query (dropping any request of an older one) and fetch its first page.
    Query { id: u64, filter: Filter },
    /// Fetch the next page of the query, unless one is in flight or there is none.
    NextPage { id: u64 },
    /// Fetch every remaining page back to back.
    LoadAll { id: u64 },
    /// Stop loading everything (the page in flight still arrives).
    Stop { id: u64 },
}

/// A retry about to happen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Retry {
    /// The attempt that will be made after the wait (2 for the first retry).
    pub attempt: u32,
    pub of: u32,
    pub wait: Duration,
    pub reason: String,
}

/// What the worker reports. `query` is the id of the query it belongs to.
#[derive(Debug)]
pub enum Report {
    /// A request for page `page` (1-based) is on its way.
    Fetching {
        query: u64,
        page: usize,
    },
    Retrying {
        query: u64,
        retry: Retry,
    },
    Page {
        query: u64,
        page: Page,
    },
    /// The query has no more pages.
    Finished {
        query: u64,
    },
    /// A request failed for good; what was loaded stays.
    Failed {
        query: u64,
        message: String,
    },
}

/// Backoff before attempt `attempt` (2 for the first retry): 1 s, 2 s, 4 s... capped, times a
/// random factor in [0.5, 1] so that many clients do not retry in step; a server's
/// `Retry-After` wins.
pub fn backoff(attempt: u32, retry_after: Option<Duration>) -> Duration {
    if let Some(ra) = retry_after {
        return ra.min(RETRY_AFTER_CAP);
    }
    let exp = BACKOFF_BASE.saturating_mul(1u32 << attempt.saturating_sub(2).min(16));
    let capped = exp.min(BACKOFF_CAP);
    capped.mul_f64(0.5 + rand::random::<f64>() * 0.5)
}

/// Fetches one page, retrying what may pass. A minted token refused with 401 is re-minted once.
pub async fn fetch_with_retries(
    api: &Api,
    tokens: &Mutex<TokenSource>,
    filter: &Filter,
    start: Option<&str>,
    mut on_retry: impl FnMut(Retry),
) -> Result<Page, FetchError> {
    let mut reminted = false;
    let mut attempt = 1;
    loop {
        let token = {
            let mut tokens = tokens.lock().unwrap_or_else(|e| e.into_inner());
            tokens
                .bearer(chrono::Utc::now().timestamp())
                .map_err(FetchError::Network)?
        };
        let error = match api.fetch(&token, filter, start).await {
            Ok(page) => return Ok(page),
            Err(e) => e,
        };
        if let FetchError::Status { status: 401, .. } = error {
            let mut tokens = tokens.lock().unwrap_or_else(|e| e.into_inner());
            if !reminted && matches!(*tokens, TokenSource::Minted { .. }) {
                tracing::info!("the server refused the minted token; minting a new one");
                tokens.invalidate();
                reminted = true;
                continue;
            }
        }
        if !error.is_retryable() || attempt >= MAX_ATTEMPTS {
            tracing::warn!(attempts = attempt, error = %error.describe(), "giving up on the request");
            return Err(error);
        }
        attempt += 1;
        let retry_after = match &error {
            FetchError::Status { retry_after, .. } => *retry_after,
            _ => None,
        };
        let wait = backoff(attempt, retry_after);
        tracing::warn!(
            attempt,
            of = MAX_ATTEMPTS,
            wait_ms = wait.as_millis() as u64,
            reason = %error.describe(),
            "retrying"
        );
        on_retry(Retry {
            attempt,
            of: MAX_ATTEMPTS,
            wait,
            reason: error.describe(),
        });
        tokio::time::sleep(wait).await;
    }
}

struct QueryState {
    id: u64,
    filter: Filter,
    /// `None` before the first page; then the last page's `next` ("" at the end).
    next: Option<String>,
    used: HashSet<String>,
    pages: usize,
    load_all: bool,
}

type Flight = Pin<Box<dyn Future<Output = (u64, Result<Page, FetchError>)> + Send>>;

/// Starts the worker on the current tokio runtime. Dropping the command sender stops it.
pub fn spawn(
    api: Api,
    tokens: TokenSource,
    reports: mpsc::UnboundedSender<Report>,
) -> mpsc::UnboundedSender<Command> {
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(run(api, Arc::new(Mutex::new(tokens)), rx, reports));
    tx
}

async fn run(
    api: Api,
    tokens: Arc<Mutex<TokenSource>>,
    mut commands: mpsc::UnboundedReceiver<Command>,
    reports: mpsc::UnboundedSender<Report>,
) {
    let mut state: Option<QueryState> = None;
    let mut flight: Option<Flight> = None;
    loop {
        tokio::select! {
            command = commands.recv() => {
                let Some(command) = command else { return };
                match command {
                    Command::Query { id, filter } => {
                        // Dropping the future cancels the older query's request.
                        flight = None;
                        state = Some(QueryState { id, filter, next: None, used: HashSet::new(), pages: 0, load_all: false });
                    }
                    Command::NextPage { id } => {
                        if state.as_ref().is_none_or(|s| s.id != id) {
                            continue;
                        }
                    }
                    Command::LoadAll { id } => match state.as_mut().filter(|s| s.id == id) {
                        Some(s) => s.load_all = true,
                        None => continue,
                    },
                    Command::Stop { id } => {
                        if let Some(s) = state.as_mut().filter(|s| s.id == id) {
                            s.load_all = false;
                        }
                        continue;
                    }
                }
                if flight.is_none() && let Some(s) = state.as_mut() {
                    flight = start(&api, &tokens, s, &reports);
                }
            }
            (id, result) = async { flight.as_mut().expect("guarded by the select condition").await }, if flight.is_some() => {
                flight = None;
                let Some(s) = state.as_mut().filter(|s| s.id == id) else { continue };
                match result {
                    Ok(page) => {
                        s.pages += 1;
                        let next = page.next.clone();
                        let _ = reports.send(Report::Page { query: id, page });
                        if next.is_empty() {
                            s.next = Some(String::new());
                            s.load_all = false;
                            let _ = reports.send(Report::Finished { query: id });
                        } else if !s.used.insert(next.clone()) {
                            s.next = Some(String::new());
                            s.load_all = false;
                            let _ = reports.send(Report::Failed {
                                query: id,
                                message: "the server sent a next cursor already used in this query; paging stopped instead of looping".into(),
                            });
                        } else {
                            s.next = Some(next);
                            if s.load_all {
                                flight = start(&api, &tokens, s, &reports);
                            }
                        }
                    }
                    Err(e) => {
                        s.load_all = false;
                        let _ = reports.send(Report::Failed { query: id, message: e.describe() });
                    }
                }
            }
        }
    }
}

/// Starts the request for the query's next page, if it has one.
fn start(
    api: &Api,
    tokens: &Arc<Mutex<TokenSource>>,
    s: &mut QueryState,
    reports: &mpsc::UnboundedSender<Report>,
) -> Option<Flight> {
    let start = match &s.next {
        None => None,
        Some(n) if n.is_empty() => return None,
        Some(n) => Some(n.clone()),
    };
    let id = s.id;
    let _ = reports.send(Report::Fetching {
        query: id,
        page: s.pages + 1,
    });
    let api = api.clone();
    let tokens = Arc::clone(tokens);
    let filter = s.filter.clone();
    let reports = reports.clone();
    Some(Box::pin(async move {
        let result = fetch_with_retries(&api, &tokens, &filter, start.as_deref(), |retry| {
            let _ = reports.send(Report::Retrying { query: id, retry });
        })
        .await;
        (id, result)
    }))
}
