//! `--output DIR/`: a folder that holds what was written and nothing else, with the related data
//! of the events written alone, and the notes of a filter that matched nothing.

use super::*;

/// The storm's room in the demo.
const ALLHANDS: &str = "673a1f2c9e4b8d0a5c7e3f21";
/// A peer of the storm who got through after four failed joins.
const SOREN: &str = "67fc2ca6-0292-4826-b8f5-81a2c18e5bab";

/// The names of the entries of a folder, sorted.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Runs `callscope list ARGS --output DIR/`, asserting success; returns its stderr.
fn to_folder(dir: &Path, args: &[&str]) -> String {
    let out = callscope()
        .arg("list")
        .args(args)
        .arg("--output")
        .arg(format!("{}/", dir.display()))
        .assert()
        .success();
    String::from_utf8_lossy(&out.get_output().stderr).into_owned()
}

/// The objects of a list response (`{"limit","data","last"}`) saved in a file.
fn listed(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    let value: Value = serde_json::from_str(&text).unwrap();
    value["data"].as_array().unwrap().clone()
}

#[test]
fn a_folder_written_again_holds_only_what_the_second_write_wrote() {
    let tmp = tempfile::tempdir().unwrap();
    let share = tmp.path().join("share");
    to_folder(&share, &["--demo", "--room", ALLHANDS]);
    assert_eq!(
        names_in(&share),
        [
            "events.ndjson",
            "peer-stats.ndjson",
            "rooms.json",
            "sessions.json"
        ]
    );
    // A file callscope never reads is the user's: it stays.
    std::fs::write(share.join("notes.txt"), "who to call\n").unwrap();
    let storm = tmp.path().join("storm.ndjson");
    let out = callscope()
        .args(["list", "--demo", "--room", ALLHANDS, "--type", "join"])
        .args(["--format", "ndjson"])
        .output()
        .unwrap();
    std::fs::write(&storm, &out.stdout).unwrap();
    to_folder(&share, &[storm.to_str().unwrap(), "--redact"]);
    assert_eq!(names_in(&share), ["events.ndjson", "notes.txt"]);
    let events = std::fs::read_to_string(share.join("events.ndjson")).unwrap();
    assert_eq!(
        events.lines().count(),
        out.stdout.split(|&b| b == b'\n').count() - 1
    );
    assert!(!events.contains("Søren Kowalski"));
}

#[test]
fn a_folder_holding_other_dumps_is_not_written_and_they_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    let share = tmp.path().join("share");
    std::fs::create_dir(&share).unwrap();
    let mine = share.join("incident.json");
    std::fs::copy(fixture("subscribe.json"), &mine).unwrap();
    callscope()
        .args(["list", "--demo", "--output"])
        .arg(format!("{}/", share.display()))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains(format!(
            "callscope: {}/ holds incident.json, which callscope would read as part of the \
             dataset written there: move it out, or write into another folder",
            share.display()
        )));
    assert_eq!(names_in(&share), ["incident.json"]);
    assert_eq!(
        std::fs::read(&mine).unwrap(),
        std::fs::read(fixture("subscribe.json")).unwrap()
    );
}

#[test]
fn a_filtered_folder_holds_the_rooms_sessions_and_stats_of_its_events_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let room = tmp.path().join("room");
    let said = to_folder(&room, &["--demo", "--room", ALLHANDS]);
    assert!(
        said.starts_with("callscope: wrote 567 events, 1 room, 3 sessions and "),
        "{said}"
    );
    let rooms = listed(&room.join("rooms.json"));
    assert_eq!(rooms.len(), 1);
    assert_eq!(rooms[0]["id"], ALLHANDS);
    let sessions = listed(&room.join("sessions.json"));
    assert!(sessions.iter().all(|s| s["room_id"] == ALLHANDS));
    let events = parse_lines(&std::fs::read_to_string(room.join("events.ndjson")).unwrap());
    let peers: std::collections::HashSet<&str> = events
        .iter()
        .filter_map(|e| data(e, "peer_id").as_str())
        .collect();
    let stats = std::fs::read_to_string(room.join("peer-stats.ndjson")).unwrap();
    assert!(stats.lines().count() > 0);
    for line in stats.lines() {
        let s: Value = serde_json::from_str(line).unwrap();
        assert!(peers.contains(s["peer_id"].as_str().unwrap()), "{line}");
    }
    // What it holds tells the same story as the whole demo.
    let story = |source: &[&str]| {
        let out = callscope()
            .args(["story", SOREN, "--format", "json"])
            .args(source)
            .assert()
            .success();
        String::from_utf8(out.get_output().stdout.clone()).unwrap()
    };
    assert_eq!(story(&[room.to_str().unwrap()]), story(&["--demo"]));

    // Two events: their rooms, and those rooms' sessions.
    let two = tmp.path().join("two");
    to_folder(&two, &["--demo", "--max", "2"]);
    let events = parse_lines(&std::fs::read_to_string(two.join("events.ndjson")).unwrap());
    let mut of_events: Vec<&str> = events
        .iter()
        .map(|e| data(e, "room_id").as_str().unwrap())
        .collect();
    of_events.sort();
    of_events.dedup();
    let mut rooms: Vec<String> = listed(&two.join("rooms.json"))
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    rooms.sort();
    assert_eq!(rooms, of_events);
    let sessions = listed(&two.join("sessions.json"));
    assert!(!sessions.is_empty());
    for s in &sessions {
        assert!(of_events.contains(&s["room_id"].as_str().unwrap()), "{s}");
    }
}

#[test]
fn a_folder_gets_the_notes_of_a_filter_that_matched_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 3] = [
        (
            &["--room", "weekly-allhands"],
            "callscope: no event is in a room of id weekly-allhands; the room named \
             weekly-allhands has the id 673a1f2c9e4b8d0a5c7e3f21: --room 673a1f2c9e4b8d0a5c7e3f21\n",
        ),
        (
            &[
                "--since",
                "2025-01-01T00:00:00Z",
                "--until",
                "2025-01-02T00:00:00Z",
            ],
            "callscope: no event matches since 2025-01-01T00:00:00Z",
        ),
        (
            &[
                "--since",
                "2026-11-18T12:00:00Z",
                "--until",
                "2026-11-18T11:00:00Z",
            ],
            "callscope: since 2026-11-18T12:00:00Z",
        ),
    ];
    for (k, (filter, note)) in cases.into_iter().enumerate() {
        let dir = tmp.path().join(format!("empty-{k}"));
        let mut args = vec!["--demo"];
        args.extend_from_slice(filter);
        let said = to_folder(&dir, &args);
        assert!(said.starts_with(note), "{filter:?}: {said}");
        // The same note as without a folder.
        let plain = callscope().arg("list").args(&args).assert().success();
        let plain = String::from_utf8_lossy(&plain.get_output().stderr).into_owned();
        assert!(said.starts_with(&plain), "{filter:?}: {said} / {plain}");
        assert!(said.contains("wrote 0 events into "), "{said}");
    }
}

/// A folder being read is not written into: neither the folder named as the source, nor the one
/// that holds a file read. It is named, and left as it was; another folder is written.
#[test]
fn a_folder_being_read_is_not_written_into_and_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let share = tmp.path().join("share");
    to_folder(&share, &["--demo", "--room", ALLHANDS]);
    let before: Vec<Vec<u8>> = names_in(&share)
        .iter()
        .map(|n| std::fs::read(share.join(n)).unwrap())
        .collect();
    let events = share.join("events.ndjson");
    let read_as = [
        format!("{}/", share.display()),
        share.display().to_string(),
        events.display().to_string(),
    ];
    for source in &read_as {
        let out = format!("{}/", share.display());
        callscope()
            .args(["list", source, "--type", "join", "--output", &out])
            .assert()
            .code(2)
            .stdout("")
            .stderr(format!(
                "callscope: cannot write into {out}: it is being read ({source}), and the \
                 dataset written would take the place of what is read; write into another \
                 folder\n"
            ));
        let after: Vec<Vec<u8>> = names_in(&share)
            .iter()
            .map(|n| std::fs::read(share.join(n)).unwrap())
            .collect();
        assert_eq!(after, before, "{source}");
    }
    let other = tmp.path().join("joins");
    to_folder(&other, &[share.to_str().unwrap(), "--type", "join"]);
    assert!(other.join("events.ndjson").is_file());
}

/// `demo-data --out DIR` refuses a folder that holds other dumps, as `list --output DIR/`
/// does, naming them and leaving them as they were.
#[test]
fn demo_data_refuses_a_folder_holding_other_dumps() {
    let tmp = tempfile::tempdir().unwrap();
    let mine = tmp.path().join("incident.json");
    std::fs::copy(fixture("subscribe.json"), &mine).unwrap();
    callscope()
        .args(["demo-data", "--events", "20", "--out"])
        .arg(tmp.path())
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!(
            "callscope: {} holds incident.json, which callscope would read as part of the \
             dataset written there: move it out, or write into another folder\n",
            tmp.path().display()
        ));
    assert_eq!(names_in(tmp.path()), ["incident.json"]);
    // A folder holding a dataset written before is written again.
    let data = tmp.path().join("data");
    for _ in 0..2 {
        callscope()
            .args(["demo-data", "--events", "20", "--out"])
            .arg(&data)
            .assert()
            .success();
    }
    assert_eq!(
        names_in(&data),
        [
            "events.ndjson",
            "peer-stats.ndjson",
            "rooms.json",
            "sessions.json"
        ]
    );
}

#[test]
fn a_folder_is_said_to_hold_only_the_kinds_of_related_data_it_holds() {
    let tmp = tempfile::tempdir().unwrap();
    let room = tmp.path().join("room");
    // The demo has no quality stats of the support room's peers.
    let said = to_folder(&room, &["--demo", "--room", "684ad9a7ae43c6f8ad0fc592"]);
    assert!(
        said.starts_with("callscope: wrote 160 events, 1 room and 2 sessions into "),
        "{said}"
    );
    assert!(!room.join("peer-stats.ndjson").exists());
}
