//! The API over a loaded store: its state (the events, who may query, the queries' matching
//! events kept at hand) and its routes.

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::Path;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::auth::Auth;
use super::cursor::{self, Position};
use super::events::{CURSOR_MESSAGE, EVENTS_PATH, Request, Rules};
use super::problem::{Problem, json_response};
use super::related::{PEER_STATS_PATH, SESSION_PATH, SESSIONS_PATH};
use super::rooms::{ROOM_PATH, ROOMS_PATH, Rooms};
use crate::related::Related;
use crate::store::Store;

/// How many queries keep their matching events at hand, so that paging through a large store
/// does not rescan it for every page. The kept lists together hold at most twice as many indices
/// as the store has events, so that many broad queries cannot pile up memory.
const SNAPSHOTS: usize = 32;

pub struct Api {
    store: Store,
    related: Related,
    auth: Auth,
    rules: Rules,
    rooms: Rooms,
    snapshots: Mutex<Vec<(String, Arc<Vec<u32>>)>>,
    /// How long each request waits before it is answered (`--delay-ms`).
    delay: std::time::Duration,
}

impl Api {
    pub fn new(store: Store, related: Related, auth: Auth, rules: Rules) -> Api {
        Api {
            rooms: Rooms::of(&related, &store),
            store,
            related,
            auth,
            rules,
            snapshots: Mutex::new(Vec::new()),
            delay: std::time::Duration::ZERO,
        }
    }

    /// Makes every request wait `delay` before it is answered, as if the server were far away.
    pub fn with_delay(mut self, delay: std::time::Duration) -> Api {
        self.delay = delay;
        self
    }

    /// The matching events of a query, computed once per query key while it stays recent. The
    /// store never changes while serving, so a recomputed list is the same list.
    fn matching(&self, query: &Request) -> Arc<Vec<u32>> {
        {
            let mut snapshots = self.snapshots.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(pos) = snapshots.iter().position(|(k, _)| *k == query.key) {
                let hit = snapshots.remove(pos);
                let rows = Arc::clone(&hit.1);
                snapshots.push(hit);
                return rows;
            }
        }
        let mut rows = self.store.filter(&query.filter);
        if query.errors_only || query.beam_id.is_some() {
            rows.retain(|&i| self.also_matches(query, i as usize));
        }
        let rows = Arc::new(rows);
        let mut snapshots = self.snapshots.lock().unwrap_or_else(|e| e.into_inner());
        let budget = self.store.len().saturating_mul(2);
        let mut held: usize = snapshots.iter().map(|(_, r)| r.len()).sum::<usize>() + rows.len();
        while !snapshots.is_empty() && (snapshots.len() >= SNAPSHOTS || held > budget) {
            held -= snapshots.remove(0).1.len();
        }
        snapshots.push((query.key.clone(), Arc::clone(&rows)));
        rows
    }

    /// The parts of a query the filter does not hold: only the client error events
    /// (`error=true`), only one recording's events (`beam_id`).
    fn also_matches(&self, query: &Request, i: usize) -> bool {
        let row = self.store.row(i);
        if query.errors_only && !self.store.str(row.kind).starts_with("client.") {
            return false;
        }
        match &query.beam_id {
            Some(beam) => self.store.event(i).data_str("beam_id") == Some(beam.as_str()),
            None => true,
        }
    }

    /// The response body for a query at unix second `now`.
    pub fn page(&self, query: &Request, now: u64) -> Result<Vec<u8>, Problem> {
        let pos = match &query.start {
            None => Position {
                offset: 0,
                started: now,
            },
            Some(text) => cursor::decode(self.auth.mac(), &query.key, text, now)
                .ok_or_else(|| Problem::bad_request(CURSOR_MESSAGE))?,
        };
        let rows = self.matching(query);
        let total = rows.len();
        // A cursor is only issued for an offset inside the list, and the list cannot shrink.
        let start = pos.offset.min(total);
        let end = start.saturating_add(query.limit).min(total);
        let next = if end < total {
            cursor::encode(
                self.auth.mac(),
                &query.key,
                Position {
                    offset: end,
                    started: pos.started,
                },
            )
        } else {
            String::new()
        };
        let page = &rows[start..end];
        let raw_len: usize = page
            .iter()
            .map(|&i| self.store.raw(i as usize).len() + 1)
            .sum();
        let mut body = Vec::with_capacity(raw_len + next.len() + 64);
        // `next` is made of ASCII letters, digits and `:~=_-` only: no JSON escaping needed.
        body.extend_from_slice(
            format!(
                "{{\"limit\":{},\"total\":{total},\"next\":\"{next}\",\"events\":[",
                page.len()
            )
            .as_bytes(),
        );
        for (k, &i) in page.iter().enumerate() {
            if k > 0 {
                body.push(b',');
            }
            crate::output::write_compact(self.store.raw(i as usize), &mut body)
                .map_err(|_| Problem::internal("cannot build the response"))?;
        }
        body.extend_from_slice(b"]}");
        Ok(body)
    }
}

pub fn router(api: Arc<Api>) -> Router {
    Router::new()
        .route(EVENTS_PATH, get(list_events))
        .route(ROOMS_PATH, get(list_rooms))
        .route(ROOM_PATH, get(get_room))
        .route(SESSIONS_PATH, get(list_sessions))
        .route(SESSION_PATH, get(get_session))
        .route(PEER_STATS_PATH, get(peer_stats))
        .method_not_allowed_fallback(|| async {
            Problem::new(StatusCode::METHOD_NOT_ALLOWED, "only GET is supported")
        })
        .fallback(|| async {
            Problem::not_found(format!(
                "the API is GET {EVENTS_PATH}, {PEER_STATS_PATH}, {ROOMS_PATH}[/ID] and \
                 {SESSIONS_PATH}[/ID]"
            ))
        })
        .with_state(api)
}

/// A request's query as its pairs, or the answer that refuses it. What every answer does first:
/// the delay asked for (`--delay-ms`), then the token (a caller without it learns nothing about
/// the parameters), then the query string.
async fn admitted(
    api: &Api,
    headers: &HeaderMap,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Vec<(String, String)>, Response> {
    if !api.delay.is_zero() {
        tokio::time::sleep(api.delay).await;
    }
    api.auth
        .check(headers)
        .map_err(IntoResponse::into_response)?;
    match query {
        Ok(Query(pairs)) => Ok(pairs),
        Err(_) => Err(Problem::bad_request("the query string cannot be read").into_response()),
    }
}

/// A body as a 200 answer, or the problem's own.
fn answered(result: Result<Vec<u8>, Problem>) -> Response {
    match result {
        Ok(body) => json_response(StatusCode::OK, body),
        Err(p) => p.into_response(),
    }
}

async fn list_events(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Response {
    let pairs = match admitted(&api, &headers, query).await {
        Ok(pairs) => pairs,
        Err(refused) => return refused,
    };
    let result =
        Request::parse(&pairs, api.rules).and_then(|request| api.page(&request, unix_now()));
    if let Err(p) = &result {
        tracing::info!(
            status = p.status.as_u16(),
            refused = p.what(),
            "query refused"
        );
    }
    answered(result)
}

async fn list_rooms(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Response {
    match admitted(&api, &headers, query).await {
        Ok(pairs) => answered(api.rooms.list(&pairs)),
        Err(refused) => refused,
    }
}

async fn get_room(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    match admitted(&api, &headers, Ok(Query(Vec::new()))).await {
        Ok(_) => answered(api.rooms.get(&id)),
        Err(refused) => refused,
    }
}

/// Answers a GET of the related data: `answer` over the query, once admitted.
async fn related(
    api: &Api,
    headers: &HeaderMap,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
    answer: impl FnOnce(&Related, &[(String, String)]) -> Result<Vec<u8>, Problem>,
) -> Response {
    match admitted(api, headers, query).await {
        Ok(pairs) => answered(answer(&api.related, &pairs)),
        Err(refused) => refused,
    }
}

async fn list_sessions(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Response {
    related(&api, &headers, query, super::related::list_sessions).await
}

async fn get_session(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let query = Ok(Query(Vec::new()));
    related(&api, &headers, query, |r, _| {
        super::related::get_session(r, &id)
    })
    .await
}

async fn peer_stats(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Response {
    related(&api, &headers, query, super::related::peer_stats).await
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
