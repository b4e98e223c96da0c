//! What serve serves: a dump byte for byte, the demo as `list` prints it, narrowed by filters,
//! and `--max` counting matches.

use super::*;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/serve/incident.json"
);

#[tokio::test]
async fn a_dump_is_served_byte_for_byte_with_its_unknown_types_and_fields() {
    let mut server = serve(
        &[FIXTURE, "--lenient", "--addr", "127.0.0.1:0"],
        Some(TOKEN),
    );
    let client = reqwest::Client::new();
    let listed = list_ndjson([FIXTURE]);
    assert_eq!(listed.len(), 5, "the duplicate id is dropped");
    let (served, total) = page_through(&client, &server, &[], 2).await;
    assert_eq!((served.as_slice(), total), (listed.as_slice(), 5));
    let all = served.join("\n");
    for kept in [
        r#""retries_join":1.50"#,
        r#""big":12345678901234567890123"#,
        r#""exp":1E+3"#,
        r#"Zoë \u00e9\"quoted\""#,
        r#"line one\nline two"#,
        r#""type":"track.add.success""#,
    ] {
        assert!(all.contains(kept), "{kept} is served as written");
    }
    let (tracks, _) = page_through(&client, &server, &[("type", "track.add.success")], 10).await;
    assert_eq!(tracks, listed[2..3]);
    let (room_a_joins, _) = page_through(
        &client,
        &server,
        &[
            ("room_id", "room-a"),
            ("type", "join"),
            ("session_id", "sess-1"),
        ],
        1,
    )
    .await;
    assert_eq!(room_a_joins, [listed[0].clone(), listed[3].clone()]);

    // Nothing but errors goes to stderr: with the token from the environment, nothing at all.
    #[cfg(unix)]
    {
        let status = Command::new("kill")
            .args(["-TERM", &server.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let exit = server.child.wait().unwrap();
        assert!(exit.success(), "SIGTERM shuts serve down cleanly: {exit:?}");
        assert_eq!(server.stderr_line(), "");
    }
}

#[test]
fn list_live_over_serve_demo_prints_what_list_demo_prints_loading_the_types_side_by_side() {
    // serve as the hosted API answers: room_id required, error=true understood.
    let server = serve(&["--demo", "--addr", "127.0.0.1:0"], Some(TOKEN));
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("list.log");
    let live = Command::new(BIN)
        .args([
            "list",
            "--live",
            "--base-url",
            &server.url,
            "--room",
            STORM_ROOM,
        ])
        .args(["--format", "ndjson", "--log-file"])
        .arg(&log)
        .env("HMS_MANAGEMENT_TOKEN", TOKEN)
        .output()
        .unwrap();
    assert!(
        live.status.success(),
        "{}",
        String::from_utf8_lossy(&live.stderr)
    );
    // With no type named, the error events of the room: the five types.
    let demo = Command::new(BIN)
        .args(["list", "--demo", "--room", STORM_ROOM, "--format", "ndjson"])
        .args(["--type", "publish,subscribe,join,disconnected,connect"])
        .output()
        .unwrap();
    assert!(demo.status.success());
    assert!(
        demo.stdout.len() > 100_000,
        "the storm room holds many events"
    );
    // The demo is in time order, as the service orders events: merging the cursors by time gives
    // the events, their bytes and their order exactly.
    assert!(
        live.stdout == demo.stdout,
        "list --live printed {} lines, list --demo {}",
        live.stdout.split(|&b| b == b'\n').count(),
        demo.stdout.split(|&b| b == b'\n').count()
    );
    let log = std::fs::read_to_string(&log).unwrap();
    for kind in [
        "client.publish.failed",
        "client.subscribe.failed",
        "client.join.failed",
        "client.disconnected",
        "client.connect.failed",
    ] {
        assert!(
            log.contains(&format!(
                "url={EVENTS}?type={kind}&room_id={STORM_ROOM}&limit=100"
            )),
            "a cursor of its own for {kind}:\n{log}"
        );
    }
    assert!(
        log.contains(&format!(
            "url={EVENTS}?error=true&room_id={STORM_ROOM}&limit=100"
        )),
        "the query's own cursor asks for the error events:\n{log}"
    );
}

#[tokio::test]
async fn serve_narrows_a_dump_or_the_demo_with_the_filters_too() {
    let client = reqwest::Client::new();
    let flags = ["--type", "disconnected", "--search", "0.11.4"];
    let mut args = vec!["--demo", "--lenient", "--addr", "127.0.0.1:0"];
    args.extend(flags);
    let server = serve(&args, Some(TOKEN));
    let mut list_args = vec!["--demo"];
    list_args.extend(flags);
    let expected = list_ndjson(&list_args);
    assert!(!expected.is_empty() && expected.len() < demo().len() / 4);
    let (served, total) = page_through(&client, &server, &[], 100).await;
    assert_eq!(total, expected.len());
    assert_eq!(served, expected);
}

#[test]
fn list_live_max_counts_events_that_match_not_events_fetched() {
    let server = serve_demo();
    let dir = tempfile::tempdir().unwrap();
    let token = dir.path().join("token");
    std::fs::write(&token, TOKEN).unwrap();
    let token = token.to_str().unwrap();
    // Filters the API does not apply (a search, final errors only), with pages smaller than
    // the maximum: several pages are needed to find N matches.
    for filters in [
        &["--search", "Galaxy A14"][..],
        &["--terminal"][..],
        &["--type", "join", "--search", "sfu"][..],
    ] {
        // The room that holds the most matches.
        let mut all = vec!["--demo"];
        all.extend_from_slice(filters);
        let mut rooms: Vec<String> = list_ndjson(&all)
            .iter()
            .filter_map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                v["data"]["room_id"].as_str().map(str::to_string)
            })
            .collect();
        rooms.sort();
        let room = rooms
            .chunk_by(|a, b| a == b)
            .max_by_key(|run| run.len())
            .map(|run| run[0].clone())
            .unwrap();
        for max in ["3", "20"] {
            let mut live = vec!["--live", "--base-url", &server.url, "--token-file", token];
            live.extend_from_slice(&["--page-size", "10", "--max", max, "--room", &room]);
            live.extend_from_slice(filters);
            let mut demo = vec!["--demo", "--max", max, "--room", &room];
            demo.extend_from_slice(filters);
            let expected = list_ndjson(&demo);
            assert_eq!(
                expected.len(),
                max.parse::<usize>().unwrap(),
                "{filters:?}: the demo holds enough matches"
            );
            assert_eq!(list_ndjson(&live), expected, "{filters:?} --max {max}");
        }
    }
}
