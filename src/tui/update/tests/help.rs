//! The help: opening over a panel, closing back to it, scrolling.

use super::*;

#[test]
fn help_opens_over_the_list_and_closes_back_to_it() {
    let mut m = demo(80, 24);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(m.focus.mode(), Mode::Help);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(m.focus.mode(), Mode::List);
}

#[test]
fn help_opened_from_the_detail_pane_returns_to_the_detail_pane() {
    let mut m = demo(80, 24);
    run(&mut m, Command::FocusDetail);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(m.focus.mode(), Mode::Help);
    assert_eq!(help_back(&m), Mode::Detail);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(m.focus.mode(), Mode::Detail);
}

#[test]
fn the_wheel_scrolls_the_help_wherever_the_pointer_is_and_stops_at_its_end() {
    let mut m = demo(80, 24);
    run(&mut m, Command::ToggleHelp);
    wheel_at(&mut m, 0, 0, true);
    assert_eq!(help_scroll(&m), 3);
    let max = crate::tui::panels::help::max_scroll(&m, crate::tui::panels::help::Page::Keys);
    assert!(max > 10, "the help is taller than a small terminal");
    for _ in 0..100 {
        wheel_at(&mut m, 40, 12, true);
    }
    assert_eq!(help_scroll(&m), max);
    wheel_at(&mut m, 40, 12, false);
    assert_eq!(help_scroll(&m), max - 3, "scrolling back up moves at once");
    assert_eq!(m.events.selection.selected, 0);
}

#[test]
fn the_help_opens_at_its_top_each_time() {
    let mut m = demo(80, 24);
    run(&mut m, Command::ToggleHelp);
    run(&mut m, Command::Down);
    run(&mut m, Command::Down);
    assert_eq!(help_scroll(&m), 2);
    run(&mut m, Command::ToggleHelp);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(help_scroll(&m), 0);
}

/// Every line the overlay shows, scrolled through from its top to its end.
fn overlay_text(m: &mut Model) -> String {
    let mut seen = String::new();
    for _ in 0..200 {
        let t = draw(m);
        let buffer = t.backend().buffer();
        for y in 0..buffer.area.height {
            for x in 0..buffer.area.width {
                seen.push_str(buffer[(x, y)].symbol());
            }
            seen.push('\n');
        }
        run(m, Command::Down);
    }
    seen
}

#[test]
fn p_lists_every_load_problem_with_its_place_and_closes_back_to_the_list() {
    let mut m = model(80, 24);
    update(&mut m, Action::BatchLoaded(batch(&ten()[..2])));
    let problems: Vec<DumpProblem> = (1..=30)
        .map(|k| DumpProblem {
            path: format!("dump-{k}.json"),
            position: Some((k, 7)),
            message: format!("problem number {k}, whose words run on past the width of the screen"),
        })
        .collect();
    update(
        &mut m,
        Action::LoadFinished {
            problems: problems.clone(),
        },
    );
    let first = draw(&m);
    let header: String = (0..80)
        .map(|x| first.backend().buffer()[(x, 3)].symbol().to_string())
        .collect();
    assert!(
        header.starts_with(" ⚠ 30 load problems (P lists in full): dump-1.json:1:7:"),
        "{header}"
    );
    run(&mut m, Command::ShowProblems);
    assert_eq!(m.focus.mode(), Mode::Help);
    let seen = overlay_text(&mut m);
    assert!(
        seen.contains("30 problems met loading, each at its file:line:column;"),
        "{seen}"
    );
    for p in &problems {
        // Each problem's place and its start; its end is wrapped onto the next row.
        let place = format!("{}:{}:7: problem number", p.path, p.position.unwrap().0);
        assert!(seen.contains(&place), "the list lacks {place}:\n{seen}");
    }
    assert!(seen.contains("screen"), "the wrapped ends are shown");
    // P again (or Esc) closes it, back where it was opened.
    run(&mut m, Command::ShowProblems);
    assert_eq!(m.focus.mode(), Mode::List);
    run(&mut m, Command::ShowProblems);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(m.focus.mode(), Mode::List);
}

#[test]
fn with_no_load_problem_p_says_there_was_none() {
    let mut m = demo(80, 24);
    run(&mut m, Command::ShowProblems);
    let seen = overlay_text(&mut m);
    assert!(
        seen.contains("No problem was met loading the events."),
        "{seen}"
    );
}

#[test]
fn every_help_line_fits_the_overlay_whole_its_descriptions_wrapped_below_their_start() {
    let m = demo(140, 40);
    let lines = crate::tui::panels::help::help_lines(&m.config, 74);
    let text: Vec<String> = lines
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect();
    for line in &text {
        assert!(
            unicode_width::UnicodeWidthStr::width(line.as_str()) <= 74,
            "{line:?}"
        );
    }
    // The last line, once cut at every size, is whole across its rows.
    let joined = text
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        joined.contains("the wheel scrolls the pane under the pointer."),
        "{joined}"
    );
}

#[test]
fn the_help_pages_and_jumps_to_its_ends_as_the_list_does() {
    let mut m = demo(80, 24);
    run(&mut m, Command::ToggleHelp);
    let max = crate::tui::panels::help::max_scroll(&m, crate::tui::panels::help::Page::Keys);
    // The overlay fills the terminal: its lines inside the borders are a page.
    let page = 24 - 2;
    assert!(
        max > 2 * page,
        "the help is more than two pages on a small terminal"
    );
    run(&mut m, Command::PageDown);
    assert_eq!(help_scroll(&m), page);
    run(&mut m, Command::PageDown);
    run(&mut m, Command::PageUp);
    assert_eq!(help_scroll(&m), page);
    run(&mut m, Command::Bottom);
    assert_eq!(help_scroll(&m), max);
    run(&mut m, Command::PageDown);
    assert_eq!(help_scroll(&m), max, "no further than the last line");
    run(&mut m, Command::Top);
    assert_eq!(help_scroll(&m), 0);
    run(&mut m, Command::PageUp);
    assert_eq!(help_scroll(&m), 0);
    assert_eq!(m.focus.mode(), Mode::Help);
    assert_eq!(m.status, None, "every move does something in the help");
}
