//! The `data.agent` objects a batch has read. They repeat from event to event (one per device
//! and SDK build, a few hundred bytes each), so each distinct one is validated, interned and
//! indexed once; a later event holding the very same bytes takes what was found then.

use std::hash::BuildHasher;

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

use super::Sym;

/// At most this many agents are remembered per batch; the rest are read in full each time.
const MAX_AGENTS: usize = 4096;

/// What one distinct agent object gives a row, its symbols in the batch's interner.
#[derive(Debug, Clone)]
pub struct Agent {
    /// The object as written, braces included. Its only `}` is the last byte.
    bytes: Box<[u8]>,
    pub sdk: Sym,
    pub sdk_version: Sym,
    pub device_model: Sym,
    pub os: Sym,
    pub os_version: Sym,
    /// The agent's own `domain`: the row's when `data` has none.
    pub domain: Sym,
    /// Read out of the agent string.
    pub env: Sym,
    /// Its other string values (the agent string, the framework...), for the text search.
    pub others: Vec<Sym>,
}

/// What the plain reader did with an event's `data.agent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentRead {
    /// No agent object, or read by the thorough reader.
    None,
    /// The same bytes as agent number `.0`, skipped.
    Known(u32),
    /// Read in full: the object is `text[start..end]`.
    Read { start: usize, end: usize },
}

#[derive(Debug, Default)]
pub struct Agents {
    table: HashTable<u32>,
    list: Vec<Agent>,
}

fn hash(b: &[u8]) -> u64 {
    FxBuildHasher.hash_one(b)
}

impl Agents {
    /// The agent already known whose object `rest` starts with: its number and length.
    pub fn find(&self, rest: &[u8]) -> Option<(u32, usize)> {
        if self.list.is_empty() {
            return None;
        }
        // A known object's first `}` is its last byte, so it can only be this long.
        let len = memchr::memchr(b'}', rest)? + 1;
        let bytes = &rest[..len];
        self.table
            .find(hash(bytes), |&k| *self.list[k as usize].bytes == *bytes)
            .map(|&k| (k, len))
    }

    /// Remembers the agent whose object is `bytes`; `None` (nothing remembered) when the object
    /// holds a `}` before its end, which [`Agents::find`] could not match, or when enough agents
    /// are known already.
    pub fn insert(&mut self, bytes: &[u8], agent: impl FnOnce() -> Option<Agent>) -> Option<u32> {
        if self.list.len() >= MAX_AGENTS || memchr::memchr(b'}', bytes)? + 1 != bytes.len() {
            return None;
        }
        let h = hash(bytes);
        let list = &self.list;
        if let Some(&known) = self.table.find(h, |&j| *list[j as usize].bytes == *bytes) {
            return Some(known);
        }
        let mut agent = agent()?;
        agent.bytes = Box::from(bytes);
        let k = self.list.len() as u32;
        self.list.push(agent);
        let list = &self.list;
        self.table
            .insert_unique(h, k, |&j| hash(&list[j as usize].bytes));
        Some(k)
    }

    pub fn get(&self, k: u32) -> &Agent {
        &self.list[k as usize]
    }
}

impl Agent {
    /// An agent whose bytes [`Agents::insert`] fills in.
    pub fn new(fields: [Sym; 7], others: Vec<Sym>) -> Agent {
        let [sdk, sdk_version, device_model, os, os_version, domain, env] = fields;
        Agent {
            bytes: Box::default(),
            sdk,
            sdk_version,
            device_model,
            os,
            os_version,
            domain,
            env,
            others,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(n: u32) -> Option<Agent> {
        Some(Agent::new([Sym(n); 7], vec![Sym(n + 100)]))
    }

    #[test]
    fn an_agent_is_found_by_its_exact_bytes_at_the_start_of_what_follows() {
        let mut agents = Agents::default();
        let a = br#"{"sdk":"web","os":"macOS"}"#;
        assert_eq!(agents.find(a), None);
        assert_eq!(agents.insert(a, || agent(1)), Some(0));
        let rest = br#"{"sdk":"web","os":"macOS"},"domain":"d"}}"#;
        assert_eq!(agents.find(rest), Some((0, a.len())));
        assert_eq!(agents.get(0).sdk, Sym(1));
        // One byte off, or a prefix only: not the same object.
        assert_eq!(agents.find(br#"{"sdk":"web","os":"macOs"}"#), None);
        assert_eq!(agents.find(br#"{"sdk":"web","os":"macOS""#), None);
        // The same bytes again keep their first number.
        assert_eq!(agents.insert(a, || agent(2)), Some(0));
        assert_eq!(agents.insert(br#"{"sdk":"ios"}"#, || agent(3)), Some(1));
        assert_eq!(agents.find(br#"{"sdk":"ios"}}"#), Some((1, 13)));
    }

    #[test]
    fn objects_with_a_brace_inside_are_not_remembered() {
        let mut agents = Agents::default();
        assert_eq!(agents.insert(br#"{"x":{"y":"z"}}"#, || agent(1)), None);
        assert_eq!(agents.insert(br#"{"s":"a}b"}"#, || agent(1)), None);
        assert_eq!(agents.insert(br#"{"s":"ok"}"#, || None), None);
        assert_eq!(agents.find(br#"{"s":"ok"}"#), None);
    }

    #[test]
    fn no_more_than_the_limit_are_remembered() {
        let mut agents = Agents::default();
        for n in 0..MAX_AGENTS {
            let bytes = format!(r#"{{"n":{n}}}"#);
            assert_eq!(agents.insert(bytes.as_bytes(), || agent(1)), Some(n as u32));
        }
        assert_eq!(agents.insert(br#"{"n":"over"}"#, || agent(1)), None);
        assert_eq!(agents.find(br#"{"n":17}"#), Some((17, 8)));
    }
}
