//! `list`'s formats, and writing a file atomically.

use std::io::{self, Write};
use std::path::Path;

use crate::event::{Event, EventType, value_text};
use crate::store::Store;
use crate::text::{TABLE_GAP, cut, display_width, fit_table, for_terminal};

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
        Format::Csv => write_csv(store, rows, out)?,
        Format::Table => write_table(store, rows, columns, out)?,
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

/// The place of the column headed `title` in [`TABLE_COLUMNS`].
fn table_column(title: &str) -> usize {
    TABLE_COLUMNS
        .iter()
        .position(|(h, _)| *h == title)
        .expect("a column of the events table")
}

/// The columns of the events table that narrow when it does not fit: the texts.
fn table_narrowing() -> [usize; 5] {
    ["ERROR", "USER", "ROOM", "SDK", "OS"].map(table_column)
}

fn write_table(
    store: &Store,
    rows: &[u32],
    columns: Option<usize>,
    out: &mut dyn Write,
) -> io::Result<()> {
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
    let kept = match columns {
        // The OS, then the SDK, go when narrowing the texts is not enough.
        Some(total) => fit_table(
            &mut widths,
            TABLE_GAP,
            total,
            &[],
            &table_narrowing(),
            &[table_column("OS"), table_column("SDK")],
        ),
        None => vec![true; widths.len()],
    };
    let line = |cells: Vec<&str>| {
        let mut s = String::new();
        for (k, (c, w)) in cells.iter().zip(&widths).enumerate() {
            if !kept[k] {
                continue;
            }
            let c = cut(c, *w);
            s.push_str(&c);
            s.push_str(&" ".repeat(w.saturating_sub(display_width(&c)) + TABLE_GAP));
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
    let mut builder = tempfile::Builder::new();
    builder.prefix(".callscope-").suffix(".tmp");
    // A new file is made as any program makes one: 0666 less the umask (the system applies it
    // when the file is created), so that `umask 077` keeps a dump of names and addresses private.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut tmp = builder.tempfile_in(dir)?;
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

#[cfg(test)]
mod tests {
    use unicode_width::UnicodeWidthStr;

    use crate::text::NARROWEST;

    use super::*;

    #[test]
    fn a_table_is_narrowed_widest_text_first_and_never_below_its_narrowest() {
        let base = [23, 12, 6, 24, 7, 20, 24, 18, 16];
        let mut widths = base;
        let narrowing = table_narrowing();
        let kept = fit_table(&mut widths, 2, 140, &[], &narrowing, &[]);
        assert!(kept.iter().all(|&k| k));
        assert_eq!(widths.iter().sum::<usize>() + 2 * 8, 140);
        for k in 0..base.len() {
            if !narrowing.contains(&k) {
                assert_eq!(widths[k], base[k], "column {k} is not a text");
            }
        }
        // The widest went first: ERROR and ROOM (24) end as narrow as USER (20) or narrower.
        assert!(widths[3] <= 20 && widths[6] <= 20, "{widths:?}");
        // Too narrow to fit: every text at its narrowest, nothing dropped.
        let mut widths = base;
        let kept = fit_table(&mut widths, 2, 40, &[], &narrowing, &[]);
        assert!(kept.iter().all(|&k| k));
        for k in narrowing {
            assert_eq!(widths[k], NARROWEST);
        }
        // Dropping goes in the order given, and stops once it fits: first, before any narrowing;
        // last, after it.
        let mut widths = [10, 10, 10, 10];
        let kept = fit_table(&mut widths, 1, 32, &[3, 1], &[0], &[]);
        assert_eq!(
            (kept, widths),
            (vec![true, true, true, false], [10, 10, 10, 10])
        );
        let mut widths = [10, 10, 10, 10];
        let kept = fit_table(&mut widths, 1, 30, &[], &[0, 1], &[3, 2]);
        // Narrowed to 8 and 8 (39 wide), then the last column dropped (28): the two cells it
        // leaves go back to the narrowed columns.
        assert_eq!(
            (kept, widths),
            (vec![true, true, true, false], [9, 9, 10, 10])
        );
    }

    #[test]
    fn the_events_table_fits_a_narrow_terminal() {
        let mut s = Store::new();
        s.merge(crate::source::demo::load());
        let rows: Vec<u32> = (0..200).collect();
        for columns in [None, Some(150), Some(120), Some(100)] {
            let mut out = Vec::new();
            write_events_within(&s, &rows, Format::Table, columns, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert_eq!(text.lines().count(), 201);
            let widest = text.lines().map(|l| l.width()).max().unwrap();
            match columns {
                None => assert!(widest > 150, "{widest}"),
                Some(c) => assert!(widest <= c, "{c}: {widest}"),
            }
            // The OS goes only where narrowing the texts was not enough, and the room it leaves
            // goes back to them: the table is then as wide as the terminal.
            let header = text.lines().next().unwrap();
            assert_eq!(header.ends_with("OS"), columns != Some(100), "{header}");
            if columns == Some(100) {
                assert_eq!(widest, 100, "{text}");
            }
            // Times are never cut.
            assert!(
                text.lines().nth(1).unwrap().starts_with("2026-11-18 "),
                "{text}"
            );
        }
    }
}
