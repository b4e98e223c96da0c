//! What the loaded events say happened after one event, for the same peer and action. The API
//! reports failures only, never successes: the words here claim no more than that.

use crate::store::{NO_TIME, Store};

/// Later errors of the same peer and action, among the loaded events.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct After {
    /// How many later errors were loaded for the same peer and action.
    pub later: usize,
    /// The time of the first later final error (`is_terminal` true), if any.
    pub final_at: Option<i64>,
    /// The time of the last later error.
    pub last_at: Option<i64>,
    /// How many earlier errors of the same chain were loaded.
    pub earlier: usize,
}

impl After {
    /// Reads the store for the event at `i`.
    pub fn of(store: &Store, i: usize) -> After {
        let row = store.row(i);
        let mut after = After::default();
        if row.peer_id.is_none() || row.ts == NO_TIME {
            return after;
        }
        for (j, other) in store.rows().iter().enumerate() {
            if j == i || other.peer_id != row.peer_id || other.action != row.action || other.ts == NO_TIME {
                continue;
            }
            if other.ts < row.ts {
                after.earlier += 1;
            } else if other.ts > row.ts || (other.ts == row.ts && j > i) {
                after.later += 1;
                after.last_at = Some(after.last_at.map_or(other.ts, |t| t.max(other.ts)));
                if other.is_terminal() == Some(true) {
                    after.final_at = Some(after.final_at.map_or(other.ts, |t| t.min(other.ts)));
                }
            }
        }
        after
    }

    /// One sentence on what came next, in words that claim no more than the data shows.
    pub fn sentence(&self, action: &str) -> String {
        let action = if action.is_empty() { "this action" } else { action };
        match (self.later, self.final_at) {
            (0, _) => format!("no later error for {action} among the loaded events"),
            (n, Some(t)) => format!(
                "{n} later error(s) for {action}; a final one at {}",
                crate::time::format_short(t)
            ),
            (n, None) => format!(
                "{n} later retried error(s) for {action}, the last at {}; no final error among the loaded events",
                crate::time::format_short(self.last_at.unwrap_or(0))
            ),
        }
    }
}
