use std::hash::BuildHasher;

use hashbrown::hash_table::{Entry, HashTable};
use rustc_hash::FxBuildHasher;

use super::Sym;

/// What a row knows of its event's `data.agent`: the fields filters, groups and the list read,
/// as symbols. Agents repeat from event to event (one per device and SDK build), so each
/// distinct one is kept once, in [`Agents`], and a row holds its [`AgentId`]. A field the agent
/// does not have is [`Sym::NONE`]; an event without an agent has [`AgentId::NONE`], whose
/// fields are all absent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Agent {
    pub sdk: Sym,
    pub sdk_version: Sym,
    pub device_model: Sym,
    pub os: Sym,
    pub os_version: Sym,
    /// The agent's `string`.
    pub string: Sym,
    /// The `env` read out of the agent's string.
    pub env: Sym,
}

impl Agent {
    /// Every field absent: an event without an agent.
    pub const NONE: Agent = Agent {
        sdk: Sym::NONE,
        sdk_version: Sym::NONE,
        device_model: Sym::NONE,
        os: Sym::NONE,
        os_version: Sym::NONE,
        string: Sym::NONE,
        env: Sym::NONE,
    };

    /// The fields that hold a value of the event as it was written (`env` is read out of the
    /// agent string).
    pub fn value_syms(&self) -> [Sym; 6] {
        [
            self.sdk,
            self.sdk_version,
            self.os,
            self.os_version,
            self.device_model,
            self.string,
        ]
    }

    /// The same agent with each symbol mapped.
    pub(in crate::store) fn map(&self, f: impl Fn(Sym) -> Sym) -> Agent {
        Agent {
            sdk: f(self.sdk),
            sdk_version: f(self.sdk_version),
            device_model: f(self.device_model),
            os: f(self.os),
            os_version: f(self.os_version),
            string: f(self.string),
            env: f(self.env),
        }
    }
}

/// A distinct agent's number in its [`Agents`]; `AgentId::NONE` (0) is the agent with every
/// field absent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AgentId(pub(in crate::store) u32);

impl AgentId {
    pub const NONE: AgentId = AgentId(0);

    /// Its place in the table, for answers kept per agent.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Distinct agents, each stored once; agent 0 is [`Agent::NONE`].
///
/// Found by a table of their numbers, hashed by the agent each names: 5 bytes a slot where a map
/// of agent to number took 33 (an agent and its number, and a byte of control). Where agents
/// rarely repeat (a build number of its own in each), they are nearly as many as the events: a
/// million such events held 53 MB of agents with the map, and hold 28.5 MB with the table
/// (`store::scale::footprint`).
#[derive(Debug)]
pub struct Agents {
    list: Vec<Agent>,
    /// The number of every agent but the absent one.
    index: HashTable<u32>,
}

impl Default for Agents {
    fn default() -> Self {
        Agents {
            list: vec![Agent::NONE],
            index: HashTable::new(),
        }
    }
}

fn hash(agent: &Agent) -> u64 {
    FxBuildHasher.hash_one(agent)
}

impl Agents {
    /// Forgets every agent but the absent one, keeping the memory for the next ones.
    pub(in crate::store) fn clear(&mut self) {
        self.list.truncate(1);
        self.index.clear();
    }

    /// The number of `agent`, [`AgentId::NONE`] when every field is absent.
    pub fn intern(&mut self, agent: Agent) -> AgentId {
        if agent == Agent::NONE {
            return AgentId::NONE;
        }
        let Agents { list, index } = self;
        let entry = index.entry(
            hash(&agent),
            |&id| list[id as usize] == agent,
            |&id| hash(&list[id as usize]),
        );
        match entry {
            Entry::Occupied(found) => AgentId(*found.get()),
            Entry::Vacant(vacant) => {
                let next = list.len() as u32;
                vacant.insert(next);
                list.push(agent);
                AgentId(next)
            }
        }
    }

    /// Agent `id`; [`Agent::NONE`] for a number it never gave.
    pub fn get(&self, id: AgentId) -> &Agent {
        self.list.get(id.index()).unwrap_or(&Agent::NONE)
    }

    /// Every agent from number `from` on, in order.
    pub fn agents_from(&self, from: usize) -> impl Iterator<Item = &Agent> + '_ {
        self.list.get(from..).unwrap_or_default().iter()
    }

    /// The number of agents, the absent one included.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether it holds only the absent agent.
    pub fn is_empty(&self) -> bool {
        self.list.len() == 1
    }
}

#[cfg(test)]
impl Agents {
    /// The bytes it holds.
    pub(in crate::store) fn heap(&self) -> crate::store::footprint::Bytes {
        use crate::store::footprint::Bytes;
        Bytes::of(&self.list) + Bytes::hashed::<u32>(self.index.capacity())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(sdk: u32, os: u32) -> Agent {
        Agent {
            sdk: Sym(sdk),
            os: Sym(os),
            ..Agent::NONE
        }
    }

    #[test]
    fn each_distinct_agent_is_kept_once_and_the_absent_one_is_zero() {
        let mut agents = Agents::default();
        assert!(agents.is_empty());
        assert_eq!(agents.intern(Agent::NONE), AgentId::NONE);
        let a = agents.intern(agent(1, 2));
        let b = agents.intern(agent(1, 3));
        assert_ne!(a, b);
        assert_ne!(a, AgentId::NONE);
        assert_eq!(agents.intern(agent(1, 2)), a);
        assert_eq!(agents.len(), 3);
        assert_eq!(*agents.get(a), agent(1, 2));
        assert_eq!(*agents.get(b), agent(1, 3));
        assert_eq!(*agents.get(AgentId::NONE), Agent::NONE);
        assert_eq!(
            agents.agents_from(2).copied().collect::<Vec<_>>(),
            [agent(1, 3)]
        );
    }

    #[test]
    fn an_agent_with_fields_absent_keeps_them_absent() {
        let mut agents = Agents::default();
        let only_os = agents.intern(agent(0, 5));
        let got = agents.get(only_os);
        assert!(got.sdk.is_none() && got.string.is_none() && got.env.is_none());
        assert_eq!(got.os, Sym(5));
    }

    #[test]
    fn cleared_agents_start_again_after_the_absent_one() {
        let mut agents = Agents::default();
        agents.intern(agent(1, 2));
        agents.clear();
        assert!(agents.is_empty());
        assert_eq!(agents.intern(agent(4, 4)), AgentId(1));
    }
}
