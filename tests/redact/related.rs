//! The related data beside the events (rooms, sessions, peers' quality stats) redacted with the
//! events' pseudonyms: in a folder written by `list --redact --output DIR/` (or with a profile's
//! `redact = true`), and in every endpoint of `serve --redact`. The sessions name every peer of a
//! call and key it by the peer id the events keep: nothing real may be left there, and a peer must
//! read as its events do, so that the verdicts drawn from them stay the same.

use super::*;

/// The files of a folder as `list --output DIR/` writes them.
const FILES: [&str; 4] = [
    "events.ndjson",
    "peer-stats.ndjson",
    "rooms.json",
    "sessions.json",
];

/// Peers whose stories rest on the sessions: one who left for good (Priya Raman), one who came
/// back as a new peer of the same user (a join of that user's other peer id, known only from the
/// sessions), one who got through after failing to connect, and one with a chain told unknown.
const PEERS: [&str; 4] = [
    "3f6b2a9e-8c41-4d7a-9b25-e0c4d1f7a863",
    "60bc75fe-ad40-488c-8083-ff3dbd5e8666",
    "ac88b352-b538-4c03-a145-86a17c310877",
    "449c24e1-2a4e-4651-bbea-386747122376",
];

/// `callscope ARGS` with no config but `config` (a file), asserting exit 0; its stdout.
fn run(args: &[&str], config: Option<&Path>) -> String {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .env_remove("CALLSCOPE_CONFIG")
        .env_remove("CALLSCOPE_PROFILE")
        .env("HOME", "/nonexistent");
    if let Some(config) = config {
        cmd.env("CALLSCOPE_CONFIG", config);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The demo written as a folder by `list --demo ARGS --output DIR/`.
fn demo_folder(dir: &Path, args: &[&str], config: Option<&Path>) -> PathBuf {
    let folder = format!("{}/", dir.display());
    let mut all = vec!["list", "--demo"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--output", &folder]);
    run(&all, config);
    dir.to_path_buf()
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// Every peer of the sessions in a sessions response or a session (keyed by id, or listed).
fn session_peers(body: &Value) -> Vec<Value> {
    let sessions = match body["data"].as_array() {
        Some(list) => list.clone(),
        None => vec![body.clone()],
    };
    let mut peers = Vec::new();
    for session in sessions {
        match &session["peers"] {
            Value::Object(map) => peers.extend(map.values().cloned()),
            Value::Array(list) => peers.extend(list.iter().cloned()),
            _ => {}
        }
    }
    peers
}

/// What must not survive of the real folder: the addresses in any of its files, and the user
/// names and ids of its events and of its sessions' peers.
fn folder_secrets(dir: &Path) -> Secrets {
    let mut ips = BTreeSet::new();
    for name in FILES {
        ips.extend(addresses(&read(dir, name)));
    }
    let mut words = BTreeSet::new();
    for line in read(dir, "events.ndjson").lines() {
        let event: Value = serde_json::from_str(line).unwrap();
        for field in ["user_name", "user_id"] {
            if let Some(s) = event["data"][field].as_str() {
                words.insert(s.to_string());
            }
        }
    }
    let in_events = words.len();
    let sessions: Value = serde_json::from_str(&read(dir, "sessions.json")).unwrap();
    for peer in session_peers(&sessions) {
        for field in ["name", "user_id"] {
            if let Some(s) = peer[field].as_str() {
                words.insert(s.to_string());
            }
        }
    }
    words.retain(|w| !w.trim().is_empty());
    assert!(!ips.is_empty(), "the demo holds addresses");
    assert!(
        words.len() > in_events + 50,
        "the sessions name peers no event names: {} beside {in_events}",
        words.len()
    );
    for known in ["Priya Raman", "Siddharth", "7754177", "Beam Recorder"] {
        assert!(words.contains(known), "{known}");
    }
    Secrets { ips, words }
}

/// Asserts that redacted events hold no secret as a string value, nor as a word in one, but for
/// the recording bot's user id: `beam`, which only the sessions hold, is also a word of the
/// events' own (their type `beam.recording.success`, the recordings' paths), and stays there.
fn assert_events_clean(what: &str, ndjson: &str, secrets: &Secrets) {
    let mut words = secrets.words.clone();
    assert!(words.remove("beam"));
    let ips = secrets.ips.clone();
    assert_clean(what, ndjson, &Secrets { ips, words });
    let mut values = Vec::new();
    for line in ndjson.lines() {
        strings(&serde_json::from_str(line).unwrap(), &mut values);
    }
    let values: BTreeSet<String> = values.iter().map(|v| v.to_lowercase()).collect();
    for word in &secrets.words {
        assert!(!values.contains(&word.to_lowercase()), "{what}: {word:?}");
    }
    for value in values.iter().filter(|v| holds_word(v, "beam")) {
        assert!(
            value.starts_with("beam.recording.") || value.contains("/beam/"),
            "{what}: {value}"
        );
    }
}

/// Each peer's user name and user id, as the events give them.
fn peers_of_events(ndjson: &str) -> HashMap<String, (Value, Value)> {
    ndjson
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter_map(|e| {
            let data = &e["data"];
            let peer = data["peer_id"].as_str()?.to_string();
            Some((peer, (data["user_name"].clone(), data["user_id"].clone())))
        })
        .collect()
}

/// Asserts that every peer of the sessions is named by pseudonyms only, and as its events name
/// it; returns how many peers of the sessions the events name.
fn assert_peers_read_as_their_events(
    what: &str,
    peers: &[Value],
    events: &HashMap<String, (Value, Value)>,
) -> usize {
    let pseudonym = |v: &Value, prefix: &str| {
        v.as_str().is_none_or(|s| {
            s.strip_prefix(prefix)
                .is_some_and(|n| n.len() == 4 && n.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    let mut named = 0;
    for peer in peers {
        assert!(pseudonym(&peer["name"], "user-"), "{what}: {peer}");
        assert!(pseudonym(&peer["user_id"], "uid-"), "{what}: {peer}");
        // The recorder's events name its peer, and not its user.
        if let Some((name, id)) = events.get(peer["id"].as_str().unwrap())
            && !name.is_null()
        {
            assert_eq!(&peer["name"], name, "{what}: {peer}");
            assert_eq!(&peer["user_id"], id, "{what}: {peer}");
            named += 1;
        }
    }
    named
}

/// Each chain's outcome and session in `callscope story PEER SOURCE --format json`.
fn verdicts(peer: &str, source: &Path) -> Vec<(Value, Value)> {
    let story = run(
        &["story", peer, source.to_str().unwrap(), "--format", "json"],
        None,
    );
    let story: Value = serde_json::from_str(&story).unwrap();
    story["chains"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["outcome"].clone(), c["session_id"].clone()))
        .collect()
}

#[test]
fn a_folder_written_redacted_holds_nothing_real_in_any_file_and_tells_the_same_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let real = demo_folder(&dir.path().join("real"), &[], None);
    let secrets = folder_secrets(&real);
    let config = dir.path().join("config.toml");
    std::fs::write(
        &config,
        "default_profile = \"share\"\n[profiles.share]\nredact = true\n",
    )
    .unwrap();
    // The events of a file written with --redact: the folder's must be these, pseudonyms and all.
    let listed = run(&["list", "--demo", "--redact", "--format", "ndjson"], None);
    for (how, args, config) in [
        ("--redact", &["--redact"][..], None),
        ("redact = true", &[][..], Some(config.as_path())),
    ] {
        let out = demo_folder(&dir.path().join(how), args, config);
        let mut names: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, FILES, "{how}");
        for name in FILES {
            let text = read(&out, name);
            let what = format!("{how}: {name}");
            if name == "events.ndjson" {
                assert_events_clean(&what, &text, &secrets);
            } else {
                assert_clean(&what, &text, &secrets);
            }
        }
        let events = read(&out, "events.ndjson");
        // Line by line: the first that differs, rather than two files of 3 MB.
        assert_eq!(events.lines().count(), listed.lines().count(), "{how}");
        for (written, listed) in events.lines().zip(listed.lines()) {
            assert_eq!(
                written, listed,
                "{how}: the events as list --redact writes them"
            );
        }
        let sessions: Value = serde_json::from_str(&read(&out, "sessions.json")).unwrap();
        let peers = session_peers(&sessions);
        let named = assert_peers_read_as_their_events(how, &peers, &peers_of_events(&events));
        assert!(
            named > 100 && named < peers.len(),
            "{how}: {named} of {}",
            peers.len()
        );
        // Read again, the folder tells each peer's chains as the real one does.
        for peer in PEERS {
            let (before, after) = (verdicts(peer, &real), verdicts(peer, &out));
            assert!(!before.is_empty(), "{peer}");
            assert_eq!(before, after, "{how}: {peer}");
        }
    }
}

#[test]
fn serve_redact_answers_every_endpoint_with_the_events_pseudonyms() {
    let dir = tempfile::tempdir().unwrap();
    let real = demo_folder(&dir.path().join("real"), &[], None);
    let secrets = folder_secrets(&real);
    let token = "serve-token-7e21";
    let token_file = dir.path().join("token");
    std::fs::write(&token_file, format!("{token}\n")).unwrap();
    let mut cmd = StdCommand::new(BIN);
    cmd.arg("serve")
        .arg(&real)
        .args(["--redact", "--addr", "127.0.0.1:0"])
        .env("CALLSCOPE_SERVE_TOKEN", token)
        .stderr(Stdio::null());
    let server = Server::spawn(cmd);
    let get = |path: &str| {
        let body = common::http_get(&server.at(path), token);
        assert_clean(path, &body, &secrets);
        serde_json::from_str::<Value>(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"))
    };

    let rooms = get("/v2/rooms?limit=100");
    let rooms: Vec<String> = rooms["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(rooms.len(), 10);
    // Each room's error events as a client reads them, against a redacted listing of the
    // same folder: one set of pseudonyms.
    let listed = run(
        &[
            "list",
            real.to_str().unwrap(),
            "--redact",
            "--format",
            "ndjson",
        ],
        None,
    );
    let mut served = String::new();
    for room in &rooms {
        get(&format!("/v2/rooms/{room}"));
        let events = run(
            &[
                "list",
                "--live",
                "--base-url",
                &server.url,
                "--room",
                room,
                "--format",
                "ndjson",
                "--token-file",
                token_file.to_str().unwrap(),
            ],
            None,
        );
        let expected: Vec<&str> = listed
            .lines()
            .filter(|l| l.contains(&format!(r#""room_id":"{room}""#)))
            .filter(|l| l.contains(r#""type":"client."#))
            .collect();
        assert_eq!(events.lines().collect::<Vec<_>>(), expected, "{room}");
        served.push_str(&events);
    }
    assert_clean("events", &served, &secrets);
    let events = peers_of_events(&served);

    let mut peers = Vec::new();
    let mut sessions = Vec::new();
    for room in &rooms {
        for active in ["true", "false"] {
            let page = get(&format!(
                "/v2/sessions?room_id={room}&active={active}&limit=100"
            ));
            for session in page["data"].as_array().unwrap() {
                sessions.push(session["id"].as_str().unwrap().to_string());
            }
            peers.extend(session_peers(&page));
        }
    }
    assert_eq!(sessions.len(), 28);
    let named = assert_peers_read_as_their_events("/v2/sessions", &peers, &events);
    assert!(named > 100, "{named} of {} peers", peers.len());
    for id in &sessions {
        let path = format!("/v2/sessions/{id}");
        let one = get(&path);
        assert_peers_read_as_their_events(&path, &session_peers(&one), &events);
    }
    let mut stats = 0;
    for line in read(&real, "peer-stats.ndjson").lines() {
        let of: Value = serde_json::from_str(line).unwrap();
        let (peer, session) = (&of["peer_id"], &of["session_id"]);
        let path = format!(
            "/v2/analytics/peer-stats?peer_id={}&session_id={}",
            peer.as_str().unwrap(),
            session.as_str().unwrap()
        );
        let answer = get(&path);
        assert_eq!((&answer["peer_id"], &answer["session_id"]), (peer, session));
        stats += 1;
    }
    assert_eq!(stats, 19);
}
