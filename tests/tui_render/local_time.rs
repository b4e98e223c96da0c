//! Local time (`L`): every time of day the explorer shows is in the zone the header names, in the
//! story's chain, verdict and network lines, the detail pane's chain and outcome, the network
//! view and the timeline as in the list. Only the time as sent (RFC 3339, a `T` before its time
//! of day) stays in UTC, beside the local one.

use super::*;

/// India's offset: half an hour off the hour, so that a time left in UTC cannot pass for a local
/// one.
const INDIA: i32 = 5 * 3600 + 30 * 60;

/// Every time of day in `text`, `HH:MM` or `HH:MM:SS`, in order; not the times as sent (after a
/// `T`) nor offsets (`UTC+05:30`).
fn times_of_day(text: &str) -> Vec<String> {
    let re = regex::Regex::new(r"(?:^|[^T+\-\d:])(\d{2}:\d{2}(?::\d{2})?)").unwrap();
    re.captures_iter(text).map(|c| c[1].to_string()).collect()
}

/// A time of day `HH:MM[:SS]` moved `offset` seconds east, as a wall clock turns.
fn shifted(time: &str, offset: i32) -> String {
    let parts: Vec<i32> = time.split(':').map(|p| p.parse().unwrap()).collect();
    let minutes = (parts[0] * 60 + parts[1] + offset / 60).rem_euclid(24 * 60);
    let mut out = format!("{:02}:{:02}", minutes / 60, minutes % 60);
    if let Some(seconds) = parts.get(2) {
        out.push_str(&format!(":{seconds:02}"));
    }
    out
}

/// Each time of day of `local` is the one at the same place in `utc`, moved to India's time:
/// none is left in UTC.
fn assert_local(utc: &str, local: &str) {
    let (in_utc, in_local) = (times_of_day(utc), times_of_day(local));
    assert_eq!(
        in_utc.len(),
        in_local.len(),
        "times {in_utc:?} in UTC, {in_local:?} in local time:\n{utc}\n{local}"
    );
    for (u, l) in in_utc.iter().zip(&in_local) {
        assert_eq!(
            *l,
            shifted(u, INDIA),
            "{u} UTC is shown as {l}, not in UTC+05:30:\n{local}"
        );
    }
}

/// `L` with India's time as the local one.
fn to_india(m: &mut Model) {
    m.config.local_zone = callscope::time::Zone::Fixed(INDIA);
    run(m, Command::ToggleLocalTime);
}

/// The detail pane's text as one line: its wrapped lines read as they were written.
fn read(detail: &str) -> String {
    words(&detail.replace('│', " "))
}

/// The screen, and the detail pane in full, as drawn.
fn seen(m: &Model) -> (String, String) {
    (
        screen_text(draw(m).backend().buffer()),
        screen_text(draw_detail(m).backend().buffer()),
    )
}

/// The screen and the detail pane in UTC, then in India's time: each of their times of day is
/// the local one. `L` again shows them in UTC.
fn assert_every_time_local(m: &mut Model) -> (String, String) {
    let (screen, detail) = seen(m);
    assert!(
        !times_of_day(&screen).is_empty(),
        "no time of day shown:\n{screen}"
    );
    to_india(m);
    let (local_screen, local_detail) = seen(m);
    assert!(
        local_screen.contains("times local, UTC+05:30"),
        "{local_screen}"
    );
    assert_local(&screen, &local_screen);
    assert_local(&detail, &local_detail);
    run(m, Command::ToggleLocalTime);
    let (again, detail_again) = seen(m);
    assert_eq!(times_of_day(&again), times_of_day(&screen), "{again}");
    assert_eq!(times_of_day(&detail_again), times_of_day(&detail));
    to_india(m);
    (local_screen, local_detail)
}

#[test]
fn a_story_in_local_time_tells_its_chain_verdict_and_network_in_local_time() {
    let mut m = demo(peer_priya(), (140, 40));
    run(&mut m, Command::ShowStory);
    // Her chain's line, verdict and network, and the detail of its first failure.
    run(&mut m, Command::Top);
    let (screen, detail) = assert_every_time_local(&mut m);
    for told in [
        "gave up: final error at 17:12:50",
        "left session",
        "network: packet loss rose to 32.9% by the failure at 17:12:50",
    ] {
        assert!(screen.contains(told), "{told:?} missing:\n{screen}");
    }
    assert!(
        read(&detail).contains("gave up: final error at 17:12:50"),
        "{detail}"
    );
    insta::assert_snapshot!("story_priya_india_140x40", draw(&m).backend());
    // On each of her events too.
    for _ in 0..4 {
        run(&mut m, Command::Down);
        run(&mut m, Command::ToggleLocalTime);
        let (_, detail) = assert_every_time_local(&mut m);
        assert!(!times_of_day(&detail).is_empty(), "{detail}");
    }
}

#[test]
fn a_verdict_that_names_when_the_peer_joined_and_left_names_them_in_local_time() {
    // Søren Kowalski got in after four failed joins.
    let soren = "67fc2ca6-0292-4826-b8f5-81a2c18e5bab";
    let mut m = demo(Filter::default().with(Field::Peer, soren), (140, 40));
    run(&mut m, Command::ShowStory);
    let (screen, _) = assert_every_time_local(&mut m);
    assert!(
        screen.contains("got through: joined session 6afd7544… at 15:35:10"),
        "{screen}"
    );
}

#[test]
fn the_detail_pane_in_local_time_tells_the_chain_and_its_outcome_in_local_time() {
    // The demo's first event, at 08:01:01.574 UTC: a connect that got through later.
    let mut m = demo(Filter::default(), (140, 40));
    let (_, detail) = assert_every_time_local(&mut m);
    for told in [
        "the next at 13:31:49",
        "none after the last, at 13:32:22",
        "at 13:33:19",
    ] {
        assert!(read(&detail).contains(told), "{told:?} missing:\n{detail}");
    }
    // The time as sent stays beside the local one.
    assert!(
        detail.contains("time: 2026-11-18T08:01:01.574874825Z"),
        "{detail}"
    );
    insta::assert_snapshot!("detail_first_event_india", draw_detail(&m).backend());
}

#[test]
fn a_verdict_that_no_one_got_in_names_the_time_the_sessions_cover_in_local_time() {
    let mut m = story_of_one_who_gave_up();
    let (_, detail) = assert_every_time_local(&mut m);
    assert!(
        read(&detail).contains("from 15:32:04 to 15:42:08"),
        "{detail}"
    );
}

#[test]
fn the_network_view_in_local_time_marks_its_axis_and_summary_in_local_time() {
    let mut m = priyas_network((160, 50));
    assert_eq!(m.focus.mode(), Mode::Quality);
    let (screen, _) = assert_every_time_local(&mut m);
    assert!(
        screen.contains("summary: packet loss rose to 32.9% by the failure at 17:12:50"),
        "{screen}"
    );
}

#[test]
fn the_timeline_in_local_time_labels_its_axis_and_cursor_in_local_time() {
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::ToggleTimeline);
    // Back to the list, the strip kept: `L` is the list's.
    run(&mut m, Command::Cancel);
    let (screen, _) = assert_every_time_local(&mut m);
    assert!(
        screen.contains("timeline UTC+05:30 · 5m per bar"),
        "{screen}"
    );
}
