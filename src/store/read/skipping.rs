//! Reading events outside a store with what repeats from event to event skipped: an event's
//! `data.agent` object, and the objects and arrays under the other keys of its `data`, are read
//! once and then recognised by their bytes (by the memo of `store::read::remembered`), as a
//! store's batch does. For readers that take a few fields of each event (`list --group-by`).

use std::borrow::Cow;

use super::plain;
use super::probe::{AgentProbe, LStr, Probe};
use super::remembered::{Met, Remembered, Seen};

/// The agents and values met so far, each read once.
#[derive(Debug, Default)]
pub struct Skipping {
    /// Each agent's fields, owned; the values are only skipped.
    remembered: Remembered<AgentProbe<'static>, ()>,
    seen: Seen,
}

impl Skipping {
    /// Reads the event `text` into `probe` (empty) as [`Probe::read_text`] does, but for what
    /// was met before in the same bytes and place: a known agent object is skipped and answered
    /// (the probe's own agent is then left empty), and a known value under another key of
    /// `data`, which holds no field of the probe, is skipped. `None` when the probe holds the
    /// event's agent itself (or it has none).
    pub fn read<'a>(
        &mut self,
        text: &'a str,
        probe: &mut Probe<'a>,
    ) -> Result<Option<&AgentProbe<'static>>, serde_json::Error> {
        if plain::read_into(text, None, Some((&self.remembered, &mut self.seen)), probe).is_none() {
            self.seen.clear();
            *probe = Probe::read_thoroughly(text.as_bytes())?;
            return Ok(None);
        }
        let raw = text.as_bytes();
        let Remembered { agents, values } = &mut self.remembered;
        // An agent read in full is remembered, but the probe holds it this time.
        let agent = probe.data.0.as_ref().and_then(|d| d.agent.0.as_ref());
        let known = self.seen.agent.as_ref().and_then(|met| {
            let k = agents.meet(met, raw, |_| owned(agent?))?;
            matches!(met, Met::Known(_)).then_some(k)
        });
        for met in &self.seen.values {
            values.meet(met, raw, |_| Some(()));
        }
        Ok(known.map(|k| agents.get(k)))
    }
}

/// The agent holding its own strings; `None` when one of them is not UTF-8 (an escape that
/// leaves half a surrogate pair), which is then read, and refused, where it stands each time.
fn owned(a: &AgentProbe) -> Option<AgentProbe<'static>> {
    let own = |s: &LStr| -> Option<LStr<'static>> {
        match s.get() {
            Some(b) => {
                std::str::from_utf8(b).ok()?;
                Some(LStr(Some(Cow::Owned(b.to_vec()))))
            }
            None => Some(LStr(None)),
        }
    };
    Some(AgentProbe {
        sdk: own(&a.sdk)?,
        sdk_version: own(&a.sdk_version)?,
        device_model: own(&a.device_model)?,
        os: own(&a.os)?,
        os_version: own(&a.os_version)?,
        domain: own(&a.domain)?,
        string: own(&a.string)?,
    })
}
