//! A whole live query fetched for `list` and `serve`, its progress and retries said on stderr.

use std::io::IsTerminal;

use super::Failure;
use crate::filter::Filter;
use crate::source::LiveSource;
use crate::store::Store;

/// Why a live fetch stopped: before any request (no token, a refused URL), or part-way, with the
/// events that arrived before it.
pub enum Stopped {
    Before(Failure),
    PartWay(Box<Store>, String),
}

/// Pages through the live query until it is loaded or `max` matching events are, with a
/// progress line on stderr when stderr is a terminal.
pub fn fetch(live: &LiveSource, filter: &Filter, max: Option<usize>) -> Result<Store, Stopped> {
    let connection = live
        .connect()
        .map_err(|e| Stopped::Before(Failure::Usage(e)))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Stopped::Before(Failure::runtime(format!("cannot start: {e}"))))?;
    let show = std::io::stderr().is_terminal();
    let result = runtime.block_on(crate::source::live::fetch_all(
        &connection.api,
        connection.tokens,
        filter,
        max,
        |p| {
            if show {
                let total = p.total.map(|t| format!(" of {t}")).unwrap_or_default();
                eprint!(
                    "\r\x1b[2Kfetched page {}: {} events{total}",
                    p.pages, p.events
                );
            }
        },
        |r| {
            if show {
                eprint!("\r\x1b[2K");
            }
            let reason = crate::text::for_terminal(&live.names.rename(&r.reason)).into_owned();
            eprintln!(
                "callscope: {reason}; retrying in {} s, attempt {} of {}",
                r.wait.as_secs().max(1),
                r.attempt,
                r.of
            );
        },
    ));
    if show {
        eprint!("\r\x1b[2K");
    }
    result.map_err(|(store, e)| Stopped::PartWay(Box::new(store), live.names.rename(&e)))
}
