//! A room, as the rooms endpoint describes it.

use serde::Deserialize;

/// A room: its id and name, and what tells rooms of one name apart.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Room {
    pub id: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub enabled: Option<bool>,
    #[serde(default)]
    pub created_at: Option<String>,
    /// The object as it arrived.
    #[serde(skip)]
    pub raw: String,
}

impl Room {
    pub fn parse(raw: &str) -> Result<Room, String> {
        let mut room: Room = serde_json::from_str(raw).map_err(|e| e.to_string())?;
        room.raw = raw.to_string();
        Ok(room)
    }

    /// The room in a line: `weekly-allhands (65af…, enabled, created 2026-01-05)`.
    pub fn line(&self) -> String {
        let mut parts = vec![self.id.clone()];
        match self.enabled {
            Some(false) => parts.push("disabled".into()),
            Some(true) => parts.push("enabled".into()),
            None => {}
        }
        if let Some(created) = &self.created_at {
            parts.push(format!("created {}", created.get(..10).unwrap_or(created)));
        }
        format!("{} ({})", self.name, parts.join(", "))
    }
}
