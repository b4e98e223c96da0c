//! The `:` command line.

use super::*;
use crate::insight::SortKey;

fn command(m: &mut Model, text: &str) {
    run(m, Command::OpenCommandLine);
    assert_eq!(m.focus.mode(), Mode::CommandLine);
    update(m, Action::Input(TermEvent::Paste(text.into())));
    run(m, Command::Apply);
}

fn line(m: &Model) -> String {
    match &m.focus {
        Focus::Command(line) => line.input.value().to_string(),
        other => panic!("the command line is not open: {:?}", other.mode()),
    }
}

#[test]
fn goto_selects_the_first_event_at_or_after_a_time_of_day() {
    let mut m = demo(140, 40);
    command(&mut m, "goto 10:02");
    assert_eq!(m.focus.mode(), Mode::List);
    let at = |k: usize| m.events.store.row(m.events.shown[k] as usize).ts;
    let k = m.events.selection.selected;
    let ten_past = crate::time::parse_rfc3339_nanos("2026-11-18T10:02:00Z").unwrap();
    assert!(at(k) >= ten_past);
    assert!(at(k - 1) < ten_past);
    // In local time, the time of day is the local one.
    m.config.local_zone = crate::time::Zone::Fixed(3600);
    run(&mut m, Command::ToggleLocalTime);
    command(&mut m, "goto 11:02");
    assert_eq!(m.events.selection.selected, k);
    // A full date and time too.
    command(&mut m, "goto 2026-11-18T10:02:00Z");
    assert_eq!(m.events.selection.selected, k);
}

#[test]
fn field_commands_set_filters_that_u_takes_back_and_bang_hides() {
    let mut m = loaded(&ten());
    command(&mut m, "type join");
    command(&mut m, "room name-room-b");
    assert_eq!(
        m.events.filter.room(),
        Some("room-b"),
        "the name's room, by its id"
    );
    assert_eq!(shown_numbers(&m), [2, 6]);
    command(&mut m, "room !room-b");
    assert_eq!(shown_numbers(&m), [0, 4, 8]);
    command(&mut m, "code !4005");
    assert!(shown_numbers(&m).is_empty());
    command(&mut m, "undo");
    assert_eq!(shown_numbers(&m), [0, 4, 8]);
    command(&mut m, "since 2026-11-18T10:00:04Z");
    assert_eq!(shown_numbers(&m), [4, 8]);
    command(&mut m, "clear");
    assert_eq!(shown_numbers(&m).len(), 10);
}

#[test]
fn sort_newest_oldest_and_find_run_from_the_line() {
    let mut m = loaded(&ten());
    command(&mut m, "sort status");
    assert_eq!(m.events.order.key, SortKey::Status);
    command(&mut m, "newest");
    assert!(m.events.order.newest_first);
    command(&mut m, "find message 4");
    assert_eq!(selected_number(&m), Some(4));
}

#[test]
fn a_command_that_does_not_run_keeps_the_line_and_says_why() {
    let mut m = loaded(&ten());
    command(&mut m, "frobnicate");
    assert_eq!(line(&m), "frobnicate");
    assert!(m.status.as_deref().unwrap().contains("no such command"));
    run(&mut m, Command::Cancel);
    command(&mut m, "code forty");
    assert!(
        m.status.as_deref().unwrap().contains("is not a number"),
        "{:?}",
        m.status
    );
    run(&mut m, Command::Cancel);
    command(&mut m, "goto 25:00");
    assert!(
        m.status.as_deref().unwrap().contains("not a time of day"),
        "{:?}",
        m.status
    );
}

#[test]
fn tab_completes_the_command_then_its_value_from_the_loaded_events() {
    let mut m = loaded(&ten());
    run(&mut m, Command::OpenCommandLine);
    type_text(&mut m, "ro");
    run(&mut m, Command::NextField);
    assert_eq!(line(&m), "room ", "the only command so named");
    type_text(&mut m, "name-room-");
    run(&mut m, Command::NextField);
    assert_eq!(line(&m), "room name-room-a");
    run(&mut m, Command::NextField);
    assert_eq!(line(&m), "room name-room-b");
    run(&mut m, Command::NextField);
    assert_eq!(line(&m), "room name-room-", "round to what was typed");
    run(&mut m, Command::PrevField);
    assert_eq!(line(&m), "room name-room-b");
    run(&mut m, Command::Apply);
    assert_eq!(m.events.filter.room(), Some("room-b"));
    // A value after a `!`, and after a comma.
    run(&mut m, Command::OpenCommandLine);
    type_text(&mut m, "type join,!pub");
    run(&mut m, Command::NextField);
    assert_eq!(line(&m), "type join, !publish");
}
