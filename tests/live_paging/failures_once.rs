//! `list --live` stopped by one refusal of several cursors, as a user runs it: the refusal is
//! said once, with the parts of the query it stopped; and a type of which one event arrived
//! says the time of that event, not a span.

use super::*;

/// Fifteen events, oldest first, paged three at a time. The query's own cursor is refused at
/// its third page (having read events 1 to 6), the join cursor at its second (having read 3, 6
/// and 7 of its five), and the publish and disconnected cursors at their first: of the
/// disconnected events (2 and 10) only the query's cursor brought one. Connect and subscribe
/// load in full.
async fn expiring() -> Catalog {
    let types = vec![
        CONNECT,
        DISCONNECTED,
        JOIN,
        SUBSCRIBE,
        CONNECT,
        JOIN,
        JOIN,
        JOIN,
        JOIN,
        DISCONNECTED,
        SUBSCRIBE,
        PUBLISH,
        PUBLISH,
        CONNECT,
        SUBSCRIBE,
    ];
    let mut setup = setup(types);
    setup.faults = vec![
        refused("untyped", 2),
        refused(JOIN, 1),
        refused(PUBLISH, 0),
        refused(DISCONNECTED, 0),
    ];
    Catalog::start(setup).await
}

#[tokio::test]
async fn one_refusal_of_several_cursors_is_said_once_naming_what_it_stopped() {
    let server = expiring().await;
    let out = list_live_at(
        &server.url,
        catalog::ROOM,
        &["--page-size", "3", "--format", "ndjson"],
    )
    .await;
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "the summary, then the failure: {stderr}");
    assert_eq!(
        lines[1],
        format!(
            "callscope: loading the query: HTTP 401: fault 401 (check the token: \
             HMS_MANAGEMENT_TOKEN, --token-file, or HMS_ACCESS_KEY + HMS_SECRET; it may have \
             expired); the same failure stopped loading the {PUBLISH}, {JOIN} and \
             {DISCONNECTED} events"
        )
    );
    // The one disconnected event that arrived is at its time.
    let disconnected = format!("{DISCONNECTED} 1 event, at {}; none later arrived", at(2));
    assert!(lines[0].contains(&disconnected), "{stderr}");
    assert!(
        lines[0].contains(&format!(
            "{JOIN} 3 of 5 events, from {} up to {}; none later arrived",
            at(3),
            at(7)
        )),
        "{stderr}"
    );
}
