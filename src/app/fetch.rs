//! A whole live query fetched for `list` and `serve`, its progress and retries said on stderr.

use std::io::IsTerminal;

use super::Failure;
use crate::filter::Filter;
use crate::related::Related;
use crate::source::LiveSource;
use crate::source::api::sessions::SessionQuery;
use crate::source::live::Connection;
use crate::source::live::{Notice, RoomError};
use crate::source::worker::Tally;
use crate::store::Store;

/// Why a live fetch stopped: before any request (no token, a refused URL, no such room), or
/// part-way, with the events that arrived before it, the filter they were fetched by, the
/// failure, and how far each part of the query got.
pub enum Stopped {
    Before(Failure),
    PartWay(Box<Store>, Box<Filter>, String, Box<Tally>),
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
    let on_retry = |r: &crate::source::worker::Retry| say_room_retry(live, filter, r);
    let filter = &runtime
        .block_on(crate::source::live::with_room_id(
            &connection,
            filter,
            &on_retry,
        ))
        .map_err(|e| {
            Stopped::Before(match e {
                RoomError::Unknown(e) => Failure::Usage(e),
                RoomError::Lookup(e) => Failure::Runtime(e),
            })
        })?;
    let show = std::io::stderr().is_terminal();
    let tokens = connection.tokens.clone();
    let result = runtime.block_on(crate::source::live::fetch_all(
        &connection.api,
        connection.tokens,
        filter,
        max,
        |p| {
            if show {
                let total = p.total.map(|t| format!(" of {t}")).unwrap_or_default();
                crate::text::say_part!(
                    "\r\x1b[2Kfetched page {}: {}{total}",
                    p.pages,
                    crate::text::plural(p.events, "event", "events")
                );
            }
        },
        |notice| {
            if show {
                crate::text::say_part!("\r\x1b[2K");
            }
            match notice {
                Notice::Retry(r) => {
                    let reason =
                        crate::text::for_terminal(&live.names.rename(&r.reason)).into_owned();
                    crate::text::say!(
                        "callscope: {reason}; retrying in {} s (attempt {}, {})",
                        r.wait.as_secs().max(1),
                        r.attempt,
                        r.giving_up()
                    );
                }
                Notice::Restarted(message) => crate::text::say!(
                    "callscope: {}",
                    crate::text::for_terminal(&live.names.rename(message))
                ),
                Notice::NotNeeded(failures) => crate::text::say!(
                    "callscope: note: {}",
                    crate::text::for_terminal(
                        &live
                            .names
                            .rename(&crate::source::live::not_needed_note(failures))
                    )
                ),
            }
        },
    ));
    if show {
        crate::text::say_part!("\r\x1b[2K");
    }
    if let Ok(store) = &result
        && store.is_empty()
        && let Some(room_id) = filter.room()
        && let Some(note) = runtime.block_on(no_such_room(&connection.api, tokens, room_id))
    {
        crate::text::say!("{}", crate::text::for_terminal(&live.names.rename(&note)));
    }
    result.map(|store| (store, filter.clone())).map_err(|u| {
        Stopped::PartWay(
            Box::new(u.store),
            Box::new(filter.clone()),
            live.names.rename(&u.message),
            Box::new(u.tally),
        )
    })
}

/// A retry of the lookup of the room named in `filter`, said on stderr as the events' retries
/// are: the lookup may wait minutes for a service that does not answer.
pub fn say_room_retry(live: &LiveSource, filter: &Filter, r: &crate::source::worker::Retry) {
    let reason = crate::text::for_terminal(&live.names.rename(&r.reason)).into_owned();
    crate::text::say!(
        "callscope: looking up the room named {:?}: {reason}; retrying in {} s (attempt {}, {})",
        filter.room().unwrap_or_default(),
        r.wait.as_secs().max(1),
        r.attempt,
        r.giving_up()
    );
}

/// Where a query of a room's events brought none: whether the service knows the room at all,
/// in a note for stderr when it does not (a mistyped id reads as a quiet room otherwise), or
/// why it did not say (a refusal in its words). Nothing when the room is known: the answer
/// stands as it is.
async fn no_such_room(
    api: &crate::source::api::Api,
    mut tokens: crate::source::token::TokenSource,
    room_id: &str,
) -> Option<String> {
    let token = tokens.bearer(chrono::Utc::now().timestamp()).ok()?;
    match api.room(&token, room_id).await {
        Ok(None) => Some(format!(
            "callscope: note: the service has no room of id {room_id}, so no event is in it: \
             check the id (--room takes the room's name too)"
        )),
        Ok(Some(_)) => None,
        Err(e) => Some(format!(
            "callscope: note: the service did not say whether it has a room of id {room_id}: {}",
            e.describe()
        )),
    }
}

/// The related data of a room's events: the room, its sessions over the events' time, and, for
/// `stats_of` a peer, the peer's quality stats in the sessions its events name.
pub fn related(
    connection: &Connection,
    store: &Store,
    room_id: &str,
    stats_of: Option<&str>,
) -> Result<Related, Failure> {
    let times: Vec<i64> = store
        .rows()
        .iter()
        .map(|r| r.ts)
        .filter(|&t| t != crate::store::NO_TIME)
        .collect();
    let (Some(&first), Some(&last)) = (times.iter().min(), times.iter().max()) else {
        return Ok(Related::default());
    };
    let rfc = |ns: i64| crate::time::format_nanos(ns);
    // An ended session lasted at most 12 hours: one begun that long before the first event may
    // hold it.
    let after = rfc(first - 12 * 3600 * 1_000_000_000);
    let before = rfc(last + crate::insight::CHAIN_GAP);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::runtime(format!("cannot start: {e}")))?;
    runtime.block_on(async {
        let mut tokens = connection.tokens.clone();
        let token = tokens
            .bearer(chrono::Utc::now().timestamp())
            .map_err(Failure::Runtime)?;
        let mut related = Related::default();
        let room = connection.api.room(&token, room_id).await.map_err(|e| {
            Failure::runtime(
                connection
                    .names
                    .rename(&format!("cannot fetch room {room_id}: {}", e.describe())),
            )
        })?;
        related.add(room.map(crate::related::Object::Room));
        for active in [false, true] {
            // An active session may have begun at any time before the events: it is asked for
            // without a start (a room has few at once).
            let query = SessionQuery {
                room_id: Some(room_id.to_string()),
                active: Some(active),
                after: (!active).then(|| after.clone()),
                before: Some(before.clone()),
                most: 1000,
            };
            let sessions = connection.api.sessions(&token, &query).await.map_err(|e| {
                Failure::runtime(connection.names.rename(&format!(
                    "cannot fetch the sessions of room {room_id}: {}",
                    e.describe()
                )))
            })?;
            related.add(sessions.into_iter().map(crate::related::Object::Session));
        }
        if let Some(peer_id) = stats_of {
            let mut sessions: Vec<String> = store
                .rows()
                .iter()
                .map(|r| r.session_id)
                .filter(|s| !s.is_none())
                .map(|s| store.str(s).to_string())
                .collect();
            sessions.sort();
            sessions.dedup();
            for session in sessions {
                match connection.api.peer_stats(&token, peer_id, &session).await {
                    Ok(stats) => {
                        related.add([crate::related::Object::Stats(stats)]);
                    }
                    Err(e) => crate::text::say!(
                        "callscope: no quality stats for session {session}: {}",
                        crate::text::for_terminal(&e.describe())
                    ),
                }
            }
        }
        Ok(related)
    })
}
