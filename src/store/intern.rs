use std::hash::BuildHasher;

use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;

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
///
/// The strings are kept end to end in one buffer, and the table holds only their numbers: no
/// allocation per string, and a few bytes of overhead each.
#[derive(Debug)]
pub struct Interner {
    text: String,
    /// Where each string ends in `text` (string `i` starts where `i - 1` ends).
    ends: Vec<usize>,
    /// The symbols, found by the hash of their string's bytes.
    table: HashTable<Sym>,
}

impl Default for Interner {
    fn default() -> Self {
        Interner {
            text: String::new(),
            // Symbol 0 is the absent string, "".
            ends: vec![0],
            table: HashTable::new(),
        }
    }
}

fn hash(b: &[u8]) -> u64 {
    FxBuildHasher.hash_one(b)
}

/// Whether two strings are equal. Interned strings are mostly short, and a call to `memcmp` per
/// lookup costs more than comparing them inline, eight bytes at a time.
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n > 32 {
        return a == b;
    }
    if n < 8 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    let word = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
    // Whole words, then the last eight bytes (overlapping the one before).
    let mut i = 0;
    while i + 8 < n {
        if word(a, i) != word(b, i) {
            return false;
        }
        i += 8;
    }
    word(a, n - 8) == word(b, n - 8)
}

/// The bytes of string `sym` of an interner's parts.
fn bytes_of<'t>(text: &'t str, ends: &[usize], sym: Sym) -> &'t [u8] {
    let i = sym.0 as usize;
    let start = if i == 0 { 0 } else { ends[i - 1] };
    &text.as_bytes()[start..ends[i]]
}

impl Interner {
    pub fn intern(&mut self, s: &str) -> Sym {
        let h = hash(s.as_bytes());
        let Interner { text, ends, table } = self;
        if let Some(&sym) = table.find(h, |&sym| same(bytes_of(text, ends, sym), s.as_bytes())) {
            return sym;
        }
        let sym = Sym(ends.len() as u32);
        text.push_str(s);
        ends.push(text.len());
        table.insert_unique(h, sym, |&sym| hash(bytes_of(text, ends, sym)));
        sym
    }

    pub fn intern_opt(&mut self, s: Option<&str>) -> Sym {
        s.map_or(Sym::NONE, |s| self.intern(s))
    }

    /// Interns a string given as bytes, checking UTF-8 only the first time it is seen.
    pub fn intern_bytes(&mut self, b: &[u8]) -> Result<Sym, std::str::Utf8Error> {
        if let Some(sym) = self.find(b) {
            return Ok(sym);
        }
        Ok(self.intern(std::str::from_utf8(b)?))
    }

    pub fn intern_bytes_opt(&mut self, b: Option<&[u8]>) -> Result<Sym, std::str::Utf8Error> {
        b.map_or(Ok(Sym::NONE), |b| self.intern_bytes(b))
    }

    fn find(&self, b: &[u8]) -> Option<Sym> {
        self.table
            .find(hash(b), |&sym| {
                same(bytes_of(&self.text, &self.ends, sym), b)
            })
            .copied()
    }

    pub fn lookup(&self, s: &str) -> Option<Sym> {
        self.find(s.as_bytes())
    }

    /// The string of a symbol; "" for `Sym::NONE` (and for a number it never gave).
    pub fn get(&self, sym: Sym) -> &str {
        let i = sym.0 as usize;
        if i == 0 || i >= self.ends.len() {
            return "";
        }
        &self.text[self.ends[i - 1]..self.ends[i]]
    }

    /// Every string end to end, where string `from` (at least 1) starts in that text, and where
    /// each string from it on ends.
    pub fn text_from(&self, from: usize) -> (&[u8], usize, &[usize]) {
        (
            self.text.as_bytes(),
            self.ends[from - 1],
            &self.ends[from..],
        )
    }

    /// Every string from symbol number `from` on, in order.
    pub fn strings_from(&self, from: usize) -> impl Iterator<Item = &str> + '_ {
        (from..self.ends.len()).map(|i| self.get(Sym(i as u32)))
    }

    /// The number of strings, the absent one included.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.len() <= 1
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
    fn strings_of_every_length_up_to_forty_compare_equal_only_to_themselves() {
        let base: Vec<u8> = (0..40u8).map(|i| b'a' + i % 26).collect();
        for n in 0..=40 {
            let a = &base[..n];
            assert!(same(a, a));
            assert!(!same(a, &base[..n.saturating_sub(1)]) || n == 0);
            for k in 0..n {
                let mut b = a.to_vec();
                b[k] ^= 0x20;
                assert!(!same(a, &b), "{n} {k}");
            }
        }
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
