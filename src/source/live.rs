//! Setting up the live source from the command line, and paging through a whole query (for
//! `list --live`).

use tokio::sync::mpsc;

use super::api::{Api, rooms};
use super::token::{TokenEnv, TokenSource, check_transport};
use super::worker::{self, Command, Fanout, Report, Retry, Tally};
use crate::filter::Filter;
use crate::store::Store;

/// The live API as a source: where it is, how its token is found, and how it is paged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveSource {
    pub base_url: String,
    /// Events per page (1..100).
    pub page_size: u32,
    /// Whether the token may go over plain http to a host that is not this machine.
    pub insecure: bool,
    /// A file whose first line is the token (wins over the environment).
    pub token_file: Option<std::path::PathBuf>,
    /// The names the token's environment variables and file option go by.
    pub names: TokenEnv,
}

impl LiveSource {
    /// The token source: the token file, else the token variables (by the names in use).
    /// `Ok(None)` when none is configured.
    pub fn discover(&self) -> Result<Option<TokenSource>, String> {
        let names = &self.names;
        let standard = TokenEnv::default();
        let found = TokenSource::discover_with(self.token_file.as_deref(), |name| {
            let renamed = if name == standard.token {
                &names.token
            } else if name == standard.access_key {
                &names.access_key
            } else if name == standard.secret {
                &names.secret
            } else {
                name
            };
            std::env::var(renamed).ok()
        });
        found.map_err(|e| names.rename(&e))
    }

    /// The API client and token source, after the transport check.
    pub fn connect(&self) -> Result<Connection, String> {
        let tokens = self.discover()?.ok_or_else(|| {
            self.names.rename(
                "no token: set HMS_MANAGEMENT_TOKEN, or HMS_ACCESS_KEY and HMS_SECRET, or pass --token-file FILE",
            )
        })?;
        check_transport(&self.base_url, self.insecure)?;
        let api = Api::new(&self.base_url, self.page_size)?;
        Ok(Connection {
            api,
            tokens,
            names: self.names.clone(),
        })
    }
}

/// A live source ready for requests: the client, where its tokens come from, and the names the
/// token's settings go by in messages.
#[derive(Debug, Clone)]
pub struct Connection {
    pub api: Api,
    pub tokens: TokenSource,
    pub names: TokenEnv,
}

/// Why a room's name could not be turned into its id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoomError {
    /// No room, or several, have the name: what was found is said.
    #[error("{0}")]
    Unknown(String),
    /// The lookup itself failed.
    #[error("{0}")]
    Lookup(String),
}

/// The room a `--room` value names, for a query: an id as it is; a name looked up in the rooms
/// endpoint (the enabled rooms, then the disabled ones: a room's past events outlive it), which
/// must name exactly one room. The error says what was found.
pub async fn resolve_room(
    connection: &Connection,
    value: &str,
    on_retry: &(impl Fn(&Retry) + Sync),
) -> Result<String, RoomError> {
    if rooms::looks_like_room_id(value) {
        return Ok(value.to_string());
    }
    match look_up_room(connection, value, on_retry).await? {
        rooms::Named::One(room) => Ok(room.id),
        named => Err(RoomError::Unknown(not_one_room(value, &named))),
    }
}

/// What the rooms endpoint says of a room's name: the enabled rooms of that name, then the
/// disabled ones (a room's past events outlive it), and, when none has it, the room whose id it
/// is in another form than the service's own (a replayed dump's, say).
/// `on_retry` hears of each request that failed and is tried again.
pub async fn look_up_room(
    connection: &Connection,
    value: &str,
    on_retry: &(impl Fn(&Retry) + Sync),
) -> Result<rooms::Named, RoomError> {
    let tokens = std::sync::Mutex::new(connection.tokens.clone());
    let pause = worker::Pause::default();
    let lookup = |enabled: Option<bool>| {
        let (tokens, pause) = (&tokens, &pause);
        async move {
            worker::retrying(
                tokens,
                pause,
                |token| async move { connection.api.rooms_named(&token, value, enabled).await },
                |retry| {
                    tracing::info!(reason = %retry.reason, wait_ms = retry.wait.as_millis() as u64, "retrying the room lookup");
                    on_retry(&retry);
                },
            )
            .await
            .map_err(|e| {
                RoomError::Lookup(connection.names.rename(&format!(
                    "cannot look up the room named {value:?}: {}",
                    e.describe()
                )))
            })
        }
    };
    let mut found = rooms::named(value, lookup(None).await?);
    if let rooms::Named::None { near } = &found
        && near.is_empty()
    {
        found = rooms::named(value, lookup(Some(false)).await?);
    }
    if let rooms::Named::None { .. } = &found {
        let by_id = match worker::retrying(
            &tokens,
            &pause,
            |token| async move { connection.api.room(&token, value).await },
            |retry| on_retry(&retry),
        )
        .await
        {
            Ok(room) => room,
            // A guess: the service refuses a name that no id of its can be with a 400 (the
            // same token was just taken for the lookups by name), which answers it: no room
            // has this id either, and the rooms whose names hold the value are what to say.
            Err(e) if e.status() == Some(400) => {
                tracing::info!(name = value, error = %e.describe(), "the name is no room id");
                None
            }
            Err(e) => {
                return Err(RoomError::Lookup(connection.names.rename(&format!(
                    "cannot look up the room {value:?}: {}",
                    e.describe()
                ))));
            }
        };
        if let Some(room) = by_id {
            return Ok(rooms::Named::One(room));
        }
    }
    if let rooms::Named::One(room) = &found {
        tracing::info!(name = value, id = %room.id, "room named");
    }
    Ok(found)
}

/// What to say when a name does not name exactly one room: none (with the rooms whose names
/// contain it), or several, listed.
pub fn not_one_room(value: &str, named: &rooms::Named) -> String {
    match named {
        rooms::Named::One(room) => format!("{value:?} is the room {}", room.line()),
        rooms::Named::None { near } if near.is_empty() => format!(
            "no room is named {value:?}: give its id (--room ID), or check the name in the dashboard"
        ),
        rooms::Named::None { near } => format!(
            "no room is named {value:?}; rooms whose names contain it: {}",
            list(near)
        ),
        rooms::Named::Several(rooms) => format!(
            "{} rooms are named {value:?}: give the id of the one you mean (--room ID): {}",
            rooms.len(),
            list(rooms)
        ),
    }
}

/// Rooms in one line, at most ten.
fn list(rooms: &[rooms::Room]) -> String {
    let mut lines: Vec<String> = rooms.iter().take(10).map(rooms::Room::line).collect();
    if rooms.len() > 10 {
        lines.push(format!("and {} more", rooms.len() - 10));
    }
    lines.join("; ")
}

/// What to say when a live query names no room.
pub const NO_ROOM: &str = "the live API answers queries of one room only: name it with --room ID, or --room NAME to look the name up";

/// The filter with its room as the id the events endpoint takes, a name looked up.
pub async fn with_room_id(
    connection: &Connection,
    filter: &Filter,
    on_retry: &(impl Fn(&Retry) + Sync),
) -> Result<Filter, RoomError> {
    let Some(room) = filter.room() else {
        return Err(RoomError::Unknown(NO_ROOM.to_string()));
    };
    let id = resolve_room(connection, room, on_retry).await?;
    let mut filter = filter.clone();
    filter.set(crate::event::Field::Room, Some(id));
    Ok(filter)
}

/// Progress of a whole-query fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub pages: usize,
    pub events: usize,
    pub total: Option<u64>,
}

/// What a whole-query fetch says besides its progress.
#[derive(Debug, Clone, Copy)]
pub enum Notice<'a> {
    /// A request failed and is tried again.
    Retry(&'a Retry),
    /// The service refused a cursor and its part of the query is asked again from its first
    /// page: what to say of it.
    Restarted(&'a str),
    /// Every event of the query arrived though these requests failed: they were no longer
    /// needed (a cursor whose events the others had brought), and the answer is whole.
    NotNeeded(&'a [String]),
}

/// What is said of a query loaded in full though requests failed on the way (`failures`, each
/// "loading the query: HTTP 401: …"): "every event of the query arrived; a request no longer
/// needed failed: …".
pub fn not_needed_note(failures: &[String]) -> String {
    format!(
        "every event of the query arrived; {} no longer needed failed: {}",
        match failures.len() {
            1 => "a request",
            _ => "requests",
        },
        failures.join("; ")
    )
}

/// A whole-query fetch that stopped part-way.
#[derive(Debug)]
pub struct Unfinished {
    /// The events that arrived before it stopped.
    pub store: Store,
    /// Why it stopped.
    pub message: String,
    /// How far each part of the query got; the default when the fetch task said nothing of it.
    pub tally: Tally,
}

/// Pages through everything that matches, de-duplicating by id, until the query is loaded, a
/// cursor repeats, or `max` events are loaded. On failure the events loaded so far are returned
/// with the message and how far each part got. `on_notice` hears of each retry, each query asked
/// again, and the failures that turned out not to matter.
///
/// The fetch task does the paging: with a type in the filter, one cursor, page after page; without
/// one, one cursor per type in parallel, merged into the order one cursor would give (see
/// [`super::worker`]). With `max`, one cursor, that stops at the page that brings the events
/// matching `filter` to `max`.
pub async fn fetch_all(
    api: &Api,
    tokens: TokenSource,
    filter: &Filter,
    max: Option<usize>,
    on_progress: impl FnMut(Progress),
    on_notice: impl FnMut(Notice),
) -> Result<Store, Unfinished> {
    fetch_all_with(
        api,
        tokens,
        filter,
        max,
        Fanout::PerType,
        on_progress,
        on_notice,
    )
    .await
}

/// [`fetch_all`], choosing how the fetch task fans out.
pub async fn fetch_all_with(
    api: &Api,
    tokens: TokenSource,
    filter: &Filter,
    max: Option<usize>,
    fanout: Fanout,
    mut on_progress: impl FnMut(Progress),
    mut on_notice: impl FnMut(Notice),
) -> Result<Store, Unfinished> {
    let (reports_tx, mut reports) = mpsc::unbounded_channel();
    // Dropping the command sender on return stops the task and cancels what is in flight.
    let commands = worker::spawn_with(api.clone(), tokens, reports_tx, fanout);
    let id = 1;
    let mut store = Store::new();
    let query = Command::Query {
        id,
        filter: filter.clone(),
    };
    // With a maximum, each page is asked for once the previous one is counted, so that no page
    // beyond the maximum is requested; without, the task loads everything, back to back.
    let lazy = max.is_some();
    let send = |command| {
        commands
            .send(command)
            .map_err(|_| "the fetch task stopped".to_string())
    };
    let mut started = send(query);
    if !lazy {
        started = started.and_then(|()| send(Command::LoadAll { id }));
    }
    let unfinished = |store, message| Unfinished {
        store,
        message,
        tally: Tally::default(),
    };
    if let Err(e) = started {
        return Err(unfinished(store, e));
    }
    let mut tally = Tally::default();
    let mut progress = Progress {
        pages: 0,
        events: 0,
        total: None,
    };
    let mut matched = 0;
    while let Some(report) = reports.recv().await {
        match report {
            Report::Page { page, .. } => {
                let before = store.len();
                store.merge(*page.batch);
                progress.pages += 1;
                progress.events = store.len();
                progress.total = page.total.or(progress.total);
                on_progress(progress);
                // The maximum counts events that match: the API applies only part of the
                // filter (not the search, nor the final/retried choice), the rest is ours.
                if let Some(m) = max {
                    matched += store.matching(filter, before..store.len()).len();
                    if matched >= m {
                        return Ok(store);
                    }
                }
                if lazy
                    && !page.next.is_empty()
                    && let Err(e) = send(Command::NextPage { id })
                {
                    return Err(unfinished(store, e));
                }
            }
            Report::Retrying { retry, .. } => on_notice(Notice::Retry(&retry)),
            Report::Restarted { message, .. } => on_notice(Notice::Restarted(&message)),
            Report::Fetching { .. } | Report::InFlight { .. } => {}
            Report::Tally { tally: t, .. } => tally = *t,
            Report::Finished { .. } => {
                if !tally.redundant.is_empty() {
                    on_notice(Notice::NotNeeded(&tally.redundant));
                }
                return Ok(store);
            }
            Report::Failed { message, .. } => {
                return Err(Unfinished {
                    store,
                    message,
                    tally,
                });
            }
        }
    }
    Err(unfinished(store, "the fetch task stopped".into()))
}
