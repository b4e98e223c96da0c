//! The prompts: the filter inputs, and the save prompt's messages and question.

use super::*;

#[test]
fn editing_filters_starts_at_the_room_input_and_search_at_the_search_input() {
    let mut m = loaded(&ten());
    run(&mut m, Command::EditFilters);
    assert_eq!(m.focus.mode(), Mode::Editing);
    assert_eq!(editing(&m).unwrap().focus, 0);
    run(&mut m, Command::Cancel);
    run(&mut m, Command::EditSearch);
    assert_eq!(m.focus.mode(), Mode::Editing);
    assert_eq!(editing(&m).unwrap().focus, SEARCH_SLOT);
}

#[test]
fn typed_room_and_search_apply_as_filters() {
    let mut m = loaded(&ten());
    run(&mut m, Command::EditFilters);
    type_text(&mut m, "room-b");
    for _ in 0..SEARCH_SLOT {
        run(&mut m, Command::NextField);
    }
    type_text(&mut m, "MESSAGE 7");
    assert_eq!(
        m.events.filter,
        Filter::default(),
        "nothing applies before Enter"
    );
    assert_eq!(m.events.shown.len(), 10);
    run(&mut m, Command::Apply);
    assert_eq!(m.focus.mode(), Mode::List);
    assert!(editing(&m).is_none());
    assert_eq!(m.events.filter.room(), Some("room-b"));
    assert_eq!(m.events.filter.search.as_deref(), Some("MESSAGE 7"));
    assert_eq!(shown_numbers(&m), [7]);
}

#[test]
fn session_peer_and_user_inputs_apply_as_their_filters() {
    let mut m = loaded(&ten());
    run(&mut m, Command::EditFilters);
    run(&mut m, Command::NextField);
    type_text(&mut m, "session-room-a");
    run(&mut m, Command::NextField);
    type_text(&mut m, "peer-4");
    run(&mut m, Command::NextField);
    type_text(&mut m, "user-4");
    run(&mut m, Command::Apply);
    assert_eq!(
        m.events.filter.wanted(Field::Session),
        Some("session-room-a")
    );
    assert_eq!(m.events.filter.wanted(Field::Peer), Some("peer-4"));
    assert_eq!(m.events.filter.wanted(Field::User), Some("user-4"));
    assert_eq!(shown_numbers(&m), [4]);
}

#[test]
fn the_inputs_start_with_the_current_filters_and_an_emptied_input_clears_its_filter() {
    let mut m = loaded(&ten());
    m.events.filter.set(Field::Room, Some("room-a".into()));
    m.events.filter.search = Some("message".into());
    refilter(&mut m);
    run(&mut m, Command::EditFilters);
    let editor = editing(&m).unwrap();
    assert_eq!(editor.inputs[0].value(), "room-a");
    assert_eq!(editor.inputs[SEARCH_SLOT].value(), "message");
    press(&mut m, KeyCode::Char('u'), KeyModifiers::CONTROL);
    assert_eq!(editing(&m).unwrap().inputs[0].value(), "");
    run(&mut m, Command::Apply);
    assert_eq!(m.events.filter.room(), None);
    assert_eq!(m.events.filter.search.as_deref(), Some("message"));
    assert_eq!(m.events.shown.len(), 10);
}

#[test]
fn backspace_and_cursor_keys_edit_the_focused_input() {
    let mut m = loaded(&ten());
    run(&mut m, Command::EditSearch);
    type_text(&mut m, "mesage");
    for _ in 0..3 {
        press(&mut m, KeyCode::Left, KeyModifiers::NONE);
    }
    type_text(&mut m, "s");
    press(&mut m, KeyCode::End, KeyModifiers::NONE);
    press(&mut m, KeyCode::Backspace, KeyModifiers::NONE);
    assert_eq!(editing(&m).unwrap().inputs[SEARCH_SLOT].value(), "messag");
}

#[test]
fn inputs_cycle_forward_and_backward() {
    let mut m = loaded(&ten());
    run(&mut m, Command::EditFilters);
    run(&mut m, Command::PrevField);
    assert_eq!(editing(&m).unwrap().focus, SLOTS.len() - 1);
    run(&mut m, Command::NextField);
    assert_eq!(editing(&m).unwrap().focus, 0);
    run(&mut m, Command::NextField);
    type_text(&mut m, "s");
    assert_eq!(editing(&m).unwrap().inputs[1].value(), "s");
    assert_eq!(editing(&m).unwrap().inputs[0].value(), "");
}

#[test]
fn an_input_trims_spaces_and_blank_means_no_filter() {
    let mut m = loaded(&ten());
    run(&mut m, Command::EditFilters);
    type_text(&mut m, "  room-a ");
    run(&mut m, Command::NextField);
    type_text(&mut m, "   ");
    run(&mut m, Command::Apply);
    assert_eq!(m.events.filter.room(), Some("room-a"));
    assert_eq!(m.events.filter.wanted(Field::Session), None);
}

#[test]
fn cancel_leaves_the_filters_and_the_shown_events_unchanged() {
    let mut m = loaded(&ten());
    run(&mut m, Command::ToggleJoin);
    select(&mut m, 4);
    let filter = m.events.filter.clone();
    let shown = m.events.shown.clone();
    run(&mut m, Command::EditFilters);
    type_text(&mut m, "room-b");
    run(&mut m, Command::NextField);
    type_text(&mut m, "x");
    run(&mut m, Command::Cancel);
    assert_eq!(m.focus.mode(), Mode::List);
    assert!(editing(&m).is_none());
    assert_eq!(m.events.filter, filter);
    assert_eq!(m.events.shown, shown);
    assert_eq!(selected_number(&m), Some(4));
    // The next edit starts from the filters, not from the cancelled text.
    run(&mut m, Command::EditFilters);
    assert_eq!(editing(&m).unwrap().inputs[0].value(), "");
}

#[test]
fn typing_outside_an_input_changes_nothing() {
    let mut m = loaded(&ten());
    type_text(&mut m, "room");
    assert!(editing(&m).is_none());
    assert_eq!(m.events.filter, Filter::default());
}

#[test]
fn a_paste_is_typed_into_the_focused_input_without_its_control_characters() {
    let mut m = loaded(&ten());
    run(&mut m, Command::EditSearch);
    update(
        &mut m,
        Action::Input(TermEvent::Paste("ICE\nDisc\tonnected\u{1b}".into())),
    );
    let editor = editing(&m).expect("editing");
    assert_eq!(editor.inputs[SEARCH_SLOT].value(), "ICEDisconnected");
    assert_eq!(
        m.focus.mode(),
        Mode::Editing,
        "a pasted newline does not apply the filter"
    );
}

#[test]
fn clicks_while_typing_or_in_the_help_change_nothing() {
    for setup in [Command::EditFilters, Command::ToggleHelp] {
        let mut m = demo(140, 40);
        run(&mut m, setup);
        let mode = m.focus.mode();
        let list = areas(140, 40).list;
        click(&mut m, list.x + 4, list_row((140, 40), 3));
        assert_eq!(m.focus.mode(), mode, "{setup:?}");
        assert_eq!(m.events.selection.selected, 0, "{setup:?}");
    }
}

#[test]
fn a_failed_save_says_first_that_nothing_was_lost() {
    let mut m = demo(80, 24);
    update(
        &mut m,
        Action::Saved(Err("out.json: No space left on device (os error 28)".into())),
    );
    assert_eq!(
        m.status.as_deref(),
        Some("not saved, nothing lost: out.json: No space left on device (os error 28)")
    );
}

#[test]
fn the_replace_question_names_the_keys_in_force() {
    let mut m = demo(80, 24);
    m.config.keymap = crate::tui::keymap::Keymap::with_overrides(
        &[("yes".to_string(), vec!["r".to_string()])].into(),
        &Default::default(),
    )
    .unwrap();
    update(
        &mut m,
        Action::SaveNeedsConfirm {
            path: "out.json".into(),
            what: SaveWhat::Shown,
        },
    );
    assert_eq!(
        m.status.as_deref(),
        Some("out.json exists: replace it? (r/n)")
    );
}

/// Moves the editor's keyboard to the input of `slot`.
fn to_slot(m: &mut Model, slot: crate::tui::panels::editor::Slot) {
    let k = SLOTS.iter().position(|s| *s == slot).unwrap();
    while editing(m).unwrap().focus != k {
        run(m, Command::NextField);
    }
}

#[test]
fn every_filter_of_the_command_line_has_an_input_and_a_bang_hides_a_value() {
    use crate::tui::panels::editor::Slot;
    let mut m = loaded(&ten());
    run(&mut m, Command::EditFilters);
    to_slot(&mut m, Slot::Types);
    type_text(&mut m, "join");
    to_slot(&mut m, Slot::Field(Field::Room));
    type_text(&mut m, "!room-a");
    to_slot(&mut m, Slot::Field(Field::Code));
    type_text(&mut m, "4005");
    to_slot(&mut m, Slot::Since);
    type_text(&mut m, "2026-11-18T10:00:03Z");
    run(&mut m, Command::Apply);
    assert_eq!(m.focus.mode(), Mode::List);
    assert_eq!(m.events.filter.types, [EventType::Join]);
    assert_eq!(m.events.filter.code(), Some(4005));
    assert_eq!(
        m.events.filter.since.as_ref().map(|b| b.text.as_str()),
        Some("2026-11-18T10:00:03Z")
    );
    // Joins are the even numbers, room-b holds 2, 3, 6, 7; from 3 on.
    assert_eq!(shown_numbers(&m), [6]);
    // The inputs show what is in force, and read back as it.
    run(&mut m, Command::EditFilters);
    let editor = editing(&m).unwrap();
    assert_eq!(editor.input(Slot::Field(Field::Room)).value(), "!room-a");
    assert_eq!(
        editor.apply_to(&m.events.filter).as_ref(),
        Ok(&m.events.filter)
    );
    // Types can be hidden too.
    to_slot(&mut m, Slot::Types);
    press(&mut m, KeyCode::Char('u'), KeyModifiers::CONTROL);
    type_text(&mut m, "!join");
    run(&mut m, Command::Apply);
    assert!(m.events.filter.types.is_empty());
    // The publishes in room-b from 3 on.
    assert_eq!(shown_numbers(&m), [3, 7]);
}

#[test]
fn an_input_that_does_not_read_stays_with_the_keyboard_on_it_and_says_why() {
    use crate::tui::panels::editor::Slot;
    let mut m = loaded(&ten());
    run(&mut m, Command::EditFilters);
    to_slot(&mut m, Slot::Field(Field::Code));
    type_text(&mut m, "40o5");
    to_slot(&mut m, Slot::Search);
    run(&mut m, Command::Apply);
    assert_eq!(m.focus.mode(), Mode::Editing);
    let k = SLOTS
        .iter()
        .position(|s| *s == Slot::Field(Field::Code))
        .unwrap();
    assert_eq!(editing(&m).unwrap().focus, k);
    assert!(
        m.status.as_deref().unwrap().contains("not applied: code"),
        "{:?}",
        m.status
    );
    assert!(m.events.filter.is_empty());
}

/// A key as the terminal sends it, through the keymap as the explorer reads it.
fn key(m: &mut Model, code: KeyCode, modifiers: KeyModifiers) {
    let ev = TermEvent::Key(KeyEvent::new(code, modifiers));
    let mode = m.focus.mode();
    let bound = m
        .config
        .keymap
        .command_for(mode, &KeyEvent::new(code, modifiers));
    let action = crate::tui::runtime::translate(m, ev).expect("a key is read");
    if let Some(c) = bound {
        assert!(matches!(action, Action::Command(a) if a == c), "{mode:?}");
    }
    update(m, action);
}

/// Keys typed one character at a time.
fn keys(m: &mut Model, text: &str) {
    for c in text.chars() {
        key(m, KeyCode::Char(c), KeyModifiers::NONE);
    }
}

/// The keyboard goes to the input labelled `label` with Tab.
fn tab_to(m: &mut Model, label: &str) {
    for _ in 0..editing(m).unwrap().inputs.len() {
        let editor = editing(m).unwrap();
        if editor.label(editor.focus) == label {
            return;
        }
        key(m, KeyCode::Tab, KeyModifiers::NONE);
    }
    panic!("no input is labelled {label}");
}

#[test]
fn the_filter_box_shows_and_edits_the_filters_set_from_groups_and_the_command_line() {
    use crate::tui::panels::editor::{Slot, hidden_input_text};
    let mut m = demo(140, 40);
    // A group hidden whole from the groups view, a role from `:`, final errors only.
    keys(&mut m, "e!");
    key(&mut m, KeyCode::Esc, KeyModifiers::NONE);
    assert_eq!(m.focus.mode(), Mode::List);
    let group = m.events.filter.hidden[0].clone();
    keys(&mut m, ":role viewer-realtime");
    key(&mut m, KeyCode::Enter, KeyModifiers::NONE);
    keys(&mut m, "t");
    let filter = m.events.filter.clone();
    assert_eq!(filter.wanted(Field::Role), Some("viewer-realtime"));
    assert_eq!(filter.terminal, Some(true));
    // The box holds each of them.
    keys(&mut m, "f");
    let editor = editing(&m).expect("the box is open");
    assert_eq!(
        editor.input(Slot::Field(Field::Role)).value(),
        "viewer-realtime"
    );
    assert_eq!(editor.input(Slot::Status).value(), "final");
    assert_eq!(editor.inputs.len(), SLOTS.len() + 1);
    assert_eq!(editor.label(SLOTS.len()), "hidden");
    let hidden = editor.inputs[SLOTS.len()].value().to_string();
    assert_eq!(hidden, hidden_input_text(&group));
    assert!(
        hidden.starts_with("type=") && hidden.contains(", code="),
        "{hidden}"
    );
    // Applied unchanged, nothing moves.
    key(&mut m, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(m.events.filter, filter);
    // Emptied, the hidden group's events show again; the others stay.
    keys(&mut m, "f");
    key(&mut m, KeyCode::BackTab, KeyModifiers::SHIFT);
    assert_eq!(editing(&m).unwrap().focus, SLOTS.len());
    key(&mut m, KeyCode::Char('u'), KeyModifiers::CONTROL);
    key(&mut m, KeyCode::Enter, KeyModifiers::NONE);
    assert!(m.events.filter.hidden.is_empty());
    assert_eq!(m.events.filter.wanted(Field::Role), Some("viewer-realtime"));
    assert_eq!(m.events.filter.terminal, Some(true));
    // The role and the status are edited as any input is.
    keys(&mut m, "f");
    tab_to(&mut m, "role");
    key(&mut m, KeyCode::Char('u'), KeyModifiers::CONTROL);
    keys(&mut m, "!viewer-realtime");
    tab_to(&mut m, "status");
    key(&mut m, KeyCode::Char('u'), KeyModifiers::CONTROL);
    keys(&mut m, "retried");
    key(&mut m, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(m.focus.mode(), Mode::List);
    assert_eq!(m.events.filter.wanted(Field::Role), None);
    assert_eq!(
        m.events.filter.conditions,
        [crate::filter::Condition::not(
            Field::Role,
            Some("viewer-realtime".into())
        )]
    );
    assert_eq!(m.events.filter.terminal, Some(false));
}

#[test]
fn a_hidden_value_edited_in_the_box_hides_what_it_now_says_and_one_that_does_not_read_is_kept() {
    let mut m = loaded(&ten());
    let both = vec![
        crate::filter::Condition::is(Field::Type, JOIN),
        crate::filter::Condition::is(Field::Room, "room-a"),
    ];
    m.events.filter.hide(both);
    refilter(&mut m);
    // Hidden: the joins of room-a, 0, 4 and 8.
    assert_eq!(shown_numbers(&m), [1, 2, 3, 5, 6, 7, 9]);
    keys(&mut m, "f");
    tab_to(&mut m, "hidden");
    assert_eq!(
        editing(&m).unwrap().inputs[SLOTS.len()].value(),
        "room=room-a, type=client.join.failed"
    );
    key(&mut m, KeyCode::Char('u'), KeyModifiers::CONTROL);
    keys(&mut m, "room=room-b, type=client.join.failed, nope=1");
    key(&mut m, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(m.focus.mode(), Mode::Editing, "not applied");
    assert_eq!(editing(&m).unwrap().focus, SLOTS.len());
    assert!(
        m.status
            .as_deref()
            .unwrap()
            .contains("no field is named \"nope\""),
        "{:?}",
        m.status
    );
    for _ in 0..", nope=1".len() {
        key(&mut m, KeyCode::Backspace, KeyModifiers::NONE);
    }
    key(&mut m, KeyCode::Enter, KeyModifiers::NONE);
    assert_eq!(m.focus.mode(), Mode::List);
    // Now the joins of room-b, 2 and 6.
    assert_eq!(shown_numbers(&m), [0, 1, 3, 4, 5, 7, 8, 9]);
}
