//! `callscope serve`: the events of a source, served over the service's HTTP API.

use std::path::PathBuf;

use super::fetch::{Stopped, fetch};
use super::{Ended, Failure};
use crate::filter::Filter;
use crate::source::Source;
use crate::source::token::TokenSource;

/// What `serve` is asked to serve, and where.
#[derive(Debug, Clone)]
pub struct Serve {
    pub source: Source,
    /// Only the events that match are served.
    pub filter: Filter,
    /// `HOST:PORT` to listen on.
    pub addr: String,
    /// The file whose first line is the token clients send (else `CALLSCOPE_SERVE_TOKEN`, else
    /// a random one).
    pub token_file: Option<PathBuf>,
    pub redact: bool,
    /// An app's key and secret, whose management tokens are let in too.
    pub app: Option<crate::serve::AppKey>,
    /// Accept what the hosted API refuses.
    pub lenient: bool,
    /// Wait this long before answering each request, as a distant server would.
    pub delay_ms: u64,
}

pub fn run(serve: Serve) -> Result<Ended, Failure> {
    let addr = crate::serve::parse_addr(&serve.addr).map_err(Failure::Usage)?;
    let env_token = std::env::var(crate::serve::TOKEN_ENV).ok();
    let token = crate::serve::resolve_token(serve.token_file.as_deref(), env_token)
        .map_err(Failure::Usage)?;
    let mut filter = serve.filter.clone();
    let mut related = serve.source.related();
    let store = match &serve.source {
        Source::Live(live) => {
            // Whoever may query serve is given its token: it must not be the API's secret.
            let secret = match live.discover().map_err(Failure::Usage)? {
                Some(TokenSource::Fixed { token, .. }) => Some(token.expose().to_string()),
                Some(TokenSource::Minted { secret, .. }) => Some(secret.expose().to_string()),
                None => None,
            };
            if secret.as_deref() == Some(token.value.as_str()) {
                return Err(Failure::usage(
                    "serve's token (the one its clients send) is the API's own secret: give serve \
                     a token of its own (--token-file, CALLSCOPE_SERVE_TOKEN, or none for a random one)",
                ));
            }
            match fetch(live, &serve.filter, None) {
                Ok((store, fetched_by)) => {
                    filter = fetched_by;
                    // The room and its sessions, for the clients that ask serve for them.
                    let connection = live.connect().map_err(Failure::Usage)?;
                    let room = filter.room().unwrap_or_default().to_string();
                    related = super::fetch::related(&connection, &store, &room, None)?;
                    store
                }
                Err(Stopped::Before(failure)) => return Err(failure),
                // Serving part of what the API holds would answer queries wrongly.
                Err(Stopped::PartWay(store, _, e, _)) => {
                    return Err(Failure::runtime(format!(
                        "not serving: {e}; {} arrived before it",
                        crate::text::plural(store.len(), "event had", "events had")
                    )));
                }
            }
        }
        offline => {
            let (store, problems) = offline.load_offline();
            if !problems.is_empty() {
                let mut lines: Vec<String> = problems.iter().map(ToString::to_string).collect();
                lines.push(format!(
                    "not serving: {} in the input; fix or leave out the files named above",
                    crate::text::plural(problems.len(), "problem", "problems")
                ));
                return Err(Failure::Problems(lines));
            }
            store
        }
    };
    // Filters that match nothing serve an empty answer to every query: said, with why where it
    // can be told, as list says it.
    if !filter.is_empty() && store.filter(&filter).is_empty() {
        crate::text::say!(
            "callscope: note: the filters match none of the {} read: every query is answered \
             with no event",
            crate::text::plural(store.len(), "event", "events")
        );
        super::list::note_why_empty(&filter, Some(&store));
    }
    let (store, related) =
        crate::serve::served(store, related, &filter, serve.redact).map_err(Failure::Runtime)?;
    tracing::info!(redact = serve.redact, "serving");
    crate::serve::raise_descriptor_limit();
    let options = crate::serve::Options {
        rules: if serve.lenient {
            crate::serve::Rules::Lenient
        } else {
            crate::serve::Rules::Hosted
        },
        app: serve.app,
        delay: std::time::Duration::from_millis(serve.delay_ms),
        limits: crate::serve::Limits::standard(),
    };
    crate::serve::run(addr, token, store, related, options).map_err(Failure::Runtime)?;
    Ok(Ended::Done)
}
