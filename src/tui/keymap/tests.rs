use super::*;
use crossterm::event::KeyEventKind;

fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
    KeyEvent::new_with_kind(code, mods, KeyEventKind::Press)
}

fn ch(c: char) -> KeyEvent {
    key(KeyCode::Char(c), KeyModifiers::NONE)
}

fn ctrl(c: char) -> KeyEvent {
    key(KeyCode::Char(c), KeyModifiers::CONTROL)
}

fn overrides(entries: &[(&str, &[&str])]) -> BTreeMap<String, Vec<String>> {
    entries
        .iter()
        .map(|(action, keys)| {
            (
                action.to_string(),
                keys.iter().map(|k| k.to_string()).collect(),
            )
        })
        .collect()
}

fn keymap(entries: &[(&str, &[&str])]) -> Keymap {
    Keymap::with_overrides(&overrides(entries), &KeyOrigins::new())
        .unwrap_or_else(|e| panic!("{e:#?}"))
}

fn problems(entries: &[(&str, &[&str])]) -> Vec<String> {
    Keymap::with_overrides(&overrides(entries), &KeyOrigins::new())
        .expect_err("the overrides are refused")
}

#[test]
fn no_key_runs_two_commands_in_one_mode() {
    let defaults = Keymap::default();
    for mode in Mode::ALL {
        let mut seen: Vec<Key> = Vec::new();
        for b in defaults.bindings_for(mode) {
            for k in &b.keys {
                assert!(!seen.contains(k), "{k:?} bound twice in {mode:?}");
                seen.push(*k);
            }
        }
    }
    assert!(Keymap::with_overrides(&BTreeMap::new(), &KeyOrigins::new()).is_ok());
}

#[test]
fn ctrl_c_quits_everywhere_and_q_is_text_while_editing() {
    let keys = Keymap::default();
    for mode in Mode::ALL {
        assert_eq!(
            keys.command_for(mode, &ctrl('c')),
            Some(Command::Quit),
            "{mode:?}"
        );
    }
    assert_eq!(keys.command_for(Mode::Editing, &ch('q')), None);
    assert_eq!(keys.command_for(Mode::List, &ch('q')), Some(Command::Quit));
}

#[test]
fn digits_toggle_the_five_types() {
    for (i, c) in ['1', '2', '3', '4', '5'].into_iter().enumerate() {
        assert_eq!(
            Keymap::default().command_for(Mode::List, &ch(c)),
            Some(Command::TYPE_TOGGLES[i])
        );
    }
}

#[test]
fn every_command_has_its_own_snake_case_name_and_a_default_binding() {
    let mut names = std::collections::HashSet::new();
    for &c in Command::ALL {
        let name = c.name();
        assert!(
            name.chars().all(|ch| ch.is_ascii_lowercase() || ch == '_'),
            "{name}"
        );
        assert!(names.insert(name), "{name} names two commands");
        assert_eq!(Command::from_name(name), Some(c));
        assert!(BINDINGS.iter().any(|b| b.command == c), "{name} has no key");
    }
    for b in BINDINGS {
        assert!(
            Command::ALL.contains(&b.command),
            "{:?} has no name",
            b.command
        );
    }
    assert_eq!(Command::ToggleDisconnected.name(), "toggle_disconnected");
    assert_eq!(Command::from_name("Quit"), None);
}

/// The names are derived from the variants: a renamed variant must not rename what configs
/// already write.
#[test]
fn the_commands_keep_the_names_configs_know_them_by() {
    let names: Vec<&str> = Command::ALL.iter().map(|c| c.name()).collect();
    assert_eq!(
        names,
        [
            "quit",
            "up",
            "down",
            "page_up",
            "page_down",
            "top",
            "bottom",
            "focus_detail",
            "focus_list",
            "toggle_publish",
            "toggle_subscribe",
            "toggle_join",
            "toggle_disconnected",
            "toggle_connect",
            "cycle_terminal",
            "edit_search",
            "find",
            "find_next",
            "find_prev",
            "find_to_filter",
            "edit_filters",
            "command_line",
            "clear_filters",
            "help",
            "problems",
            "apply",
            "cancel",
            "next_field",
            "prev_field",
            "rerun",
            "load_all",
            "save_shown",
            "save_loaded",
            "yes",
            "no",
            "groups",
            "story",
            "facets",
            "timeline",
            "pop_filter",
            "next_group_key",
            "prev_group_key",
            "hide",
            "group_sort",
            "left",
            "right",
            "mark",
            "follow",
            "sort",
            "reverse",
            "zoom_list",
            "zoom_detail",
            "json",
            "local_time",
            "quality",
            "copy_json",
            "copy_id",
            "copy_to_file",
            "suspend",
        ]
    );
}

#[test]
fn keys_are_read_as_the_config_writes_them() {
    for (text, expected) in [
        ("q", Key::Char('q')),
        ("G", Key::Char('G')),
        ("?", Key::Char('?')),
        ("-", Key::Char('-')),
        ("ctrl-c", Key::Ctrl('c')),
        ("Ctrl-C", Key::Ctrl('c')),
        ("ctrl+x", Key::Ctrl('x')),
        ("alt-j", Key::Alt('j')),
        ("shift-g", Key::Char('G')),
        ("enter", Key::Code(KeyCode::Enter)),
        ("Enter", Key::Code(KeyCode::Enter)),
        ("tab", Key::Code(KeyCode::Tab)),
        ("shift-tab", Key::Code(KeyCode::BackTab)),
        ("esc", Key::Code(KeyCode::Esc)),
        ("escape", Key::Code(KeyCode::Esc)),
        ("space", Key::Char(' ')),
        ("backspace", Key::Code(KeyCode::Backspace)),
        ("up", Key::Code(KeyCode::Up)),
        ("pgup", Key::Code(KeyCode::PageUp)),
        ("pgdn", Key::Code(KeyCode::PageDown)),
        ("home", Key::Code(KeyCode::Home)),
        ("f5", Key::Code(KeyCode::F(5))),
        ("F12", Key::Code(KeyCode::F(12))),
    ] {
        assert_eq!(Key::parse(text), Ok(expected), "{text:?}");
    }
    for bad in [
        "ctrl-",
        "ctrl-enter",
        "f13",
        "f0",
        "hyper-x",
        "qq",
        "shift-1",
        "\t",
    ] {
        let e = Key::parse(bad).expect_err(bad);
        assert!(
            e.contains(&format!("{bad:?} is not a key")) && e.contains("ctrl-X"),
            "{e}"
        );
    }
}

#[test]
fn an_override_replaces_the_actions_keys_in_every_mode_where_it_is_bound_but_ctrl_c_still_quits() {
    let keys = keymap(&[("quit", &["v"])]);
    for mode in [
        Mode::List,
        Mode::Detail,
        Mode::Help,
        Mode::Groups,
        Mode::Story,
        Mode::Timeline,
    ] {
        assert_eq!(
            keys.command_for(mode, &ch('v')),
            Some(Command::Quit),
            "{mode:?}"
        );
        assert_eq!(keys.command_for(mode, &ch('q')), None, "{mode:?}");
        // Ctrl-C quits whatever quit is bound to.
        assert_eq!(
            keys.command_for(mode, &ctrl('c')),
            Some(Command::Quit),
            "{mode:?}"
        );
    }
    // The other actions keep their keys.
    assert_eq!(keys.command_for(Mode::List, &ch('j')), Some(Command::Down));
}

#[test]
fn a_plain_character_stays_text_in_the_inputs_so_their_quit_keeps_a_usable_key() {
    let keys = keymap(&[("quit", &["v"])]);
    assert_eq!(keys.command_for(Mode::Editing, &ch('v')), None);
    assert_eq!(
        keys.command_for(Mode::Editing, &ctrl('c')),
        Some(Command::Quit),
        "with no other key in the override, the input keeps its own"
    );
    let keys = keymap(&[("quit", &["v", "ctrl-q"])]);
    for mode in [Mode::Editing, Mode::SavePath] {
        assert_eq!(keys.command_for(mode, &ch('v')), None, "{mode:?}");
        assert_eq!(
            keys.command_for(mode, &ctrl('q')),
            Some(Command::Quit),
            "{mode:?}"
        );
        assert_eq!(
            keys.command_for(mode, &ctrl('c')),
            Some(Command::Quit),
            "{mode:?}"
        );
    }
    assert_eq!(keys.command_for(Mode::List, &ch('v')), Some(Command::Quit));
}

#[test]
fn rebinding_help_drops_the_second_row_that_would_repeat_it() {
    let keys = keymap(&[("help", &["H", "f1"])]);
    let help_rows: Vec<&Bound> = keys
        .bindings_for(Mode::Help)
        .filter(|b| b.command() == Command::ToggleHelp)
        .collect();
    assert_eq!(help_rows.len(), 1);
    assert_eq!(help_rows[0].keys_label(), "H/F1");
    assert_eq!(
        keys.command_for(Mode::Help, &ch('H')),
        Some(Command::ToggleHelp)
    );
    assert_eq!(
        keys.command_for(Mode::Help, &key(KeyCode::Esc, KeyModifiers::NONE)),
        None
    );
}

#[test]
fn a_key_taken_by_another_action_is_reported_with_the_config_key_and_the_modes() {
    let problems = problems(&[("groups", &["q"])]);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    let p = &problems[0];
    for part in [
        "[keys] groups",
        "\"q\"",
        "already runs quit",
        "the list",
        "a peer's story",
    ] {
        assert!(p.contains(part), "{part:?} missing: {p}");
    }
    // Moving quit away as well frees the key.
    let keys = keymap(&[("groups", &["q"]), ("quit", &["Q"])]);
    assert_eq!(
        keys.command_for(Mode::List, &ch('q')),
        Some(Command::ShowGroups)
    );
    assert_eq!(keys.command_for(Mode::List, &ch('Q')), Some(Command::Quit));
}

#[test]
fn ctrl_c_for_another_action_is_refused_with_quit_rebound_or_not() {
    for overrides in [
        &[("copy_json", &["ctrl-c"][..])][..],
        &[("copy_json", &["ctrl-c"][..]), ("quit", &["Q"][..])][..],
    ] {
        let problems = problems(overrides);
        assert_eq!(problems.len(), 1, "{problems:#?}");
        assert_eq!(
            problems[0],
            "[keys] copy_json: ctrl-c always quits; bind copy_json to another key"
        );
    }
}

#[test]
fn two_overrides_on_one_key_are_reported_together() {
    let problems = problems(&[("top", &["v"]), ("bottom", &["v"])]);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert!(
        problems[0].contains("[keys] top and [keys] bottom: both bind \"v\" in the list"),
        "{}",
        problems[0]
    );
}

#[test]
fn unknown_actions_unreadable_keys_and_empty_lists_are_all_reported() {
    let problems = problems(&[("frobnicate", &["v"]), ("down", &["ctrl-"]), ("up", &[])]);
    assert_eq!(problems.len(), 3, "{problems:#?}");
    let all = problems.join("\n");
    assert!(
        all.contains("[keys] frobnicate: no such action; the actions are quit, up, down"),
        "{all}"
    );
    assert!(
        all.contains("copy_json") && all.contains("toggle_connect"),
        "{all}"
    );
    assert!(all.contains("[keys] down: \"ctrl-\" is not a key"), "{all}");
    assert!(all.contains("[keys] up: an empty list"), "{all}");
}

#[test]
fn a_problem_names_the_profile_table_the_binding_came_from() {
    let origins: KeyOrigins = [("groups".to_string(), "profiles.prod.keys".to_string())].into();
    let problems = Keymap::with_overrides(&overrides(&[("groups", &["q"])]), &origins).unwrap_err();
    assert!(
        problems[0].starts_with("[profiles.prod.keys] groups: "),
        "{}",
        problems[0]
    );
}

#[test]
fn the_hint_key_of_a_command_follows_its_binding() {
    assert_eq!(
        Keymap::default().key(Mode::List, Command::ClearFilters),
        "x"
    );
    let keys = keymap(&[("clear_filters", &["X", "ctrl-x"])]);
    assert_eq!(keys.key(Mode::List, Command::ClearFilters), "X");
    assert_eq!(keys.key(Mode::Timeline, Command::Left), "←");
}

/// The README's list of actions is the one configs can use: every command, by its name.
#[test]
fn the_readme_names_every_action() {
    let readme = include_str!("../../../README.md");
    let start = readme
        .find("Actions: ")
        .expect("the README lists the actions");
    let listed = &readme[start..start + readme[start..].find('.').unwrap_or(0)];
    for c in Command::ALL {
        assert!(
            listed.contains(&format!("`{}`", c.name())),
            "the README's actions lack {}",
            c.name()
        );
    }
}
