//! Damaged dumps: what is readable is kept, each problem said once at its line and column, many
//! summed up, and no damage crashes the reader.

use super::*;

#[test]
fn damage_inside_a_pretty_envelope_is_reported_once() {
    let damaged = PAGE1.replacen("\"is_terminal\": true", "\"is_terminal\": tru", 1);
    let (ids, problems) = read(damaged.as_bytes());
    assert_eq!(ids, [P2]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let line = PAGE1
        .lines()
        .position(|l| l.contains("\"is_terminal\": true"))
        .unwrap()
        + 1;
    assert_eq!(problems[0].position.unwrap().0, line, "{}", problems[0]);

    let damaged = PAGE2.replacen("\"is_terminal\":false", "\"is_terminal\":fals", 1);
    let (ids, problems) = read(damaged.as_bytes());
    assert_eq!(ids, [S2]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].position.unwrap().0, 3, "{}", problems[0]);
}

#[test]
fn an_empty_file_is_a_dump_of_no_events() {
    for bytes in [&b""[..], b"\n\n", b"  \r\n\t ", b"\xef\xbb\xbf\n"] {
        let (ids, problems) = read_named("empty.json", bytes);
        assert!(ids.is_empty());
        assert!(problems.is_empty(), "{bytes:?}: {problems:?}");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zero.json");
    std::fs::write(&path, b"").unwrap();
    let (events, problems) = read_path(&path);
    assert_eq!(events, 0);
    assert!(problems.is_empty(), "{problems:?}");
}

#[test]
fn a_binary_file_is_reported_as_not_a_dump() {
    let png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10";
    let (ids, problems) = read_named("image.json", png);
    assert!(ids.is_empty());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].message.contains("binary"), "{}", problems[0]);
    assert_eq!(
        problems[0].to_string(),
        format!("image.json:1:1: {}", problems[0].message)
    );
}

#[test]
fn a_truncated_envelope_keeps_the_complete_events_before_the_cut() {
    let cut_at = PAGE2.find(r#"{"version":"2.0","id":"2a3b"#).unwrap() + 40;
    let (ids, problems) = read_named("page2.json", &PAGE2.as_bytes()[..cut_at]);
    assert_eq!(ids, [S2]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = &problems[0];
    assert!(p.message.contains("truncated"), "{p}");
    assert_eq!(p.position, Some((3, 41)), "{p}");
    assert!(p.to_string().starts_with("page2.json:3:41: "), "{p}");
}

#[test]
fn a_truncated_pretty_envelope_keeps_the_events_before_the_cut() {
    let cut_at = PAGE1.find("\"1f2a3b4c").unwrap();
    let (ids, problems) = read(&PAGE1.as_bytes()[..cut_at]);
    assert_eq!(ids, [P2]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    let p = problems[0].position.unwrap();
    let lines = PAGE1[..cut_at].lines().count();
    assert_eq!(p.0, lines);
}

#[test]
fn a_truncated_array_of_events_keeps_the_events_before_the_cut() {
    let events = events_of(PAGE1);
    let text = format!("[{},\n{}", events[0], &events[1][..100]);
    let (ids, problems) = read(text.as_bytes());
    assert_eq!(ids, [P2]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].message.contains("truncated"));
}

#[test]
fn a_bad_ndjson_line_is_reported_at_its_line_and_column_and_the_other_lines_are_read() {
    let lines: Vec<&str> = QUIRKS.lines().collect();
    let text = format!("{}\n{{\"id\":\"bad\", oops}}\n{}\n", lines[0], lines[1]);
    let (ids, problems) = read_named("events.ndjson", text.as_bytes());
    assert_eq!(ids, [Q1, Q2]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].position, Some((2, 14)), "{}", problems[0]);
    assert!(
        problems[0]
            .to_string()
            .starts_with("events.ndjson:2:14: invalid JSON"),
        "{}",
        problems[0]
    );
}

#[test]
fn a_line_cut_short_in_ndjson_loses_only_that_line() {
    let lines: Vec<&str> = QUIRKS.lines().collect();
    let events = events_of(PAGE2);
    for cut in [20, 200, 480, lines[0].len() - 1] {
        let text = format!("{}\n{}\n{}\n", &lines[0][..cut], lines[1], events[1]);
        let (ids, problems) = read(text.as_bytes());
        assert_eq!(ids, [Q2, J2], "cut at {cut}: {problems:?}");
        assert_eq!(problems.len(), 1, "cut at {cut}: {problems:?}");
        // At the end of the cut line (serde_json names the last character for a cut string).
        let end = lines[0][..cut].chars().count();
        let (line, column) = problems[0].position.unwrap();
        assert!(
            line == 1 && (end..=end + 1).contains(&column),
            "cut at {cut}: {}",
            problems[0]
        );
    }
}

#[test]
fn a_last_ndjson_line_cut_short_keeps_the_lines_before_it() {
    let lines: Vec<&str> = QUIRKS.lines().collect();
    let text = format!("{}\r\n{}", lines[0], &lines[1][..300]);
    let (ids, problems) = read(text.as_bytes());
    assert_eq!(ids, [Q1]);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].message.contains("truncated"), "{}", problems[0]);
    assert_eq!(
        problems[0].position,
        Some((2, lines[1][..300].chars().count() + 1))
    );

    let cut_middle = format!("{}\r\n{}\r\n", &lines[0][..lines[0].len() - 1], lines[1]);
    let (ids, problems) = read(cut_middle.as_bytes());
    assert_eq!(ids, [Q2]);
    assert_eq!(
        problems[0].position,
        Some((1, lines[0].chars().count())),
        "{}",
        problems[0]
    );
    assert!(problems[0].message.contains("cut short"), "{}", problems[0]);
}

#[test]
fn a_column_counts_characters_not_bytes() {
    let text = "{\"id\":\"a\",\"user_name\":\"Lucía Fernández\",}\n";
    let (_, problems) = read(text.as_bytes());
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].position, Some((1, 41)), "{}", problems[0]);
    assert_eq!(line_col("añb\nçd".as_bytes(), 7), (2, 2));
    assert_eq!(line_col(b"abc", 99), (1, 4));
}

#[test]
fn offsets_positioned_together_get_the_lines_and_columns_each_gets_alone() {
    // A mark, characters of two and three bytes, blank lines, a last line with no end.
    let bytes = "\u{feff}añb\n\nç€d\nxy\n\n\nlast".as_bytes();
    let alone: Vec<(usize, usize)> = (0..=bytes.len() + 2).map(|o| line_col(bytes, o)).collect();
    assert_eq!(alone[3], (1, 1), "the mark is no column");
    assert_eq!(alone[bytes.len()], (7, 5));
    let ascending: Vec<usize> = (0..=bytes.len() + 2).collect();
    assert_eq!(line_cols(bytes, ascending.iter().copied()), alone);
    // Offsets out of order, and repeated, are positioned as well.
    let mixed = [9, 2, 9, 20, 0, bytes.len() + 1, 5];
    let want: Vec<(usize, usize)> = mixed.iter().map(|&o| alone[o]).collect();
    assert_eq!(line_cols(bytes, mixed), want);
}

#[test]
fn values_that_are_not_objects_are_reported_and_the_events_around_them_read() {
    let lines: Vec<&str> = QUIRKS.lines().collect();
    let text = format!(
        "42\n\"text\"\n{}\nnull\ntrue\n[1, {}]\n",
        lines[0], lines[1]
    );
    let (ids, problems) = read(text.as_bytes());
    assert_eq!(ids, [Q1, Q2]);
    let found: Vec<(usize, usize, &str)> = problems
        .iter()
        .map(|p| {
            let (l, c) = p.position.unwrap();
            (l, c, p.message.rsplit("found ").next().unwrap())
        })
        .collect();
    assert_eq!(
        found,
        [
            (1, 1, "a number"),
            (2, 1, "a string"),
            (4, 1, "null"),
            (5, 1, "a boolean"),
            (6, 2, "a number"),
        ]
    );
    let envelope = r#"{"limit":2,"total":2,"next":"","events":[{"id":"ok"},"no"]}"#;
    let (ids, problems) = read(envelope.as_bytes());
    assert_eq!(ids, ["ok"]);
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].position, Some((1, 54)));
    assert!(problems[0].message.ends_with("found a string"));
}

#[test]
fn a_form_feed_before_damage_is_reported_not_a_crash() {
    for bytes in [
        &b"\x0c}"[..],
        b"\x0c\x0cx\n{\"id\":\"a\"}",
        b"{\"id\":\"a\"}\n\x0c]",
    ] {
        let (_, problems) = read(bytes);
        assert!(!problems.is_empty(), "{:?}", String::from_utf8_lossy(bytes));
    }
}

#[test]
fn problems_past_twenty_are_summed_up() {
    let text = "x\n".repeat(30) + "{\"id\":\"kept\"}\n";
    let (ids, problems) = read(text.as_bytes());
    assert_eq!(ids, ["kept"]);
    assert_eq!(problems.len(), 21);
    assert_eq!(problems[19].position, Some((20, 1)));
    assert_eq!(
        problems[20].to_string(),
        "t.json: 10 more problems not shown"
    );
}

/// xorshift64*: deterministic, so every run reads the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn damaged_input_never_crashes_and_every_span_read_is_an_object_inside_the_file() {
    let mut rng = Rng(0x0ddb_a11c_0ffe_e123);
    let sources = [PUBLISH, SUBSCRIBE, PAGE1, PAGE2, QUIRKS];
    let pieces: &[&[u8]] = &[
        b"{",
        b"}",
        b"[",
        b"]",
        b"\"",
        b":",
        b",",
        b"\n",
        b"\r\n",
        b" ",
        b"\x0c",
        b"\\",
        b"\x00",
        b"\xef\xbb\xbf",
        b"\xff",
        b"{}",
        b"[]",
        b"1e3",
        b"null",
        b"\"events\":[",
        b"{\"id\":\"a\"}",
    ];
    for round in 0..3000 {
        let source = sources[rng.below(sources.len())].as_bytes();
        let mut bytes = source[..rng.below(source.len() + 1)].to_vec();
        for _ in 0..rng.below(4) {
            let at = rng.below(bytes.len() + 1);
            bytes.splice(at..at, pieces[rng.below(pieces.len())].iter().copied());
        }
        if round % 5 == 0 {
            bytes.extend_from_slice(sources[rng.below(sources.len())].as_bytes());
        }
        let mut errors = Vec::new();
        let mut spans = Vec::new();
        scan(
            &bytes,
            &mut |s, e| {
                spans.push((s, e));
                Ok(())
            },
            &mut errors,
        );
        for (s, e) in spans {
            let parsed =
                serde_json::from_slice::<serde_json::Map<String, serde_json::Value>>(&bytes[s..e]);
            assert!(
                parsed.is_ok(),
                "round {round}: span {s}..{e} of {:?}",
                String::from_utf8_lossy(&bytes)
            );
        }
        let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
        for e in errors {
            assert!(e.offset <= bytes.len(), "round {round}: {e:?}");
            assert!(line_col(&bytes, e.offset).0 <= lines);
        }
    }
}
