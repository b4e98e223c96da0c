use rustc_hash::FxHashMap;

use super::Sym;

/// Distinct sets of symbols, each stored once: the string values of an event that its row's
/// fields do not hold repeat from event to event (an account, a template, an agent), so an
/// event keeps only the number of its set.
#[derive(Debug)]
pub struct SymSets {
    map: FxHashMap<Box<[Sym]>, u32>,
    sets: Vec<Box<[Sym]>>,
}

impl Default for SymSets {
    fn default() -> Self {
        SymSets {
            map: FxHashMap::default(),
            // Set 0 is the empty set.
            sets: vec![Box::from([])],
        }
    }
}

impl SymSets {
    /// The number of the set of `syms`, which must be sorted and without repeats.
    pub fn intern(&mut self, syms: &[Sym]) -> u32 {
        if syms.is_empty() {
            return 0;
        }
        if let Some(&n) = self.map.get(syms) {
            return n;
        }
        let n = self.sets.len() as u32;
        self.sets.push(Box::from(syms));
        self.map.insert(Box::from(syms), n);
        n
    }

    /// Every set, indexed by its number.
    pub fn sets(&self) -> &[Box<[Sym]>] {
        &self.sets
    }

    pub fn len(&self) -> usize {
        self.sets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sets.len() <= 1
    }
}
