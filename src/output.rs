//! `list`'s formats, and writing a file atomically.

use std::io::{self, Write};
use std::path::Path;

use crate::cli::Format;
use crate::event::{Event, EventType, value_text};
use crate::sanitize::for_terminal;
use crate::store::Store;

/// The columns of the `csv` format, in order (PRODUCT.md).
pub const CSV_COLUMNS: &[&str] = &[
    "timestamp",
    "type",
    "error_code",
    "error_name",
    "is_terminal",
    "action",
    "room_id",
    "room_name",
    "session_id",
    "peer_id",
    "user_id",
    "user_name",
    "role",
    "sdk",
    "sdk_version",
    "os",
    "os_version",
    "device_model",
    "error_message",
];

/// Writes the events `rows` of the store in a format.
pub fn write_events(
    store: &Store,
    rows: &[u32],
    format: Format,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Ndjson | Format::Json => {
            let raws = rows.iter().map(|&i| store.raw(i as usize));
            return write_raw_events(raws, rows.len(), format == Format::Json, out);
        }
        Format::Csv => write_csv(store, rows, out)?,
        Format::Table => write_table(store, rows, out)?,
    }
    out.flush()
}

/// Writes `n` events given by their JSON: one per line (the `ndjson` format), or in one envelope
/// (the `json` format).
pub fn write_raw_events<'a>(
    raws: impl Iterator<Item = &'a [u8]>,
    n: usize,
    envelope: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    if envelope {
        write!(
            out,
            "{{\"limit\":{n},\"total\":{n},\"next\":\"\",\"events\":["
        )?;
        for (k, raw) in raws.enumerate() {
            if k > 0 {
                out.write_all(b",")?;
            }
            out.write_all(b"\n")?;
            write_compact(raw, out)?;
        }
        out.write_all(b"\n]}\n")?;
    } else {
        for raw in raws {
            write_compact(raw, out)?;
            out.write_all(b"\n")?;
        }
    }
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

/// The csv row of one event, in [`CSV_COLUMNS`] order. A `null` is an empty cell, as an absent
/// field is: the text `null` would read as a value.
fn csv_record(e: &Event) -> Vec<String> {
    let cell = |v: Option<&serde_json::Value>| {
        v.filter(|v| !v.is_null())
            .map(value_text)
            .unwrap_or_default()
    };
    let data = |f: &str| cell(e.data_value(f));
    let agent = |f: &str| cell(e.agent().and_then(|a| a.get(f)));
    vec![
        e.timestamp().unwrap_or_default().to_string(),
        e.type_name().to_string(),
        data("error_code"),
        data("error_name"),
        data("is_terminal"),
        data("action"),
        data("room_id"),
        data("room_name"),
        data("session_id"),
        data("peer_id"),
        data("user_id"),
        data("user_name"),
        data("role"),
        agent("sdk"),
        agent("sdk_version"),
        agent("os"),
        agent("os_version"),
        agent("device_model"),
        data("error_message"),
    ]
}

fn write_csv(store: &Store, rows: &[u32], out: &mut dyn Write) -> io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(CSV_COLUMNS)?;
    for &i in rows {
        w.write_record(csv_record(&store.event(i as usize)))?;
    }
    w.flush()?;
    Ok(())
}

/// Table columns: header, and the widest a cell may be before it is cut.
const TABLE_COLUMNS: &[(&str, usize)] = &[
    ("TIME (UTC)", 23),
    ("TYPE", 12),
    ("CODE", 6),
    ("ERROR", 24),
    ("STATUS", 7),
    ("USER", 20),
    ("ROOM", 24),
    ("SDK", 18),
    ("OS", 16),
];

fn table_cells(store: &Store, i: usize) -> Vec<String> {
    let row = store.row(i);
    let s = |sym| store.str(sym);
    let join = |a: &str, b: &str| {
        if b.is_empty() {
            a.to_string()
        } else {
            format!("{a} {b}")
        }
    };
    let room = if row.room_name.is_none() {
        s(row.room_id)
    } else {
        s(row.room_name)
    };
    vec![
        if row.ts == crate::store::NO_TIME {
            "-".to_string()
        } else {
            crate::time::format_short(row.ts)
        },
        EventType::from_name(s(row.kind)).alias().to_string(),
        row.error_code().map(|c| c.to_string()).unwrap_or_default(),
        s(row.error_name).to_string(),
        status_word(row.is_terminal()).to_string(),
        s(row.user_name).to_string(),
        room.to_string(),
        join(s(row.sdk), s(row.sdk_version)),
        join(s(row.os), s(row.os_version)),
    ]
}

/// The retry status in one word: `final`, `retried`, or `-` when `is_terminal` is absent.
pub fn status_word(terminal: Option<bool>) -> &'static str {
    match terminal {
        Some(true) => "final",
        Some(false) => "retried",
        None => "-",
    }
}

fn write_table(store: &Store, rows: &[u32], out: &mut dyn Write) -> io::Result<()> {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|&i| {
            table_cells(store, i as usize)
                .into_iter()
                .zip(TABLE_COLUMNS)
                .map(|(c, (_, max))| cut(&for_terminal(&c), *max))
                .collect()
        })
        .collect();
    let mut widths: Vec<usize> = TABLE_COLUMNS.iter().map(|(h, _)| h.len()).collect();
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(display_width(c));
        }
    }
    let line = |cells: Vec<&str>| {
        let mut s = String::new();
        for (k, (c, w)) in cells.iter().zip(&widths).enumerate() {
            s.push_str(c);
            if k + 1 < widths.len() {
                s.push_str(&" ".repeat(w.saturating_sub(display_width(c)) + 2));
            }
        }
        s.trim_end().to_string()
    };
    writeln!(
        out,
        "{}",
        line(TABLE_COLUMNS.iter().map(|(h, _)| *h).collect())
    )?;
    for row in &cells {
        writeln!(out, "{}", line(row.iter().map(String::as_str).collect()))?;
    }
    Ok(())
}

fn display_width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// Cuts a string to at most `max` columns, marking the cut with `…`.
pub fn cut(s: &str, max: usize) -> String {
    if display_width(s) <= max {
        return s.to_string();
    }
    let mut out = String::new();
    let mut width = 0;
    for c in s.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if width + w + 1 > max {
            break;
        }
        out.push(c);
        width += w;
    }
    out.push('…');
    out
}

/// The buffer a command's output is written through: large, so that a large output is written
/// in few calls to the system (each costs far more on a file than on /dev/null).
pub const OUTPUT_BUFFER: usize = 1 << 20;

/// Writes a file atomically: a temporary file in the same folder, flushed to disk, then renamed
/// over the target. A failure leaves any existing file untouched.
pub fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::Builder::new()
        .prefix(".callscope-")
        .suffix(".tmp")
        .tempfile_in(dir)?;
    {
        let mut buf = io::BufWriter::with_capacity(OUTPUT_BUFFER, tmp.as_file_mut());
        write(&mut buf)?;
        buf.flush()?;
    }
    // The temporary file is private (0600); the dump gets the mode of the file it replaces, or
    // the usual 0644 for a new one.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)
            .map(|m| m.permissions().mode() & 0o7777)
            .unwrap_or(0o644);
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(mode))?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
