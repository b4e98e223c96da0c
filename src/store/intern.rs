use rustc_hash::FxHashMap;

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
#[derive(Debug)]
pub struct Interner {
    /// Keyed by the bytes, so that a lookup needs no UTF-8 check.
    map: FxHashMap<Box<[u8]>, Sym>,
    strings: Vec<Box<str>>,
}

impl Default for Interner {
    fn default() -> Self {
        Interner {
            map: FxHashMap::default(),
            strings: vec![Box::from("")],
        }
    }
}

impl Interner {
    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&sym) = self.map.get(s.as_bytes()) {
            return sym;
        }
        let sym = Sym(self.strings.len() as u32);
        self.strings.push(Box::from(s));
        self.map.insert(Box::from(s.as_bytes()), sym);
        sym
    }

    pub fn intern_opt(&mut self, s: Option<&str>) -> Sym {
        s.map_or(Sym::NONE, |s| self.intern(s))
    }

    /// Interns a string given as bytes, checking UTF-8 only the first time it is seen.
    pub fn intern_bytes(&mut self, b: &[u8]) -> Result<Sym, std::str::Utf8Error> {
        if let Some(&sym) = self.map.get(b) {
            return Ok(sym);
        }
        Ok(self.intern(std::str::from_utf8(b)?))
    }

    pub fn intern_bytes_opt(&mut self, b: Option<&[u8]>) -> Result<Sym, std::str::Utf8Error> {
        b.map_or(Ok(Sym::NONE), |b| self.intern_bytes(b))
    }

    pub fn lookup(&self, s: &str) -> Option<Sym> {
        self.map.get(s.as_bytes()).copied()
    }

    /// The string of a symbol; "" for `Sym::NONE`.
    pub fn get(&self, sym: Sym) -> &str {
        self.strings.get(sym.0 as usize).map_or("", |s| s)
    }

    /// Every string, indexed by its symbol's number (index 0 is the absent string).
    pub fn strings(&self) -> &[Box<str>] {
        &self.strings
    }

    pub fn len(&self) -> usize {
        self.strings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.strings.len() <= 1
    }
}
