//! Where the bytes of a stream (stdin, a pipe, a gzip'd file as it inflates) are held once
//! read: in memory up to a size ([`Keep`]), then in a temporary file on disk, unlinked, mapped as
//! a dump is. Past that size, they go to the file as they come ([`Spool`]), a few kilobytes at a
//! time: each piece of a stream that is cut in pieces is mapped from it once cut, and the whole
//! of one that cannot be cut (an envelope) once it has all come.

use crate::store::Blob;

/// Where a stream's pieces are kept once read: in memory up to a size, then in a temporary file,
/// unlinked as it is made, from which each piece is mapped. The pages of those are the page
/// cache's, for the system to write out and drop, as a mapped dump's are, rather than
/// callscope's own memory: a dump larger than the memory free can be piped in, and what
/// callscope holds is its store, not its input. Writing them costs time (the kernel's copy into
/// new pages of the page cache, on the thread that reads the stream). A piece stays in
/// memory when no such file can be made or written (no temporary folder, a full disk), and when
/// the temporary folder is itself in memory (a tmpfs), where the file would only add the time.
pub(in crate::source::dump) struct Keep {
    /// How many of the stream's first bytes stay in memory.
    in_memory: u64,
    /// The file, made when the first piece goes to it; why there is none, when it cannot be
    /// made.
    file: std::sync::OnceLock<Result<std::fs::File, String>>,
    /// Set once a write or a map has failed: the pieces after it stay in memory.
    failed: std::sync::atomic::AtomicBool,
    /// How a test makes the file fail, and counts its maps.
    #[cfg(test)]
    faults: std::sync::Arc<Faults>,
}

/// What a test makes of a [`Keep`]'s file: it fails once `broken` is set (every write, map and
/// read back from then on), and `maps` counts the maps asked for.
#[cfg(test)]
#[derive(Default)]
pub(in crate::source::dump) struct Faults {
    pub(in crate::source::dump) broken: std::sync::atomic::AtomicBool,
    pub(in crate::source::dump) maps: std::sync::atomic::AtomicUsize,
}

#[cfg(test)]
impl Faults {
    /// An error once the file is broken.
    fn check(&self) -> std::io::Result<()> {
        match self.broken.load(std::sync::atomic::Ordering::SeqCst) {
            true => Err(std::io::Error::other("the disk broke")),
            false => Ok(()),
        }
    }
}

impl Keep {
    /// Past the first `in_memory` bytes, in a temporary file in `TMPDIR` (else `/tmp`), when one
    /// can be made.
    pub(in crate::source::dump) fn in_a_temporary_file_beyond(in_memory: u64) -> Keep {
        Keep {
            in_memory,
            file: std::sync::OnceLock::new(),
            failed: std::sync::atomic::AtomicBool::new(false),
            #[cfg(test)]
            faults: Default::default(),
        }
    }

    /// Past the first `in_memory` bytes, in `file`, or in memory when there is none.
    #[cfg(test)]
    pub(in crate::source::dump) fn in_file_beyond(
        file: Option<std::fs::File>,
        in_memory: u64,
    ) -> Keep {
        let keep = Keep::in_a_temporary_file_beyond(in_memory);
        let _ = keep.file.set(file.ok_or_else(|| "no file".to_string()));
        keep
    }

    /// This keep, its file failing as `faults` says.
    #[cfg(test)]
    pub(in crate::source::dump) fn with_faults(self, faults: std::sync::Arc<Faults>) -> Keep {
        Keep { faults, ..self }
    }

    /// Whether the `len` bytes that start `at` bytes into the stream are to go to the file.
    pub(super) fn would_move(&self, at: u64, len: usize) -> bool {
        len > 0
            && at.saturating_add(len as u64) > self.in_memory
            && !self.failed.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// `bytes`, which start `at` bytes into the stream, written to the file and mapped from it:
    /// a copy that is the page cache's, not callscope's memory. `None` when the file failed
    /// before, or there is none, or the write or the map fails (logged once, and what comes
    /// later stays in memory). What is later written at the same place is the same bytes.
    pub(super) fn copy_to_file(&self, at: u64, bytes: &[u8]) -> Option<Blob> {
        if self.failed.load(std::sync::atomic::Ordering::Relaxed) {
            return None;
        }
        let copied = self
            .write(at, bytes)
            .and_then(|()| self.map(at, bytes.len()));
        copied.map_err(|why| self.fail(&why)).ok()
    }

    /// The file, made the first time it is asked for; why there is none.
    fn file(&self) -> Result<&std::fs::File, String> {
        self.file
            .get_or_init(temporary_file_on_disk)
            .as_ref()
            .map_err(String::clone)
    }

    /// Writes `bytes` into the file, `at` bytes in, making the file first.
    fn write(&self, at: u64, bytes: &[u8]) -> Result<(), String> {
        #[cfg(test)]
        self.faults.check().map_err(|e| e.to_string())?;
        write_at(self.file()?, at, bytes).map_err(|e| e.to_string())
    }

    /// Maps the `len` bytes of the file that start `at` bytes in.
    fn map(&self, at: u64, len: usize) -> Result<Blob, String> {
        #[cfg(test)]
        {
            self.faults
                .maps
                .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            self.faults.check().map_err(|e| e.to_string())?;
        }
        map_at(self.file()?, at, len)
            .map(Blob::Mapped)
            .map_err(|e| e.to_string())
    }

    /// Reads back the `len` bytes of the file that start `at` bytes in.
    fn read_back(&self, at: u64, len: u64) -> std::io::Result<Vec<u8>> {
        #[cfg(test)]
        self.faults.check()?;
        let file = self.file.get().and_then(|f| f.as_ref().ok());
        let file = file.ok_or_else(|| std::io::Error::other("the temporary file is gone"))?;
        let mut bytes = vec![0; usize::try_from(len).map_err(std::io::Error::other)?];
        read_exact_at(file, &mut bytes, at)?;
        Ok(bytes)
    }

    /// Notes that the file failed: what comes later stays in memory. Logged once.
    fn fail(&self, why: &str) {
        if !self.failed.swap(true, std::sync::atomic::Ordering::Relaxed) {
            tracing::warn!(
                error = why,
                "the rest of a piped or gzip'd dump is held in memory, not in a temporary file"
            );
        }
    }
}

/// A stream's bytes from a place on, written to [`Keep`]'s file as they come, at their places in
/// the stream: the whole of a stream that cannot be cut in pieces (an envelope), which is read
/// once it has all come, or the piece being cut, past what stays in memory. Held in memory until
/// then, they would make callscope's memory the size of what it waits for: an envelope's whole
/// input, or a piece (32 MB) for each piece read, waiting its turn or being filled. In the file,
/// they are the page cache's, and each piece is mapped from it once cut, as a mapped dump's are.
pub(super) struct Spool<'k> {
    keep: &'k Keep,
    /// Where the bytes start in the stream (and in the file).
    from: u64,
    /// How many bytes are in the file from `from` on.
    written: u64,
}

impl<'k> Spool<'k> {
    /// `bytes`, the stream's bytes from `from` on so far, written to the file; `None` when the
    /// file cannot be written (logged once), and they stay in memory, as every later byte does.
    /// Whether they are to go there is `keep`'s to say ([`Keep::would_move`]), the caller's to ask.
    pub(super) fn start(keep: &'k Keep, from: u64, bytes: &[u8]) -> Option<Spool<'k>> {
        if let Err(why) = keep.write(from, bytes) {
            keep.fail(&why);
            return None;
        }
        let written = bytes.len() as u64;
        Some(Spool {
            keep,
            from,
            written,
        })
    }

    /// How many bytes are in the file.
    pub(super) fn len(&self) -> usize {
        self.written as usize
    }

    /// Adds the next bytes. When the file fails, the bytes it held, read back into memory (the
    /// caller adds `bytes`), or why they could not be read back.
    pub(super) fn add(&mut self, bytes: &[u8]) -> Result<(), std::io::Result<Vec<u8>>> {
        match self.keep.write(self.from + self.written, bytes) {
            Ok(()) => {
                self.written += bytes.len() as u64;
                Ok(())
            }
            Err(why) => {
                self.keep.fail(&why);
                Err(self.back_in_memory())
            }
        }
    }

    /// Every byte in the file, mapped, to look through.
    pub(super) fn view(&self) -> Result<Blob, std::io::Result<Vec<u8>>> {
        self.keep.map(self.from, self.len()).map_err(|why| {
            self.keep.fail(&why);
            self.back_in_memory()
        })
    }

    /// The first `len` bytes, mapped from the file: a piece cut off the front. The spool goes on
    /// from the byte after it. When the map fails, every byte it held, read back into memory.
    pub(super) fn cut(&mut self, len: usize) -> Result<Blob, std::io::Result<Vec<u8>>> {
        debug_assert!(len as u64 <= self.written);
        match self.keep.map(self.from, len) {
            Ok(piece) => {
                self.from += len as u64;
                self.written -= len as u64;
                Ok(piece)
            }
            Err(why) => {
                self.keep.fail(&why);
                Err(self.back_in_memory())
            }
        }
    }

    /// Every byte it held, mapped from the file (or read back from it when it cannot be mapped).
    pub(super) fn finish(self) -> std::io::Result<Blob> {
        match self.keep.map(self.from, self.len()) {
            Ok(whole) => Ok(whole),
            Err(why) => {
                self.keep.fail(&why);
                self.back_in_memory().map(Blob::Owned)
            }
        }
    }

    /// Where it starts in the stream.
    pub(super) fn from(&self) -> u64 {
        self.from
    }

    /// The bytes in the file, read back into memory.
    fn back_in_memory(&self) -> std::io::Result<Vec<u8>> {
        self.keep.read_back(self.from, self.written)
    }
}

/// A new temporary file, unlinked, in `TMPDIR`; why there is none when none can be made, or
/// when it would be held in memory (a tmpfs).
fn temporary_file_on_disk() -> Result<std::fs::File, String> {
    let folder = std::env::temp_dir();
    let file = tempfile::tempfile().map_err(|e| {
        format!(
            "no temporary file could be made in {}: {e}",
            folder.display()
        )
    })?;
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        use std::os::fd::AsRawFd;
        let mut fs = std::mem::MaybeUninit::<libc::statfs>::uninit();
        // SAFETY: fstatfs writes a `statfs` into the place given, for an open descriptor.
        let known = unsafe { libc::fstatfs(file.as_raw_fd(), fs.as_mut_ptr()) } == 0;
        // SAFETY: fstatfs returned 0, so it wrote the whole `statfs`.
        if known && unsafe { fs.assume_init() }.f_type == libc::TMPFS_MAGIC {
            return Err(format!("{} is a tmpfs, held in memory", folder.display()));
        }
    }
    Ok(file)
}

/// Writes `bytes` into `file`, `at` bytes in.
#[cfg(unix)]
fn write_at(file: &std::fs::File, at: u64, bytes: &[u8]) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, at)
}

/// Reads `file`'s bytes from `at` on into `bytes`, filling it.
#[cfg(unix)]
fn read_exact_at(file: &std::fs::File, bytes: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, bytes, at)
}

/// Maps `len` bytes of `file`, from `at` on.
#[cfg(unix)]
fn map_at(file: &std::fs::File, at: u64, len: usize) -> std::io::Result<memmap2::Mmap> {
    // SAFETY: the file was made for this stream and unlinked at once: no other program opens
    // it by name, and callscope never truncates it. Each piece is written once, before it is
    // mapped, at bytes no other piece has (an envelope's head, copied there to be read early,
    // is written again later with the same bytes); the map starts on the page that holds its first
    // byte, which may hold the end of the piece before, still being written by another thread,
    // but the slice the map gives is this piece's bytes only. The map stays valid once the
    // file is closed.
    unsafe { memmap2::MmapOptions::new().offset(at).len(len).map(file) }
}

#[cfg(not(unix))]
fn write_at(_: &std::fs::File, _: u64, _: &[u8]) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

#[cfg(not(unix))]
fn read_exact_at(_: &std::fs::File, _: &mut [u8], _: u64) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

#[cfg(not(unix))]
fn map_at(_: &std::fs::File, _: u64, _: usize) -> std::io::Result<memmap2::Mmap> {
    Err(std::io::ErrorKind::Unsupported.into())
}
