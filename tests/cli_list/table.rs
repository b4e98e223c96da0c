//! The table format: every cell under its header, wide characters aligned, long cells whole off
//! a terminal, control characters neutralised.

use super::*;

/// Where each header label starts, in display columns. The time column is headed by the day
/// when every row shares it (`2024-11-18 UTC`), else `TIME (UTC)`: either way it is first.
fn header_columns(header: &str) -> Vec<usize> {
    let labels = [
        "", "TYPE", "CODE", "ERROR", "STATUS", "USER", "ROOM", "SDK", "OS",
    ];
    labels
        .iter()
        .map(|l| {
            let byte = header.find(l).unwrap_or_else(|| panic!("{l} in {header}"));
            unicode_width::UnicodeWidthStr::width(&header[..byte])
        })
        .collect()
}

/// The text of a row from display column `from` on.
fn from_column(row: &str, from: usize) -> String {
    let mut width = 0;
    let mut out = String::new();
    for c in row.chars() {
        if width >= from {
            out.push(c);
        }
        width += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
    }
    out
}

/// The text of a row between two display columns.
fn cell(row: &str, from: usize, to: usize) -> String {
    let all = from_column(row, from);
    let mut width = 0;
    all.chars()
        .take_while(|c| {
            width += unicode_width::UnicodeWidthChar::width(*c).unwrap_or(0);
            width <= to - from
        })
        .collect::<String>()
        .trim_end()
        .to_string()
}

#[test]
fn table_aligns_every_cell_under_its_header() {
    let dir = fixtures_dir();
    let out = list(&[dir.to_str().unwrap(), "--format", "table"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 13, "a header and twelve rows");
    let cols = header_columns(lines[0]);
    assert_eq!(cols[0], 0);
    let expected = reference();
    for (row, e) in lines[1..].iter().zip(&expected) {
        let width = unicode_width::UnicodeWidthStr::width(*row);
        for (k, &col) in cols
            .iter()
            .enumerate()
            .skip(1)
            .filter(|&(_, &col)| col < width)
        {
            let before = from_column(row, col - 2);
            assert!(
                before.starts_with("  "),
                "two spaces before column {k} in {row:?}"
            );
        }
        let cells: Vec<String> = (0..cols.len())
            .map(|k| match cols.get(k + 1) {
                Some(&next) => cell(row, cols[k], next),
                None => from_column(row, cols[k]),
            })
            .collect();
        // Every row of the fixtures falls on one day: the header says it once, and each row
        // gives the time of day.
        let time = ts(e);
        assert!(
            lines[0].starts_with(&format!("{} UTC  ", &time[..10])),
            "{}",
            lines[0]
        );
        assert_eq!(cells[0], &time[11..23], "{row}");
        assert_eq!(
            cells[2],
            data(e, "error_code")
                .as_i64()
                .map(|c| c.to_string())
                .unwrap_or_default()
        );
        let status = match data(e, "is_terminal").as_bool() {
            Some(true) => "final",
            Some(false) => "retried",
            None => "-",
        };
        assert_eq!(cells[4], status, "{row}");
        if e["id"] == "5f0a1b7e-3c2d-4e8f-9a10-2b3c4d5e6f70" {
            assert_eq!(
                cells,
                [
                    "10:15:42.123",
                    "publish",
                    "4006",
                    "ICEDisconnected",
                    "final",
                    "Amara Okafor",
                    "weekly-standup",
                    "web 0.12.3",
                    "macOS 14.6.1"
                ]
            );
        }
        if e["type"] == "client.connect.failed" {
            assert_eq!(
                cells[6], "671f3c2a9e8d7b6a5c4d3e2f",
                "no room name: the room id"
            );
        }
    }
}

#[test]
fn table_aligns_wide_characters_and_keeps_long_cells_whole_off_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("wide.ndjson");
    let event = |id: &str, user: &str, error: &str| {
        serde_json::json!({
            "version": "2.0", "id": id, "timestamp": "2024-11-18T10:00:00.5Z", "type": "client.join.failed",
            "data": {"user_name": user, "error_name": error, "error_code": 500, "is_terminal": false,
                     "room_id": "r1", "agent": {"sdk": "web", "sdk_version": "0.12.3", "os": "macOS", "os_version": "14"}}
        })
        .to_string()
    };
    let lines = [
        event("w1", "佐藤 花子", "ServerErrors"),
        event("w2", "Zoë", "AVeryLongErrorNameThatDoesNotFitInTheColumn"),
    ];
    std::fs::write(&path, lines.join("\n")).unwrap();
    let out = list(&[path.to_str().unwrap(), "--format", "table"]);
    let rows: Vec<&str> = out.lines().collect();
    let cols = header_columns(rows[0]);
    let user = cols[5];
    let error = cols[3];
    assert_eq!(cell(rows[1], user, cols[6]), "佐藤 花子");
    assert_eq!(cell(rows[2], user, cols[6]), "Zoë");
    assert_eq!(from_column(rows[1], cols[6]), "r1    web 0.12.3  macOS 14");
    assert_eq!(from_column(rows[1], cols[6]), from_column(rows[2], cols[6]));
    // Written to a pipe, not a terminal: nothing is cut.
    assert_eq!(
        cell(rows[2], error, cols[4]),
        "AVeryLongErrorNameThatDoesNotFitInTheColumn"
    );
    assert!(!out.contains('…'), "{out}");
}

#[test]
fn table_neutralises_control_characters_and_bidi_overrides() {
    let out = callscope()
        .args(["list", "--format", "table"])
        .arg(fixture("hostile.ndjson"))
        .arg(fixture("publish.json"))
        .assert()
        .success();
    let bytes = &out.get_output().stdout;
    let text = String::from_utf8(bytes.clone()).unwrap();
    for bad in [
        '\u{1b}', '\u{7}', '\r', '\u{8}', '\u{9b}', '\u{202e}', '\u{2066}',
    ] {
        assert!(!text.contains(bad), "{bad:?} in {text}");
    }
    assert!(!bytes.contains(&0x1b));
    assert!(text.contains("Mallory␛[31m"), "{text}");
    assert!(text.contains("weekly␇-␍standup␈"), "{text}");
    assert_eq!(text.lines().count(), 3);
}
