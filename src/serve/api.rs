//! `GET /v2/analytics/events` over a loaded store, with the service's parameters, envelope and
//! paging (spec/api-facts.md).

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::cursor::{self, Mac, Position};
use crate::event::EventType;
use crate::filter::Filter;
use crate::store::Store;

pub const EVENTS_PATH: &str = "/v2/analytics/events";

pub const DEFAULT_LIMIT: usize = 10;
pub const MAX_LIMIT: usize = 100;

pub const LIMIT_MESSAGE: &str = "limit must be an integer from 1 to 100";
pub const CURSOR_MESSAGE: &str = "invalid or expired start cursor";

/// How many queries keep their matching events at hand, so that paging through a large store
/// does not rescan it for every page. The kept lists together hold at most twice as many indices
/// as the store has events, so that many broad queries cannot pile up memory.
const SNAPSHOTS: usize = 32;

pub struct Api {
    store: Store,
    mac: Mac,
    /// The token's tag under `mac`: requests are checked against it, so the token itself is not
    /// kept and comparing takes the same time whatever the token sent.
    token_tag: String,
    snapshots: Mutex<Vec<(String, Arc<Vec<u32>>)>>,
    /// How long each request waits before it is answered (`--delay-ms`).
    delay: std::time::Duration,
}

impl Api {
    pub fn new(store: Store, token: &str, mac: Mac) -> Api {
        Api {
            token_tag: mac.tag(token.as_bytes()),
            store,
            mac,
            snapshots: Mutex::new(Vec::new()),
            delay: std::time::Duration::ZERO,
        }
    }

    /// Makes every request wait `delay` before it is answered, as if the server were far away.
    pub fn with_delay(mut self, delay: std::time::Duration) -> Api {
        self.delay = delay;
        self
    }

    fn authorize(&self, headers: &HeaderMap) -> Result<(), Problem> {
        let Some(value) = headers.get(header::AUTHORIZATION) else {
            return Err(Problem::unauthorized(
                "missing Authorization header: send Authorization: Bearer <token>",
            ));
        };
        let value = value.as_bytes();
        let token = match value.iter().position(|&b| b == b' ') {
            Some(space) if value[..space].eq_ignore_ascii_case(b"bearer") => {
                value[space + 1..].trim_ascii()
            }
            _ => {
                return Err(Problem::unauthorized(
                    "the Authorization header must be: Bearer <token>",
                ));
            }
        };
        if self.mac.check(&self.token_tag, token) {
            Ok(())
        } else {
            Err(Problem::unauthorized("invalid bearer token"))
        }
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
        let rows = Arc::new(self.store.filter(&query.filter));
        let mut snapshots = self.snapshots.lock().unwrap_or_else(|e| e.into_inner());
        let budget = self.store.len().saturating_mul(2);
        let mut held: usize = snapshots.iter().map(|(_, r)| r.len()).sum::<usize>() + rows.len();
        while !snapshots.is_empty() && (snapshots.len() >= SNAPSHOTS || held > budget) {
            held -= snapshots.remove(0).1.len();
        }
        snapshots.push((query.key.clone(), Arc::clone(&rows)));
        rows
    }

    /// The response body for a query at unix second `now`.
    pub fn page(&self, query: &Request, now: u64) -> Result<Vec<u8>, Problem> {
        let pos = match &query.start {
            None => Position {
                offset: 0,
                started: now,
            },
            Some(text) => cursor::decode(&self.mac, &query.key, text, now)
                .ok_or_else(|| Problem::bad_request(CURSOR_MESSAGE))?,
        };
        let rows = self.matching(query);
        let total = rows.len();
        // A cursor is only issued for an offset inside the list, and the list cannot shrink.
        let start = pos.offset.min(total);
        let end = start.saturating_add(query.limit).min(total);
        let next = if end < total {
            cursor::encode(
                &self.mac,
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

/// One request's parameters, checked.
#[derive(Debug)]
pub struct Request {
    pub filter: Filter,
    pub limit: usize,
    pub start: Option<String>,
    /// The canonical form of the filter, which a cursor is bound to. The page size is not part of
    /// it: a client may change `limit` from one page to the next.
    pub key: String,
}

impl Request {
    /// Reads the query parameters. `type` may repeat (a full name or an alias); the others may
    /// appear once; unknown parameters are ignored, as the service ignores them; an empty value is
    /// the same as no value.
    pub fn parse(pairs: &[(String, String)]) -> Result<Request, Problem> {
        let mut filter = Filter::default();
        let mut limit = None;
        let mut start = None;
        for (name, value) in pairs {
            let once = |slot: &Option<String>| {
                if slot.is_some() {
                    Err(Problem::bad_request(format!(
                        "{name} may be given only once"
                    )))
                } else {
                    Ok(())
                }
            };
            match name.as_str() {
                "type" => {
                    if value.is_empty() {
                        continue;
                    }
                    let t = EventType::from_arg(value).map_err(Problem::bad_request)?;
                    if !filter.types.contains(&t) {
                        filter.types.push(t);
                    }
                }
                "room_id" | "session_id" | "peer_id" | "user_id" => {
                    let slot = match name.as_str() {
                        "room_id" => &mut filter.room,
                        "session_id" => &mut filter.session,
                        "peer_id" => &mut filter.peer,
                        _ => &mut filter.user,
                    };
                    once(slot)?;
                    if !value.is_empty() {
                        *slot = Some(value.clone());
                    }
                }
                "limit" => {
                    if limit.is_some() {
                        return Err(Problem::bad_request(LIMIT_MESSAGE));
                    }
                    limit = Some(
                        parse_limit(value).ok_or_else(|| Problem::bad_request(LIMIT_MESSAGE))?,
                    );
                }
                "start" => {
                    if start.is_some() {
                        return Err(Problem::bad_request(CURSOR_MESSAGE));
                    }
                    start = Some(value.clone());
                }
                _ => {}
            }
        }
        filter.types.sort();
        let key = query_key(&filter);
        Ok(Request {
            filter,
            limit: limit.unwrap_or(DEFAULT_LIMIT),
            start: start.filter(|s| !s.is_empty()),
            key,
        })
    }
}

fn parse_limit(text: &str) -> Option<usize> {
    if text.is_empty() || text.len() > 3 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: usize = text.parse().ok()?;
    (1..=MAX_LIMIT).contains(&n).then_some(n)
}

/// The filter in one unambiguous spelling: the same query written with aliases, in another
/// parameter order or with a repeated type has the same key.
fn query_key(filter: &Filter) -> String {
    let types: Vec<&str> = filter.types.iter().map(EventType::name).collect();
    serde_json::json!([types, filter.room, filter.session, filter.peer, filter.user]).to_string()
}

/// An error response: a status and a JSON `{"message": ...}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub status: StatusCode,
    pub message: String,
}

impl Problem {
    fn new(status: StatusCode, message: impl Into<String>) -> Problem {
        Problem {
            status,
            message: message.into(),
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Problem {
        Problem::new(StatusCode::BAD_REQUEST, message)
    }

    fn unauthorized(message: &str) -> Problem {
        Problem::new(StatusCode::UNAUTHORIZED, message)
    }

    fn internal(message: &str) -> Problem {
        Problem::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "message": self.message }).to_string();
        let mut response = json_response(self.status, body.into_bytes());
        if self.status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

fn json_response(status: StatusCode, body: Vec<u8>) -> Response {
    (
        status,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        body,
    )
        .into_response()
}

pub fn router(api: Arc<Api>) -> Router {
    Router::new()
        .route(EVENTS_PATH, get(list_events))
        .method_not_allowed_fallback(|| async {
            Problem::new(StatusCode::METHOD_NOT_ALLOWED, "only GET is supported")
        })
        .fallback(|| async {
            Problem::new(
                StatusCode::NOT_FOUND,
                format!("not found: the API is GET {EVENTS_PATH}"),
            )
        })
        .with_state(api)
}

async fn list_events(
    State(api): State<Arc<Api>>,
    headers: HeaderMap,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Response {
    if !api.delay.is_zero() {
        tokio::time::sleep(api.delay).await;
    }
    // The token is checked first: a caller without it learns nothing about the parameters.
    if let Err(p) = api.authorize(&headers) {
        return p.into_response();
    }
    let Ok(Query(pairs)) = query else {
        return Problem::bad_request("the query string cannot be read").into_response();
    };
    let result = Request::parse(&pairs).and_then(|request| api.page(&request, unix_now()));
    match result {
        Ok(body) => json_response(StatusCode::OK, body),
        Err(p) => p.into_response(),
    }
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn aliases_order_and_repeats_give_one_key() {
        let a = Request::parse(&pairs(&[
            ("type", "join"),
            ("room_id", "r"),
            ("type", "client.publish.failed"),
        ]))
        .unwrap();
        let b = Request::parse(&pairs(&[
            ("room_id", "r"),
            ("type", "publish"),
            ("type", "client.join.failed"),
            ("type", "join"),
            ("limit", "7"),
        ]))
        .unwrap();
        assert_eq!(a.key, b.key);
        assert_eq!(a.filter, b.filter);
        assert_eq!((a.limit, b.limit), (DEFAULT_LIMIT, 7));
    }

    #[test]
    fn limits_outside_one_to_a_hundred_are_refused() {
        for bad in [
            "0",
            "101",
            "abc",
            "",
            "-1",
            "+5",
            "1e1",
            " 5",
            "1000",
            "99999999999999999999",
        ] {
            let p = Request::parse(&pairs(&[("limit", bad)])).unwrap_err();
            assert_eq!(
                (p.status, p.message.as_str()),
                (StatusCode::BAD_REQUEST, LIMIT_MESSAGE),
                "{bad:?}"
            );
        }
        for (good, n) in [("1", 1), ("100", 100), ("007", 7)] {
            assert_eq!(Request::parse(&pairs(&[("limit", good)])).unwrap().limit, n);
        }
    }

    #[test]
    fn single_valued_parameters_may_not_repeat() {
        assert!(Request::parse(&pairs(&[("room_id", "a"), ("room_id", "b")])).is_err());
        assert!(Request::parse(&pairs(&[("limit", "5"), ("limit", "5")])).is_err());
        assert!(Request::parse(&pairs(&[("start", "x"), ("start", "x")])).is_err());
    }

    #[test]
    fn unknown_parameters_and_empty_values_are_ignored() {
        let r = Request::parse(&pairs(&[
            ("colour", "blue"),
            ("room_id", ""),
            ("type", ""),
            ("start", ""),
        ]))
        .unwrap();
        assert!(r.filter.is_empty());
        assert_eq!(r.start, None);
    }

    #[test]
    fn an_unknown_type_word_is_a_bad_request() {
        let p = Request::parse(&pairs(&[("type", "nonsense")])).unwrap_err();
        assert_eq!(p.status, StatusCode::BAD_REQUEST);
        assert!(p.message.contains("nonsense"), "{}", p.message);
        let other = Request::parse(&pairs(&[("type", "track.add.success")])).unwrap();
        assert_eq!(
            other.filter.types,
            vec![EventType::Other("track.add.success".into())]
        );
    }
}
