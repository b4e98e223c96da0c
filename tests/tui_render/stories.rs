//! A peer's story and the network view: chains, verdicts with their evidence, missing data,
//! quality charts.

use super::*;

#[test]
fn a_peers_story_shows_its_chain_and_how_it_ended() {
    let mut m = demo(peer_priya(), (140, 40));
    run(&mut m, Command::ShowStory);
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(text.contains("story of Priya Raman"), "{text}");
    assert!(text.contains("PUBLISH: 10 failed attempts"), "{text}");
    assert!(text.contains("gave up: final error at"), "{text}");
    // The track events beside the chain have types that end in ".success"; the story itself
    // never claims one.
    let told = text.replace(".success", "");
    for word in ["succeeded", "recovered", "success"] {
        assert!(!told.contains(word), "the story claims {word}: {text}");
    }
    insta::assert_snapshot!("story_priya_140x40", t.backend());
    // On a narrower screen the end of each line goes, never whether the attempt was final.
    let mut m = demo(peer_priya(), (100, 40));
    run(&mut m, Command::ShowStory);
    let text = screen_text(draw(&m).backend().buffer());
    let attempts: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("   2026-") && l.contains(" publish "))
        .collect();
    assert!(!attempts.is_empty(), "{text}");
    for line in attempts {
        assert!(
            line.contains(" retried ") || line.contains(" final "),
            "{line}"
        );
    }
}

/// Søren Kowalski, a peer of the demo's join storm who got in after four failed joins.
const SOREN: &str = "67fc2ca6-0292-4826-b8f5-81a2c18e5bab";

#[test]
fn a_story_tells_each_chains_verdict_with_its_evidence_and_the_track_events_dimmed() {
    let mut m = demo(Filter::default().with(Field::Peer, SOREN), (140, 40));
    run(&mut m, Command::ShowStory);
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let text = screen_text(buffer);
    assert!(text.contains("JOIN: 4 failed attempts over 7s"), "{text}");
    // The verdict names the session, when the peer joined and when it left.
    assert!(
        text.contains("got through: joined session 6afd7544… at 10:05:10 (17s after the first"),
        "{text}"
    );
    // The track events, after the failures, dimmed: context, not errors.
    for words in ["published audio", "published video", "video stopped"] {
        let y = (0..buffer.area.height)
            .find(|&y| row_text(buffer, y).contains(words))
            .unwrap_or_else(|| panic!("no line says {words}:\n{text}"));
        let x = column_of(buffer, y, words).unwrap();
        let cell = &buffer[(x, y)];
        assert!(cell.modifier.contains(Modifier::DIM), "{words}: {cell:?}");
    }
    let last_failure = text.find("10:05:01").unwrap();
    assert!(
        text.find("published video").unwrap() > last_failure,
        "{text}"
    );
    insta::assert_snapshot!("story_verdict_tracks_140x40", t.backend());
    // The detail pane of one of the failures gives the same verdict.
    run(&mut m, Command::Down);
    run(&mut m, Command::Down);
    run(&mut m, Command::Down);
    let detail = screen_text(draw_detail(&m).backend().buffer());
    assert!(
        detail.contains("outcome: got through: joined session 6afd7544… at"),
        "{detail}"
    );
    assert!(
        detail.contains("10:05:10 (17s after the first failure), left"),
        "{detail}"
    );
}

#[test]
fn a_chain_that_never_got_in_says_over_which_time_the_sessions_hold_no_join() {
    let m = story_of_one_who_gave_up();
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("never got in: no peer of user usr_f48f5a9373 joined a session"),
        "{text}"
    );
    // The detail pane has room for the whole evidence: the time the sessions cover.
    let detail = screen_text(draw_detail(&m).backend().buffer());
    assert!(detail.contains("from 10:02:04 to 10:12:08"), "{detail}");
    assert!(
        detail.contains("(its sessions are known over that time)"),
        "{detail}"
    );
}

#[test]
fn without_session_data_a_verdict_is_unknown_and_says_what_is_missing() {
    // The events alone, as from a dump without the sessions beside it, of a peer with no
    // track event (a track event would be evidence enough).
    let mut m = loaded(
        SourceLabel::Demo,
        Filter::default().with(Field::Peer, "449c24e1-2a4e-4651-bbea-386747122376"),
        (140, 40),
        vec![callscope::source::demo::load()],
    );
    run(&mut m, Command::ShowStory);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(!text.contains("got through:"), "{text}");
    assert!(
        text.contains("unknown: no session data for room 673a1f2c9e4b8d0a5c7e3f21: fetch it live"),
        "{text}"
    );
}

#[test]
fn the_network_view_charts_the_peers_quality_with_its_errors_marked() {
    // On the chain's line: the summary is told around its last failure.
    let mut m = priyas_network((160, 50));
    assert_eq!(m.focus.mode(), Mode::Quality);
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(
        text.contains("network of peer 3f6b2a9e-8c41-4d7a-9b25-e0c4d1f7a863 in session"),
        "{text}"
    );
    assert!(
        text.contains("summary: packet loss rose to 32.9% by the failure at 11:42:50"),
        "{text}"
    );
    assert!(text.contains("10 error(s) marked"), "{text}");
    // Each simulcast layer a line of its own; the errors marked; what has no points said so.
    assert!(
        text.contains("publish · packet loss % ━ video h ━ video m ━ video l"),
        "{text}"
    );
    assert!(text.contains("█ errors"), "{text}");
    assert!(
        text.contains("subscribe · RTT ms: empty, no points on"),
        "{text}"
    );
    // The stats come from files: there is no service to ask again.
    assert!(!text.contains("ask again"), "{text}");
    insta::assert_snapshot!("quality_priya_160x50", t.backend());
    // Esc goes back to the story, on the line it was on.
    run(&mut m, Command::Cancel);
    assert_eq!(m.focus.mode(), Mode::Story);
}

#[test]
fn the_network_view_without_stats_says_which_response_to_add() {
    let mut m = demo(Filter::default().with(Field::Peer, SOREN), (140, 40));
    run(&mut m, Command::ShowQuality);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("no quality stats of peer 67fc2ca6-0292-4826-b8f5-81a2c18e5bab in session"),
        "{text}"
    );
    assert!(
        text.contains("GET /v2/analytics/peer-stats?peer_id="),
        "{text}"
    );
}

/// A peer without a name is called unnamed, as `callscope story` calls it, and retries a
/// fraction of a second apart are said to span that fraction, not 0s.
#[test]
fn an_unnamed_peers_quick_retries_read_as_they_happened() {
    let join = |id: &str, ts: &str| {
        json!({"id": id, "type": "client.join.failed", "timestamp": ts, "data": {
            "room_id": "r", "peer_id": "f33f0f94-peer", "error_code": 500,
            "error_name": "ServerErrors", "is_terminal": false}})
    };
    let mut m = of_events(
        (140, 30),
        &[
            join("a", "2026-11-18T10:00:00.000Z"),
            join("b", "2026-11-18T10:00:00.920Z"),
        ],
    );
    run(&mut m, Command::ShowStory);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(text.contains("story of unnamed (f33f0f94-peer)"), "{text}");
    assert!(text.contains("2 failed attempts over 920ms"), "{text}");
}

/// The network view's time axes at widths from 40 to 200 columns: every time whole, none drawn
/// over another; the middle one where there is room for it.
#[test]
fn the_network_views_time_axes_hold_whole_times_that_never_overlap() {
    let clock = |t: &str| {
        t.len() == 8
            && t.bytes().enumerate().all(|(k, b)| {
                if k == 2 || k == 5 {
                    b == b':'
                } else {
                    b.is_ascii_digit()
                }
            })
    };
    for width in (40..=200).step_by(4) {
        let m = priyas_network((width, 24));
        let text = screen_text(draw(&m).backend().buffer());
        let axes: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("11:38:10") || l.contains("11:48:50") || l.contains(":4"))
            .filter(|l| !l.contains("summary") && !l.contains(" to "))
            .collect();
        for line in &axes {
            for time in line.split_whitespace().filter(|w| w.contains(':')) {
                assert!(clock(time), "{width}: {time:?} in {line:?}\n{text}");
            }
        }
        if width >= 120 {
            assert!(
                axes.iter().any(|l| l.contains("11:43:30")),
                "{width}: no middle time\n{text}"
            );
        }
    }
}
