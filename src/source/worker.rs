//! The live fetch task: commands in, events out, at most one request in flight per cursor.
//!
//! Every report carries the id of the query it belongs to; the receiver drops what belongs to an
//! older query, and a new query drops every request of the older one. Retries (connection
//! errors, timeouts, 429, 5xx) are bounded by time, not by a count: without a stated wait they
//! back off exponentially with jitter for [`RETRY_FOR`]; a wait the server states (`Retry-After`
//! in seconds or as a date, or in its words) is honoured, and waits keep being honoured for
//! [`WAIT_FOR`], so that loading everything goes on through a rate limit of a minute or more
//! (the longest time for retries a failure of the request gave stands). A stated wait holds
//! back every request of the worker, not only the one that was refused, and is never cut: one
//! that would end past the time for retries gives the request up at once, in the server's
//! words, rather than send a request sure to be refused; a request held back by another's
//! wait past its own time for retries is given up then, in words that say so. Each retry is
//! reported as it happens, with the instant the request is given up: the last backoff is cut
//! to the time left, and a try still running when the time is up is cut there, so that no try
//! begins after it and the countdown ends when it said; the last try, begun as the time is up,
//! runs its course.
//!
//! A query pages through one cursor: the first page when it starts, the next one when asked.
//! "Load everything" asks for each page the instant the previous one arrives. When the query names
//! no type, "load everything" also runs one cursor per event type in parallel (the API takes
//! `type`), which divides the wall time by up to the number of types (the largest type's pages
//! set the pace):
//!
//! - The typed cursors start once the query's first page has come and shown that more follow:
//!   a query of one page costs no extra request. They are the five known types plus every other
//!   type (track, recording...) seen on the query's pages, so far as [`MAX_TYPED_CURSORS`] allows.
//! - The query's own cursor keeps paging beside them until it is proven redundant: once every
//!   typed cursor has reported its `total`, a fresh first page of the query (the census) is asked
//!   for; when its `total` equals the sum of the typed totals, no event of another type exists
//!   and the untyped cursor stops. Totals only grow while events arrive, and the census is taken
//!   after the typed totals, so equality means that every event of the query's snapshot is of a
//!   covered type. (An event leaving the 30-day retention window in that very moment is the one
//!   exception, and it would be gone a moment later anyway.) Without equality (a type not seen
//!   yet, or a service that gives no totals) the untyped cursor pages to the end, so nothing is
//!   ever lost: at worst the wall time is that of one cursor.
//! - The pages are merged by time ([`Merge`](super::merge::Merge)) so that the events are
//!   reported in the order one cursor would have given them, without duplicates. Should the
//!   pages show that the service does not order by time, no merge can give its order: the typed
//!   cursors are dropped and the untyped cursor loads the rest alone (again, nothing is lost).
//! - A cursor that fails for good is reported once the others are done; what they loaded stays,
//!   and "load everything" again retries it from where it stopped. If the untyped cursor reaches
//!   its end, it alone has covered the query, and a typed cursor's failure no longer matters.
//!   A query loaded in full all the same reports every failure on the way (the untyped
//!   cursor's before or after the census retired it, a typed cursor's, and a request still
//!   being retried, dropped as the query ends) in its [`Tally`]'s `redundant`.
//! - "Load next page" (lazy paging) stays on one cursor until "load everything" fans out; after
//!   a stop, it asks each cursor the merge waits on for its next page.
//!
//! A cursor the service refuses with a 4xx other than 401, 403, 404 and 429 (one past its
//! expiry, 24 hours after the first query, or one of a server that restarted) is not the
//! query's fault, which the service accepted before: that cursor's part of the query is asked
//! again from its first page, and this is reported. Nothing is reported twice: the merge hands
//! on no event twice, and with one cursor the copies of the events read before are left out of
//! the new pages. Should the new run's cursor be refused before it read past the pages of the
//! refused one, it fails as any request does, rather than asking for the same pages for ever.

mod query;
mod tally;

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::task::Poll;
use std::time::Duration;

use tokio::sync::mpsc;

use super::api::{Api, FetchError, Fetched, Page};
use super::token::{Token, TokenSource};
use crate::filter::Filter;
use query::{QueryState, Slot};
pub use tally::{Tally, TypeTally};

/// A request that fails without the server stating a wait is retried, backing off, until this
/// long has passed since it first failed.
pub const RETRY_FOR: Duration = Duration::from_secs(3 * 60);
/// A request the server asks to wait (429, 503 with a stated wait) is retried after each wait
/// until this long has passed since it first failed.
pub const WAIT_FOR: Duration = Duration::from_secs(30 * 60);
const BACKOFF_BASE: Duration = Duration::from_secs(1);
const BACKOFF_CAP: Duration = Duration::from_secs(30);
/// Typed cursors "load everything" runs at most: the five known types and a few others. Types
/// beyond are still loaded, by the untyped cursor.
pub const MAX_TYPED_CURSORS: usize = 12;

/// Why a try still running when the time for retrying its request was up ended.
const RETRIES_UP: &str = "timed out (the time for retries was up while a try ran)";

const REPEATED_CURSOR: &str =
    "the server sent a next cursor already used in this query; paging stopped instead of looping";

/// Whether "load everything" of a query without a type runs one cursor per type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fanout {
    /// One cursor for every query.
    Single,
    /// One cursor per type, in parallel, when the query names no type.
    PerType,
}

/// What the worker is asked to do.
#[allow(clippy::large_enum_variant)] // a few commands a second: boxing the filter buys nothing
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Start a new query (dropping any request of an older one) and fetch its first page.
    Query { id: u64, filter: Filter },
    /// Fetch the next page of the query, unless one is in flight or there is none.
    NextPage { id: u64 },
    /// Fetch every remaining page back to back (after a failure: try again).
    LoadAll { id: u64 },
    /// Stop loading everything (what is in flight still arrives).
    Stop { id: u64 },
}

/// A request on its way: the part of the query it loads, and since when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InFlight {
    /// "the client.join.failed events", "the error events (error=true)"...
    pub part: String,
    pub since: std::time::Instant,
}

/// A retry about to happen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Retry {
    /// The attempt that will be made after the wait (2 for the first retry).
    pub attempt: u32,
    pub wait: Duration,
    /// Whether the server asked for the wait (a rate limit), rather than the client backing off.
    pub asked: bool,
    /// When the request is given up if it keeps failing: no try begins after it, and the try
    /// begun as it comes is the last. One instant for every retry of the request, later only
    /// where a stated wait gave more time for retries.
    pub gives_up_at: std::time::Instant,
    pub reason: String,
    /// When the wait began.
    pub at: std::time::Instant,
}

impl Retry {
    /// When the wait ends and the next try begins.
    pub fn until(&self) -> std::time::Instant {
        self.at + self.wait
    }

    /// When the request is given up, in words said as the wait begins (see
    /// [`giving_up_words`]).
    pub fn giving_up(&self) -> String {
        giving_up_words(self.at, self.until(), self.gives_up_at)
    }
}

/// When a request that keeps failing is given up, said at `now`: "gives up 55 s from now",
/// "gives up 3 min from now" (to the nearest minute from two on); "the last" where the try
/// that begins at `next_try` is the last one (it begins as the time for retries is up).
pub fn giving_up_words(
    now: std::time::Instant,
    next_try: std::time::Instant,
    gives_up_at: std::time::Instant,
) -> String {
    if next_try >= gives_up_at || now >= gives_up_at {
        return "the last".to_string();
    }
    let secs = (gives_up_at - now).as_secs_f64().ceil() as u64;
    match secs {
        0..120 => format!("gives up {secs} s from now"),
        _ => format!("gives up {} min from now", (secs + 30) / 60),
    }
}

/// The failures of a query's parts, each `(part, reason)`, a part being the type its cursor
/// loads (`None` for the query's own cursor), in words with each reason said once: after the
/// first part it stopped, with the others it stopped named after it ("loading the query: HTTP
/// 401: …; the same failure stopped loading the client.join.failed and client.publish.failed
/// events").
pub fn failures_once(failures: &[(Option<&str>, String)]) -> String {
    // Each reason, in the order first said, with the parts it stopped.
    let mut reasons: Vec<(&str, Vec<Option<&str>>)> = Vec::new();
    for (part, reason) in failures {
        match reasons.iter_mut().find(|(r, _)| r == reason) {
            Some((_, parts)) => parts.push(*part),
            None => reasons.push((reason, vec![*part])),
        }
    }
    let said: Vec<String> = reasons
        .iter()
        .map(|(reason, parts)| {
            let first = format!("loading {}: {reason}", parts_words(&parts[..1]));
            match &parts[1..] {
                [] => first,
                others => format!(
                    "{first}; the same failure stopped loading {}",
                    parts_words(others)
                ),
            }
        })
        .collect();
    said.join("; ")
}

/// Parts of a query in words, each a type or the query (`None`): "the query and the
/// client.join.failed and client.publish.failed events".
fn parts_words(parts: &[Option<&str>]) -> String {
    let types: Vec<&str> = parts.iter().flatten().copied().collect();
    let types = match types.as_slice() {
        [] => None,
        [one] => Some(format!("the {one} events")),
        [all @ .., last] => Some(format!("the {} and {last} events", all.join(", "))),
    };
    match (parts.contains(&None), types) {
        (true, Some(types)) => format!("the query and {types}"),
        (false, Some(types)) => types,
        _ => "the query".to_string(),
    }
}

/// A wait the server asked for, shared by every request of the worker: a rate limit holds back
/// every cursor, not only the one that was refused.
#[derive(Debug, Default)]
pub struct Pause(Mutex<Option<tokio::time::Instant>>);

impl Pause {
    /// Holds every request back until `until` (or longer, if already so).
    pub fn until(&self, until: tokio::time::Instant) {
        let mut at = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if at.is_none_or(|t| t < until) {
            *at = Some(until);
        }
    }

    /// Waits out the pause in force, if any.
    pub async fn wait(&self) {
        loop {
            let at = *self.0.lock().unwrap_or_else(|e| e.into_inner());
            match at {
                Some(t) if t > tokio::time::Instant::now() => tokio::time::sleep_until(t).await,
                _ => return,
            }
        }
    }
}

/// What the worker reports. `query` is the id of the query it belongs to.
#[derive(Debug)]
pub enum Report {
    /// A request for page `page` (1-based, counting the pages of every cursor) is on its way.
    Fetching {
        query: u64,
        page: usize,
    },
    Retrying {
        query: u64,
        retry: Retry,
    },
    /// Events, in the service's order. `page.next` is empty when the query has no more pages;
    /// while several cursors run it is the cursor of one that has more.
    Page {
        query: u64,
        page: Page,
    },
    /// The query has no more pages.
    Finished {
        query: u64,
    },
    /// The requests on their way changed: these are now (none when the list is empty).
    InFlight {
        query: u64,
        requests: Vec<InFlight>,
    },
    /// The service refused a cursor of the query (expired, or from a server that restarted),
    /// and the part of the query it paged is asked again from its first page; `message` says
    /// so. What was loaded stays, and its copies in the new pages are not reported again.
    Restarted {
        query: u64,
        message: String,
    },
    /// A request failed for good; what was loaded stays.
    Failed {
        query: u64,
        message: String,
    },
    /// How far the query's load got, said after each `Page`, and just before `Finished` or
    /// `Failed` when it ran several cursors or stopped part-way.
    Tally {
        query: u64,
        tally: Box<Tally>,
    },
}

impl Report {
    /// The report with its messages saying the token's names in use (see [`TokenEnv::rename`]):
    /// a profile may read the token from variables of its own.
    ///
    /// [`TokenEnv::rename`]: crate::source::token::TokenEnv::rename
    pub fn renamed(self, names: &crate::source::token::TokenEnv) -> Report {
        match self {
            Report::Retrying { query, mut retry } => {
                retry.reason = names.rename(&retry.reason);
                Report::Retrying { query, retry }
            }
            Report::Failed { query, message } => Report::Failed {
                query,
                message: names.rename(&message),
            },
            Report::Restarted { query, message } => Report::Restarted {
                query,
                message: names.rename(&message),
            },
            Report::Tally { query, mut tally } => {
                for message in &mut tally.redundant {
                    *message = names.rename(message);
                }
                Report::Tally { query, tally }
            }
            other => other,
        }
    }
}

/// Backoff before attempt `attempt` (2 for the first retry): 1 s, 2 s, 4 s... capped, times a
/// random factor in [0.5, 1] so that many clients do not retry in step; a server's stated wait
/// wins, whole (one that ends past the time for retries gives the request up instead).
pub fn backoff(attempt: u32, retry_after: Option<Duration>) -> Duration {
    if let Some(ra) = retry_after {
        return ra;
    }
    let exp = BACKOFF_BASE.saturating_mul(1u32 << attempt.saturating_sub(2).min(16));
    let capped = exp.min(BACKOFF_CAP);
    capped.mul_f64(0.5 + rand::random::<f64>() * 0.5)
}

/// Fetches one page, retrying what may pass for as long as [`RETRY_FOR`] (or [`WAIT_FOR`] while
/// the server states its waits), after any pause in force. A minted token refused with 401 or
/// 403 is minted again once (by the first request to be refused it: requests in parallel share
/// the new one).
pub async fn fetch_with_retries(
    api: &Api,
    tokens: &Mutex<TokenSource>,
    pause: &Pause,
    filter: &Filter,
    start: Option<&str>,
    on_retry: impl FnMut(Retry),
) -> Result<Fetched, FetchError> {
    retrying(
        tokens,
        pause,
        |token| async move { api.fetch(&token, filter, start).await },
        on_retry,
    )
    .await
}

/// Runs one request of any endpoint (`request`, given the token to send) as
/// [`fetch_with_retries`] runs a page's: after any pause in force, retrying what may pass for
/// as long as the server's answers allow, minting a refused minted token again once.
pub async fn retrying<T, F: Future<Output = Result<T, FetchError>>>(
    tokens: &Mutex<TokenSource>,
    pause: &Pause,
    request: impl Fn(Token) -> F,
    mut on_retry: impl FnMut(Retry),
) -> Result<T, FetchError> {
    let mut reminted = false;
    let mut attempt = 1;
    let mut first_failure = None;
    // The time for retries after the first failure: the longest any failure gave.
    let mut window = Duration::ZERO;
    // Once a request failed: when retrying it ends.
    let mut deadline: Option<tokio::time::Instant> = None;
    // The last failure retried (kept through a token minted again).
    let mut failed: Option<FetchError> = None;
    loop {
        match (deadline, failed.is_some()) {
            // Another request's stated wait may hold this one past its own time for retries:
            // it is given up then, as its countdown said, rather than tried after it.
            (Some(at), true) => {
                if tokio::time::timeout_at(at, pause.wait()).await.is_err() {
                    let error = failed.take().expect("a failure retried");
                    tracing::warn!(attempts = attempt, error = %error.describe(), "another request's stated wait ends past the time for retries; giving up on the request");
                    return Err(FetchError::HeldPast {
                        refusal: Box::new(error),
                        window,
                    });
                }
            }
            _ => pause.wait().await,
        }
        let token = {
            let mut tokens = tokens.lock().unwrap_or_else(|e| e.into_inner());
            tokens
                .bearer(chrono::Utc::now().timestamp())
                .map_err(FetchError::Network)?
        };
        let answer = match deadline {
            // A try begun before the time for retries is up and still running then is cut
            // there, so that the request gives up when its countdown said it would. The last
            // try, begun as the time is up, runs its course.
            Some(at) if at > tokio::time::Instant::now() => {
                tokio::time::timeout_at(at, request(token.clone()))
                    .await
                    .unwrap_or_else(|_| Err(FetchError::Network(RETRIES_UP.into())))
            }
            _ => request(token.clone()).await,
        };
        let error = match answer {
            Ok(answer) => return Ok(answer),
            Err(e) => e,
        };
        if matches!(error.status(), Some(401 | 403)) {
            let mut tokens = tokens.lock().unwrap_or_else(|e| e.into_inner());
            if !reminted && let TokenSource::Minted { current, .. } = &*tokens {
                if current.as_ref().is_some_and(|(t, _)| *t == token) {
                    tracing::info!("the server refused the minted token; minting a new one");
                    tokens.invalidate();
                }
                reminted = true;
                continue;
            }
        }
        let now = tokio::time::Instant::now();
        let first = *first_failure.get_or_insert(now);
        // A stated wait of nothing is no wait: the client backs off as if none were stated,
        // rather than asking again at once, for as long as the server keeps saying it.
        let asked = error.retry_after().filter(|w| !w.is_zero());
        // The longest time for retries a failure gave stands: a failure without a stated
        // wait after one with it does not end the retries before the countdown said.
        window = window.max(if asked.is_some() { WAIT_FOR } else { RETRY_FOR });
        let gives_up_at = first + window;
        let left = gives_up_at.saturating_duration_since(now);
        if !error.is_retryable() || left.is_zero() {
            tracing::warn!(attempts = attempt, error = %error.describe(), "giving up on the request");
            return Err(error);
        }
        let wait = match asked {
            // A stated wait is honoured whole, or not at all: a try before it ends would be
            // refused, and the pause it sets holds back every request of the worker.
            Some(stated) => {
                let wait = backoff(attempt + 1, Some(stated));
                if wait > left {
                    tracing::warn!(
                        attempts = attempt,
                        error = %error.describe(),
                        wait_ms = wait.as_millis() as u64,
                        "the stated wait ends past the time for retries; giving up on the request"
                    );
                    return Err(FetchError::WaitPast {
                        refusal: Box::new(error),
                        wait,
                        window,
                    });
                }
                pause.until(now + wait);
                wait
            }
            // The last backoff is cut to what is left: the last try begins when the time is
            // up at the latest.
            None => backoff(attempt + 1, None).min(left),
        };
        attempt += 1;
        deadline = Some(gives_up_at);
        tracing::warn!(
            attempt,
            wait_ms = wait.as_millis() as u64,
            reason = %error.describe(),
            "retrying"
        );
        on_retry(Retry {
            attempt,
            wait,
            asked: asked.is_some(),
            gives_up_at: gives_up_at.into_std(),
            reason: error.describe(),
            at: now.into_std(),
        });
        failed = Some(error);
        tokio::time::sleep(wait).await;
    }
}

/// Starts the worker on the current tokio runtime, running one cursor per type when loading
/// everything of a query without a type. Dropping the command sender stops it.
pub fn spawn(
    api: Api,
    tokens: TokenSource,
    reports: mpsc::UnboundedSender<Report>,
) -> mpsc::UnboundedSender<Command> {
    spawn_with(api, tokens, reports, Fanout::PerType)
}

/// [`spawn`], choosing how "load everything" fans out.
pub fn spawn_with(
    api: Api,
    tokens: TokenSource,
    reports: mpsc::UnboundedSender<Report>,
    fanout: Fanout,
) -> mpsc::UnboundedSender<Command> {
    let (tx, rx) = mpsc::unbounded_channel();
    let ctx = Ctx {
        census_api: api.with_page_size(1),
        api,
        tokens: Arc::new(Mutex::new(tokens)),
        pause: Arc::new(Pause::default()),
        reports,
        fanout,
    };
    tokio::spawn(run(ctx, rx));
    tx
}

struct Ctx {
    api: Api,
    /// The census asks only for a `total`: one event a page is enough.
    census_api: Api,
    tokens: Arc<Mutex<TokenSource>>,
    /// The wait a server asked for, which every request honours.
    pause: Arc<Pause>,
    reports: mpsc::UnboundedSender<Report>,
    fanout: Fanout,
}

impl Ctx {
    fn report(&self, report: Report) {
        let _ = self.reports.send(report);
    }
}

async fn run(ctx: Ctx, mut commands: mpsc::UnboundedReceiver<Command>) {
    let mut state: Option<QueryState> = None;
    loop {
        let landed = landing(&mut state);
        tokio::select! {
            command = commands.recv() => {
                let Some(command) = command else { return };
                if let Command::Query { id, filter } = command {
                    // Dropping the older state cancels its requests.
                    state = Some(QueryState::new(id, filter));
                } else if let Some(s) = state.as_mut().filter(|s| s.id() == command_id(&command)) {
                    s.command(command, &ctx);
                }
                if let Some(s) = state.as_mut() {
                    s.pump(&ctx);
                    s.report_in_flight(&ctx);
                }
            }
            (slot, result) = landed => {
                if let Some(s) = state.as_mut() {
                    s.landed(slot, result, &ctx);
                    s.settle(&ctx);
                    s.pump(&ctx);
                    s.report_in_flight(&ctx);
                }
            }
        }
    }
}

fn command_id(command: &Command) -> u64 {
    match command {
        Command::Query { id, .. }
        | Command::NextPage { id }
        | Command::LoadAll { id }
        | Command::Stop { id } => *id,
    }
}

/// The next request of the query to complete; pending while there is none.
fn landing(
    state: &mut Option<QueryState>,
) -> impl Future<Output = (Slot, Result<Fetched, FetchError>)> + '_ {
    std::future::poll_fn(move |cx| match state.as_mut() {
        Some(s) => s.poll_landed(cx),
        None => Poll::Pending,
    })
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::{Pause, RETRY_FOR, failures_once, giving_up_words, retrying};
    use crate::source::api::FetchError;
    use crate::source::token::{Token, TokenSource};

    /// A token minted again between the failures keeps the failure retried: a wait asked of
    /// another request after it still gives this one up when its countdown said.
    #[tokio::test(start_paused = true)]
    async fn a_token_minted_again_does_not_let_another_requests_wait_hold_a_request_late() {
        let tokens = Mutex::new(TokenSource::Minted {
            access_key: "key".into(),
            secret: Token::new("secret".into()),
            current: None,
        });
        let pause = Pause::default();
        let tries = AtomicUsize::new(0);
        let started = tokio::time::Instant::now();
        let result: Result<(), FetchError> = retrying(
            &tokens,
            &pause,
            |_| async {
                let status = match tries.fetch_add(1, Ordering::SeqCst) {
                    0 => 500,
                    _ => {
                        // The token is refused, and another cursor is told to wait 40 min.
                        pause.until(started + 40 * 60 * std::time::Duration::from_secs(1));
                        401
                    }
                };
                Err(FetchError::Status {
                    status,
                    message: "no".into(),
                    details: Vec::new(),
                    retry_after: None,
                })
            },
            |_| {},
        )
        .await;
        let error = result.expect_err("the request is given up");
        assert!(matches!(error, FetchError::HeldPast { .. }), "{error:?}");
        assert_eq!(error.status(), Some(500), "the failure retried");
        assert_eq!(tries.load(Ordering::SeqCst), 2);
        assert_eq!(started.elapsed(), RETRY_FOR);
    }

    /// A wait the server asked of another request, ending past this request's time for
    /// retries, gives this request up when its countdown said, in words that say why, rather
    /// than trying it once more after the countdown reached zero.
    #[tokio::test(start_paused = true)]
    async fn a_wait_asked_of_another_request_gives_a_request_up_when_its_countdown_said() {
        let tokens = Mutex::new(TokenSource::Fixed {
            token: Token::new("t".into()),
            origin: "test",
        });
        let pause = Pause::default();
        let tries = AtomicUsize::new(0);
        let started = tokio::time::Instant::now();
        let mut gives_up_at = None;
        let result: Result<(), FetchError> = retrying(
            &tokens,
            &pause,
            |_| async {
                tries.fetch_add(1, Ordering::SeqCst);
                Err(FetchError::Status {
                    status: 500,
                    message: "db down".into(),
                    details: Vec::new(),
                    retry_after: None,
                })
            },
            |retry| {
                if gives_up_at.is_none() {
                    gives_up_at = Some(retry.gives_up_at);
                    // Another cursor is told to wait 40 minutes.
                    pause.until(started + 40 * 60 * std::time::Duration::from_secs(1));
                }
            },
        )
        .await;
        let error = result.expect_err("the request is given up");
        assert!(matches!(error, FetchError::HeldPast { .. }), "{error:?}");
        assert_eq!(
            error.describe(),
            "HTTP 500: db down; the service asked another request to wait past the 3 min of \
             retries since this one first failed"
        );
        assert_eq!(tries.load(Ordering::SeqCst), 1);
        assert_eq!(started.elapsed(), RETRY_FOR);
        assert_eq!(Some(tokio::time::Instant::now().into_std()), gives_up_at);
    }

    /// A failure of the query's cursor and of three types' cursors, for the reasons given.
    fn failures(reasons: [&str; 4]) -> Vec<(Option<&'static str>, String)> {
        let parts = [
            None,
            Some("client.publish.failed"),
            Some("client.join.failed"),
            Some("client.disconnected"),
        ];
        parts
            .into_iter()
            .zip(reasons)
            .map(|(part, reason)| (part, reason.to_string()))
            .collect()
    }

    #[test]
    fn a_reason_that_stopped_several_parts_is_said_once_naming_them() {
        let refused = "HTTP 401: expired (check the token: …; it may have expired)";
        assert_eq!(
            failures_once(&failures([refused; 4])),
            format!(
                "loading the query: {refused}; the same failure stopped loading the \
                 client.publish.failed, client.join.failed and client.disconnected events"
            )
        );
        // Reasons that differ are each said, with the parts each stopped.
        let down = "HTTP 500: db down";
        assert_eq!(
            failures_once(&failures([down, refused, down, refused])),
            format!(
                "loading the query: {down}; the same failure stopped loading the \
                 client.join.failed events; loading the client.publish.failed events: \
                 {refused}; the same failure stopped loading the client.disconnected events"
            )
        );
        // Each once already: each part with its own.
        assert_eq!(
            failures_once(&failures(["a", "b", "c", "d"])),
            "loading the query: a; loading the client.publish.failed events: b; loading the \
             client.join.failed events: c; loading the client.disconnected events: d"
        );
        let one = [(None, refused.to_string())];
        assert_eq!(failures_once(&one), format!("loading the query: {refused}"));
    }

    #[test]
    fn the_time_left_is_said_from_now_to_the_nearest_minute_and_the_last_attempt_says_so() {
        let now = Instant::now();
        let words = |next_try: u64, gives_up: u64| {
            giving_up_words(
                now,
                now + Duration::from_secs(next_try),
                now + Duration::from_secs(gives_up),
            )
        };
        // A retry in 28 s of a request given up 55 s from now: counted from now, not from the
        // end of the wait.
        assert_eq!(words(28, 55), "gives up 55 s from now");
        assert_eq!(words(0, 1), "gives up 1 s from now");
        assert_eq!(words(1, 119), "gives up 119 s from now");
        assert_eq!(words(1, 120), "gives up 2 min from now");
        // Three minutes less a second is three minutes, not two.
        assert_eq!(words(1, 179), "gives up 3 min from now");
        assert_eq!(words(1, 149), "gives up 2 min from now");
        // The try after the wait begins as the time is up: it is the last.
        assert_eq!(words(9, 9), "the last");
        assert_eq!(words(0, 0), "the last");
        // Part of a second still counts: the request is not given up yet.
        let soon = giving_up_words(now, now, now + Duration::from_millis(300));
        assert_eq!(soon, "gives up 1 s from now");
    }
}
