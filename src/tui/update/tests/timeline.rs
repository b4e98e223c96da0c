//! The timeline strip: ranges, widths, clicks.

use super::*;

#[test]
fn a_range_picked_on_the_timeline_becomes_since_and_until() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ToggleTimeline);
    assert_eq!(m.focus.mode(), Mode::Timeline);
    let tl = m.panes.timeline.as_ref().unwrap();
    assert!(!tl.timeline.buckets.is_empty());
    run(&mut m, Command::Top);
    run(&mut m, Command::MarkStart);
    run(&mut m, Command::Right);
    run(&mut m, Command::Right);
    let (since, until) = {
        let tl = m.panes.timeline.as_ref().unwrap();
        tl.timeline.range(tl.anchor.unwrap(), tl.cursor).unwrap()
    };
    run(&mut m, Command::Apply);
    assert_eq!(m.events.filter.since.as_ref().map(|t| t.nanos), Some(since));
    assert_eq!(m.events.filter.until.as_ref().map(|t| t.nanos), Some(until));
    assert!(!m.events.shown.is_empty());
    assert!(
        m.events
            .shown
            .iter()
            .all(|&i| (since..=until).contains(&m.events.store.row(i as usize).ts))
    );
    run(&mut m, Command::PopFilter);
    assert!(m.events.filter.since.is_none());
}

#[test]
fn the_timeline_is_counted_again_for_a_new_width() {
    let mut m = demo(40, 15);
    run(&mut m, Command::ToggleTimeline);
    let narrow = m.panes.timeline.as_ref().unwrap().timeline.buckets.len();
    update(
        &mut m,
        Action::Resize {
            width: 140,
            height: 40,
        },
    );
    let wide = m.panes.timeline.as_ref().unwrap().timeline.buckets.len();
    assert!(
        wide > narrow * 2,
        "{narrow} buckets at 40 columns, {wide} at 140"
    );
    // The same as opening it at that size.
    let mut fresh = demo(140, 40);
    run(&mut fresh, Command::ToggleTimeline);
    assert_eq!(
        wide,
        fresh
            .panes
            .timeline
            .as_ref()
            .unwrap()
            .timeline
            .buckets
            .len()
    );
}

#[test]
fn a_range_marked_on_the_timeline_keeps_its_times_through_a_resize() {
    let mut m = demo(40, 15);
    run(&mut m, Command::ToggleTimeline);
    run(&mut m, Command::Top);
    for _ in 0..10 {
        run(&mut m, Command::Right);
    }
    run(&mut m, Command::MarkStart);
    for _ in 0..5 {
        run(&mut m, Command::Right);
    }
    let at = |m: &Model| {
        let tl = m.panes.timeline.as_ref().unwrap();
        let start = |k: usize| tl.timeline.buckets[k].start;
        (
            start(tl.anchor.unwrap()),
            start(tl.cursor),
            tl.timeline.step,
        )
    };
    let (anchor, cursor, step) = at(&m);
    update(
        &mut m,
        Action::Resize {
            width: 200,
            height: 50,
        },
    );
    // Shorter buckets now: each end is in the bucket that holds the time it was on.
    let (anchor_after, cursor_after, step_after) = at(&m);
    assert!(step_after < step, "{step} {step_after}");
    for (before, after) in [(anchor, anchor_after), (cursor, cursor_after)] {
        assert!(
            after <= before && before < after + step_after,
            "{before} {after}"
        );
    }
}

#[test]
fn a_click_on_the_timeline_moves_its_cursor_there_and_gives_it_the_keyboard() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ToggleTimeline);
    run(&mut m, Command::Cancel);
    assert_eq!(m.focus.mode(), Mode::List);
    let strip = crate::tui::view::layout::areas_of(&m).timeline;
    click(&mut m, strip.x + 7, strip.y + 3);
    assert_eq!(m.focus.mode(), Mode::Timeline);
    // The bucket drawn under the pointer is the cursor's: it is drawn reversed, and the one
    // drawn at the strip's left edge is not (the buckets share the whole width, so a bucket
    // may take more than a column).
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let reversed = |x: u16| {
        buffer[(x, strip.y + 1)]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED)
    };
    assert!(reversed(strip.x + 7));
    assert!(!reversed(strip.x));
    assert!(m.panes.timeline.as_ref().unwrap().cursor <= 7);
}

#[test]
fn the_timeline_counts_the_events_that_arrive_while_it_is_open() {
    let mut m = loaded(&ten());
    run(&mut m, Command::ToggleTimeline);
    let total = |m: &Model| {
        let strip = m.panes.timeline.as_ref().expect("the strip is open");
        strip
            .timeline
            .buckets
            .iter()
            .map(|b| u64::from(b.total()))
            .sum::<u64>()
    };
    assert_eq!(total(&m), 10);
    update(
        &mut m,
        Action::BatchLoaded(batch(&[event(20, JOIN, "room-a", true)])),
    );
    assert_eq!(total(&m), 11);
}
