//! Sessions (`GET /v2/sessions`, paged by `last`) and a peer's quality stats in one
//! (`GET /v2/analytics/peer-stats`): who got into a room's call and when, and what the peer's
//! network looked like.

use serde::Deserialize;

use super::{Api, FetchError};
use crate::related::{PeerStats, Session};
use crate::source::token::Token;

pub const SESSIONS_PATH: &str = "/v2/sessions";
pub const PEER_STATS_PATH: &str = "/v2/analytics/peer-stats";

/// A page of the sessions endpoint.
#[derive(Debug, Deserialize)]
struct SessionsPage<'a> {
    #[serde(default, borrow)]
    data: Option<Vec<&'a serde_json::value::RawValue>>,
    #[serde(default)]
    last: Option<String>,
}

/// Which sessions to ask for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionQuery {
    pub room_id: Option<String>,
    /// The service lists active sessions only unless told `active=false`.
    pub active: Option<bool>,
    /// RFC 3339 bounds on when sessions were created.
    pub after: Option<String>,
    pub before: Option<String>,
    /// At most this many sessions are read, page after page.
    pub most: usize,
}

impl Api {
    /// The sessions the query names, newest first as the endpoint lists them.
    pub async fn sessions(
        &self,
        token: &Token,
        query: &SessionQuery,
    ) -> Result<Vec<Session>, FetchError> {
        let mut sessions = Vec::new();
        let mut start: Option<String> = None;
        let limit = 100usize;
        while sessions.len() < query.most {
            let mut params = vec![("limit", limit.to_string())];
            let optional = [
                ("room_id", query.room_id.clone()),
                ("active", query.active.map(|a| a.to_string())),
                ("after", query.after.clone()),
                ("before", query.before.clone()),
                ("start", start.clone()),
            ];
            params.extend(
                optional
                    .into_iter()
                    .filter_map(|(k, v)| v.filter(|v| !v.is_empty()).map(|v| (k, v))),
            );
            let (body, target) = self.get(SESSIONS_PATH, &params, token).await?;
            let page: SessionsPage = serde_json::from_slice(&body).map_err(|e| {
                tracing::warn!(url = %target, error = %e, "bad sessions page");
                FetchError::BadPage(format!("not a list of sessions: {e}"))
            })?;
            let data = page.data.unwrap_or_default();
            // A page shorter than asked for is the last one.
            let full = data.len() >= limit;
            for raw in data {
                sessions.push(
                    Session::parse(raw.get())
                        .map_err(|e| FetchError::BadPage(format!("not a session: {e}")))?,
                );
            }
            match page.last.filter(|l| !l.is_empty()) {
                Some(last) if full && start.as_deref() != Some(last.as_str()) => {
                    start = Some(last);
                }
                _ => break,
            }
        }
        sessions.truncate(query.most);
        Ok(sessions)
    }

    /// A peer's quality stats in a session. The endpoint answers only once the session ended:
    /// before that its refusal is returned as it came, for the person to read.
    pub async fn peer_stats(
        &self,
        token: &Token,
        peer_id: &str,
        session_id: &str,
    ) -> Result<PeerStats, FetchError> {
        let params = [
            ("peer_id", peer_id.to_string()),
            ("session_id", session_id.to_string()),
        ];
        let (body, _) = self.get(PEER_STATS_PATH, &params, token).await?;
        PeerStats::parse(&String::from_utf8_lossy(&body))
            .map_err(|e| FetchError::BadPage(format!("not a peer's quality stats: {e}")))
    }
}
