//! `callscope list` reading dumps as a user hands them over: folders, stdin, gzip, damaged and
//! hostile files.

use std::io::Write;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

fn callscope() -> Command {
    Command::new(env!("CARGO_BIN_EXE_callscope"))
}

/// `callscope list --format ndjson`, its dumps to be named.
fn list_ndjson() -> Command {
    let mut command = callscope();
    command.args(["list", "--format", "ndjson"]);
    command
}

/// `callscope list --format ndjson` of the damaged dump at `path`, checked to exit 2.
fn list_damaged(path: &Path) -> assert_cmd::assert::Assert {
    list_ndjson().arg(path).assert().code(2)
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn fixture_bytes(name: &str) -> Vec<u8> {
    std::fs::read(fixture(name)).unwrap()
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// The `id` of every NDJSON line of `stdout`.
fn ids(stdout: &[u8]) -> Vec<String> {
    std::str::from_utf8(stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["id"].as_str().unwrap_or("?").to_string()
        })
        .collect()
}

const P1: &str = "5f0a1b7e-3c2d-4e8f-9a10-2b3c4d5e6f70";
const S1: &str = "8d2e4f60-1a3b-4c5d-8e9f-0a1b2c3d4e5f";
const P2: &str = "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b";
const S2: &str = "1f2a3b4c-5d6e-4f7a-9b0c-1d2e3f4a5b6c";
const J2: &str = "2a3b4c5d-6e7f-4a8b-8c9d-2e3f4a5b6c7d";
const Q1: &str = "4c5d6e7f-8a9b-4c0d-8e1f-4a5b6c7d8e9f";
const Q2: &str = "5d6e7f8a-9b0c-4d1e-9f2a-5b6c7d8e9f0a";
const H1: &str = "6e7f8a9b-0c1d-4e2f-8a3b-6c7d8e9f0a1b";

#[test]
fn a_folder_is_read_file_by_file_in_name_order_skipping_other_extensions() {
    let dir = tempfile::tempdir().unwrap();
    let put = |name: &str, bytes: &[u8]| std::fs::write(dir.path().join(name), bytes).unwrap();
    put("d.gz", &gzip(&fixture_bytes("publish.json")));
    put("b.ndjson", &fixture_bytes("quirks.ndjson"));
    put("a.json", &fixture_bytes("subscribe.json"));
    put("c.jsonl", &fixture_bytes("hostile.ndjson"));
    put("notes.txt", &fixture_bytes("page1.json"));
    put("page2.json.bak", &fixture_bytes("page2.json"));
    put("README", b"not a dump");
    std::fs::create_dir(dir.path().join("nested")).unwrap();
    std::fs::write(
        dir.path().join("nested/inner.json"),
        fixture_bytes("join.json"),
    )
    .unwrap();

    let out = list_ndjson().arg(dir.path()).assert().success().stderr("");
    assert_eq!(ids(&out.get_output().stdout), [S1, Q1, Q2, H1, P1]);
}

#[test]
fn a_dangling_link_or_a_folder_named_as_a_dump_in_a_folder_is_said_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.json"), fixture_bytes("subscribe.json")).unwrap();
    let gone = dir.path().join("gone/incident.ndjson");
    std::os::unix::fs::symlink(&gone, dir.path().join("incident.ndjson")).unwrap();
    std::fs::create_dir(dir.path().join("nested.json")).unwrap();
    std::fs::write(
        dir.path().join("nested.json/inner.json"),
        fixture_bytes("join.json"),
    )
    .unwrap();
    let at = |name: &str| dir.path().join(name).display().to_string();

    let out = callscope()
        .args(["list", "--format", "ndjson"])
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}: a link to {}, which is not there",
            at("incident.ndjson"),
            gone.display()
        )))
        .stderr(predicate::str::contains(format!(
            "{}: a folder, not a file: the folders within a folder are not read",
            at("nested.json")
        )));
    // What could be read is.
    assert_eq!(ids(&out.get_output().stdout), [S1]);

    // A folder that holds nothing but the dangling link is not said to hold no dump.
    let lone = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(&gone, lone.path().join("incident.ndjson")).unwrap();
    callscope()
        .arg("list")
        .arg(lone.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("which is not there"))
        .stderr(predicate::str::contains("holds no").not());
}

#[test]
fn the_fixture_folder_reads_without_a_problem() {
    // Its pages overlap by one event: the copy dropped is the only thing said.
    let out = list_ndjson().arg(fixture("")).assert().success().stderr(
        "callscope: note: 1 event dropped: its id was read before (the first copy is kept)\n",
    );
    assert_eq!(ids(&out.get_output().stdout).len(), 12);
}

#[test]
fn an_empty_folder_is_a_usage_error_that_names_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "{}").unwrap();
    callscope()
        .arg("list")
        .arg(dir.path())
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(dir.path().to_str().unwrap()))
        .stderr(predicate::str::contains(".ndjson"));
}

#[test]
fn pages_across_files_are_deduplicated_and_the_first_copy_wins() {
    let out = list_ndjson()
        .arg(fixture("page1.json"))
        .arg(fixture("page2.json"))
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(ids(stdout.as_bytes()), [P2, S2, J2]);
    assert!(stdout.contains("first copy") && !stdout.contains("second copy"));
}

#[test]
fn a_dash_reads_stdin_plain_or_gzipped() {
    let quirks = fixture_bytes("quirks.ndjson");
    callscope()
        .args(["list", "-", "--format", "ndjson"])
        .write_stdin(quirks.clone())
        .assert()
        .success()
        .stdout(String::from_utf8(quirks.clone()).unwrap());
    let out = callscope()
        .args(["list", "--format", "ndjson", "-"])
        .arg(fixture("hostile.ndjson"))
        .write_stdin(gzip(&fixture_bytes("page1.json")))
        .assert()
        .success()
        .stderr("");
    assert_eq!(ids(&out.get_output().stdout), [P2, S2, H1]);
}

#[cfg(unix)]
#[test]
fn a_gzip_pipe_named_by_path_gives_its_events() {
    let quirks = fixture_bytes("quirks.ndjson");
    callscope()
        .args(["list", "/dev/stdin", "--format", "ndjson"])
        .write_stdin(gzip(&quirks))
        .assert()
        .success()
        .stderr("")
        .stdout(String::from_utf8(quirks).unwrap());
}

#[cfg(unix)]
#[test]
fn a_pipe_named_by_path_that_holds_no_lines_of_events_is_read_once() {
    // The fast path for line-delimited dumps must not read a pipe before the full path does.
    for page in [
        fixture_bytes("page1.json"),
        gzip(&fixture_bytes("page1.json")),
    ] {
        let by_dash = callscope()
            .args(["list", "-", "--format", "ndjson"])
            .write_stdin(page.clone())
            .assert()
            .success();
        let by_path = callscope()
            .args(["list", "/dev/stdin", "--format", "ndjson"])
            .write_stdin(page)
            .assert()
            .success()
            .stderr("");
        let events = by_path.get_output().stdout.clone();
        assert_eq!(ids(&events), [P2, S2]);
        assert_eq!(events, by_dash.get_output().stdout);
    }
}

#[cfg(unix)]
#[test]
fn a_named_pipe_is_opened_once_and_read_to_its_end() {
    // Opening a named pipe to see what it is, then again to read it, would let its writer
    // write to the first opening and go, leaving the second waiting for a writer forever.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("events.ndjson");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let quirks = fixture_bytes("quirks.ndjson");
    let file = dir.path().join("file.ndjson");
    std::fs::write(&file, &quirks).unwrap();
    // Every event as it comes, and grouped as it comes: as from the same bytes in a file.
    for args in [["--format", "ndjson"], ["--group-by", "error"]] {
        let from_file = callscope()
            .arg("list")
            .args(args)
            .arg(&file)
            .assert()
            .success();
        let expected = from_file.get_output().stdout.clone();
        if args[0] == "--format" {
            assert_eq!(expected, quirks);
        }
        let writer = {
            let (fifo, quirks) = (fifo.clone(), quirks.clone());
            // Opening a pipe to write waits for its reader.
            std::thread::spawn(move || std::fs::write(fifo, quirks))
        };
        callscope()
            .arg("list")
            .args(args)
            .arg(&fifo)
            // A reader left waiting is a failure, not a hung test.
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .success()
            .stderr("")
            .stdout(expected);
        writer.join().unwrap().unwrap();
    }
}

#[test]
fn a_byte_order_mark_changes_nothing_that_list_prints() {
    let dir = tempfile::tempdir().unwrap();
    let quirks = fixture_bytes("quirks.ndjson");
    let mut marked = vec![0xEF, 0xBB, 0xBF];
    marked.extend_from_slice(&quirks);
    let path = dir.path().join("marked.ndjson");
    std::fs::write(&path, &marked).unwrap();
    for filter in [&[][..], &["--type", "join"][..]] {
        let plain = list_ndjson()
            .args(filter)
            .arg(fixture("quirks.ndjson"))
            .assert()
            .success();
        list_ndjson()
            .args(filter)
            .arg(&path)
            .assert()
            .success()
            .stderr("")
            .stdout(plain.get_output().stdout.clone());
    }
}

#[test]
fn gzip_is_read_by_content_whatever_the_extension() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("incident.json");
    std::fs::write(&path, gzip(&fixture_bytes("quirks.ndjson"))).unwrap();
    list_ndjson()
        .arg(&path)
        .assert()
        .success()
        .stdout(String::from_utf8(fixture_bytes("quirks.ndjson")).unwrap());
}

#[test]
fn a_missing_file_exits_2_and_names_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("incident-4711.json");
    callscope()
        .arg("list")
        .arg(&missing)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(format!(
            "{}: no such file",
            missing.display()
        )));
    // Beside a readable file, it still stops list before it starts: a typo is not a dump
    // that holds nothing.
    list_ndjson()
        .arg(fixture("subscribe.json"))
        .arg(&missing)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(missing.to_str().unwrap()));
}

#[test]
fn a_truncated_envelope_exits_2_with_its_position_and_lists_the_readable_events() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("page2.json");
    let page2 = fixture_bytes("page2.json");
    let cut = String::from_utf8_lossy(&page2)
        .find(r#"{"version":"2.0","id":"2a3b"#)
        .unwrap()
        + 40;
    std::fs::write(&path, &page2[..cut]).unwrap();
    let out = list_damaged(&path)
        .stderr(predicate::str::contains(format!(
            "{}:3:41: ",
            path.display()
        )))
        .stderr(predicate::str::contains("truncated"));
    assert_eq!(ids(&out.get_output().stdout), [S2]);
}

/// An envelope of `count` events large enough to be read in pieces on every core (more than 32
/// MiB), one event a line (`layout` "\n", as the explorer's save writes it) or all on one line
/// (""), with event `at` replaced by `odd`; the events' ids, in order, the odd one left out.
fn large_envelope(count: usize, at: usize, odd: &str, layout: &str) -> (String, Vec<String>) {
    let pad = "x".repeat(1_100);
    let mut ids = Vec::new();
    let events: Vec<String> = (0..count)
        .map(|k| {
            if k == at {
                return odd.to_string();
            }
            ids.push(format!("e{k}"));
            format!(
                r#"{{"id":"e{k}","type":"client.join.failed","timestamp":"2026-11-18T08:{:02}:00Z","data":{{"room_id":"r{}","message":"{pad}"}}}}"#,
                k % 60,
                k % 9
            )
        })
        .collect();
    let text = format!(
        "{{\"limit\":{count},\"events\":[{layout}{}{layout}]}}\n",
        events.join(&format!(",{layout}"))
    );
    assert!(text.len() > 40 << 20);
    (text, ids)
}

#[test]
fn damage_deep_in_a_large_envelope_is_reported_at_its_place_and_the_events_before_it_listed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved.json");
    // Three quarters in: in a piece other than the first, on any number of cores.
    let (count, at) = (40_000, 30_000);
    for (layout, line) in [("\n", at + 2), ("", 1)] {
        let (text, want) = large_envelope(count, at, r#"{"id":"bad","data":{,"x":1}}"#, layout);
        // At the comma after `"data":{`, the event's 21st character.
        let start = text.find(r#"{"id":"bad""#).unwrap();
        let col = start - text[..start].rfind('\n').map_or(0, |n| n + 1) + 21;
        std::fs::write(&path, &text).unwrap();
        let out = list_damaged(&path).stderr(predicate::str::contains(format!(
            "{}:{line}:{col}: invalid JSON: key must be a string",
            path.display()
        )));
        assert_eq!(ids(&out.get_output().stdout), want[..at], "{layout:?}");
    }
}

/// A large envelope piped in (more than a piece: it goes to a temporary file as it comes, rather
/// than into memory) lists, selects and groups as the same file does, its damage at the same
/// place.
#[test]
fn a_large_envelope_on_stdin_lists_selects_and_groups_as_the_same_file_does() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved.json");
    let (count, at) = (40_000, 30_000);
    for layout in ["\n", ""] {
        let (text, want) = large_envelope(count, at, r#"{"id":"bad","data":{,"x":1}}"#, layout);
        std::fs::write(&path, &text).unwrap();
        // Each way of listing once; the layout on one line, as an API page has it, once.
        let works: &[&[&str]] = match layout {
            "" => &[&[]],
            _ => &[
                &[],
                &["--type", "join", "--room", "r1"],
                &["--group-by", "room"],
            ],
        };
        for &args in works {
            let run = |input: &str, stdin: &[u8]| {
                let out = callscope()
                    .env("TMPDIR", dir.path())
                    .args(["list", "--format", "ndjson", input])
                    .args(args)
                    .write_stdin(stdin.to_vec())
                    .output()
                    .unwrap();
                let stderr = String::from_utf8(out.stderr).unwrap();
                (out.status.code(), out.stdout, stderr)
            };
            let on_file = run(&path.display().to_string(), b"");
            assert_eq!(on_file.0, Some(2), "{layout:?} {args:?}: {}", on_file.2);
            if args.is_empty() {
                assert_eq!(ids(&on_file.1), want[..at], "{layout:?}");
            }
            let on_stdin = run("-", text.as_bytes());
            assert_eq!(on_stdin.0, on_file.0, "{layout:?} {args:?}: {}", on_stdin.2);
            assert!(on_stdin.1 == on_file.1, "{layout:?} {args:?}");
            let named = on_file.2.replace(&path.display().to_string(), "<stdin>");
            assert_eq!(on_stdin.2, named, "{layout:?} {args:?}");
        }
    }
}

#[test]
fn an_object_that_is_no_event_deep_in_a_large_envelope_is_reported_and_the_others_listed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saved.json");
    let (count, at) = (40_000, 35_000);
    let (text, want) = large_envelope(count, at, r#"{"x":1}"#, "\n");
    std::fs::write(&path, &text).unwrap();
    let out = list_damaged(&path).stderr(predicate::str::contains(format!(
        "{}:{}:1: not an event",
        path.display(),
        at + 2
    )));
    assert_eq!(ids(&out.get_output().stdout), want);
}

#[test]
fn a_cut_line_that_no_filter_selects_is_still_reported() {
    // The fast path of a filtered list parses only the lines that may match: a line cut short
    // among the others must not pass unnoticed.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.ndjson");
    let join = |id: &str| {
        format!(r#"{{"id":"{id}","type":"client.join.failed","data":{{"room_id":"R"}}}}"#)
    };
    let cut = r#"{"id":"b","type":"client.connect.failed","data":{"room_id":"r2""#;
    std::fs::write(&path, format!("{}\n{cut}\n{}\n", join("a"), join("c"))).unwrap();
    let out = callscope()
        .args([
            "list", "--format", "ndjson", "--type", "join", "--room", "R",
        ])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!("{}:2:", path.display())));
    let listed = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert_eq!(listed, format!("{}\n{}\n", join("a"), join("c")));
}

#[test]
fn an_ndjson_dump_cut_off_right_after_a_backslash_lists_the_events_before_it() {
    // A dump still being written, cut inside a string just after a `\`: every filter reads the
    // lines before it (the type filter takes the fast path for line-delimited files).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cut.ndjson");
    let first = r#"{"id":"a","type":"client.join.failed","data":{"room_id":"r"}}"#;
    std::fs::write(&path, format!("{first}\n{{\"data\":{{\"x\":\"y\\")).unwrap();
    for filter in [&["--type", "join"][..], &["--room", "r"], &[]] {
        let out = list_ndjson()
            .args(filter)
            .arg(&path)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("{}:2:", path.display())))
            .stderr(predicate::str::contains("truncated"));
        assert_eq!(
            String::from_utf8_lossy(&out.get_output().stdout).trim(),
            first,
            "{filter:?}"
        );
    }
}

#[test]
fn a_bad_ndjson_line_exits_2_with_its_position_and_the_other_lines_are_listed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("events.ndjson");
    let quirks = String::from_utf8(fixture_bytes("quirks.ndjson")).unwrap();
    let lines: Vec<&str> = quirks.lines().collect();
    std::fs::write(
        &path,
        format!("{}\n{{\"id\": oops}}\n{}\n", lines[0], lines[1]),
    )
    .unwrap();
    let out = list_damaged(&path).stderr(predicate::str::contains(format!(
        "{}:2:8: invalid JSON",
        path.display()
    )));
    assert_eq!(ids(&out.get_output().stdout), [Q1, Q2]);
}

#[test]
fn an_empty_input_is_a_dump_of_no_events_as_list_writes_one_when_nothing_matches() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("none.ndjson");
    // What list writes when nothing matches: nothing.
    callscope()
        .args(["list", "--demo", "--room", "no-such-room", "-o"])
        .arg(&path)
        .assert()
        .success();
    assert_eq!(std::fs::read(&path).unwrap(), b"");
    // Read back, from the file and from stdin: no events, no problem; an empty file is noted,
    // in case it was cut short, and an empty stdin after the (empty) answer.
    list_ndjson()
        .arg(&path)
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains(
            "none.ndjson is empty: it holds no events",
        ));
    callscope()
        .args(["list", "-", "--format", "ndjson", "--group-by", "error"])
        .write_stdin("\n  \n")
        .assert()
        .success()
        .stdout("")
        .stderr("callscope: note: the standard input held no events\n");
}

#[test]
fn a_binary_input_exits_2_and_says_it_is_not_a_dump() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("screenshot.json");
    std::fs::write(
        &path,
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x04\x00",
    )
    .unwrap();
    callscope()
        .args(["list", "--format", "table"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(path.to_str().unwrap()))
        .stderr(predicate::str::contains("binary"))
        .stderr(predicate::str::contains("panicked").not());
}

/// xorshift64*: a small deterministic generator, so every run tries the same inputs.
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

/// A few hundred inputs: random bytes, random JSON-like text, and valid dumps cut or damaged at
/// random places (gzipped ones included).
fn hostile_inputs() -> Vec<Vec<u8>> {
    let mut rng = Rng(0x5eed_cafe_f00d_1234);
    let fixtures: Vec<Vec<u8>> = [
        "publish.json",
        "page1.json",
        "page2.json",
        "quirks.ndjson",
        "hostile.ndjson",
        "connect.json",
        "track.json",
    ]
    .iter()
    .map(|n| fixture_bytes(n))
    .collect();
    let tokens: &[&[u8]] = &[
        b"{",
        b"}",
        b"[",
        b"]",
        b"\"",
        b":",
        b",",
        b"\n",
        b" ",
        b"\r\n",
        b"\\",
        b"\\u00",
        b"0",
        b"-1",
        b"1.50",
        b"1e3",
        b"12345678901234567890",
        b"null",
        b"true",
        b"\"events\"",
        b"\"type\"",
        b"\"id\"",
        b"\"data\"",
        b"\x0c",
        b"\x1b",
        b"\xef\xbb\xbf",
        b"\x1f\x8b",
        b"\xff",
        b"\xc3",
        b"\x00",
        b"{}",
        b"[]",
        b"{\"id\":\"a\"}",
        b"{\"events\":[",
        "\u{202e}".as_bytes(),
    ];
    let lines: Vec<&[u8]> = fixtures
        .iter()
        .flat_map(|f| f.split(|&b| b == b'\n'))
        .filter(|l| l.len() > 2)
        .collect();
    let mut inputs = Vec::new();
    for k in 0..320 {
        let input = match k % 4 {
            0 => (0..rng.below(64)).map(|_| rng.next() as u8).collect(),
            1 => {
                // Whole values, token soup and separators, one after another.
                let separators: &[&[u8]] = &[b"\n", b" ", b"", b"\r\n", b"\x0c", b"\n\x0c", b"\t"];
                let mut v = Vec::new();
                for _ in 0..rng.below(8) {
                    match rng.below(3) {
                        0 => v.extend_from_slice(lines[rng.below(lines.len())]),
                        1 => v.extend_from_slice(tokens[rng.below(tokens.len())]),
                        _ => {
                            for _ in 0..rng.below(6) {
                                v.extend_from_slice(tokens[rng.below(tokens.len())]);
                            }
                        }
                    }
                    v.extend_from_slice(separators[rng.below(separators.len())]);
                }
                v
            }
            2 => {
                let f = &fixtures[rng.below(fixtures.len())];
                let mut v = f[..rng.below(f.len() + 1)].to_vec();
                for _ in 0..rng.below(3) {
                    let at = rng.below(v.len() + 1);
                    v.splice(at..at, tokens[rng.below(tokens.len())].iter().copied());
                }
                if rng.below(3) == 0 {
                    v.extend_from_slice(tokens[rng.below(tokens.len())]);
                    v.extend_from_slice(&fixtures[rng.below(fixtures.len())]);
                }
                v
            }
            _ => {
                let f = gzip(&fixtures[rng.below(fixtures.len())]);
                let mut v = f[..rng.below(f.len() + 1)].to_vec();
                if !v.is_empty() && rng.below(2) == 0 {
                    let at = rng.below(v.len());
                    v[at] ^= 1 << rng.below(8);
                }
                v
            }
        };
        inputs.push(input);
    }
    inputs
}

#[test]
fn random_and_damaged_bytes_never_crash_list() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = hostile_inputs();
    let paths: Vec<PathBuf> = inputs
        .iter()
        .enumerate()
        .map(|(k, bytes)| {
            let path = dir.path().join(format!("input-{k:03}.json"));
            std::fs::write(&path, bytes).unwrap();
            path
        })
        .collect();
    let run = |files: &[PathBuf], format: &str| {
        let out = callscope()
            .args(["list", "--format", format])
            .args(files)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let ok = matches!(out.status.code(), Some(0 | 2)) && !stderr.contains("panicked");
        (ok, out.status, stderr)
    };
    let formats = ["ndjson", "table", "csv", "json"];
    for (n, chunk) in paths.chunks(40).enumerate() {
        let format = formats[n % formats.len()];
        if run(chunk, format).0 {
            continue;
        }
        // Name the input that fails, for whoever reads the failure.
        for path in chunk {
            let (ok, status, stderr) = run(std::slice::from_ref(path), format);
            let bytes = std::fs::read(path).unwrap();
            assert!(
                ok,
                "{} ({format}): {status}\ninput: {bytes:?}\n{stderr}",
                path.display()
            );
        }
        panic!("chunk {n} failed although each input passes alone");
    }
}

#[test]
fn random_bytes_on_stdin_never_crash_list() {
    for input in hostile_inputs().into_iter().step_by(16) {
        let out = callscope()
            .args(["list", "-", "--format", "ndjson"])
            .write_stdin(input.clone())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(0 | 2)) && !stderr.contains("panicked"),
            "{}\ninput: {input:?}\n{stderr}",
            out.status
        );
    }
}

#[test]
fn the_explorer_names_a_path_that_is_not_there_before_taking_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.ndjson");
    std::fs::write(&good, "{\"id\":\"a\",\"type\":\"client.join.failed\"}\n").unwrap();
    let missing = dir.path().join("incdent.json");
    let empty = dir.path().join("empty-folder");
    std::fs::create_dir(&empty).unwrap();
    for (args, says) in [
        (
            vec![missing.clone()],
            "incdent.json: no such file or folder",
        ),
        (
            vec![good.clone(), missing.clone()],
            "incdent.json: no such file",
        ),
        (
            vec![empty.clone()],
            "holds no .json, .ndjson, .jsonl or .gz file",
        ),
    ] {
        callscope()
            .args(&args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(says));
    }
    // A path that is there gets as far as asking for a terminal (this test has none).
    callscope()
        .arg(&good)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("needs a terminal"));
}

#[test]
fn a_missing_path_stops_list_before_its_output_file_is_touched() {
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("keep.ndjson");
    std::fs::write(&keep, "precious\n").unwrap();
    let good = dir.path().join("good.ndjson");
    callscope()
        .args(["list", "--demo", "--max", "3", "-o"])
        .arg(&good)
        .assert()
        .success();
    let empty_folder = dir.path().join("none");
    std::fs::create_dir(&empty_folder).unwrap();
    for missing in [dir.path().join("typo.ndjson"), empty_folder] {
        // Alone, or beside a dump that reads: nothing is written either way.
        for with_good in [false, true] {
            let mut cmd = callscope();
            cmd.arg("list");
            if with_good {
                cmd.arg(&good);
            }
            cmd.arg(&missing)
                .arg("-o")
                .arg(&keep)
                .assert()
                .code(2)
                .stdout("")
                .stderr(predicate::str::contains(missing.display().to_string()));
            assert_eq!(std::fs::read_to_string(&keep).unwrap(), "precious\n");
        }
    }
}

/// A raw control character in a string is not JSON (it must be escaped): such an event is a
/// problem at its place, as other damage is, and not an event that no JSON reader, callscope's
/// own included, reads again. Found by the dump reader's fuzz target.
#[test]
fn a_raw_control_character_in_a_string_is_a_problem_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    for (k, control) in ["\u{1}", "\u{1e}", "\u{7}", "\t"].iter().enumerate() {
        let path = dir.path().join(format!("controls-{k}.ndjson"));
        std::fs::write(
            &path,
            format!(
                "{{\"id\":\"a\",\"type\":\"client.join.failed\",\"data\":{{\"room_id\":\"r1\"}}}}\n\
                 {{\"id\":\"b\",\"type\":\"cl{control}ient.join.failed\",\"data\":{{\"room_id\":\"r1\"}}}}\n\
                 {{\"id\":\"c\",\"type\":\"client.join.failed\",\"data\":{{\"room_id\":\"r{control}1\"}}}}\n\
                 {{\"id\":\"d\",\"type\":\"client.join.failed\",\"data\":{{\"room_id\":\"r1\"}}}}\n"
            ),
        )
        .unwrap();
        let out = list_ndjson().arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{control:?}");
        assert_eq!(ids(&out.stdout), ["a", "d"], "{control:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(":2:")
                && stderr.contains(":3:")
                && stderr.contains("control character"),
            "{control:?}: {stderr}"
        );
    }
}
