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
    /// `created_at` and `updated_at` read once by [`Session::parse`]: a verdict asks for them
    /// for every chain of the room.
    #[serde(skip)]
    times: Option<(Option<i64>, Option<i64>)>,
    /// For a session read from a saved file, the latest time it names ([`Session::latest`]):
    /// an active one is known up to then, not up to the moment it is read. `None` for one
    /// asked of the service, known up to now while active.
    #[serde(skip)]
    pub saved_as_of: Option<i64>,
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
    /// `joined_at` and `left_at` read once by [`Session::parse`].
    #[serde(skip)]
    times: Option<(Option<i64>, Option<i64>)>,
}

impl SessionPeer {
    /// When the peer joined, in nanoseconds since the epoch.
    pub fn joined(&self) -> Option<i64> {
        match self.times {
            Some((joined, _)) => joined,
            None => self.joined_at.as_deref().and_then(parse_rfc3339_nanos),
        }
    }

    /// When the peer left; `None` while it is in the call (or when the time is unreadable).
    pub fn left(&self) -> Option<i64> {
        match self.times {
            Some((_, left)) => left,
            None => self.left_at.as_deref().and_then(parse_rfc3339_nanos),
        }
    }
}

impl Session {
    pub fn parse(raw: &str) -> Result<Session, String> {
        let mut session: Session = serde_json::from_str(raw).map_err(|e| e.to_string())?;
        session.raw = raw.to_string();
        let time = |t: &Option<String>| t.as_deref().and_then(parse_rfc3339_nanos);
        session.times = Some((time(&session.created_at), time(&session.updated_at)));
        for peer in &mut session.peers {
            peer.times = Some((time(&peer.joined_at), time(&peer.left_at)));
        }
        Ok(session)
    }

    /// When the session began.
    pub fn started(&self) -> Option<i64> {
        match self.times {
            Some((created, _)) => created,
            None => self.created_at.as_deref().and_then(parse_rfc3339_nanos),
        }
    }

    fn updated(&self) -> Option<i64> {
        match self.times {
            Some((_, updated)) => updated,
            None => self.updated_at.as_deref().and_then(parse_rfc3339_nanos),
        }
    }

    /// Marks the session as read from a saved file: known up to the latest time it names.
    pub fn as_saved(&mut self) {
        self.saved_as_of = self.latest();
    }

    /// The latest time the session's record names: its start, its update, and its peers' joins
    /// and leaves. A saved session is known up to this at most, active or not.
    pub fn latest(&self) -> Option<i64> {
        let peers = self.peers.iter().flat_map(|p| [p.joined(), p.left()]);
        [self.started(), self.updated()]
            .into_iter()
            .chain(peers)
            .flatten()
            .max()
    }

    /// Whether this copy of a session knows more of it than `other`, a copy of the same id
    /// read elsewhere: it ended (`active: false`) where the other is still active, or
    /// otherwise (both alike, or either not saying) it names a later time.
    pub fn knows_more_than(&self, other: &Session) -> bool {
        match (self.active, other.active) {
            (Some(false), Some(true)) => true,
            (Some(true), Some(false)) => false,
            _ => self.latest() > other.latest(),
        }
    }

    /// The latest time the session is known to cover: now while it is active, else the last of
    /// its update and its peers' leaves.
    pub fn known_until(&self, now: i64) -> Option<i64> {
        if self.active == Some(true) {
            return Some(self.saved_as_of.map_or(now, |saved| saved.min(now)));
        }
        let updated = self.updated();
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
