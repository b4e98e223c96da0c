//! The filter decided on an event's probe, without a store.

use super::NotLineDelimited;
use super::id::top_level_id;
use crate::event::{Field, agent_string_env};
use crate::filter::{Filter, Plan, Record};
use crate::store::Needle;
use crate::store::OddField;
use crate::store::probe::{AgentProbe, LStr, Probe};
use crate::store::skipping::Skipping;
use crate::time::parse_rfc3339_nanos;

/// An event read off a line's probe, as the plan reads it: the same fields, read the same way,
/// as the row a store would make of the same probe.
pub(super) struct Line<'p, 'a> {
    probe: &'p Probe<'a>,
    /// The event's agent when its reading skipped it as one met before (the probe's is then
    /// empty).
    agent: Option<&'p AgentProbe<'a>>,
    raw: &'p [u8],
    search: Option<&'p Needle>,
}

impl Line<'_, '_> {
    /// The first field of the event read as absent because it holds a value of another JSON
    /// type than the API's.
    pub(super) fn odd(&self) -> Option<OddField> {
        self.probe.odd
    }
}

impl<'p, 'a> Record for Line<'p, 'a> {
    type Text = &'p [u8];

    fn text(&self, field: Field) -> Option<&'p [u8]> {
        if field == Field::Type {
            return self.probe.kind.get();
        }
        let data = self.probe.data.0.as_ref()?;
        let agent: Option<&'p AgentProbe<'a>> = self.agent.or(data.agent.0.as_ref());
        let from_agent = |f: fn(&'p AgentProbe<'a>) -> &'p LStr<'a>| agent.and_then(|a| f(a).get());
        match field {
            Field::Type => None,
            Field::Code => None,
            Field::Room => data.room_id.get(),
            Field::Session => data.session_id.get(),
            Field::Peer => data.peer_id.get(),
            Field::User => data.user_id.get(),
            Field::ErrorName => data.error_name.get(),
            Field::Action => data.action.get(),
            Field::RoomName => data.room_name.get(),
            Field::UserName => data.user_name.get(),
            Field::Role => data.role.get(),
            // The data's own domain, else the agent's.
            Field::Domain => data.domain.get().or_else(|| from_agent(|a| &a.domain)),
            Field::Sdk => from_agent(|a| &a.sdk),
            Field::SdkVersion => from_agent(|a| &a.sdk_version),
            Field::Os => from_agent(|a| &a.os),
            Field::OsVersion => from_agent(|a| &a.os_version),
            Field::Device => from_agent(|a| &a.device_model),
            Field::Env => {
                let string = std::str::from_utf8(from_agent(|a| &a.string)?).ok()?;
                agent_string_env(string).map(str::as_bytes)
            }
        }
    }

    fn number(&self, field: Field) -> Option<i64> {
        match field {
            Field::Code => self.probe.data.0.as_ref()?.error_code.0,
            _ => None,
        }
    }

    fn terminal(&self) -> Option<bool> {
        self.probe.data.0.as_ref()?.is_terminal.0
    }

    fn time(&self) -> Option<i64> {
        self.probe.timestamp.as_str().and_then(parse_rfc3339_nanos)
    }

    fn has_search_text(&self) -> Option<bool> {
        Some(self.search.is_none_or(|n| n.matches_json(self.raw)))
    }
}

/// The filter applied to an event's probe, deciding exactly as `Store::matching` decides on the
/// row a store would make of the same probe: both evaluate the filter's [`Plan`].
pub(super) struct Direct<'f> {
    plan: Plan<&'f [u8]>,
    search: Option<Needle>,
}

impl<'f> Direct<'f> {
    pub(super) fn new(filter: &'f Filter) -> Direct<'f> {
        let plan = Plan::new(filter, |s| Some(s.as_bytes()));
        let search = plan.search().map(Needle::new).filter(|n| !n.is_empty());
        Direct { plan, search }
    }

    /// Whether the event matches; an error for an event the store would refuse (the full path
    /// then reports it where it stands).
    pub(super) fn matches(&self, raw: &[u8]) -> Result<bool, NotLineDelimited> {
        self.judge(raw, None, |_, matches| matches)
    }

    /// `f` of the event as the plan read it when it matches, `None` when it does not, with the
    /// agent objects and the other objects of `data` met before in `skipping` skipped rather
    /// than read again (see [`Skipping`]); an error for an event the store would refuse.
    pub(super) fn read_skipping<R>(
        &self,
        raw: &[u8],
        skipping: &mut Skipping,
        f: impl FnOnce(&Line) -> R,
    ) -> Result<Option<R>, NotLineDelimited> {
        self.read_with(raw, true, Some(skipping), f)
    }

    /// `f` of the event as the plan read it when it matches, `None` when it does not, for an
    /// event de-duplicated already (on the id a store read): its id is not read again. An error
    /// for an event the store would refuse (the full path then reports it where it stands).
    pub(super) fn read_deduplicated<R>(
        &self,
        raw: &[u8],
        f: impl FnOnce(&Line) -> R,
    ) -> Result<Option<R>, NotLineDelimited> {
        self.read_with(raw, false, None, f)
    }

    /// `f` of the event as the plan read it and whether it matches, matching or not (with the
    /// agent objects met before in `skipping` skipped, when given); an error for an event the
    /// store would refuse.
    pub(super) fn judge<R>(
        &self,
        raw: &[u8],
        skipping: Option<&mut Skipping>,
        f: impl FnOnce(&Line, bool) -> R,
    ) -> Result<R, NotLineDelimited> {
        self.judge_with(raw, true, skipping, f)
    }

    fn read_with<R>(
        &self,
        raw: &[u8],
        check_id: bool,
        skipping: Option<&mut Skipping>,
        f: impl FnOnce(&Line) -> R,
    ) -> Result<Option<R>, NotLineDelimited> {
        self.judge_with(raw, check_id, skipping, |line, matches| {
            matches.then(|| f(line))
        })
    }

    fn judge_with<R>(
        &self,
        raw: &[u8],
        check_id: bool,
        skipping: Option<&mut Skipping>,
        f: impl FnOnce(&Line, bool) -> R,
    ) -> Result<R, NotLineDelimited> {
        let text = simdutf8::basic::from_utf8(raw).map_err(|_| NotLineDelimited)?;
        let mut probe = Probe::default();
        let agent = match skipping {
            Some(skipping) => skipping
                .read(text, &mut probe)
                .map_err(|_| NotLineDelimited)?,
            None => {
                probe = Probe::read_text(text).map_err(|_| NotLineDelimited)?;
                None
            }
        };
        // The line was de-duplicated on the id its first pass read: the store would use this one.
        // (A skipped agent's strings were checked when it was first read.)
        if !probe.strings_are_utf8() || (check_id && probe.id.get() != top_level_id(raw)) {
            return Err(NotLineDelimited);
        }
        let line = Line {
            probe: &probe,
            agent,
            raw,
            search: self.search.as_ref(),
        };
        let matches = self.plan.matches(&line).unwrap_or(false);
        Ok(f(&line, matches))
    }
}
