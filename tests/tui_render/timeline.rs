//! The timeline: the strip and the full view, its bars, its time axis and day buckets, too
//! little room.

use super::*;

#[test]
fn the_timeline_strip_draws_the_storm_as_the_tallest_column() {
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::ToggleTimeline);
    let t = draw(&m);
    let text = screen_text(t.backend().buffer());
    assert!(text.contains("timeline UTC · 5m per bar"), "{text}");
    insta::assert_snapshot!("timeline_140x40", t.backend());
}

#[test]
fn the_timeline_draws_its_bars_on_an_80_by_24_terminal_and_shorter_ones() {
    // Down to 15 lines, where the list's half of the screen is too short for the strip and the
    // detail below gives up lines to it; side by side, the list's column is tall enough.
    for (width, height) in [(80, 24), (100, 20), (80, 17), (80, 15), (140, 15)] {
        let mut m = demo(Filter::default(), (width, height));
        run(&mut m, Command::ToggleTimeline);
        let text = screen_text(draw(&m).backend().buffer());
        assert!(text.contains("timeline UTC ·"), "{text}");
        assert!(
            text.chars().any(|c| ('▁'..='█').contains(&c)),
            "{width}x{height}: no bar drawn:\n{text}"
        );
        // The list keeps rows of its own.
        let areas = callscope::tui::view::layout::areas_with(width, height, true);
        assert!(areas.list.height >= 3, "{areas:?}");
    }
}

#[test]
fn a_timeline_with_too_few_lines_to_draw_says_so() {
    for size in [(80, 9), (140, 11), (140, 8), (140, 6)] {
        let mut m = demo(Filter::default(), size);
        run(&mut m, Command::ToggleTimeline);
        let text = screen_text(draw(&m).backend().buffer());
        assert!(
            text.contains("timeline · too few lines to draw: make the terminal taller"),
            "{size:?}:\n{text}"
        );
    }
}

#[test]
fn a_timeline_bucket_of_days_names_the_day_it_ends_on() {
    let mut m = of_events(
        (80, 24),
        &[
            join_at("a", "2026-01-01T10:00:00Z"),
            join_at("b", "2026-06-01T10:00:00Z"),
            join_at("c", "2026-11-18T10:00:00Z"),
        ],
    );
    run(&mut m, Command::ToggleTimeline);
    run(&mut m, Command::Top);
    let text = screen_text(draw(&m).backend().buffer());
    let line = text
        .lines()
        .find(|l| l.contains(" to ") && l.contains("event"))
        .unwrap_or_else(|| panic!("no bucket line:\n{text}"));
    // Both ends carry their date: the bucket spans several days.
    let (start, end) = line.trim().split_once(" to ").unwrap();
    assert!(start.starts_with("20") && end.starts_with("20"), "{line}");
    assert_ne!(start[..10], end[..10], "{line}");
}

#[test]
fn the_timeline_labels_its_time_axis_fills_the_width_and_esc_closes_it() {
    for (width, height) in [(80, 24), (200, 50)] {
        let mut m = demo(Filter::default(), (width, height));
        run(&mut m, Command::ToggleTimeline);
        let t = draw(&m);
        let buffer = t.backend().buffer();
        let strip = callscope::tui::view::layout::areas_of(&m).timeline;
        // The axis: times of day under the bars, the demo's first hour first.
        let axis_row = (strip.y..strip.y + strip.height)
            .map(|y| {
                row_cells(buffer, y)[strip.x as usize..(strip.x + strip.width) as usize].concat()
            })
            .find(|row| row.trim_start().starts_with("08:00"))
            .unwrap_or_else(|| panic!("no time axis:\n{}", screen_text(buffer)));
        let labels: Vec<&str> = axis_row.split_whitespace().collect();
        assert!(labels.len() >= 3, "{axis_row}");
        for label in &labels {
            assert!(
                label.len() == 5 && label.as_bytes()[2] == b':',
                "{label:?} in {axis_row}"
            );
        }
        // Bars (or the bucket marks under them) reach the strip's last columns.
        let right = strip.x + strip.width - 1;
        let drawn =
            (strip.y + 1..strip.y + strip.height - 2).any(|y| buffer[(right, y)].symbol() != " ");
        assert!(drawn, "{width}x{height}:\n{}", screen_text(buffer));
        if (width, height) == (80, 24) {
            insta::assert_snapshot!("timeline_axis_80x24", t.backend());
        }
        // Esc closes the strip, and the keyboard is back on the list.
        let esc = TermEvent::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
        let action = callscope::tui::runtime::translate(&m, esc).expect("Esc is bound");
        update(&mut m, action);
        assert!(m.panes.timeline.is_none());
        assert_eq!(m.focus.mode(), Mode::List);
    }
}

/// Once Enter shows a range, the list has the keyboard and the strip's keys do nothing: its
/// title says how to give it the keyboard back rather than offer them.
#[test]
fn after_enter_the_strip_names_the_key_that_gives_it_the_keyboard_back() {
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::ToggleTimeline);
    run(&mut m, Command::Right);
    run(&mut m, Command::Apply);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(text.contains("per bar · T: back to the strip"), "{text}");
    assert!(
        !text.contains("Esc: close") && !text.contains("mark"),
        "{text}"
    );
    run(&mut m, Command::ToggleTimeline);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(text.contains("T/Esc: close"), "{text}");
}

/// A final error every 5 seconds for 45 minutes: every bucket holds finals at these widths, and
/// where the buckets do not divide the width some are two columns wide.
#[test]
fn final_marks_lie_under_every_column_of_their_bucket_with_no_gap() {
    let events: Vec<Value> = (0..45 * 12)
        .map(|n| {
            json!({"id": format!("f{n}"), "type": "client.join.failed",
                "timestamp": format!("2026-11-18T10:{:02}:{:02}Z", n / 12, n % 12 * 5),
                "data": {"room_id": "r", "error_code": 500, "is_terminal": true}})
        })
        .collect();
    let mut wide_buckets = 0;
    for width in (60..=160).step_by(7) {
        let mut m = of_events((width, 30), &events);
        run(&mut m, Command::ToggleTimeline);
        let t = draw(&m);
        let buffer = t.backend().buffer();
        let strip = callscope::tui::view::layout::areas_of(&m).timeline;
        let inside = |y: u16| -> Vec<&str> {
            row_cells(buffer, y)[strip.x as usize + 1..(strip.x + strip.width) as usize - 1]
                .to_vec()
        };
        let marks_y = (strip.y..strip.y + strip.height)
            .find(|&y| inside(y).contains(&"▴"))
            .unwrap_or_else(|| panic!("{width}: no final mark:\n{}", screen_text(buffer)));
        let marks = inside(marks_y);
        let bars = inside(marks_y - 1);
        let first = marks.iter().position(|&c| c == "▴").unwrap();
        let last = marks.iter().rposition(|&c| c == "▴").unwrap();
        let row = marks.concat();
        assert!(
            marks[first..=last].iter().all(|&c| c == "▴"),
            "{width}: a gap among the marks: {row}"
        );
        // The marks lie under the bars, column for column.
        for (x, bar) in bars.iter().enumerate() {
            assert_eq!(*bar != " ", marks[x] == "▴", "{width}, column {x}: {row}");
        }
        let n = m.panes.timeline.as_ref().unwrap().timeline.buckets.len();
        if last + 1 - first > n {
            wide_buckets += 1;
        }
    }
    assert!(wide_buckets > 0, "no width had a bucket two columns wide");
}
