//! The live explorer's questions about the platform's data beside the events: a room's sessions
//! (asked with the events), a peer's track events (asked when its story is opened) and a peer's
//! quality stats in a session (asked on a key only). A task of its own answers them, one request
//! at a time each, with the retries of the events' fetch task, so that the events' paging is
//! never held up by them.

use std::sync::Mutex;

use tokio::sync::mpsc;

use super::api::Api;
use super::api::sessions::SessionQuery;
use super::token::{TokenEnv, TokenSource};
use super::worker::{Pause, retrying};
use crate::event::{EventType, Field};
use crate::filter::Filter;
use crate::related::{PeerStats, Session};
use crate::store::Store;

/// The most sessions of a room asked for: the newest first, as the endpoint lists them.
pub const MOST_SESSIONS: usize = 1000;
/// The most pages of a peer's track events read.
pub const MOST_TRACK_PAGES: usize = 20;

/// The track event types asked for beside a peer's errors.
pub const TRACK_TYPES: [&str; 3] = [
    "track.add.success",
    "track.update.success",
    "track.remove.success",
];

/// A question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ask {
    /// Every session of a room (ended and active), newest first.
    Sessions { room_id: String },
    /// A peer's track events in a room.
    Tracks { room_id: String, peer_id: String },
    /// A peer's quality stats in a session.
    Stats { peer_id: String, session_id: String },
    /// Whether the service knows a room (asked when a query of it brought no event).
    Room { room_id: String },
}

/// An answer: what was asked, and what came (or why nothing did, in words for people).
#[derive(Debug)]
pub enum Answer {
    Sessions {
        room_id: String,
        sessions: Result<Vec<Session>, String>,
    },
    Tracks {
        room_id: String,
        peer_id: String,
        /// The track events, read as events are.
        events: Result<Box<Store>, String>,
        /// Every page was read: no more track events of the peer are held (false when the
        /// pages read stopped at [`MOST_TRACK_PAGES`]).
        whole: bool,
    },
    Stats {
        peer_id: String,
        session_id: String,
        stats: Result<PeerStats, String>,
    },
    Room {
        room_id: String,
        /// Whether the service has a room of that id.
        known: Result<bool, String>,
    },
}

/// Starts the task on the current tokio runtime; its answers go to `answers`. Dropping the
/// question sender stops it.
pub fn spawn(
    api: Api,
    tokens: TokenSource,
    names: TokenEnv,
    answers: mpsc::UnboundedSender<Answer>,
) -> mpsc::UnboundedSender<Ask> {
    let (tx, mut rx) = mpsc::unbounded_channel::<Ask>();
    tokio::spawn(async move {
        let tokens = std::sync::Arc::new(Mutex::new(tokens));
        let pause = std::sync::Arc::new(Pause::default());
        while let Some(ask) = rx.recv().await {
            let (api, tokens, pause, names, answers) = (
                api.clone(),
                tokens.clone(),
                pause.clone(),
                names.clone(),
                answers.clone(),
            );
            // Each question in a task of its own: a slow stats answer does not hold back the
            // sessions of a new query.
            tokio::spawn(async move {
                let answer = answer(&api, &tokens, &pause, ask, &names).await;
                let _ = answers.send(answer);
            });
        }
    });
    tx
}

async fn answer(
    api: &Api,
    tokens: &Mutex<TokenSource>,
    pause: &Pause,
    ask: Ask,
    names: &TokenEnv,
) -> Answer {
    let words = |e: super::api::FetchError| names.rename(&e.describe());
    match ask {
        Ask::Sessions { room_id } => {
            let mut all = Vec::new();
            let mut failed = None;
            // The endpoint lists active sessions only unless told otherwise: both are asked.
            for active in [false, true] {
                let query = SessionQuery {
                    room_id: Some(room_id.clone()),
                    active: Some(active),
                    most: MOST_SESSIONS,
                    ..SessionQuery::default()
                };
                let query = &query;
                match retrying(
                    tokens,
                    pause,
                    |token| async move { api.sessions(&token, query).await },
                    |_| {},
                )
                .await
                {
                    Ok(found) => all.extend(found),
                    Err(e) => failed = Some(words(e)),
                }
            }
            Answer::Sessions {
                room_id,
                sessions: match failed {
                    Some(why) => Err(why),
                    None => Ok(all),
                },
            }
        }
        Ask::Tracks { room_id, peer_id } => {
            let mut filter = Filter::default()
                .with(Field::Room, room_id.clone())
                .with(Field::Peer, peer_id.clone());
            filter.types = TRACK_TYPES
                .iter()
                .map(|t| EventType::from_name(t))
                .collect();
            let mut store = Store::new();
            let mut start: Option<String> = None;
            let mut failed = None;
            let mut whole = false;
            for _ in 0..MOST_TRACK_PAGES {
                let (filter, from) = (&filter, start.as_deref());
                match retrying(
                    tokens,
                    pause,
                    |token| async move { api.fetch(&token, filter, from).await },
                    |_| {},
                )
                .await
                {
                    Ok(fetched) => {
                        let page = fetched.into_page();
                        store.merge(*page.batch);
                        if page.next.is_empty() || start.as_deref() == Some(page.next.as_str()) {
                            whole = true;
                            break;
                        }
                        start = Some(page.next);
                    }
                    Err(e) => {
                        failed = Some(words(e));
                        break;
                    }
                }
            }
            Answer::Tracks {
                room_id,
                peer_id,
                events: match failed {
                    Some(why) => Err(why),
                    None => Ok(Box::new(store)),
                },
                whole,
            }
        }
        Ask::Stats {
            peer_id,
            session_id,
        } => {
            let (p, s) = (peer_id.as_str(), session_id.as_str());
            let stats = retrying(
                tokens,
                pause,
                |token| async move { api.peer_stats(&token, p, s).await },
                |_| {},
            )
            .await
            .map_err(|e| names.rename(&e.describe_where_404_answers()));
            Answer::Stats {
                peer_id,
                session_id,
                stats,
            }
        }
        Ask::Room { room_id } => {
            let id = room_id.as_str();
            let known = retrying(
                tokens,
                pause,
                |token| async move { api.room(&token, id).await },
                |_| {},
            )
            .await
            .map(|room| room.is_some())
            .map_err(|e| names.rename(&e.describe()));
            Answer::Room { room_id, known }
        }
    }
}
