//! A peer's story and the network view in the real binary, on the demo and live: what they ask
//! the service for and what they draw.

use super::*;

/// Søren Kowalski, a peer of the demo's join storm who got in after four failed joins.
const SOREN: &str = "67fc2ca6-0292-4826-b8f5-81a2c18e5bab";
/// Priya Raman, the demo's peer whose publishing gives up, in room design-review.
const PRIYA: &str = "3f6b2a9e-8c41-4d7a-9b25-e0c4d1f7a863";
const DESIGN_REVIEW: &str = "673a1f4e2b7c9d1a0e8f5b63";

#[test]
fn on_the_demo_a_peers_story_tells_whether_it_got_through_in_two_keys() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.start_demo("", &format!("--peer {SOREN}"));
    tmux.keys(&["p"]);
    // Waited for whole: a capture can catch the story drawn over part of the list.
    let screen = tmux.wait_for(
        |s| {
            s.contains("got through: joined session 6afd7544… at 10:05:10")
                && s.contains("published video")
                && s.contains("outcome: got through")
        },
        "the story with its verdict and track events, and the detail pane's verdict",
    );
    assert!(
        screen.contains("JOIN: 4 failed attempts over 7s"),
        "{screen}"
    );
    assert!(screen.contains("published video"), "{screen}");
    // The detail pane of the chain's first failure gives the same verdict.
    assert!(screen.contains("outcome: got through"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn live_the_story_asks_for_the_rooms_sessions_and_the_peers_track_events() {
    let dir = tempfile::tempdir().unwrap();
    let Some((tmux, _upstream)) = live_on(dir.path(), "673a1f2c9e4b8d0a5c7e3f21", SOREN) else {
        return;
    };
    tmux.keys(&["p"]);
    // The verdict rests on the sessions fetched with the events; the track events, fetched
    // when the story opened, are not among the query's errors.
    let screen = tmux.wait_for(
        |s| s.contains("got through: joined session 6afd7544…") && s.contains("published video"),
        "the verdict and the track events",
    );
    assert!(screen.contains("4 shown / 4 loaded"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn live_m_asks_for_the_peers_quality_stats_and_draws_them() {
    let dir = tempfile::tempdir().unwrap();
    let Some((tmux, _upstream)) = live_on(dir.path(), DESIGN_REVIEW, PRIYA) else {
        return;
    };
    tmux.keys(&["p"]);
    tmux.wait_for_text("PUBLISH: 10 failed attempts");
    // On the chain's line: the network around its last failure.
    tmux.keys(&["g", "m"]);
    let screen =
        tmux.wait_for_text("summary: packet loss rose to 32.9% by the failure at 11:42:50");
    assert!(
        screen.contains("publish · packet loss % ━ video h"),
        "{screen}"
    );
    assert!(screen.contains("10 error(s) marked"), "{screen}");
    tmux.keys(&["Escape"]);
    tmux.wait_for_text("PUBLISH: 10 failed attempts");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

/// The explorer in `dir`, live against the served demo on `peer`'s events in `room`, once every
/// page has loaded, and the server (kept up while it is held); `None` without tmux.
fn live_on(dir: &Path, room: &str, peer: &str) -> Option<(Tmux, common::Server)> {
    let tmux = Tmux::start(dir)?;
    let upstream = serve_demo("tok-rel-3a9c");
    tmux.launch(
        "HMS_MANAGEMENT_TOKEN=tok-rel-3a9c ",
        &format!(
            "--live --base-url {} --room {room} --peer {peer}",
            upstream.url
        ),
    );
    tmux.wait_for_text("all pages loaded");
    Some((tmux, upstream))
}

#[test]
fn live_the_network_view_says_the_service_answers_once_the_session_has_ended() {
    network_view_without_stats(
        true,
        "the session is still active: quality stats are available after it ends",
    );
}

#[test]
fn live_the_network_view_of_an_ended_session_without_stats_gives_the_services_words() {
    // A 404 of the stats endpoint is an answer (none for this peer and session), not a sign of
    // a wrong address.
    network_view_without_stats(
        false,
        "HTTP 404: Not Found (no quality stats for peer p1 in session s-active)",
    );
}

/// Opens the network view (`m`) of a publish failure's peer, live against serve, in a session
/// `active` or ended for which no stats are served: the screen says `said`, and how to ask again
/// while the session is active, or that the service holds none once it has ended.
fn network_view_without_stats(active: bool, said: &str) {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // A folder served: one publish failure, in a session still active or ended.
    let folder = dir.path().join("served");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(
        folder.join("events.ndjson"),
        r#"{"version":"2.0","id":"e1","timestamp":"2026-11-18T10:00:00Z","type":"client.publish.failed","data":{"room_id":"r-active","session_id":"s-active","peer_id":"p1","user_name":"Ada","error_code":4006,"error_name":"ICEDisconnected","is_terminal":false,"action":"PUBLISH"}}
"#,
    )
    .unwrap();
    std::fs::write(
        folder.join("sessions.json"),
        format!(
            r#"{{"limit":1,"data":[{{"id":"s-active","room_id":"r-active","active":{active},"created_at":"2026-11-18T09:59:00Z","peers":{{"p1":{{"id":"p1","name":"Ada","joined_at":"2026-11-18T09:59:30Z"}}}}}}],"last":"s-active"}}
"#
        ),
    )
    .unwrap();
    let upstream = serve(&[folder.to_str().unwrap()], "tok-act-71b0");
    tmux.launch(
        "HMS_MANAGEMENT_TOKEN=tok-act-71b0 ",
        &format!("--live --base-url {} --room r-active", upstream.url),
    );
    tmux.wait_for_text("all pages loaded");
    tmux.keys(&["m"]);
    let screen = tmux.wait_for_text("the service gave no quality stats");
    let body = screen.replace('\n', " ");
    assert!(body.contains(said), "{screen}");
    if active {
        assert!(body.contains("R asks again"), "{screen}");
    } else {
        // The session ended: the service holds none, and asking again would not bring them.
        assert!(
            body.contains("The session has ended: the service holds no quality stats for the peer"),
            "{screen}"
        );
        assert!(!body.contains("answers only once"), "{screen}");
    }
    // Its own line breaks are breaks, and no hint takes the answer for a wrong address.
    assert!(!screen.contains('␊'), "{screen}");
    assert!(!body.contains("check --base-url"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}
