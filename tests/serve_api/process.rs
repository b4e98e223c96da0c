//! serve as a process: where its token comes from, answers held back, usage errors and a taken
//! port, hangups and SIGTERM.

use super::*;

#[test]
fn serve_delay_ms_holds_each_answer_back() {
    let server = serve(
        &["--demo", "--addr", "127.0.0.1:0", "--delay-ms", "300"],
        Some(TOKEN),
    );
    let started = std::time::Instant::now();
    let out = Command::new(BIN)
        .args([
            "list",
            "--live",
            "--base-url",
            &server.url,
            "--room",
            STORM_ROOM,
        ])
        .args(["--type", "publish", "--max", "1", "--format", "ndjson"])
        .env("HMS_MANAGEMENT_TOKEN", TOKEN)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        started.elapsed() >= std::time::Duration::from_millis(300),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn serve_delay_ms_holds_back_the_answer_of_every_path() {
    let server = serve(
        &["--demo", "--addr", "127.0.0.1:0", "--delay-ms", "200"],
        Some(TOKEN),
    );
    let client = reqwest::Client::new();
    let room = [("room_id", STORM_ROOM)];
    let paths: [(String, &[(&str, &str)]); 6] = [
        (EVENTS.to_string(), &room),
        ("/v2/rooms".to_string(), &[]),
        (format!("/v2/rooms/{STORM_ROOM}"), &[]),
        ("/v2/sessions".to_string(), &room),
        ("/v2/sessions/no-such-session".to_string(), &[]),
        ("/v2/analytics/peer-stats".to_string(), &room),
    ];
    for (path, query) in paths {
        let started = std::time::Instant::now();
        let answer = get(&client, &server.at(&path), query, Some(&bearer())).await;
        let took = started.elapsed();
        assert!(
            took >= std::time::Duration::from_millis(200),
            "{path} answered {} after {took:?}",
            answer.status
        );
    }
}

#[tokio::test]
async fn the_token_comes_from_the_file_then_the_environment_then_is_made_up() {
    let client = reqwest::Client::new();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("token");
    std::fs::write(&file, "  file-token  \nsecond line\n").unwrap();
    let server = serve(
        &[
            "--demo",
            "--addr",
            "127.0.0.1:0",
            "--token-file",
            file.to_str().unwrap(),
        ],
        Some(TOKEN),
    );
    let url = server.at(EVENTS);
    let room = [("room_id", STORM_ROOM)];
    assert_eq!(
        get(&client, &url, &room, Some("Bearer file-token"))
            .await
            .status,
        200
    );
    assert_eq!(get(&client, &url, &room, Some(&bearer())).await.status, 401);

    let mut server = serve(&["--demo", "--addr", "127.0.0.1:0"], None);
    let line = server.stderr_line();
    let token = line
        .strip_prefix("token: ")
        .and_then(|t| t.strip_suffix('\n'))
        .unwrap_or_else(|| panic!("{line:?}"));
    assert!(
        token.len() >= 32
            && token
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-'),
        "{token}"
    );
    let url = server.at(EVENTS);
    assert_eq!(
        get(&client, &url, &room, Some(&format!("Bearer {token}")))
            .await
            .status,
        200
    );
    assert_eq!(get(&client, &url, &room, Some(&bearer())).await.status, 401);
}

#[test]
fn usage_errors_exit_2_and_a_taken_port_exits_1() {
    let run = |args: &[&str]| {
        let out = Command::new(BIN)
            .arg("serve")
            .args(args)
            .env("CALLSCOPE_SERVE_TOKEN", TOKEN)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    for (args, says) in [
        (&["--demo", "--addr", "not-an-address"][..], "--addr"),
        (&["--demo", "--addr", "127.0.0.1"][..], "HOST:PORT"),
        (&["--demo", "--addr", "127.0.0.1:70000"][..], "--addr"),
        (
            &[
                "tests/fixtures/serve/no-such-dump.json",
                "--addr",
                "127.0.0.1:0",
            ][..],
            "no-such-dump.json",
        ),
        (
            &[
                "--demo",
                "--addr",
                "127.0.0.1:0",
                "--token-file",
                "tests/fixtures/serve/no-such-token",
            ][..],
            "no-such-token",
        ),
        (&["--addr", "127.0.0.1:0"][..], "--demo"),
    ] {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert_eq!(stdout, "", "{args:?}");
    }

    let taken = serve_demo();
    let (code, stdout, stderr) = run(&["--demo", "--addr", &format!("127.0.0.1:{}", taken.port)]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("already in use"), "{stderr}");
    assert_eq!(stdout, "");
    assert!(!stderr.contains(TOKEN));
}

/// `nohup callscope serve` must outlive the session it was started from: SIGHUP, ignored by
/// nohup, is not taken as a request to stop.
#[cfg(unix)]
#[tokio::test]
async fn serve_under_nohup_outlives_a_hangup_and_stops_on_sigterm() {
    let mut cmd = Command::new("nohup");
    cmd.args([BIN, "serve", "--demo", "--addr", "127.0.0.1:0"])
        .env("CALLSCOPE_SERVE_TOKEN", TOKEN)
        .stderr(Stdio::null());
    let mut server = Server::spawn(cmd);
    let pid = server.child.id().to_string();
    let signal = |name: &str| {
        let sent = Command::new("kill").args([name, &pid]).status().unwrap();
        assert!(sent.success(), "kill {name}");
    };
    signal("-HUP");
    let client = reqwest::Client::new();
    // Still answering after the hangup (a request queued behind its handling, if any).
    assert_eq!(
        events(&client, &server, &[("limit", "1"), ("room_id", STORM_ROOM)])
            .await
            .status,
        200
    );
    assert!(server.child.try_wait().unwrap().is_none(), "still running");
    signal("-TERM");
    let exit = server.child.wait().unwrap();
    assert!(exit.success(), "{exit:?}");
}

#[test]
fn serve_says_when_its_filters_match_nothing_and_why_where_it_can_be_told() {
    // A room's name where its id is wanted: served, but every answer would be empty.
    let mut server = serve(
        &[
            "--demo",
            "--addr",
            "127.0.0.1:0",
            "--room",
            "weekly-allhands",
        ],
        Some(TOKEN),
    );
    let note = server.stderr_line();
    assert!(
        note.starts_with("callscope: note: the filters match none of the 2,400 events read"),
        "{note}"
    );
    let why = server.stderr_line();
    assert!(
        why.contains("weekly-allhands") && why.contains(&format!("--room {STORM_ROOM}")),
        "{why}"
    );
    // Filters that match: nothing said before serve's own lines.
    let mut server = serve(
        &["--demo", "--addr", "127.0.0.1:0", "--room", STORM_ROOM],
        None,
    );
    let first = server.stderr_line();
    assert!(first.starts_with("token: "), "{first}");
}
