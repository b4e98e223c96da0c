//! `callscope list` when nothing matches, on a dump it maps: what it says of why (a room given
//! by its name, a range of time that misses the events), in each format and with `--group-by`,
//! said the same as of the same events on stdin; and, by the log's debug lines, that the dump
//! is mapped once to say it and that looking for saved pages stops at its first event. Live,
//! a room's name looked up is not said to be taken for an id. An empty standard input is said
//! to be, as an empty file is.

use std::path::{Path, PathBuf};

const BIN: &str = env!("CARGO_BIN_EXE_callscope");

mod common;

/// The demo's events (3,000 of them, seed 9) as NDJSON, in `dir`.
fn dump(dir: &Path) -> PathBuf {
    let out = std::process::Command::new(BIN)
        .args(["demo-data", "--events", "3000", "--seed", "9"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let path = dir.join("events.ndjson");
    std::fs::write(&path, out.stdout).unwrap();
    path
}

/// `list` of `input` (`-` for stdin, fed `stdin`) with `args`, logging at debug level to `log`
/// when given: its exit status, stdout and stderr.
fn list(input: &str, stdin: &[u8], args: &[&str], log: Option<&Path>) -> (i32, String, String) {
    let mut cmd = assert_cmd::Command::new(BIN);
    cmd.arg("list").arg(input).args(args).write_stdin(stdin);
    cmd.env_remove("CALLSCOPE_LOG");
    if let Some(log) = log {
        cmd.env("CALLSCOPE_LOG", "debug").arg("--log-file").arg(log);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const ROOM_ID: &str = "673a1f2c9e4b8d0a5c7e3f21";

/// What `list` says of a range of time after every event of the dump, whatever else is asked.
const SINCE_2030: &str = "callscope: no event matches since 2030-01-01T00:00:00Z \
    (2030-01-01T00:00:00.000000000Z); the events read span \
    2026-11-18T08:03:57.254813498Z to 2026-11-18T13:54:18.620658589Z\n";

/// What `list` says of a range of time before every event of the dump.
const UNTIL_2020: &str = "callscope: no event matches until 2020-01-01T00:00:00Z \
    (2020-01-01T00:00:00.000000000Z); the events read span \
    2026-11-18T08:03:57.254813498Z to 2026-11-18T13:54:18.620658589Z\n";

/// Filters that leave nothing of the dump, and what `list` says of each on stderr.
fn empty_answers() -> Vec<(Vec<&'static str>, String)> {
    let named = |name: &str| {
        format!(
            "callscope: no event is in a room of id {name}; the room named {name} has the id \
             {ROOM_ID}: --room {ROOM_ID}\n"
        )
    };
    vec![
        // No event names such a room: nothing to say.
        (vec!["--room", "NO-SUCH-ROOM"], String::new()),
        (vec!["--search", "nothingmatches"], String::new()),
        (vec!["--type", "no.such.type"], String::new()),
        // A room's name in another case: no line holds it as written.
        (vec!["--room", "WEEKLY-ALLHANDS"], named("WEEKLY-ALLHANDS")),
        // As written, with a type: its events are candidates, and none is in a room of that id.
        (
            vec!["--room", "weekly-allhands", "--type", "join"],
            named("weekly-allhands"),
        ),
        (
            vec!["--since", "2030-01-01T00:00:00Z"],
            SINCE_2030.to_string(),
        ),
        // A range of time with a filter whose candidates are a part of the dump: the span
        // said is still that of every event read, as on stdin, not that of the candidates.
        (
            vec!["--room", ROOM_ID, "--until", "2020-01-01T00:00:00Z"],
            UNTIL_2020.to_string(),
        ),
        (
            vec!["--type", "join", "--until", "2020-01-01T00:00:00Z"],
            UNTIL_2020.to_string(),
        ),
        (
            vec![
                "--search",
                "weekly-allhands",
                "--until",
                "2020-01-01T00:00:00Z",
            ],
            UNTIL_2020.to_string(),
        ),
        (
            vec!["--room", ROOM_ID, "--since", "2030-01-01T00:00:00Z"],
            SINCE_2030.to_string(),
        ),
        // A range that ends before it begins, both bounds within the events' span.
        (
            vec![
                "--since",
                "2026-11-18T12:00:00Z",
                "--until",
                "2026-11-18T11:00:00Z",
            ],
            "callscope: since 2026-11-18T12:00:00Z (2026-11-18T12:00:00.000000000Z) is after \
             until 2026-11-18T11:00:00Z (2026-11-18T11:00:00.000000000Z): no time is in that \
             range\n"
                .to_string(),
        ),
    ]
}

/// The formats (and groupings) an empty answer is written in.
const FORMATS: [&[&str]; 5] = [
    &["--format", "ndjson"],
    &["--format", "csv"],
    &["--format", "json"],
    &["--group-by", "error", "--format", "ndjson"],
    &["--group-by", "room", "--format", "json"],
];

#[test]
fn an_empty_answer_says_why_as_it_does_of_the_same_events_on_stdin() {
    let dir = tempfile::tempdir().unwrap();
    let path = dump(dir.path());
    let bytes = std::fs::read(&path).unwrap();
    let path = path.to_str().unwrap();
    for (filter, said) in empty_answers() {
        for format in FORMATS {
            let args = [&filter[..], format].concat();
            let on_file = list(path, b"", &args, None);
            assert_eq!(on_file.0, 0, "{args:?}: {}", on_file.2);
            assert_eq!(on_file.2, said, "{args:?}");
            match format {
                [_, "ndjson"] | [_, _, _, "ndjson"] => assert_eq!(on_file.1, "", "{args:?}"),
                [_, "json"] => assert_eq!(
                    on_file.1,
                    "{\"limit\":0,\"total\":0,\"next\":\"\",\"events\":[\n]}\n"
                ),
                _ => {}
            }
            // Read as a stream, the same events give the same answer and the same notes.
            assert_eq!(list("-", &bytes, &args, None), on_file, "stdin: {args:?}");
        }
    }
}

/// How many times the log says the dump at `path` was mapped.
fn mappings(log: &Path, path: &str) -> usize {
    let log = std::fs::read_to_string(log).unwrap();
    log.lines()
        .filter(|l| l.contains("mapped a dump") && l.contains(path))
        .count()
}

#[test]
fn an_empty_answer_maps_the_dump_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dump(dir.path());
    let path = path.to_str().unwrap();
    let mut runs = 0;
    for (filter, said) in empty_answers() {
        for format in FORMATS {
            runs += 1;
            let log = dir.path().join(format!("{runs}.log"));
            let args = [&filter[..], format].concat();
            let (status, _, stderr) = list(path, b"", &args, Some(&log));
            assert_eq!((status, stderr), (0, said.clone()), "{args:?}");
            assert_eq!(mappings(&log, path), 1, "{args:?}");
        }
    }
    // An answer that is not empty maps it once too.
    let log = dir.path().join("answer.log");
    let (status, stdout, _) = list(path, b"", &["--room", ROOM_ID], Some(&log));
    assert_eq!(status, 0);
    assert!(!stdout.is_empty());
    assert_eq!(mappings(&log, path), 1);
}

#[test]
fn looking_for_saved_pages_reads_no_further_than_the_first_event_of_a_dump() {
    let dir = tempfile::tempdir().unwrap();
    let path = dump(dir.path());
    let size = std::fs::metadata(&path).unwrap().len();
    let path = path.to_str().unwrap();
    let log = dir.path().join("list.log");
    let (status, stdout, _) = list(path, b"", &["--type", "join"], Some(&log));
    assert_eq!(status, 0);
    assert!(!stdout.is_empty());
    let log = std::fs::read_to_string(&log).unwrap();
    let looked: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("looked for saved pages") && l.contains(path))
        .collect();
    let [line] = looked.as_slice() else {
        panic!("one look for saved pages:\n{log}");
    };
    let read: u64 = line
        .split_whitespace()
        .find_map(|w| w.strip_prefix("read="))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(line.contains("pages=0"), "{line}");
    // A first read of a few kilobytes, not the file: a dump of events is told by its first
    // event.
    assert!(read <= 16 * 1024 && read < size, "{read} of {size}: {line}");
}

/// Live, a room's name given to `--room` was looked up, and the events fetched by its id: when
/// a filter leaves none of them, nothing is said of a name taken for an id.
#[test]
fn live_a_rooms_name_resolved_is_not_said_to_be_taken_for_an_id() {
    let home = tempfile::tempdir().unwrap();
    let mut serve = std::process::Command::new(BIN);
    serve
        .args(["serve", "--demo", "--addr", "127.0.0.1:0"])
        .env("CALLSCOPE_SERVE_TOKEN", "tok-empty-5e1")
        .stderr(std::process::Stdio::null());
    let server = common::Server::spawn(serve);
    let out = common::callscope(home.path())
        .args(["list", "--live", "--base-url", &server.url])
        .args(["--room", "weekly-allhands", "--search", "nothingmatches"])
        .args(["--format", "ndjson"])
        .env("HMS_MANAGEMENT_TOKEN", "tok-empty-5e1")
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "", "{stderr}");
    assert!(!stderr.contains("has the id"), "{stderr}");
    assert!(!stderr.contains("no event is in a room of id"), "{stderr}");
}

/// Nothing piped in: said after the (empty) answer, as an empty file is said, in each way
/// `list` reads stdin without a filter; a stdin with events, or a filter that matched none of
/// them, says no such thing.
#[test]
fn an_empty_standard_input_is_said_to_hold_no_events() {
    let note = "callscope: note: the standard input held no events";
    for args in [
        &[][..],
        &["--group-by", "error"],
        &["--format", "table"],
        &["--format", "json"],
    ] {
        for stdin in [&b""[..], b"\n  \n", b"[]"] {
            let (code, out, err) = list("-", stdin, args, None);
            assert_eq!(code, 0, "{args:?} {err}");
            assert!(err.contains(note), "{args:?} {stdin:?}: {err:?}");
            assert!(!out.contains("client."), "{out}");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let events = std::fs::read(dump(dir.path())).unwrap();
    for args in [
        &[][..],
        &["--group-by", "error"],
        &["--type", "join", "--room", "nowhere"],
    ] {
        let (code, _, err) = list("-", &events, args, None);
        assert_eq!(code, 0, "{args:?} {err}");
        assert!(!err.contains(note), "{args:?}: {err}");
    }
}
