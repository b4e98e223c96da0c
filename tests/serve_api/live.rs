//! `serve --live`: what the API holds, narrowed by filters, and nothing when the API fails or
//! no token is known.

use super::*;

/// The token of the API that `serve --live` reads in these tests (serve's own is `TOKEN`).
const UPSTREAM_TOKEN: &str = "upstream-token-3e8a";

/// `callscope serve --live ARGS` over the API `upstream` serves (whose token is
/// `UPSTREAM_TOKEN`), with the API's token in the environment and serve's own token `TOKEN`.
fn serve_live(upstream: &Server, args: &[&str]) -> Server {
    let mut cmd = Command::new(BIN);
    cmd.args(["serve", "--live", "--base-url", &upstream.url])
        .args(["--addr", "127.0.0.1:0"])
        .args(args)
        .env("HMS_MANAGEMENT_TOKEN", UPSTREAM_TOKEN)
        .env("CALLSCOPE_SERVE_TOKEN", TOKEN)
        .stderr(Stdio::piped());
    Server::spawn(cmd)
}

#[tokio::test]
async fn serve_live_serves_what_the_api_holds_and_filters_narrow_it() {
    let upstream = serve(&["--demo", "--addr", "127.0.0.1:0"], Some(UPSTREAM_TOKEN));
    let client = reqwest::Client::new();

    // A room's error events (the room given by name, looked up in the rooms endpoint).
    let whole = serve_live(&upstream, &["--room", "weekly-allhands"]);
    let (served, total) = page_through(&client, &whole, &[("room_id", STORM_ROOM)], 100).await;
    let expected = list_ndjson([
        "--demo",
        "--room",
        STORM_ROOM,
        "--type",
        "publish,subscribe,join,disconnected,connect",
    ]);
    assert_eq!(total, expected.len());
    assert_eq!(served, expected, "every event, in order, byte for byte");

    // The type goes to the API; --terminal and --search are applied to what arrives. Only the
    // matches are served, and queried further as any others.
    let flags = [
        "--room",
        STORM_ROOM,
        "--type",
        "join",
        "--terminal",
        "--search",
        "sfu",
    ];
    let narrowed = serve_live(&upstream, &flags);
    let mut list_args = vec!["--demo"];
    list_args.extend(flags);
    let expected = list_ndjson(&list_args);
    assert!(expected.len() > 10, "the filters keep some events");
    assert!(expected.len() < demo().len() / 10, "and leave most out");
    let (served, total) = page_through(&client, &narrowed, &[("room_id", STORM_ROOM)], 7).await;
    assert_eq!(total, expected.len());
    assert_eq!(served, expected);
    let (_, some) = demo()
        .iter()
        .find(|(line, _)| *line == expected[0])
        .unwrap();
    let room = some["data"]["room_id"].as_str().unwrap();
    let (in_room, _) = page_through(
        &client,
        &narrowed,
        &[("room_id", room), ("type", "client.join.failed")],
        100,
    )
    .await;
    let expected_in_room: Vec<String> = expected
        .iter()
        .filter(|line| line.contains(room))
        .cloned()
        .collect();
    assert!(!in_room.is_empty());
    assert_eq!(in_room, expected_in_room);
}

/// The output of `cmd` run to its end. A serve that started serving instead of refusing would
/// never end: past a minute it is killed, and the test fails.
fn finished(mut cmd: Command) -> std::process::Output {
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    match rx.recv_timeout(std::time::Duration::from_secs(60)) {
        Ok(out) => out.unwrap(),
        Err(_) => {
            let _ = Command::new("kill").arg(pid.to_string()).status();
            panic!("still running after a minute: {cmd:?}");
        }
    }
}

#[test]
fn serve_live_serves_nothing_when_the_api_fails_or_no_token_is_known() {
    let upstream = serve_demo();
    let run = |token: Option<&str>, args: &[&str]| {
        let mut cmd = Command::new(BIN);
        cmd.args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .env("CALLSCOPE_SERVE_TOKEN", TOKEN)
            .stdin(Stdio::null());
        for name in common::CLEARED {
            cmd.env_remove(name);
        }
        // The API's address as a shell profile would give it; a source other than --live
        // takes no notice of it.
        cmd.env("CALLSCOPE_BASE_URL", &upstream.url);
        if let Some(t) = token {
            cmd.env("HMS_MANAGEMENT_TOKEN", t);
        }
        let out = finished(cmd);
        (
            out.status.code(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };

    // A token the API refuses: a runtime failure, said with the API's status; nothing listens.
    let refused = "tok-refused-4c1d";
    let (code, stdout, stderr) = run(Some(refused), &["--live", "--room", STORM_ROOM]);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("not serving") && stderr.contains("401"),
        "{stderr}"
    );
    assert!(
        stderr.contains("--live-token-file") && !stderr.contains(" --token-file"),
        "the hint names serve's flag for the API's token: {stderr}"
    );
    assert!(!stderr.contains(refused), "the token never shows: {stderr}");

    // The API's own token as the one serve hands to its clients: refused, and not shown.
    let (code, stdout, stderr) = run(Some(TOKEN), &["--live", "--room", STORM_ROOM]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stdout, "");
    assert!(stderr.contains("a token of its own"), "{stderr}");
    assert!(!stderr.contains(TOKEN), "{stderr}");

    // No token anywhere: a usage error that says where one is read from.
    let (code, stdout, stderr) = run(None, &["--live", "--room", STORM_ROOM]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("no token") && stderr.contains("--live-token-file"),
        "{stderr}"
    );

    // No room: the hosted API would refuse every query, so serve refuses to start.
    let (code, stdout, stderr) = run(Some("tok-any"), &["--live"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stdout, "");
    assert!(stderr.contains("--room"), "{stderr}");

    // An option of the live API without --live, or a filter that cannot be read, without a
    // server started.
    for args in [
        &["--demo", "--live-token-file", "token"][..],
        &["--demo", "--insecure"][..],
        &["--demo", "--base-url", "http://127.0.0.1:9"][..],
        &["--demo", "--page-size", "10"][..],
        &["--live", "--demo"][..],
        &["--demo", "--since", "yesterday"][..],
    ] {
        let (code, stdout, stderr) = run(Some(TOKEN), args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert_eq!(stdout, "", "{args:?}");
        assert!(stderr.contains(&args[1][2..]), "{args:?}: {stderr}");
        if args[1] != "--base-url" {
            assert!(!stderr.contains("--base-url"), "{args:?}: {stderr}");
        }
    }
}
