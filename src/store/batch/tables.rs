//! What a builder's rows refer to (its strings and sets of them), and what it remembers to read
//! the next event faster: the row of an event made from its probe, and the values it holds that
//! repeat from event to event.

use rustc_hash::FxHashMap;

use super::Uses;
use crate::event::agent_string_env;
use crate::store::intern::Slices;
use crate::store::read::probe::Probe;
use crate::store::read::remembered::{KnownAgent, Met, Remembered, Seen, Trial};
use crate::store::read::walk::StrAt;
use crate::store::{Agent, Agents, Interner, NO_TIME, Row, Sym, SymSets};
use crate::time::parse_rfc3339_nanos_bytes;

/// What a builder's rows refer to, and what it remembers to read the next event faster.
pub(super) struct Tables {
    pub(super) strings: Interner,
    pub(super) sets: SymSets,
    pub(super) agents: Agents,
    /// The `env` of each distinct agent string: agents repeat, so each is decoded once.
    pub(super) env_of_agent: FxHashMap<Sym, Sym>,
    /// The agent objects and nested values read.
    pub(super) remembered: Remembered,
    /// Reused for each event's other string values' text.
    pub(super) others_text: Vec<u8>,
    /// The symbols of an event's other values, reused from one event to the next.
    pub(super) others: Vec<Sym>,
    /// Each distinct text of others seen, and the set of others of each (text `n`'s at `n - 1`).
    pub(super) texts_of_others: Slices<u8>,
    pub(super) set_of_text: Vec<u32>,
    /// Whether texts repeat. Where keys come in a new order in each event, they seldom do, and
    /// looking them up and keeping them took a tenth of a load's time (they crowd the
    /// processor's cache): the trial turns that off early in each batch.
    pub(super) texts_trial: Trial,
    /// Whether long values (see [`LONG_VALUE`]) repeat: where each is new (a stack trace, a
    /// session description), interning them would keep a copy of most of the dump.
    pub(super) long_trial: Trial,
}

/// Texts of others are judged on the first this many events of a batch (see [`Trial`]). Where
/// they repeat, a quarter or more of the first thousand are found, against one or two in a
/// hundred where keys come in a new order each time; the first few hundred find next to none
/// whatever the dump, as every text is new then.
const TEXTS_TRIAL: u32 = 1024;

/// An other value or a message this long or longer is interned only where long values repeat
/// (see [`Tables::keeps_long_value`]).
pub(super) const LONG_VALUE: usize = 256;

/// Long values are judged on the first this many of a batch (see [`Trial`]).
pub(in crate::store) const LONG_TRIAL: u32 = 256;

impl Default for Tables {
    fn default() -> Self {
        Tables {
            strings: Interner::default(),
            sets: SymSets::default(),
            agents: Agents::default(),
            env_of_agent: FxHashMap::default(),
            remembered: Remembered::default(),
            others_text: Vec::new(),
            others: Vec::new(),
            texts_of_others: Slices::default(),
            set_of_text: Vec::new(),
            texts_trial: Trial::new(TEXTS_TRIAL),
            long_trial: Trial::new(LONG_TRIAL),
        }
    }
}

impl Tables {
    /// Whether nothing of a batch is left in them (checked in debug builds).
    pub(super) fn is_clear(&self) -> bool {
        self.strings.len() == 1
            && self.sets.len() == 1
            && self.agents.is_empty()
            && self.env_of_agent.is_empty()
            && self.remembered.is_empty()
            && self.texts_of_others.len() == 1
            && self.set_of_text.is_empty()
            && self.texts_trial.is_untried()
            && self.long_trial.is_untried()
    }

    /// Forgets what was read, keeping the memory (each part names the batch's strings).
    pub(super) fn clear(&mut self) {
        let Tables {
            strings,
            sets,
            agents,
            env_of_agent,
            remembered,
            others_text,
            others,
            texts_of_others,
            set_of_text,
            texts_trial,
            long_trial,
        } = self;
        strings.clear();
        sets.clear();
        agents.clear();
        env_of_agent.clear();
        remembered.clear();
        others_text.clear();
        others.clear();
        texts_of_others.clear();
        set_of_text.clear();
        texts_trial.clear();
        long_trial.clear();
    }

    /// The row of an event, whose agent is remembered agent `agent` when given.
    pub(super) fn row_of(
        &mut self,
        p: &Probe,
        agent: Option<u32>,
    ) -> Result<Row, std::str::Utf8Error> {
        // Only the search reads the message from the row: a long one is kept as a long other
        // value would be (see `index_strings`).
        let message = match p.data.0.as_ref().and_then(|d| d.error_message.get()) {
            Some(m) if m.len() >= LONG_VALUE && !self.keeps_long_value(m) => {
                // Refused as it would be if kept: whether an event is read cannot depend on
                // where it falls in a batch.
                std::str::from_utf8(m)?;
                None
            }
            m => m,
        };
        let s = &mut self.strings;
        let mut row = Row::default();
        row.ts = p
            .timestamp
            .get()
            .and_then(parse_rfc3339_nanos_bytes)
            .unwrap_or(NO_TIME);
        row.kind = s.intern_bytes_opt(p.kind.get())?;
        let Some(d) = &p.data.0 else {
            return Ok(row);
        };
        row.set_error_code(d.error_code.0);
        row.set_terminal(d.is_terminal.0);
        row.room_id = s.intern_bytes_opt(d.room_id.get())?;
        row.room_name = s.intern_bytes_opt(d.room_name.get())?;
        row.session_id = s.intern_bytes_opt(d.session_id.get())?;
        row.peer_id = s.intern_bytes_opt(d.peer_id.get())?;
        row.user_id = s.intern_bytes_opt(d.user_id.get())?;
        row.user_name = s.intern_bytes_opt(d.user_name.get())?;
        row.role = s.intern_bytes_opt(d.role.get())?;
        row.error_name = s.intern_bytes_opt(d.error_name.get())?;
        row.error_message = s.intern_bytes_opt(message)?;
        row.action = s.intern_bytes_opt(d.action.get())?;
        if let Some(a) = agent.map(|k| self.remembered.agents.get(k)) {
            row.agent = a.agent;
            row.domain = match d.domain.get() {
                Some(own) => s.intern_bytes(own)?,
                None => a.domain,
            };
        } else if let Some(a) = &d.agent.0 {
            let string = s.intern_bytes_opt(a.string.get())?;
            row.agent = self.agents.intern(Agent {
                sdk: s.intern_bytes_opt(a.sdk.get())?,
                sdk_version: s.intern_bytes_opt(a.sdk_version.get())?,
                device_model: s.intern_bytes_opt(a.device_model.get())?,
                os: s.intern_bytes_opt(a.os.get())?,
                os_version: s.intern_bytes_opt(a.os_version.get())?,
                string,
                env: env_of(s, &mut self.env_of_agent, string),
            });
            // `domain` is a field of publish and join data, and of every agent.
            row.domain = s.intern_bytes_opt(d.domain.get().or(a.domain.get()))?;
        } else {
            row.domain = s.intern_bytes_opt(d.domain.get())?;
        }
        Ok(row)
    }

    /// The remembered values the event holds, by what its reading met (`seen`): those it read
    /// in full are remembered now when they can be (see
    /// [`crate::store::read::remembered::Memo::insert`]), but not those holding an escape, rare
    /// enough to be left to the usual reading.
    pub(super) fn remember(
        &mut self,
        raw: &[u8],
        p: &Probe,
        strings: &[StrAt],
        seen: &Seen,
        uses: &mut Uses,
    ) {
        uses.values.clear();
        uses.read.clear();
        uses.agent = seen.agent.as_ref().and_then(|met| {
            let k = self.meet_agent(met, raw, p, strings)?;
            if let Met::Read(span) = met {
                uses.read.push(span.clone());
            }
            Some(k)
        });
        for met in &seen.values {
            let found = |span: &std::ops::Range<usize>| {
                interned_within(&mut self.strings, raw, strings, span, |_| true)
            };
            if let Some(k) = self.remembered.values.meet(met, raw, found) {
                uses.values.push(k);
                if let Met::Read(span) = met {
                    uses.read.push(span.clone());
                }
            }
        }
    }

    /// The remembered agent the agent object of event `p` (whose strings are `strings`) is, by
    /// what its reading met: remembered now when it was read in full.
    fn meet_agent(&mut self, met: &Met, raw: &[u8], p: &Probe, strings: &[StrAt]) -> Option<u32> {
        let a = p.data.0.as_ref().and_then(|d| d.agent.0.as_ref());
        let Tables {
            strings: s,
            agents,
            remembered,
            env_of_agent,
            ..
        } = self;
        remembered.agents.meet(met, raw, |span| {
            let a = a?;
            // All but the fields a row holds, and the domain, which the row holds unless `data`
            // has its own (see `index_strings`).
            let others = interned_within(s, raw, strings, span, |at| !at.field.is_agent_field())?;
            let mut field = |f: Option<&[u8]>| s.intern_bytes_opt(f).ok();
            let agent_string = field(a.string.get())?;
            let (sdk, sdk_version) = (field(a.sdk.get())?, field(a.sdk_version.get())?);
            let device_model = field(a.device_model.get())?;
            let (os, os_version) = (field(a.os.get())?, field(a.os_version.get())?);
            let domain = field(a.domain.get())?;
            let agent = Agent {
                sdk,
                sdk_version,
                device_model,
                os,
                os_version,
                string: agent_string,
                env: env_of(s, env_of_agent, agent_string),
            };
            Some(KnownAgent {
                agent: agents.intern(agent),
                domain,
                others,
            })
        })
    }

    /// Whether the long value `value` (an other value or a message of [`LONG_VALUE`] bytes or
    /// more) is interned: while the batch's trial of long values lasts, and after it where
    /// they were found interned already often enough (or where this one is). Where they were
    /// not, the event's row sends the search to its JSON in the dump instead
    /// (`Row::search_raw`), which keeps the store a fraction of the dump's size when long values
    /// are each new.
    pub(super) fn keeps_long_value(&mut self, value: &[u8]) -> bool {
        let known = self.strings.find_bytes(value).is_some();
        if self.long_trial.is_off() {
            // One interned already costs nothing more.
            return known;
        }
        self.long_trial.note(known);
        true
    }
}

/// The `env` an agent string names, decoded once per distinct string.
fn env_of(strings: &mut Interner, known: &mut FxHashMap<Sym, Sym>, agent_string: Sym) -> Sym {
    if let Some(&env) = known.get(&agent_string) {
        return env;
    }
    let env = agent_string_env(strings.get(agent_string)).map(str::to_owned);
    let env = strings.intern_opt(env.as_deref());
    known.insert(agent_string, env);
    env
}

/// The strings of `strings` (in the order of the text `raw`) that stand within `span` and that
/// `keep` keeps, interned, sorted and without repeats; `None` when one holds an escape or one
/// kept is long (a remembered value holds neither).
fn interned_within(
    interner: &mut Interner,
    raw: &[u8],
    strings: &[StrAt],
    span: &std::ops::Range<usize>,
    keep: impl Fn(&StrAt) -> bool,
) -> Option<Vec<Sym>> {
    let from = strings.partition_point(|s| (s.start as usize) < span.start);
    let to = strings.partition_point(|s| (s.start as usize) < span.end);
    let mut syms = Vec::new();
    for at in &strings[from..to] {
        if at.escaped {
            return None;
        }
        if keep(at) {
            let inner = &raw[at.start as usize + 1..at.end as usize - 1];
            // A long value is the event's own to keep or not (see `Tables::keeps_long_value`).
            if inner.len() >= LONG_VALUE {
                return None;
            }
            syms.push(interner.intern_bytes(inner).ok()?);
        }
    }
    syms.sort_unstable();
    syms.dedup();
    Some(syms)
}
