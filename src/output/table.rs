//! The `table` format, for people: each cell whole in a file or a pipe; on a terminal, fitted to
//! its width, the columns giving way in a stated order; the date shown once when every row
//! shares it.

use std::io::{self, Write};

use crate::event::EventType;
use crate::store::Store;
use crate::text::{Give, NARROWEST, TABLE_GAP, cut, display_width, fit_table, for_terminal};

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
    let agent = store.agent(row);
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
        join(s(agent.sdk), s(agent.sdk_version)),
        join(s(agent.os), s(agent.os_version)),
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

pub(super) fn write_table(
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

#[cfg(test)]
mod tests {
    use unicode_width::UnicodeWidthStr;

    use crate::text::NARROWEST;

    use super::*;
    use crate::output::{Format, write_events_within};

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
