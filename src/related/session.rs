//! A session of a room, as the sessions endpoint describes it: who joined it, and when each left.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};

use crate::time::parse_rfc3339_nanos;

/// A session: a room's call from its first join to its last leave.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Session {
    pub id: String,
    pub room_id: String,
    #[serde(default)]
    pub active: Option<bool>,
    #[serde(default)]
    pub created_at: Option<String>,
    #[serde(default)]
    pub updated_at: Option<String>,
    /// The peers who joined, by peer id (the reference's samples key them by id; its object
    /// table calls them an array: both are read).
    #[serde(default, deserialize_with = "peers")]
    pub peers: Vec<SessionPeer>,
    /// The object as it arrived.
    #[serde(skip)]
    pub raw: String,
}

/// A peer of a session.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct SessionPeer {
    #[serde(default)]
    pub id: String,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub role: Option<String>,
    #[serde(default)]
    pub user_id: Option<String>,
    #[serde(default)]
    pub joined_at: Option<String>,
    #[serde(default)]
    pub left_at: Option<String>,
}

impl SessionPeer {
    /// When the peer joined, in nanoseconds since the epoch.
    pub fn joined(&self) -> Option<i64> {
        self.joined_at.as_deref().and_then(parse_rfc3339_nanos)
    }

    /// When the peer left; `None` while it is in the call (or when the time is unreadable).
    pub fn left(&self) -> Option<i64> {
        self.left_at.as_deref().and_then(parse_rfc3339_nanos)
    }
}

impl Session {
    pub fn parse(raw: &str) -> Result<Session, String> {
        let mut session: Session = serde_json::from_str(raw).map_err(|e| e.to_string())?;
        session.raw = raw.to_string();
        Ok(session)
    }

    /// When the session began.
    pub fn started(&self) -> Option<i64> {
        self.created_at.as_deref().and_then(parse_rfc3339_nanos)
    }

    /// The latest time the session is known to cover: now while it is active, else the last of
    /// its update and its peers' leaves.
    pub fn known_until(&self, now: i64) -> Option<i64> {
        if self.active == Some(true) {
            return Some(now);
        }
        let updated = self.updated_at.as_deref().and_then(parse_rfc3339_nanos);
        self.peers
            .iter()
            .filter_map(SessionPeer::left)
            .chain(updated)
            .max()
    }
}

fn peers<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<SessionPeer>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Peers {
        ById(BTreeMap<String, SessionPeer>),
        List(Vec<SessionPeer>),
        None(()),
    }
    Ok(match Peers::deserialize(d)? {
        Peers::ById(map) => map
            .into_iter()
            .map(|(id, mut peer)| {
                if peer.id.is_empty() {
                    peer.id = id;
                }
                peer
            })
            .collect(),
        Peers::List(list) => list,
        Peers::None(()) => Vec::new(),
    })
}
