//! Reads saved dumps in every shape PRODUCT.md accepts: an API response envelope; a JSON array of
//! envelopes or of events; NDJSON of either; several JSON values one after another; any of these
//! gzip-compressed (known by content); `-` for stdin; a folder of such files.
//!
//! A damaged file keeps every event read before the damage (and, for line-delimited files, after
//! it), and the problem is reported with the file's path and line:column.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::store::{Batch, Blob, Reading};

use pieces::{Batches, scan_blob};
pub use scan::{ScanError, scan};
#[cfg(test)]
pub(in crate::source) use stream::load_stream;
use stream::read_stream_in_batches;
pub(in crate::source) use stream::{
    Cut, LineProblems, PieceRead, Spares, read_piece, spool_lost, with_pieces,
};
#[cfg(test)]
use stream::{KeptBefore, gzip_damage};

/// Extensions of the files read from a folder.
pub const FOLDER_EXTENSIONS: &[&str] = &["json", "ndjson", "jsonl", "gz"];

/// The largest batch [`read_file_in_batches`] makes.
pub const LARGE_BATCH: usize = 65_536;

/// Line-delimited files at least this large are read on every core.
const PARALLEL_BYTES: usize = 32 << 20;

/// The size of the pieces a large line-delimited file is cut into for reading on every core.
pub(in crate::source) const PIECE_BYTES: usize = 32 << 20;

/// The UTF-8 byte order mark some tools write before a file's text: not part of it.
pub(crate) const BYTE_ORDER_MARK: &[u8] = &[0xEF, 0xBB, 0xBF];

/// The length of the byte order mark `bytes` start with: 0 or 3.
pub(crate) fn mark_len(bytes: &[u8]) -> usize {
    if bytes.starts_with(BYTE_ORDER_MARK) {
        BYTE_ORDER_MARK.len()
    } else {
        0
    }
}

/// Problems reported for one file past this count are summed up in one line.
pub(in crate::source) const MAX_PROBLEMS_PER_FILE: usize = 20;

/// Something wrong with one input, said for a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DumpProblem {
    pub path: String,
    /// 1-based line and column, when the problem is at a place in the file.
    pub position: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for DumpProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, col)) => write!(f, "{}:{}:{}: {}", self.path, line, col, self.message),
            None => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for DumpProblem {}

/// One input file's bytes, ready to scan.
pub struct DumpFile {
    pub path: String,
    pub blob: Arc<Blob>,
}

/// Expands a command-line source argument into files: `-` is stdin, a folder is every file with
/// one of [`FOLDER_EXTENSIONS`] in it (sorted by name), anything else is one file.
pub fn expand(arg: &str) -> Result<Vec<PathBuf>, DumpProblem> {
    if arg == "-" {
        return Ok(vec![PathBuf::from("-")]);
    }
    let path = Path::new(arg);
    let meta = std::fs::metadata(path).map_err(|e| problem(arg, None, io_message(&e)))?;
    if !meta.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let files = folder_files(path).map_err(|e| problem(arg, None, io_message(&e)))?;
    if files.is_empty() {
        return Err(problem(
            arg,
            None,
            "the folder holds no .json, .ndjson, .jsonl or .gz file".into(),
        ));
    }
    Ok(files)
}

/// The entries of a folder that are read as its dataset: every one named with one of
/// [`FOLDER_EXTENSIONS`] (sorted by name), not those of the folders within. A folder or a link
/// to what is not there, named so, is kept: reading it says why it holds no events, rather than
/// leaving it out without a word. A pipe or a device is not (opening one could wait for ever).
pub fn folder_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| FOLDER_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
        })
        .filter(|p| p.is_file() || not_a_file(p).is_some())
        .collect();
    files.sort();
    Ok(files)
}

/// How much of a dump read as it comes (stdin, a pipe, a gzip'd file) is held in memory; the
/// rest is kept in a temporary file on disk, unlinked, mapped as a dump is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holding {
    /// Up to a quarter of the memory free: for a command that ends once it has read (`list`,
    /// which is faster so, as writing the file costs time).
    WhileItFits,
    /// Its first piece: for the explorer, which holds what it has read for as long as it runs.
    FirstPiece,
}

/// Reads every event of one file (or stdin for `-`), handing them over in batches as
/// [`read_file_in_batches`] does. A gzip'd file, stdin or a pipe is read as it comes (see
/// `stream::read_stream_in_batches`), so that its first events show before the rest has arrived,
/// holding in memory what `holding` says.
pub fn read_path_in_batches(
    path: &Path,
    reading: &Reading,
    size: usize,
    holding: Holding,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<DumpProblem> {
    let name = display_name(path);
    let batches = Batches {
        reading,
        first: size,
    };
    if path == Path::new("-") {
        let stdin = std::io::stdin();
        return read_stream_in_batches(&name, stdin, holding, batches, PIECE_BYTES, on_batch);
    }
    if let Some(why) = not_a_file(path) {
        return vec![problem(&name, None, why)];
    }
    let opened = std::fs::File::open(path).and_then(|file| {
        let regular = file.metadata()?.is_file();
        Ok((file, regular))
    });
    let blob = match opened {
        // A pipe or device (`<(zcat dump.gz)`) has no length to map.
        Ok((file, false)) => {
            return read_stream_in_batches(&name, file, holding, batches, PIECE_BYTES, on_batch);
        }
        Ok((file, true)) => Blob::map_file(&file),
        Err(e) => Err(e),
    };
    match blob {
        Ok(blob) if is_gzip(&blob) => {
            read_stream_in_batches(&name, &blob[..], holding, batches, PIECE_BYTES, on_batch)
        }
        Ok(blob) => read(
            DumpFile {
                path: name,
                blob: Arc::new(blob),
            },
            batches,
            true,
            on_batch,
        ),
        Err(e) => vec![problem(&name, None, io_message(&e))],
    }
}

/// Why a path a folder holds is no file to read, when it is not: a folder within it, or a link
/// to what is not there (or cannot be reached). `None` for anything else, a file that cannot be
/// opened included: opening it says why.
pub(crate) fn not_a_file(path: &Path) -> Option<String> {
    let entry = std::fs::symlink_metadata(path).ok()?;
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            Some("a folder, not a file: the folders within a folder are not read".into())
        }
        Ok(_) => None,
        Err(e) if entry.is_symlink() => {
            let target = std::fs::read_link(path)
                .map_or_else(|_| "a target".to_string(), |t| t.display().to_string());
            Some(match e.kind() {
                std::io::ErrorKind::NotFound => format!("a link to {target}, which is not there"),
                _ => format!("a link to {target}: {}", io_message(&e)),
            })
        }
        Err(_) => None,
    }
}

/// A file's name for people: `<stdin>` for `-`.
pub(crate) fn display_name(path: &Path) -> String {
    if path == Path::new("-") {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// A file's bytes as a reader, inflated when the file is gzip'd (told by its first two bytes).
pub(in crate::source) fn open_inflated(path: &Path) -> std::io::Result<Box<dyn std::io::Read>> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    let mut magic = [0u8; 2];
    let n = file.read(&mut magic)?;
    let head = std::io::Cursor::new(magic[..n].to_vec()).chain(file);
    Ok(match is_gzip(&magic[..n]) {
        true => Box::new(flate2::read::MultiGzDecoder::new(head)),
        false => Box::new(head),
    })
}

/// A regular file's bytes, mapped, when they are not gzip data: what reading a file whole
/// without decompressing it needs (`None` for a pipe, a folder, a file that cannot be opened).
/// Anything but a regular file is refused before it is opened: opening a named pipe, then
/// closing it, could leave its writer with no reader.
pub fn map_plain_file(path: &Path) -> Option<Blob> {
    if !std::fs::metadata(path).ok()?.is_file() {
        return None;
    }
    let file = std::fs::File::open(path).ok()?;
    // Again on what was opened: the path may name something else by now, and `map_file` would
    // read a pipe whole.
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let blob = Blob::map_file(&file).ok()?;
    if is_gzip(&blob) {
        return None;
    }
    tracing::debug!(path = %path.display(), bytes = blob.len(), "mapped a dump");
    Some(blob)
}

/// Reads every event of a file into a batch. Problems are returned beside the batch: what could
/// be read always is.
pub fn read_file(file: DumpFile) -> (Batch, Vec<DumpProblem>) {
    let mut batches = Vec::new();
    // On one thread and with an unbounded size there is exactly one batch, which keeps no
    // spares: its reading ends here.
    let whole = Batches {
        reading: &Reading::start(),
        first: usize::MAX,
    };
    let problems = read(file, whole, false, &mut |b| batches.push(b));
    (batches.pop().expect("one batch"), problems)
}

/// Reads every event of a file, handing them over in batches as they are read, built on the
/// spares of `reading`: the first holds at most `size` events, later ones grow up to
/// [`LARGE_BATCH`] (so the first screen of a large dump shows at once, and the rest arrives
/// without a flood of tiny batches).
pub fn read_file_in_batches(
    file: DumpFile,
    reading: &Reading,
    size: usize,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<DumpProblem> {
    let batches = Batches {
        reading,
        first: size,
    };
    read(file, batches, true, on_batch)
}

fn read(
    file: DumpFile,
    batches: Batches,
    may_parallel: bool,
    on_batch: &mut dyn FnMut(Batch),
) -> Vec<DumpProblem> {
    let mut problems = Vec::new();
    let errors = scan_blob(&file.blob, batches, may_parallel, on_batch);
    let bytes: &[u8] = &file.blob;
    let total = errors.len();
    report(&file.path, positioned(bytes, errors), total, &mut problems);
    problems
}

/// Adds a file's problems, given at their lines and columns: at most [`MAX_PROBLEMS_PER_FILE`]
/// of the `total`, and a line for the rest. A file that holds nothing but blanks is a dump of no
/// events, as callscope writes one when nothing matches, not a problem.
pub(in crate::source) fn report(
    path: &str,
    positioned: Vec<((usize, usize), String)>,
    total: usize,
    problems: &mut Vec<DumpProblem>,
) {
    problems.extend(
        positioned
            .into_iter()
            .map(|(at, message)| problem(path, Some(at), message)),
    );
    if total > MAX_PROBLEMS_PER_FILE {
        problems.push(problem(
            path,
            None,
            format!("{} more problems not shown", total - MAX_PROBLEMS_PER_FILE),
        ));
    }
}

/// The 1-based line and column (in characters) of a byte offset.
pub fn line_col(bytes: &[u8], offset: usize) -> (usize, usize) {
    line_cols(bytes, [offset])[0]
}

/// [`line_col`] of each offset, counting line ends in one pass over the bytes when the offsets
/// ascend (as a scan finds its problems), rather than from the start for each. A column is
/// still counted back from its offset to the start of its line.
fn line_cols(bytes: &[u8], offsets: impl IntoIterator<Item = usize>) -> Vec<(usize, usize)> {
    // Line ends before `counted`.
    let (mut counted, mut lines) = (0, 0);
    offsets
        .into_iter()
        .map(|offset| {
            let offset = offset.min(bytes.len());
            if offset < counted {
                (counted, lines) = (0, 0);
            }
            lines += memchr::memchr_iter(b'\n', &bytes[counted..offset]).count();
            counted = offset;
            let before = &bytes[..offset];
            // A byte order mark is not a column an editor shows.
            let line_start = memchr::memrchr(b'\n', before).map_or(mark_len(before), |i| i + 1);
            let col = String::from_utf8_lossy(&before[line_start..])
                .chars()
                .count()
                + 1;
            (lines + 1, col)
        })
        .collect()
}

/// The first [`MAX_PROBLEMS_PER_FILE`] problems found in `bytes`, at their lines and columns.
fn positioned(bytes: &[u8], found: Vec<ScanError>) -> Vec<((usize, usize), String)> {
    let first = &found[..found.len().min(MAX_PROBLEMS_PER_FILE)];
    let at = line_cols(bytes, first.iter().map(|e| e.offset));
    at.into_iter()
        .zip(found.into_iter().map(|e| e.message))
        .collect()
}

pub(crate) fn problem(
    path: &str,
    position: Option<(usize, usize)>,
    message: String,
) -> DumpProblem {
    DumpProblem {
        path: path.to_string(),
        position,
        message,
    }
}

fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or folder".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => format!("cannot read: {e}"),
    }
}

mod envelope;
mod keep;
mod pieces;
mod scan;
mod stream;

#[cfg(test)]
mod tests;
