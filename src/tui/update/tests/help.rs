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
    let max = crate::tui::panels::help::max_scroll(&m.config, m.screen.height);
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
