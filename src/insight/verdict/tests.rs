//! The verdict rules on crafted timelines, clock edges included.

use super::*;
use crate::related::Object;
use crate::time::parse_rfc3339_nanos;

const ROOM: &str = "6735e0b1c4a92f5d18e3b7a1";

fn t(text: &str) -> i64 {
    parse_rfc3339_nanos(&format!("2026-11-18T{text}Z")).unwrap()
}

/// A session of the room, `peers` as (peer id, user id, joined, left).
fn session(
    id: &str,
    created: &str,
    updated: &str,
    peers: &[(&str, &str, &str, Option<&str>)],
) -> Object {
    let peers: serde_json::Map<String, serde_json::Value> = peers
        .iter()
        .map(|(p, u, j, l)| {
            let mut peer = serde_json::json!({
                "id": p, "session_id": id, "user_id": u,
                "joined_at": format!("2026-11-18T{j}Z"),
            });
            if let Some(l) = l {
                peer["left_at"] = format!("2026-11-18T{l}Z").into();
            }
            (p.to_string(), peer)
        })
        .collect();
    let json = serde_json::json!({
        "id": id, "room_id": ROOM, "active": false,
        "created_at": format!("2026-11-18T{created}Z"),
        "updated_at": format!("2026-11-18T{updated}Z"),
        "peers": peers,
    });
    Object::Session(Session::parse(&json.to_string()).unwrap())
}

/// The room with one session, s1, from `created` to `updated`, `peers` as [`session`] takes them.
fn only_s1(created: &str, updated: &str, peers: &[(&str, &str, &str, Option<&str>)]) -> Related {
    related(vec![session("s1", created, updated, peers)])
}

fn related(objects: Vec<Object>) -> Related {
    let mut r = Related::default();
    r.add(objects);
    r
}

fn failing(attempt: Attempt, first: &str, last: &str) -> Failing<'static> {
    Failing {
        peer_id: "peer-1",
        user_id: Some("user-1"),
        room_id: ROOM,
        attempt,
        first: t(first),
        last: t(last),
        tracks_whole: false,
        sessions_asked: false,
    }
}

/// Session s1 of the room, 11:00 to 12:30, which peer-1 (user-1) joined at 11:30 and left at
/// `left`.
fn peer_1_in_s1_until(left: &str) -> Related {
    only_s1(
        "11:00:00",
        "12:30:00",
        &[("peer-1", "user-1", "11:30:00", Some(left))],
    )
}

fn track(kind: &str, at: &str, peer: &str) -> TrackSeen {
    TrackSeen {
        at: t(at),
        peer_id: peer.into(),
        user_id: Some("user-1".into()),
        room_id: ROOM.into(),
        kind: kind.into(),
        media: Some("video".into()),
        source: Some("regular".into()),
    }
}

const NOW: i64 = i64::MAX / 2;

/// The verdict on `f` given `r` and `tracks`, long after it, its times in UTC.
fn judge(f: &Failing, r: &Related, tracks: &[TrackSeen]) -> Verdict {
    verdict(f, r, tracks, NOW, Zone::Utc)
}

#[test]
fn a_peer_that_joined_after_its_retries_got_through_and_the_session_is_named() {
    let r = related(vec![session(
        "63f73bf05223403c9671c5c9",
        "09:00:00",
        "11:00:00",
        &[("peer-1", "user-1", "10:02:07", Some("10:25:40"))],
    )]);
    let v = judge(&failing(Attempt::Join, "10:02:00", "10:02:05"), &r, &[]);
    assert_eq!(v.outcome, Outcome::GotThrough);
    assert_eq!(
        v.evidence,
        "joined session 63f73bf0… at 10:02:07 (7s after the first failure), left 10:25:40 (after 23m 33s)"
    );
    assert_eq!(v.session_id.as_deref(), Some("63f73bf05223403c9671c5c9"));
    assert_eq!(
        (v.joined_at, v.left_at),
        (Some(t("10:02:07")), Some(t("10:25:40")))
    );
}

#[test]
fn a_later_peer_of_the_same_user_counts_and_is_said_to_be_another_peer() {
    let r = only_s1(
        "09:00:00",
        "11:00:00",
        &[("peer-2", "user-1", "10:04:00", None)],
    );
    let v = judge(&failing(Attempt::Join, "10:02:00", "10:02:05"), &r, &[]);
    assert_eq!(v.outcome, Outcome::GotThrough);
    assert!(
        v.evidence.contains("as peer peer-2 (same user)"),
        "{}",
        v.evidence
    );
    // Without a user id, only the peer itself counts.
    let anonymous = Failing {
        user_id: None,
        ..failing(Attempt::Join, "10:02:00", "10:02:05")
    };
    assert_eq!(judge(&anonymous, &r, &[]).outcome, Outcome::NeverGotIn);
}

#[test]
fn known_sessions_without_the_peer_say_it_never_got_in_and_missing_ones_say_what_is_missing() {
    let known = only_s1(
        "09:00:00",
        "11:00:00",
        &[("someone", "user-9", "09:10:00", Some("10:50:00"))],
    );
    let f = failing(Attempt::Join, "10:02:00", "10:02:05");
    let v = judge(&f, &known, &[]);
    assert_eq!(v.outcome, Outcome::NeverGotIn);
    assert!(
        v.evidence.contains("from 10:02:00 to 10:12:05"),
        "{}",
        v.evidence
    );
    let none = judge(&f, &Related::default(), &[]);
    assert_eq!(none.outcome, Outcome::Unknown);
    assert!(
        none.evidence.contains("no session data for room"),
        "{}",
        none.evidence
    );
    // Sessions known only until before the window ends: a join could have followed.
    let short = only_s1(
        "09:00:00",
        "10:05:00",
        &[("someone", "user-9", "09:10:00", Some("10:05:00"))],
    );
    let v = judge(&f, &short, &[]);
    assert_eq!(v.outcome, Outcome::Unknown);
    assert!(
        v.evidence.contains("known from 09:00:00 to 10:05:00"),
        "{}",
        v.evidence
    );
}

#[test]
fn a_join_a_millisecond_before_the_first_failure_is_an_earlier_call_not_getting_through() {
    // The peer id seen before the failure (a reused id, or the call before): no evidence.
    let before = only_s1(
        "09:00:00",
        "11:00:00",
        &[("peer-1", "user-1", "10:01:59.999", Some("10:02:00.500"))],
    );
    let f = failing(Attempt::Join, "10:02:00", "10:02:05");
    assert_eq!(judge(&f, &before, &[]).outcome, Outcome::NeverGotIn);
    // At the first failure's very nanosecond, it counts.
    let at = only_s1(
        "09:00:00",
        "11:00:00",
        &[("peer-1", "user-1", "10:02:00", None)],
    );
    assert_eq!(judge(&f, &at, &[]).outcome, Outcome::GotThrough);
    // Past the window (ten minutes after the last failure), a join is a new try, not this one.
    let late = only_s1(
        "09:00:00",
        "11:00:00",
        &[("peer-1", "user-1", "10:12:05.000000001", None)],
    );
    assert_eq!(judge(&f, &late, &[]).outcome, Outcome::NeverGotIn);
}

#[test]
fn in_overlapping_sessions_the_first_join_after_the_failure_is_the_evidence() {
    let r = related(vec![
        session(
            "s-a",
            "09:00:00",
            "10:30:00",
            &[("peer-1", "user-1", "09:30:00", Some("10:01:00"))],
        ),
        session(
            "s-b",
            "10:00:00",
            "11:00:00",
            &[("peer-1", "user-1", "10:03:00", Some("10:40:00"))],
        ),
    ]);
    let v = judge(&failing(Attempt::Join, "10:02:00", "10:02:30"), &r, &[]);
    assert_eq!(v.outcome, Outcome::GotThrough);
    assert_eq!(v.session_id.as_deref(), Some("s-b"));
}

#[test]
fn a_track_of_the_peer_is_proof_it_was_in_the_call() {
    let tracks = [track("track.add.success", "10:02:09", "peer-1")];
    let v = judge(
        &failing(Attempt::Join, "10:02:00", "10:02:05"),
        &Related::default(),
        &tracks,
    );
    assert_eq!(v.outcome, Outcome::GotThrough);
    assert_eq!(
        v.evidence,
        "published video at 10:02:09 (track.add.success)"
    );
    // A track of another room's call is not.
    let elsewhere = TrackSeen {
        room_id: "other".into(),
        ..tracks[0].clone()
    };
    let v = judge(
        &failing(Attempt::Join, "10:02:00", "10:02:05"),
        &Related::default(),
        &[elsewhere],
    );
    assert_eq!(v.outcome, Outcome::Unknown);
}

#[test]
fn a_disconnect_is_reconnected_or_left_for_good_by_what_the_session_shows() {
    let f = failing(Attempt::Disconnect, "10:02:00", "10:02:03");
    let stayed = only_s1(
        "09:00:00",
        "11:00:00",
        &[("peer-1", "user-1", "09:30:00", Some("10:25:40"))],
    );
    let v = judge(&f, &stayed, &[]);
    assert_eq!(v.outcome, Outcome::Reconnected);
    assert!(v.evidence.contains("left 10:25:40"), "{}", v.evidence);
    let left = only_s1(
        "09:00:00",
        "11:00:00",
        &[("peer-1", "user-1", "09:30:00", Some("10:02:05"))],
    );
    let v = judge(&f, &left, &[]);
    assert_eq!(v.outcome, Outcome::Left);
    assert!(
        v.evidence
            .starts_with("left session s1 at 10:02:05, 5s after the first disconnect"),
        "{}",
        v.evidence
    );
    let rejoined = only_s1(
        "09:00:00",
        "11:00:00",
        &[
            ("peer-1", "user-1", "09:30:00", Some("10:02:05")),
            ("peer-9", "user-1", "10:02:40", Some("10:30:00")),
        ],
    );
    let v = judge(&f, &rejoined, &[]);
    assert_eq!(v.outcome, Outcome::Reconnected);
    assert!(
        v.evidence.contains("as peer peer-9 (same user)"),
        "{}",
        v.evidence
    );
    // A track after the disconnect.
    let v = judge(
        &f,
        &Related::default(),
        &[track("track.update.success", "10:02:30", "peer-1")],
    );
    assert_eq!(v.outcome, Outcome::Reconnected);
    assert_eq!(
        judge(&f, &Related::default(), &[]).outcome,
        Outcome::Unknown
    );
}

#[test]
fn a_publish_that_failed_got_through_with_a_track_or_left_without_one() {
    let f = failing(Attempt::Publish, "11:41:00", "11:42:50");
    let v = judge(
        &f,
        &Related::default(),
        &[track("track.add.success", "11:43:10", "peer-1")],
    );
    assert_eq!(v.outcome, Outcome::GotThrough);
    let left = peer_1_in_s1_until("11:43:00");
    // The peer's track events are loaded, and none after the first failure is a track added.
    let loaded = [
        track("track.add.success", "11:31:00", "peer-1"),
        track("track.remove.success", "11:42:52", "peer-1"),
    ];
    let v = judge(&f, &left, &loaded);
    assert_eq!(v.outcome, Outcome::Left);
    assert_eq!(
        v.evidence,
        "left session s1 at 11:43:00 with no track published after the first failure among the \
         peer's 2 loaded track events"
    );
    let v = judge(&f, &left, &loaded[..1]);
    assert!(
        v.evidence
            .ends_with("among the peer's 1 loaded track event"),
        "{}",
        v.evidence
    );
    let v = judge(&f, &Related::default(), &[]);
    assert_eq!(v.outcome, Outcome::Unknown);
    assert!(v.evidence.contains("track events"), "{}", v.evidence);
}

#[test]
fn without_the_peers_track_events_a_publish_is_not_said_to_have_failed() {
    let f = failing(Attempt::Publish, "11:41:00", "11:42:50");
    let left = peer_1_in_s1_until("11:43:00");
    // None loaded at all, or only another peer's (of another user) in the room.
    let mut other = track("track.add.success", "11:31:00", "peer-9");
    other.user_id = Some("user-9".into());
    for tracks in [vec![], vec![other]] {
        let v = judge(&f, &left, &tracks);
        assert_eq!(v.outcome, Outcome::Unknown);
        assert_eq!(
            v.evidence,
            "left session s1 at 11:43:00; no track event of the peer is loaded: ask for the \
             track events of its session"
        );
    }
    // Sessions that show the peer staying are not said to be missing.
    let stayed = peer_1_in_s1_until("12:20:00");
    let v = judge(&f, &stayed, &[]);
    assert_eq!(
        v.evidence,
        "no track event of the peer is loaded: ask for the track events of its session"
    );
}

#[test]
fn a_peers_track_events_fetched_whole_and_none_say_no_track_was_published() {
    // A live explorer asked the service for the peer's track events, read every page, and
    // none came: their absence is the service's answer, not a gap in what is loaded.
    let f = Failing {
        tracks_whole: true,
        ..failing(Attempt::Publish, "11:41:00", "11:42:50")
    };
    let left = peer_1_in_s1_until("11:43:00");
    let v = judge(&f, &left, &[]);
    assert_eq!(v.outcome, Outcome::Left);
    assert_eq!(
        v.evidence,
        "left session s1 at 11:43:00 with no track published after the first failure: the \
         service holds no track event of the peer in the room"
    );
    // The peer stayed: whether it published later is told, not asked for.
    let stayed = peer_1_in_s1_until("12:20:00");
    let v = judge(&f, &stayed, &[]);
    assert_eq!(v.outcome, Outcome::Unknown);
    assert_eq!(
        v.evidence,
        "no track published from 11:41:00 to 11:52:50: the service holds no track event of the \
         peer in the room"
    );
    // Without the sessions, what is missing is still said.
    let v = judge(&f, &Related::default(), &[]);
    assert_eq!(v.outcome, Outcome::Unknown);
    assert!(
        v.evidence.starts_with(
            "no track published from 11:41:00 to 11:52:50: the service holds no track event"
        ) && v.evidence.contains("; no session data for room"),
        "{}",
        v.evidence
    );
    // The user came back as another peer in the window: that peer's track events were not
    // asked for, and may hold a track; nothing is told of them.
    let rejoined = only_s1(
        "11:00:00",
        "12:30:00",
        &[
            ("peer-1", "user-1", "11:30:00", Some("11:43:00")),
            ("peer-2", "user-1", "11:44:00", Some("12:10:00")),
        ],
    );
    let v = judge(&f, &rejoined, &[]);
    assert_eq!(v.outcome, Outcome::Unknown);
    assert!(
        v.evidence
            .ends_with("ask for the track events of its session"),
        "{}",
        v.evidence
    );
    // A track the same user published after the failure still tells it got through.
    let v = judge(
        &f,
        &left,
        &[track("track.add.success", "11:43:10", "peer-1")],
    );
    assert_eq!(v.outcome, Outcome::GotThrough);
}

#[test]
fn an_unknown_publish_says_what_was_looked_for_among_the_tracks_and_what_is_missing() {
    // Tracks stopped after the first failure, no sessions: no track was published, and
    // whether the peer left is not known.
    let f = failing(Attempt::Publish, "11:41:07", "11:42:50");
    let tracks = [
        track("track.add.success", "11:38:10", "peer-1"),
        track("track.remove.success", "11:42:52", "peer-1"),
    ];
    let v = judge(&f, &Related::default(), &tracks);
    assert_eq!(v.outcome, Outcome::Unknown);
    assert_eq!(
        v.evidence,
        format!(
            "no track published from 11:41:07 to 11:52:50 among the peer's 2 loaded track \
             events; no session data for room {ROOM}: fetch it live, or add the room's sessions \
             response to the folder"
        )
    );
}

#[test]
fn no_verdict_claims_success_without_evidence() {
    // Every attempt, every kind of data missing: only unknown, never a success.
    for attempt in [
        Attempt::Join,
        Attempt::Disconnect,
        Attempt::Publish,
        Attempt::Other,
    ] {
        let v = judge(
            &failing(attempt, "10:00:00", "10:00:10"),
            &Related::default(),
            &[],
        );
        assert_eq!(v.outcome, Outcome::Unknown, "{attempt:?}");
        assert!(!v.evidence.is_empty());
    }
}

#[test]
fn sessions_known_over_another_time_are_named_with_dates_when_the_times_span_days() {
    // The room's sessions end at 11:30; the failure is after.
    let known = only_s1(
        "11:00:00",
        "11:30:00",
        &[("peer-9", "user-9", "11:00:05", Some("11:29:00"))],
    );
    let f = failing(Attempt::Join, "11:41:00", "11:42:50");
    assert_eq!(
        judge(&f, &known, &[]).evidence,
        format!(
            "the sessions of room {ROOM} are known from 11:00:00 to 11:30:00, not over 11:41:00 \
             to 11:52:50: fetch them live, or add the sessions of that time to the folder"
        )
    );
    // A day later, the clock alone would read as a span backwards.
    const DAY: i64 = 86_400 * 1_000_000_000;
    let next_day = Failing {
        first: f.first + DAY,
        last: f.last + DAY,
        ..f
    };
    assert_eq!(
        verdict(&next_day, &known, &[], NOW + DAY, Zone::Utc).evidence,
        format!(
            "the sessions of room {ROOM} are known from 2026-11-18 11:00:00 to 2026-11-18 \
             11:30:00, not over 2026-11-19 11:41:00 to 2026-11-19 11:52:50: fetch them live, or \
             add the sessions of that time to the folder"
        )
    );
    // In a zone, the times of day are the zone's; and its midnight, not UTC's, parts the days.
    let india = Zone::Fixed(5 * 3600 + 30 * 60);
    assert_eq!(
        verdict(&f, &known, &[], NOW, india).evidence,
        format!(
            "the sessions of room {ROOM} are known from 16:30:00 to 17:00:00, not over 17:11:00 \
             to 17:22:50: fetch them live, or add the sessions of that time to the folder"
        )
    );
    let half_past_noon = Zone::Fixed(12 * 3600 + 30 * 60);
    assert_eq!(
        verdict(&f, &known, &[], NOW, half_past_noon).evidence,
        format!(
            "the sessions of room {ROOM} are known from 2026-11-18 23:30:00 to 2026-11-19 \
             00:00:00, not over 2026-11-19 00:11:00 to 2026-11-19 00:22:50: fetch them live, or \
             add the sessions of that time to the folder"
        )
    );
}

#[test]
fn sessions_asked_of_the_service_are_not_said_to_be_missing() {
    // Live, the room's sessions were asked for: none listed is the service's answer, and a
    // window past the last one known is asked for again later, not fetched "live".
    let asked = |attempt| Failing {
        sessions_asked: true,
        ..failing(attempt, "11:41:00", "11:42:50")
    };
    let v = judge(&asked(Attempt::Join), &Related::default(), &[]);
    assert_eq!(v.outcome, Outcome::Unknown);
    assert_eq!(
        v.evidence,
        format!("the service lists no session of room {ROOM}")
    );
    let active = only_s1(
        "11:00:00",
        "11:45:00",
        &[("peer-9", "user-9", "11:00:05", None)],
    );
    let v = verdict(
        &asked(Attempt::Join),
        &active,
        &[],
        t("11:45:00"),
        Zone::Utc,
    );
    assert_eq!(v.outcome, Outcome::Unknown);
    assert!(
        v.evidence
            .ends_with("not over 11:41:00 to 11:52:50: ask the service again after 11:52:50"),
        "{}",
        v.evidence
    );
    // Asked once the ten minutes were over: asking again would change nothing.
    let v = verdict(
        &asked(Attempt::Join),
        &active,
        &[],
        t("15:00:00"),
        Zone::Utc,
    );
    assert_eq!(v.outcome, Outcome::Unknown);
    assert_eq!(
        v.evidence,
        format!(
            "the sessions the service lists of room {ROOM} run from 11:00:00 to 11:45:00, not \
             over 11:41:00 to 11:52:50"
        )
    );
}

#[test]
fn tracks_removed_as_a_disconnected_peer_leaves_are_not_a_reconnect() {
    // The peer left 29 s after the disconnect; its tracks went with it.
    let f = failing(Attempt::Disconnect, "11:40:00", "11:40:00");
    let left = peer_1_in_s1_until("11:40:29");
    let removed = [
        track("track.remove.success", "11:40:29", "peer-1"),
        track("track.remove.success", "11:40:29", "peer-1"),
    ];
    let v = verdict(&f, &left, &removed, NOW, Zone::Utc);
    assert_eq!(v.outcome, Outcome::Left, "{}", v.evidence);
    // Without the sessions, a removal alone tells nothing either.
    let v = verdict(&f, &Related::default(), &removed, NOW, Zone::Utc);
    assert_eq!(v.outcome, Outcome::Unknown, "{}", v.evidence);
}

#[test]
fn another_device_of_the_user_already_in_the_call_is_not_the_peer_getting_in() {
    // peer-2 of user-1 has been in the call since 09:50; peer-1's join fails at 10:02 and it
    // never joins. peer-2's track update at 10:03 and its stay say nothing of peer-1.
    let r = related(vec![session(
        "s1",
        "09:00:00",
        "11:00:00",
        &[("peer-2", "user-1", "09:50:00", Some("10:40:00"))],
    )]);
    let updated = [track("track.update.success", "10:03:00", "peer-2")];
    let join = failing(Attempt::Join, "10:02:00", "10:02:00");
    let v = verdict(&join, &r, &updated, NOW, Zone::Utc);
    assert_eq!(v.outcome, Outcome::NeverGotIn, "{}", v.evidence);
    // Without the sessions, its track before the failure shows it was there before.
    let earlier = [
        track("track.add.success", "09:51:00", "peer-2"),
        track("track.add.success", "10:03:00", "peer-2"),
    ];
    let v = verdict(&join, &Related::default(), &earlier, NOW, Zone::Utc);
    assert_eq!(v.outcome, Outcome::Unknown, "{}", v.evidence);
    let publish = failing(Attempt::Publish, "10:02:00", "10:02:00");
    let published = [track("track.add.success", "10:02:30", "peer-2")];
    let v = verdict(&publish, &r, &published, NOW, Zone::Utc);
    assert_eq!(v.outcome, Outcome::Unknown, "{}", v.evidence);
    // peer-2 staying in the call is not peer-1 staying after its disconnect.
    let both = related(vec![session(
        "s1",
        "09:00:00",
        "11:00:00",
        &[
            ("peer-1", "user-1", "09:30:00", Some("10:02:05")),
            ("peer-2", "user-1", "09:50:00", Some("10:40:00")),
        ],
    )]);
    let disconnect = failing(Attempt::Disconnect, "10:02:00", "10:02:00");
    let v = verdict(&disconnect, &both, &[], NOW, Zone::Utc);
    assert_eq!(v.outcome, Outcome::Left, "{}", v.evidence);
    // Nor does its join again under the same id (a reused id) after the failure.
    let back = related(vec![
        session(
            "s1",
            "09:00:00",
            "10:04:30",
            &[("peer-2", "user-1", "09:50:00", Some("10:04:00"))],
        ),
        session(
            "s2",
            "10:05:00",
            "11:00:00",
            &[("peer-2", "user-1", "10:05:00", Some("10:40:00"))],
        ),
    ]);
    let v = verdict(&join, &back, &[], NOW, Zone::Utc);
    assert_eq!(v.outcome, Outcome::NeverGotIn, "{}", v.evidence);
    // A publish that failed while the peer stayed: another device leaving is not its leave.
    let stays = related(vec![session(
        "s1",
        "09:00:00",
        "11:00:00",
        &[
            ("peer-1", "user-1", "09:30:00", None),
            ("peer-2", "user-1", "09:50:00", Some("10:05:00")),
        ],
    )]);
    let audio = [track("track.add.success", "10:01:00", "peer-1")];
    let v = verdict(&publish, &stays, &audio, NOW, Zone::Utc);
    assert_eq!(v.outcome, Outcome::Unknown, "{}", v.evidence);
    // A peer of the user first seen after the failure still counts.
    let later = [track("track.add.success", "10:03:00", "peer-3")];
    let v = verdict(&join, &Related::default(), &later, NOW, Zone::Utc);
    assert_eq!(v.outcome, Outcome::GotThrough, "{}", v.evidence);
}

#[test]
fn a_saved_active_session_is_known_only_up_to_the_latest_time_it_names() {
    // Saved at 11:05 (its last update) while still active: a disconnect at 11:04:50 with the
    // peer still in it is not a stay of a minute, and a join failure at 11:03 is not known
    // to have been followed by no join until 11:13.
    let json = serde_json::json!({
        "id": "s2", "room_id": ROOM, "active": true,
        "created_at": "2026-11-18T11:00:00Z", "updated_at": "2026-11-18T11:05:00Z",
        "peers": {"peer-1": {"id": "peer-1", "user_id": "user-1",
                             "joined_at": "2026-11-18T11:00:30Z"}},
    });
    let live = Session::parse(&json.to_string()).unwrap();
    let mut objects = vec![Object::Session(live.clone())];
    crate::related::as_saved(&mut objects);
    let r = related(objects);
    // Read days later: the time it is read is no time the session is known up to.
    let saved = NOW;
    let disconnect = failing(Attempt::Disconnect, "11:04:50", "11:04:50");
    let v = verdict(&disconnect, &r, &[], saved, Zone::Utc);
    assert_eq!(v.outcome, Outcome::Unknown, "{}", v.evidence);
    let join = Failing {
        peer_id: "peer-7",
        user_id: Some("user-7"),
        ..failing(Attempt::Join, "11:03:00", "11:03:00")
    };
    let v = verdict(&join, &r, &[], saved, Zone::Utc);
    assert_eq!(v.outcome, Outcome::Unknown, "{}", v.evidence);
    assert!(
        v.evidence.contains("known from 11:00:00 to 11:05:00"),
        "{}",
        v.evidence
    );
    // Live, the same session asked for at 11:07 shows the peer a minute past its disconnect.
    let asked = related(vec![Object::Session(live)]);
    let v = verdict(&disconnect, &asked, &[], t("11:07:00"), Zone::Utc);
    assert_eq!(v.outcome, Outcome::Reconnected, "{}", v.evidence);
}

#[test]
fn errors_that_name_no_room_say_so_rather_than_ask_for_room_nothing() {
    let f = Failing {
        room_id: "",
        ..failing(Attempt::Join, "10:02:00", "10:02:00")
    };
    let v = verdict(&f, &Related::default(), &[], NOW, Zone::Utc);
    assert_eq!(v.outcome, Outcome::Unknown);
    assert_eq!(
        v.evidence,
        "the errors name no room, so no room's sessions can tell"
    );
}
