//! A whole live query fetched for `list` and `serve`, its progress and retries said on stderr.

use std::io::IsTerminal;

use super::Failure;
use crate::filter::Filter;
use crate::source::LiveSource;
use crate::source::live::RoomError;
use crate::store::Store;

/// Why a live fetch stopped: before any request (no token, a refused URL, no such room), or
/// part-way, with the events that arrived before it and the filter they were fetched by.
pub enum Stopped {
    Before(Failure),
    PartWay(Box<Store>, Box<Filter>, String),
}

/// Pages through the live query (its room's name looked up first) until it is loaded or `max`
/// matching events are, with a progress line on stderr when stderr is a terminal. The filter
/// the events were fetched by comes back with them: its room is the id.
pub fn fetch(
    live: &LiveSource,
    filter: &Filter,
    max: Option<usize>,
) -> Result<(Store, Filter), Stopped> {
    let connection = live
        .connect()
        .map_err(|e| Stopped::Before(Failure::Usage(e)))?;
    if filter.room().is_none() {
        return Err(Stopped::Before(Failure::usage(
            crate::source::live::NO_ROOM,
        )));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Stopped::Before(Failure::runtime(format!("cannot start: {e}"))))?;
    let filter = &runtime
        .block_on(crate::source::live::with_room_id(&connection, filter))
        .map_err(|e| {
            Stopped::Before(match e {
                RoomError::Unknown(e) => Failure::Usage(e),
                RoomError::Lookup(e) => Failure::Runtime(e),
            })
        })?;
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
                "callscope: {reason}; retrying in {} s (attempt {}, {})",
                r.wait.as_secs().max(1),
                r.attempt,
                crate::source::worker::giving_up_words(r.gives_up_in.as_secs())
            );
        },
    ));
    if show {
        eprint!("\r\x1b[2K");
    }
    result
        .map(|store| (store, filter.clone()))
        .map_err(|(store, e)| {
            Stopped::PartWay(
                Box::new(store),
                Box::new(filter.clone()),
                live.names.rename(&e),
            )
        })
}
