//! `list`'s formats, and writing a file atomically.
//!
//! - `csv_rows`: the `csv` format's columns and rows.
//! - `folder`: a dataset written as a folder (`--output DIR/`).
//! - `table`: the `table` format, fitted to a terminal.

mod csv_rows;
mod folder;
mod table;

use std::io::{self, Write};
use std::path::Path;

use crate::store::Store;

pub use csv_rows::CSV_COLUMNS;
pub use folder::{
    FOLDER_EVENTS, FOLDER_FILES, FOLDER_ROOMS, FOLDER_SESSIONS, FOLDER_STATS, holds, named_by,
    others_read, refuse_others, refuse_reading, write_folder,
};
pub use table::status_word;

/// The formats `list` writes in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Table,
    Ndjson,
    Json,
    Csv,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Table, Format::Ndjson, Format::Json, Format::Csv];

    /// The name on the command line (`--format ndjson`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Table => "table",
            Format::Ndjson => "ndjson",
            Format::Json => "json",
            Format::Csv => "csv",
        }
    }
}

impl Format {
    /// The format a file's extension names, whatever its case: `.csv` csv, `.json` the
    /// envelope, `.ndjson` and `.jsonl` NDJSON, `.txt` the table; `None` for any other.
    pub fn of_path(path: &Path) -> Option<Format> {
        let extension = path.extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "csv" => Some(Format::Csv),
            "json" => Some(Format::Json),
            "ndjson" | "jsonl" => Some(Format::Ndjson),
            "txt" => Some(Format::Table),
            _ => None,
        }
    }

    /// The format of a dump saved to `path`: NDJSON where its extension names it, else the
    /// envelope (a dump re-opens from these two only).
    pub fn of_dump_path(path: &Path) -> Format {
        match Format::of_path(path) {
            Some(Format::Ndjson) => Format::Ndjson,
            _ => Format::Json,
        }
    }
}

/// Writes the events `rows` of the store in a format; an envelope (`json`) says of their query
/// what `head` says.
pub fn write_events(
    store: &Store,
    rows: &[u32],
    format: Format,
    head: &Head,
    out: &mut dyn Write,
) -> io::Result<()> {
    if format == Format::Json {
        let raws = rows.iter().map(|&i| store.raw(i as usize));
        write_envelope(raws, rows.len(), head, out)?;
        return out.flush();
    }
    write_events_within(store, rows, format, None, out)
}

/// [`write_events`], with the table fitted into `columns` when given (a terminal's width).
pub fn write_events_within(
    store: &Store,
    rows: &[u32],
    format: Format,
    columns: Option<usize>,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Ndjson | Format::Json => {
            let raws = rows.iter().map(|&i| store.raw(i as usize));
            return write_raw_events(raws, rows.len(), format == Format::Json, out);
        }
        Format::Csv => csv_rows::write_csv(store, rows, out)?,
        Format::Table => table::write_table(store, rows, columns, out)?,
    }
    out.flush()
}

/// What a `json` envelope says of its query besides the events it holds: the query's `total`
/// and the `next` cursor of its remaining pages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// Every event the query matched, where known; `null` in the envelope otherwise.
    pub total: Option<u64>,
    /// Empty when no event of the query is missing.
    pub next: String,
}

impl Head {
    /// The head of an envelope holding the whole answer, `n` events.
    pub fn whole(n: usize) -> Head {
        Head {
            total: Some(n as u64),
            next: String::new(),
        }
    }

    /// The head of an envelope holding `held` events of an answer the service pages on from
    /// `next`: its `total` where that counts the answer in full (none when a filter of ours
    /// narrowed it) and is more than is held; else none, the total being unknown.
    pub fn part(total: Option<u64>, held: usize, next: String) -> Head {
        Head {
            total: total.filter(|&t| t > held as u64),
            next,
        }
    }
}

/// Writes `n` events given by their JSON: one per line (the `ndjson` format), or in one envelope
/// (the `json` format) that says they are the whole answer.
pub fn write_raw_events<'a>(
    raws: impl Iterator<Item = &'a [u8]>,
    n: usize,
    envelope: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    if envelope {
        return write_envelope(raws, n, &Head::whole(n), out);
    }
    for raw in raws {
        write_compact(raw, out)?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// Writes `n` events given by their JSON in one envelope whose `total` and `next` are `head`'s.
pub fn write_envelope<'a>(
    raws: impl Iterator<Item = &'a [u8]>,
    n: usize,
    head: &Head,
    out: &mut dyn Write,
) -> io::Result<()> {
    let total = head.total.map_or("null".to_string(), |t| t.to_string());
    let next = serde_json::to_string(&head.next).map_err(io::Error::other)?;
    write!(
        out,
        "{{\"limit\":{n},\"total\":{total},\"next\":{next},\"events\":["
    )?;
    for (k, raw) in raws.enumerate() {
        if k > 0 {
            out.write_all(b",")?;
        }
        out.write_all(b"\n")?;
        write_compact(raw, out)?;
    }
    out.write_all(b"\n]}\n")?;
    out.flush()
}

/// Writes a JSON value on one line, byte for byte as it was sent but for the whitespace between
/// tokens (numbers, escapes and key order are untouched).
pub fn write_compact(raw: &[u8], out: &mut dyn Write) -> io::Result<()> {
    if memchr::memchr2(b'\n', b'\r', raw).is_none() {
        return out.write_all(raw);
    }
    out.write_all(&compact_json(raw))
}

/// JSON without the whitespace between its tokens; strings and numbers stay byte for byte.
pub fn compact_json(json: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(json.len());
    let mut in_string = false;
    let mut escaped = false;
    for &b in json {
        if in_string {
            out.push(b);
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
            out.push(b);
        } else if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            out.push(b);
        }
    }
    out
}

/// The buffer a command's output is written through: large, so that a large output is written
/// in few calls to the system (each costs far more on a file than on /dev/null).
pub const OUTPUT_BUFFER: usize = 1 << 20;

/// Writes a file atomically: a temporary file in the same folder, flushed to disk, then renamed
/// over the target. A failure leaves any existing file untouched. A target that is there and is
/// no file (`/dev/stdout`, `/dev/null`, a named pipe) is written to as it is: a file renamed
/// over it would take its place.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        let target = std::fs::OpenOptions::new().write(true).open(path)?;
        let mut buf = io::BufWriter::with_capacity(OUTPUT_BUFFER, target);
        write(&mut buf)?;
        return buf.flush();
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".callscope-").suffix(".tmp");
    // A new file is made as any program makes one: 0666 less the umask (the system applies it
    // when the file is created), so that `umask 077` keeps a dump of names and addresses private.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    // The temporary file is the writer's business: a failure names the folder, not it (the
    // caller names the file the user asked for).
    let mut tmp = builder.tempfile_in(dir).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!(
                "cannot create a file in {}: {}",
                dir.display(),
                without_path(&e)
            ),
        )
    })?;
    {
        let mut buf = io::BufWriter::with_capacity(OUTPUT_BUFFER, tmp.as_file_mut());
        write(&mut buf)?;
        buf.flush()?;
    }
    // A file replaced keeps its mode.
    #[cfg(unix)]
    if let Ok(meta) = std::fs::metadata(path) {
        use std::os::unix::fs::PermissionsExt;
        let mode = meta.permissions().mode() & 0o7777;
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// An error's own words, without the path tempfile adds to them (`... at path "/x/.tmp"`).
fn without_path(e: &io::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at path \"") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    #[cfg(unix)]
    #[test]
    fn a_named_pipe_as_the_target_is_written_to_and_stays_a_pipe() {
        use std::io::Read;
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("out.fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("mkfifo is not available: skipped");
            return;
        }
        let reading = fifo.clone();
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            std::fs::File::open(reading)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        });
        super::write_atomically(&fifo, |out| out.write_all(b"{\"id\":\"e\"}\n")).unwrap();
        assert!(
            std::fs::metadata(&fifo).unwrap().file_type().is_fifo(),
            "the pipe was replaced by a file"
        );
        assert_eq!(reader.join().unwrap(), "{\"id\":\"e\"}\n");
    }

    #[test]
    fn a_failure_to_create_the_temporary_file_names_the_folder_not_the_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("missing/out.json");
        let e = super::write_atomically(&target, |_| Ok(())).unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with("cannot create a file in "), "{text}");
        assert!(
            !text.contains(".callscope-") && !text.contains("at path"),
            "{text}"
        );
    }

    #[test]
    fn a_path_names_a_format_by_its_extension_whatever_its_case() {
        use super::Format;
        use std::path::Path;
        let of = |p: &str| Format::of_path(Path::new(p));
        assert_eq!(of("a/x.csv"), Some(Format::Csv));
        assert_eq!(of("x.JSON"), Some(Format::Json));
        assert_eq!(of("x.ndjson"), Some(Format::Ndjson));
        assert_eq!(of("x.jsonl"), Some(Format::Ndjson));
        assert_eq!(of("x.txt"), Some(Format::Table));
        for other in ["x", "x.gz", "x.json.gz", ".csv", "csv"] {
            assert_eq!(of(other), None, "{other}");
        }
        let dump = |p: &str| Format::of_dump_path(Path::new(p));
        assert_eq!(dump("x.jsonl"), Format::Ndjson);
        for envelope in ["x.json", "x.csv", "x.txt", "x"] {
            assert_eq!(dump(envelope), Format::Json, "{envelope}");
        }
    }
}
