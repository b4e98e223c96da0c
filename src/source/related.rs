//! Files of related data (rooms, sessions, quality stats) beside the event dumps of a folder:
//! told from event dumps by their first bytes, read whole (they are small), gzip'd or not.

use std::io::Read;
use std::path::Path;

use super::dump::{DumpProblem, open_inflated, problem};
use crate::related::{Object, Sniffed, read_all, sniff};

/// How much of a file's start is read to tell what it holds.
const SNIFF_BYTES: u64 = 64 * 1024;
/// A file of related data larger than this is read as events (and reported as such): responses
/// of the related endpoints are a few megabytes at most.
const MOST_BYTES: u64 = 256 * 1024 * 1024;

/// The related data of a file, when it holds related data rather than events: `None` for an
/// event dump (and for stdin, a pipe, or what cannot be opened, which the event reader reports).
pub fn read_if_related(path: &Path) -> Option<Result<Vec<Object>, DumpProblem>> {
    let name = path.display().to_string();
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MOST_BYTES {
        return None;
    }
    let head = read_start(path, SNIFF_BYTES).ok()?;
    if sniff(&head) != Sniffed::Related {
        return None;
    }
    let bytes = match read_start(path, MOST_BYTES) {
        Ok(bytes) => bytes,
        Err(e) => return Some(Err(problem(&name, None, e.to_string()))),
    };
    Some(read_all(&bytes).map_err(|e| problem(&name, None, e)))
}

/// Up to `most` bytes of a file's start, inflated when the file is gzip'd.
fn read_start(path: &Path, most: u64) -> std::io::Result<Vec<u8>> {
    // Room for what is read at once (a buffer grown from nothing reads in small steps).
    let mut out = Vec::with_capacity(most.min(SNIFF_BYTES) as usize);
    open_inflated(path)?.take(most).read_to_end(&mut out)?;
    Ok(out)
}
