//! `list`'s formats, and writing a file atomically.

use std::io::{self, Write};
use std::path::Path;

use crate::event::{Event, EventType, value_text};
use crate::store::Store;
use crate::text::{Give, NARROWEST, TABLE_GAP, cut, display_width, fit_table, for_terminal};

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
    "id",
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
    "error_description",
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
        e.id().unwrap_or_default().to_string(),
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
        data("error_description"),
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

/// The events table's columns. A cell is cut only to fit a terminal (see
/// [`fit_events_table`]); a file or a pipe gets every cell whole.
const TABLE_COLUMNS: &[&str] = &[
    "TIME (UTC)",
    "TYPE",
    "CODE",
    "ERROR",
    "STATUS",
    "USER",
    "ROOM",
    "SDK",
    "OS",
];

/// One event's cells; its time without the date when `day` says all the rows share one.
fn table_cells(store: &Store, i: usize, day: Option<&str>) -> Vec<String> {
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
        } else if day.is_some() {
            crate::time::format_clock(row.ts)
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
        .position(|h| *h == title)
        .expect("a column of the events table")
}

/// Fits the events table into a terminal `total` columns wide. It gives way in this order
/// (README states it): the type, user, room, SDK and OS narrow to 12 cells, then the error to
/// 20; the OS goes, then the SDK; then the user and room narrow to 8, and the error last of
/// all. The time, code and status are never cut.
fn fit_events_table(widths: &mut [usize], total: usize) -> Vec<bool> {
    let [kind, error, user, room, sdk, os] =
        ["TYPE", "ERROR", "USER", "ROOM", "SDK", "OS"].map(table_column);
    fit_table(
        widths,
        TABLE_GAP,
        total,
        &[
            Give::Narrow {
                columns: &[kind, user, room, sdk, os],
                to: 12,
            },
            Give::Narrow {
                columns: &[error],
                to: 20,
            },
            Give::Drop(os),
            Give::Drop(sdk),
            Give::Narrow {
                columns: &[user, room],
                to: NARROWEST,
            },
            Give::Narrow {
                columns: &[error],
                to: NARROWEST,
            },
        ],
    )
}

fn write_table(
    store: &Store,
    rows: &[u32],
    columns: Option<usize>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let day = shared_day(store, rows);
    let mut headers: Vec<String> = TABLE_COLUMNS.iter().map(|h| h.to_string()).collect();
    if let Some(day) = &day {
        headers[table_column("TIME (UTC)")] = format!("{day} UTC");
    }
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|&i| {
            table_cells(store, i as usize, day.as_deref())
                .into_iter()
                .map(|c| for_terminal(&c).into_owned())
                .collect()
        })
        .collect();
    let mut widths: Vec<usize> = headers.iter().map(|h| display_width(h)).collect();
    for row in &cells {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(display_width(c));
        }
    }
    let kept = match columns {
        Some(total) => fit_events_table(&mut widths, total),
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
        line(headers.iter().map(String::as_str).collect())
    )?;
    for row in &cells {
        writeln!(out, "{}", line(row.iter().map(String::as_str).collect()))?;
    }
    Ok(())
}

/// The day (`2026-11-18`, UTC) every row of the table falls on, when there is one: the table
/// then shows it once, in the time column's header, and each row the time of day alone.
fn shared_day(store: &Store, rows: &[u32]) -> Option<String> {
    let mut days = rows
        .iter()
        .map(|&i| store.row(i as usize).ts)
        .filter(|&ts| ts != crate::store::NO_TIME)
        .map(crate::time::format_day);
    let first = days.next()?;
    days.all(|d| d == first).then_some(first)
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

/// The files a folder dump holds: the events, then each kind of related data that is at hand.
pub const FOLDER_EVENTS: &str = "events.ndjson";
pub const FOLDER_ROOMS: &str = "rooms.json";
pub const FOLDER_SESSIONS: &str = "sessions.json";
pub const FOLDER_STATS: &str = "peer-stats.ndjson";

/// Writes events and the related data beside them into a folder that re-opens as it was: the
/// events as NDJSON, the rooms and the sessions each as one list response
/// (`{"limit","data","last"}`, as their endpoints answer), the quality stats one response a
/// line. Each file is written atomically; a kind with nothing in it is not written. Returns the
/// files written.
pub fn write_folder<'a>(
    dir: &Path,
    events: impl Iterator<Item = &'a [u8]>,
    related: &crate::related::Related,
) -> io::Result<Vec<std::path::PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    let path = dir.join(FOLDER_EVENTS);
    write_atomically(&path, |out| {
        for raw in events {
            write_compact(raw, out)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    })?;
    written.push(path);
    let list = |raws: Vec<&str>, last: Option<&str>| {
        let mut body = format!("{{\"limit\":{},\"data\":[", raws.len());
        body.push_str(&raws.join(","));
        body.push(']');
        if let Some(last) = last {
            body.push_str(&format!(",\"last\":{}", serde_json::Value::from(last)));
        }
        body.push_str("}\n");
        body
    };
    if !related.rooms.is_empty() {
        let body = list(
            related.rooms.iter().map(|r| r.raw.as_str()).collect(),
            related.rooms.last().map(|r| r.id.as_str()),
        );
        let path = dir.join(FOLDER_ROOMS);
        write_atomically(&path, |out| out.write_all(body.as_bytes()))?;
        written.push(path);
    }
    if !related.sessions.is_empty() {
        let body = list(
            related.sessions.iter().map(|s| s.raw.as_str()).collect(),
            related.sessions.last().map(|s| s.id.as_str()),
        );
        let path = dir.join(FOLDER_SESSIONS);
        write_atomically(&path, |out| out.write_all(body.as_bytes()))?;
        written.push(path);
    }
    if !related.stats.is_empty() {
        let path = dir.join(FOLDER_STATS);
        write_atomically(&path, |out| {
            for s in &related.stats {
                write_compact(s.raw.as_bytes(), out)?;
                out.write_all(b"\n")?;
            }
            Ok(())
        })?;
        written.push(path);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use unicode_width::UnicodeWidthStr;

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

    use crate::text::NARROWEST;

    use super::*;

    #[test]
    fn a_table_gives_way_in_the_order_stated_and_stops_once_it_fits() {
        let base = [23, 12, 6, 24, 7, 20, 24, 18, 16];
        let texts = [3, 5, 6, 7, 8];
        let narrow = |to| Give::Narrow {
            columns: &texts,
            to,
        };
        // Narrowing takes the widest first and stops at the width asked.
        let mut widths = base;
        let kept = fit_table(&mut widths, 2, 140, &[narrow(NARROWEST)]);
        assert!(kept.iter().all(|&k| k));
        assert_eq!(widths.iter().sum::<usize>() + 2 * 8, 140);
        for k in 0..base.len() {
            if !texts.contains(&k) {
                assert_eq!(widths[k], base[k], "column {k} is not a text");
            }
        }
        assert!(widths[3] <= 20 && widths[6] <= 20, "{widths:?}");
        // Too narrow to fit: every text at its floor, nothing dropped.
        let mut widths = base;
        let kept = fit_table(&mut widths, 2, 40, &[narrow(12), narrow(NARROWEST)]);
        assert!(kept.iter().all(|&k| k));
        for k in texts {
            assert_eq!(widths[k], NARROWEST);
        }
        // A step after the table fits is not taken.
        let mut widths = [10, 10, 10, 10];
        let kept = fit_table(&mut widths, 1, 32, &[Give::Drop(3), Give::Drop(1)]);
        assert_eq!(
            (kept, widths),
            (vec![true, true, true, false], [10, 10, 10, 10])
        );
        // Narrowed to 8 and 8 (39 wide), then the last column dropped (28): the two cells it
        // leaves go back to the narrowed columns.
        let mut widths = [10, 10, 10, 10];
        let kept = fit_table(
            &mut widths,
            1,
            30,
            &[
                Give::Narrow {
                    columns: &[0, 1],
                    to: NARROWEST,
                },
                Give::Drop(3),
                Give::Drop(2),
            ],
        );
        assert_eq!(
            (kept, widths),
            (vec![true, true, true, false], [9, 9, 10, 10])
        );
    }

    #[test]
    fn the_events_table_fits_a_terminal_and_gives_way_in_the_order_stated() {
        let mut s = Store::new();
        s.merge(crate::source::demo::load());
        let rows: Vec<u32> = (0..200).collect();
        let table = |columns: Option<usize>| {
            let mut out = Vec::new();
            write_events_within(&s, &rows, Format::Table, columns, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let whole = table(None);
        let widest = whole.lines().map(|l| l.width()).max().unwrap();
        assert_eq!(
            table(Some(widest)),
            whole,
            "a table that fits the terminal is left whole"
        );
        assert!(!whole.contains('…'), "nothing is cut off a terminal");
        for columns in [150, 120, 100, 80] {
            let text = table(Some(columns));
            assert_eq!(text.lines().count(), 201);
            let wide = text.lines().map(|l| l.width()).max().unwrap();
            assert!(wide <= columns, "{columns}: {wide}\n{text}");
            let header = text.lines().next().unwrap();
            // The OS goes only where narrowing the texts was not enough, then the SDK, and the
            // room they leave goes back to the texts: the table is then as wide as the terminal.
            let (sdk, os) = (header.contains("SDK"), header.ends_with("OS"));
            assert!(sdk || !os, "the SDK goes after the OS: {header}");
            assert_eq!(os, columns == 150, "{header}");
            assert_eq!(sdk, columns >= 120, "{header}");
            if !os {
                assert_eq!(wide, columns, "{text}");
            }
            // Times are never cut.
            for line in text.lines().skip(1) {
                let clock = &line[..12];
                assert!(
                    clock
                        .chars()
                        .all(|c| c.is_ascii_digit() || c == ':' || c == '.'),
                    "{line}"
                );
            }
            // The error, the most telling text, keeps the most room at the narrowest.
            let error = header.find("STATUS").unwrap() - header.find("ERROR").unwrap() - TABLE_GAP;
            assert!(error >= 15, "{columns}: {text}");
        }
    }

    #[test]
    fn the_date_shows_once_when_every_row_shares_it() {
        let ev = |n: u32, at: &str| {
            serde_json::json!({
                "id": format!("00000000-0000-4000-8000-{n:012x}"),
                "timestamp": at,
                "type": "client.join.failed",
                "data": {"room_id": "r", "peer_id": "p", "error_code": 500},
            })
            .to_string()
        };
        let store = |events: [String; 2]| {
            let mut s = Store::new();
            s.merge(crate::store::Batch::of_objects(events).unwrap());
            s
        };
        let table = |s: &Store| {
            let mut out = Vec::new();
            let rows: Vec<u32> = (0..s.len() as u32).collect();
            write_events_within(s, &rows, Format::Table, None, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let one_day = store([ev(1, "2026-11-18T11:00:00Z"), ev(2, "2026-11-18T11:01:00Z")]);
        let text = table(&one_day);
        assert!(text.starts_with("2026-11-18 UTC  TYPE"), "{text}");
        assert_eq!(text.matches("2026-11-18").count(), 1, "{text}");
        assert!(
            text.lines().nth(2).unwrap().starts_with("11:01:00.000  "),
            "{text}"
        );
        // A row of another day brings the date back to every row.
        let two_days = store([ev(1, "2026-11-18T11:00:00Z"), ev(2, "2026-11-19T11:00:00Z")]);
        let text = table(&two_days);
        assert!(text.starts_with("TIME (UTC)"), "{text}");
        assert!(text.contains("2026-11-18 11:00:00.000"), "{text}");
        assert!(text.contains("2026-11-19 11:00:00.000"), "{text}");
    }
}
