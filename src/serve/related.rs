//! `GET /v2/sessions`, `GET /v2/sessions/{id}` and `GET /v2/analytics/peer-stats` over the related
//! data serve holds (a dump folder's sessions and stats responses, or the demo's), answered as
//! the hosted API answers them: sessions newest first, active ones only unless `active=false`,
//! `after`/`before` on when they began, `limit` 10..100 and `start` = the previous page's
//! `last`; a peer's stats by `peer_id` and `session_id`, both required.

use super::problem::Problem;
use crate::related::{Related, Session};
use crate::time::parse_rfc3339_nanos;

pub const SESSIONS_PATH: &str = "/v2/sessions";
pub const SESSION_PATH: &str = "/v2/sessions/{id}";
pub const PEER_STATS_PATH: &str = "/v2/analytics/peer-stats";

const DEFAULT_LIMIT: usize = 10;

/// A page of sessions.
pub fn list_sessions(related: &Related, pairs: &[(String, String)]) -> Result<Vec<u8>, Problem> {
    let mut room = None;
    let mut active = true;
    let mut after = None;
    let mut before = None;
    let mut limit = DEFAULT_LIMIT;
    let mut start = None;
    let time = |name: &str, value: &str| {
        parse_rfc3339_nanos(value).ok_or_else(|| {
            Problem::bad_request(format!(
                "{name} must be a time such as 2026-11-18T10:00:00Z"
            ))
        })
    };
    for (key, value) in pairs {
        if value.is_empty() {
            continue;
        }
        match key.as_str() {
            "room_id" => room = Some(value.as_str()),
            "active" => {
                active = match value.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(Problem::bad_request("active must be true or false")),
                }
            }
            "after" => after = Some(time("after", value)?),
            "before" => before = Some(time("before", value)?),
            "limit" => {
                limit = value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (10..=100).contains(n))
                    .ok_or_else(|| {
                        Problem::bad_request("limit must be an integer from 10 to 100")
                    })?;
            }
            "start" => start = Some(value.as_str()),
            _ => {}
        }
    }
    let mut matching: Vec<&Session> = related
        .sessions
        .iter()
        .filter(|s| room.is_none_or(|r| s.room_id == r))
        .filter(|s| s.active.unwrap_or(false) == active)
        .filter(|s| after.is_none_or(|a| s.started().is_some_and(|t| t >= a)))
        .filter(|s| before.is_none_or(|b| s.started().is_some_and(|t| t <= b)))
        .collect();
    // Newest first, as the service lists them.
    matching.sort_by_key(|s| std::cmp::Reverse(s.started()));
    let from = match start {
        None => 0,
        Some(id) => matching
            .iter()
            .position(|s| s.id == id)
            .map(|k| k + 1)
            .ok_or_else(|| Problem::bad_request("invalid start: no session has that id"))?,
    };
    let page: Vec<&Session> = matching.iter().skip(from).take(limit).copied().collect();
    let mut body = format!("{{\"limit\":{limit},\"data\":[");
    for (k, s) in page.iter().enumerate() {
        if k > 0 {
            body.push(',');
        }
        body.push_str(&s.raw);
    }
    body.push(']');
    if let Some(last) = page.last() {
        body.push_str(&format!(
            ",\"last\":{}",
            serde_json::Value::from(last.id.as_str())
        ));
    }
    body.push('}');
    Ok(body.into_bytes())
}

/// One session, by id.
pub fn get_session(related: &Related, id: &str) -> Result<Vec<u8>, Problem> {
    related
        .sessions
        .iter()
        .find(|s| s.id == id)
        .map(|s| s.raw.clone().into_bytes())
        .ok_or_else(|| Problem::not_found(format!("no session has the id {id}")))
}

/// A peer's quality stats in a session.
pub fn peer_stats(related: &Related, pairs: &[(String, String)]) -> Result<Vec<u8>, Problem> {
    let value = |name: &str| {
        pairs
            .iter()
            .find(|(k, v)| k == name && !v.is_empty())
            .map(|(_, v)| v.as_str())
    };
    let (Some(peer), Some(session)) = (value("peer_id"), value("session_id")) else {
        return Err(Problem::bad_request("peer_id and session_id are required"));
    };
    if let Some(s) = related.sessions.iter().find(|s| s.id == session)
        && s.active == Some(true)
    {
        return Err(Problem::bad_request(
            "the session is still active: quality stats are available after it ends",
        ));
    }
    related
        .stats_of(peer, session)
        .map(|s| s.raw.clone().into_bytes())
        .ok_or_else(|| {
            Problem::not_found(format!(
                "no quality stats for peer {peer} in session {session}"
            ))
        })
}
