//! The help: opening over a panel, closing back to it, scrolling.

use super::*;

#[test]
fn help_opens_over_the_list_and_closes_back_to_it() {
    let mut m = demo(80, 24);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(m.mode, Mode::Help);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(m.mode, Mode::List);
}

#[test]
fn help_opened_from_the_detail_pane_returns_to_the_detail_pane() {
    let mut m = demo(80, 24);
    run(&mut m, Command::FocusDetail);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(m.mode, Mode::Help);
    assert_eq!(m.mode_before_help, Mode::Detail);
    run(&mut m, Command::ToggleHelp);
    assert_eq!(m.mode, Mode::Detail);
}

#[test]
fn the_wheel_scrolls_the_help_wherever_the_pointer_is_and_stops_at_its_end() {
    let mut m = demo(80, 24);
    run(&mut m, Command::ToggleHelp);
    wheel_at(&mut m, 0, 0, true);
    assert_eq!(m.help_scroll, 3);
    let max = crate::tui::view::help::max_scroll(&m);
    assert!(max > 10, "the help is taller than a small terminal");
    for _ in 0..100 {
        wheel_at(&mut m, 40, 12, true);
    }
    assert_eq!(m.help_scroll, max);
    wheel_at(&mut m, 40, 12, false);
    assert_eq!(m.help_scroll, max - 3, "scrolling back up moves at once");
    assert_eq!(m.selection.selected, 0);
}
