//! What `list` says of inputs that hold nothing, or something other than they seem, and of a
//! file it cannot write: each message names the file the user gave and says what is wrong.

use predicates::prelude::*;

mod common;
use common::callscope;

#[test]
fn an_empty_file_is_noted_on_stderr_and_is_no_failure() {
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in [("empty.json", ""), ("blank.ndjson", "\n  \n\t\n")] {
        let path = dir.path().join(name);
        std::fs::write(&path, content).unwrap();
        callscope(dir.path())
            .arg("list")
            .arg(&path)
            .assert()
            .success()
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "callscope: note: {} is empty: it holds no events",
                path.display()
            )));
    }
}

#[test]
fn an_empty_gzip_file_is_noted_as_an_empty_file_is() {
    use std::io::Write;
    let gzip = |bytes: &[u8]| {
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    };
    let dir = tempfile::tempdir().unwrap();
    for (name, content) in [("e.ndjson.gz", ""), ("blank.json.gz", "\n \n")] {
        let path = dir.path().join(name);
        std::fs::write(&path, gzip(content.as_bytes())).unwrap();
        callscope(dir.path())
            .arg("list")
            .arg(&path)
            .assert()
            .success()
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "callscope: note: {} is empty: it holds no events",
                path.display()
            )));
    }
    // One that holds an event is not.
    let path = dir.path().join("one.ndjson.gz");
    let event =
        r#"{"id":"e1","type":"client.join.failed","timestamp":"2026-11-18T10:00:00Z","data":{}}"#;
    std::fs::write(&path, gzip(event.as_bytes())).unwrap();
    callscope(dir.path())
        .arg("list")
        .arg(&path)
        .assert()
        .success()
        .stderr("");
}

#[test]
fn a_file_with_events_is_not_called_empty() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("one.ndjson");
    std::fs::write(
        &path,
        r#"{"id":"e1","type":"client.join.failed","timestamp":"2026-11-18T10:00:00Z","data":{}}"#,
    )
    .unwrap();
    callscope(dir.path())
        .arg("list")
        .arg(&path)
        .assert()
        .success()
        .stderr("");
}

#[test]
fn an_envelope_whose_events_are_not_an_array_is_said_to_be_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nope.json");
    std::fs::write(&path, r#"{"events":"nope"}"#).unwrap();
    callscope(dir.path())
        .arg("list")
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}:1:1: \"events\" is a string, not an array: an envelope holds its events in an \"events\" array",
            path.display()
        )))
        .stderr(predicate::str::contains(
            "1 problem in the input; the 0 readable events were used",
        ));
}

#[test]
fn a_failed_write_names_the_file_asked_for_not_a_temporary_one() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("no-such-folder/out.json");
    let out = callscope(dir.path())
        .args(["list", "--demo", "--format", "json", "--output"])
        .arg(&target)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(target.display().to_string()))
        .get_output()
        .clone();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains(".callscope-") && !stderr.contains("at path"),
        "{stderr}"
    );
}

#[test]
fn a_room_name_given_where_an_id_is_wanted_is_said_with_the_rooms_id() {
    let dir = tempfile::tempdir().unwrap();
    callscope(dir.path())
        .args(["list", "--demo", "--room", "weekly-allhands", "--format", "ndjson"])
        .assert()
        .success()
        .stdout("")
        .stderr(
            "callscope: no event is in a room of id weekly-allhands; the room named \
             weekly-allhands has the id 673a1f2c9e4b8d0a5c7e3f21: --room 673a1f2c9e4b8d0a5c7e3f21\n",
        );
    // The same from a dump read on the fast path, and nothing said for a room's own id.
    let dump = dir.path().join("demo.ndjson");
    callscope(dir.path())
        .args(["list", "--demo", "--format", "ndjson", "-o"])
        .arg(&dump)
        .assert()
        .success();
    callscope(dir.path())
        .args(["list", "--room", "weekly-allhands", "--format", "ndjson"])
        .arg(&dump)
        .assert()
        .success()
        .stdout("")
        .stderr(predicate::str::contains(
            "has the id 673a1f2c9e4b8d0a5c7e3f21",
        ));
    let out = callscope(dir.path())
        .args([
            "list",
            "--room",
            "673a1f2c9e4b8d0a5c7e3f21",
            "--format",
            "ndjson",
        ])
        .arg(&dump)
        .assert()
        .success()
        .stderr("")
        .get_output()
        .stdout
        .clone();
    assert!(!out.is_empty());
}

#[test]
fn a_value_to_hide_given_to_a_filter_flag_is_refused_and_said() {
    let home = tempfile::tempdir().unwrap();
    let out = callscope(home.path())
        .args(["list", "--demo", "--sdk", "!web", "--format", "ndjson"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains(
            "--sdk \"!web\": give a value to keep; the explorer's filters (f) hide one with !web"
        ),
        "{stderr}"
    );
}

#[test]
fn a_room_name_looked_up_at_a_service_that_does_not_answer_says_each_retry() {
    // Nothing listens on the port: the lookup of the room's name is tried again for minutes,
    // and each try is said at once, where it waited in silence before.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let home = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_callscope"))
        .args(["list", "--live", "--room", "weekly-allhands", "--base-url"])
        .arg(format!("http://127.0.0.1:{port}"))
        .env("HOME", home.path())
        .env("HMS_MANAGEMENT_TOKEN", "t")
        .env_remove("CALLSCOPE_CONFIG")
        .env_remove("CALLSCOPE_PROFILE")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stderr.take().unwrap()),
        &mut line,
    )
    .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        line.starts_with("callscope: looking up the room named \"weekly-allhands\": ")
            && line.contains("retrying in 1 s (attempt 2"),
        "{line}"
    );
}
