use std::ops::Deref;

/// The bytes a batch of events was read from: a memory-mapped file (its pages belong to the page
/// cache, not to callscope's heap) or an owned buffer (stdin, a gunzipped file, an HTTP page).
pub enum Blob {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Blob {
    /// Maps a file read-only. An empty file cannot be mapped and is read as an empty buffer; a
    /// pipe or device (`<(zcat dump.gz)`, `/dev/stdin`) has no length to map and is read whole.
    pub fn map_file(file: &std::fs::File) -> std::io::Result<Blob> {
        let meta = file.metadata()?;
        if !meta.is_file() {
            let mut buf = Vec::new();
            std::io::Read::read_to_end(&mut &*file, &mut buf)?;
            return Ok(Blob::Owned(buf));
        }
        if meta.len() == 0 {
            return Ok(Blob::Owned(Vec::new()));
        }
        // SAFETY: the map is read-only. Truncating a dump while callscope has it open would make
        // reads of the lost pages fault; that is the usual contract of mapped files and the price of
        // not copying a multi-gigabyte dump onto the heap.
        let map = unsafe { memmap2::Mmap::map(file)? };
        Ok(Blob::Mapped(map))
    }
}

impl Blob {
    /// Maps the pages of `start..end` of a mapped file into memory at once, ahead of reading
    /// them: one call instead of a page fault every few pages. Only a hint; nothing is lost when
    /// the system cannot take it.
    pub fn prepare(&self, start: usize, end: usize) {
        #[cfg(target_os = "linux")]
        if let Blob::Mapped(map) = self {
            let end = end.min(map.len());
            if start < end {
                // memmap2 aligns the range to whole pages.
                let _ = map.advise_range(memmap2::Advice::PopulateRead, start, end - start);
            }
        }
        let _ = (start, end);
    }
}

impl Deref for Blob {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Blob::Mapped(m) => m,
            Blob::Owned(v) => v,
        }
    }
}

impl std::fmt::Debug for Blob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Blob::Mapped(m) => write!(f, "Blob::Mapped({} bytes)", m.len()),
            Blob::Owned(v) => write!(f, "Blob::Owned({} bytes)", v.len()),
        }
    }
}
