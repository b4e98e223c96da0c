use super::slices::Slices;

/// An interned string's number. `Sym(0)` is "absent".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Sym(pub u32);

impl Sym {
    pub const NONE: Sym = Sym(0);

    pub fn is_none(self) -> bool {
        self.0 == 0
    }
}

/// Distinct strings, each stored once: filters become integer comparisons and a text search can
/// look at each distinct string once instead of once per event.
#[derive(Debug, Default)]
pub struct Interner {
    /// Only ever given whole `str`s, so every slice is UTF-8. Slice 0, the empty slice, is the
    /// absent string; `""` interned is a string of its own.
    strings: Slices<u8>,
}

impl Interner {
    /// Forgets every string, keeping the memory for the next ones: symbols are given from 1
    /// again.
    pub(in crate::store) fn clear(&mut self) {
        self.strings.clear();
    }

    pub fn intern(&mut self, s: &str) -> Sym {
        Sym(self.strings.intern(s.as_bytes()))
    }

    pub fn intern_opt(&mut self, s: Option<&str>) -> Sym {
        s.map_or(Sym::NONE, |s| self.intern(s))
    }

    /// Interns a string given as bytes, checking UTF-8 only the first time it is seen.
    pub fn intern_bytes(&mut self, b: &[u8]) -> Result<Sym, std::str::Utf8Error> {
        self.strings
            .intern_checked(b, |b| std::str::from_utf8(b).map(drop))
            .map(Sym)
    }

    pub fn intern_bytes_opt(&mut self, b: Option<&[u8]>) -> Result<Sym, std::str::Utf8Error> {
        b.map_or(Ok(Sym::NONE), |b| self.intern_bytes(b))
    }

    /// The symbol here of each string of `other`, each interned now if it is new: the answer's
    /// item `s.0` is the symbol here of `other`'s `s` (`Sym::NONE` for `Sym::NONE`).
    pub fn intern_all(&mut self, other: &Interner) -> Vec<Sym> {
        let mut syms = Vec::with_capacity(other.len());
        syms.push(Sym::NONE);
        // `other` interned only whole `str`s: the strings taken unchecked from it keep `get`'s
        // reading of every slice as UTF-8 sound.
        syms.extend(
            self.strings
                .intern_all_from(&other.strings, 1)
                .into_iter()
                .map(Sym),
        );
        syms
    }

    pub fn lookup(&self, s: &str) -> Option<Sym> {
        self.find_bytes(s.as_bytes())
    }

    /// The symbol of a string given as bytes, if it has one.
    pub fn find_bytes(&self, b: &[u8]) -> Option<Sym> {
        self.strings.find(b).map(Sym)
    }

    /// The string of a symbol; "" for `Sym::NONE` (and for a number it never gave).
    pub fn get(&self, sym: Sym) -> &str {
        let b = self.strings.get(sym.0);
        // SAFETY: every slice was interned from a `str` whole (see `strings`), and a slice of
        // the buffer is one of them.
        unsafe { std::str::from_utf8_unchecked(b) }
    }

    /// Every string end to end, where string `from` (at least 1) starts in that text, and where
    /// each string from it on ends.
    pub fn text_from(&self, from: usize) -> (&[u8], usize, &[usize]) {
        let (text, ends) = self.strings.parts();
        (text, ends[from - 1], &ends[from..])
    }

    /// Every string from symbol number `from` on, in order.
    pub fn strings_from(&self, from: usize) -> impl Iterator<Item = &str> + '_ {
        (from..self.len()).map(|i| self.get(Sym(i as u32)))
    }

    /// The number of strings, the absent one included.
    pub fn len(&self) -> usize {
        self.strings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.strings.is_empty()
    }
}

#[cfg(test)]
impl Interner {
    /// The bytes its items, the ends of its slices and its table hold.
    pub(in crate::store) fn heap(&self) -> [crate::store::footprint::Bytes; 3] {
        self.strings.heap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_distinct_string_gets_one_number_and_reads_back() {
        let mut i = Interner::default();
        let words = ["room", "", "peer", "room", "佐藤", "peer", "roo"];
        let syms: Vec<Sym> = words.iter().map(|w| i.intern(w)).collect();
        assert_eq!(syms[0], syms[3]);
        assert_eq!(syms[2], syms[5]);
        assert_ne!(syms[0], syms[6]);
        for (w, s) in words.iter().zip(&syms) {
            assert_eq!(i.get(*s), *w);
        }
        assert_eq!(i.lookup("佐藤"), Some(syms[4]));
        assert_eq!(i.lookup("nothing"), None);
        assert_eq!(i.get(Sym::NONE), "");
        let all: Vec<&str> = i.strings_from(1).collect();
        assert_eq!(all, ["room", "", "peer", "佐藤", "roo"]);
    }

    #[test]
    fn interning_all_of_another_maps_each_of_its_symbols_to_this_ones() {
        let mut mine = Interner::default();
        let room = mine.intern("room");
        let mut other = Interner::default();
        let theirs: Vec<Sym> = ["peer", "room", "佐藤"]
            .iter()
            .map(|w| other.intern(w))
            .collect();
        let map = mine.intern_all(&other);
        assert_eq!(map.len(), other.len());
        assert_eq!(map[Sym::NONE.0 as usize], Sym::NONE);
        assert_eq!(map[theirs[1].0 as usize], room);
        for s in theirs {
            assert_eq!(mine.get(map[s.0 as usize]), other.get(s));
        }
        assert_eq!(mine.len(), 4);
    }

    #[test]
    fn many_strings_survive_the_table_growing() {
        let mut i = Interner::default();
        let syms: Vec<Sym> = (0..20_000).map(|n| i.intern(&n.to_string())).collect();
        for (n, s) in syms.iter().enumerate() {
            assert_eq!(i.get(*s), n.to_string());
            assert_eq!(i.intern_bytes(n.to_string().as_bytes()), Ok(*s));
        }
        assert!(i.intern_bytes(b"\xff").is_err());
        assert_eq!(i.len(), 20_001);
    }
}
