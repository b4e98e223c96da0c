use super::Sym;
use super::slices::Slices;

/// Distinct sets of symbols, each stored once: the string values of an event that its row's
/// fields do not hold repeat from event to event (an account, a template, an agent), so an
/// event keeps only the number of its set. Where agents vary, nearly every event has a set of
/// its own: the sets are kept end to end, not a buffer each.
#[derive(Debug, Default)]
pub struct SymSets {
    sets: Slices<Sym>,
}

impl SymSets {
    /// Forgets every set, keeping the memory for the next ones.
    pub(in crate::store) fn clear(&mut self) {
        self.sets.clear();
    }

    /// The number of the set of `syms`, which must be sorted and without repeats; 0 for none.
    pub fn intern(&mut self, syms: &[Sym]) -> u32 {
        if syms.is_empty() {
            return 0;
        }
        self.sets.intern(syms)
    }

    /// Set number `n`; empty for a number it never gave.
    pub fn get(&self, n: u32) -> &[Sym] {
        self.sets.get(n)
    }

    /// Every set from number `from` on, in order.
    pub fn sets_from(&self, from: usize) -> impl Iterator<Item = &[Sym]> + '_ {
        self.sets.from(from)
    }

    /// The number of sets, the empty one included.
    pub fn len(&self) -> usize {
        self.sets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.sets.is_empty()
    }
}

#[cfg(test)]
impl SymSets {
    /// The bytes its items, the ends of its slices and its table hold.
    pub(in crate::store) fn heap(&self) -> [crate::store::footprint::Bytes; 3] {
        self.sets.heap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_empty_set_is_set_zero() {
        let mut sets = SymSets::default();
        assert!(sets.is_empty());
        assert_eq!(sets.intern(&[]), 0);
        let one = sets.intern(&[Sym(3)]);
        assert_eq!(one, 1);
        assert_eq!(sets.intern(&[]), 0);
        assert_eq!(sets.len(), 2);
        assert_eq!(sets.get(0), &[] as &[Sym]);
        assert_eq!(sets.get(one), &[Sym(3)]);
    }
}
