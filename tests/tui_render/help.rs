//! The help and the hints: every binding and command listed, wrapped and scrolled, remapped
//! keys named.

use super::*;

#[test]
fn the_help_lists_every_binding_of_the_key_table() {
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::ToggleHelp);
    let t = draw(&m);
    insta::assert_snapshot!("help_140x40", t.backend());
    // The overlay may need scrolling: gather every line it shows on the way down.
    let mut seen = overlay_text(t.backend().buffer());
    for _ in 0..BINDINGS.len() + callscope::tui::panels::command::COMMANDS.len() {
        run(&mut m, Command::Down);
        seen.push(' ');
        seen.push_str(&overlay_text(draw(&m).backend().buffer()));
    }
    let seen = words(&seen);
    for b in m.config.keymap.bindings() {
        assert!(
            seen.contains(&words(b.help())),
            "the help lacks {:?}",
            b.help()
        );
        let keys = b.keys_label();
        assert!(seen.contains(&keys), "the help lacks the keys {keys:?}");
    }
}

/// The text inside the help overlay (centred, 76 columns at most, framed), its rows joined.
fn overlay_text(buffer: &Buffer) -> String {
    let width = 76.min(buffer.area.width);
    let left = (buffer.area.width - width) / 2 + 1;
    (0..buffer.area.height)
        .map(|y| {
            (left..left + width - 2)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_help_at_80x24_wraps_what_does_not_fit_below_its_start_and_its_last_line_is_whole() {
    let mut m = demo(Filter::default(), (80, 24));
    run(&mut m, Command::ToggleHelp);
    insta::assert_snapshot!("help_80x24", draw(&m).backend());
    for _ in 0..200 {
        run(&mut m, Command::Down);
    }
    let t = draw(&m);
    insta::assert_snapshot!("help_80x24_end", t.backend());
    // Up to the overlay's bottom border.
    let text = words(&overlay_text(t.backend().buffer()));
    let last = text.trim_end_matches(['─', ' ']);
    assert!(
        last.ends_with(
            "A click selects a row or focuses a pane; the wheel scrolls the pane under the pointer."
        ),
        "{last}"
    );
}

#[test]
fn the_help_of_a_small_terminal_reaches_every_binding_by_scrolling() {
    let mut m = demo(Filter::default(), (80, 24));
    run(&mut m, Command::ToggleHelp);
    let mut seen = String::new();
    for _ in 0..=BINDINGS.len() + callscope::tui::panels::command::COMMANDS.len() + 20 {
        seen.push(' ');
        seen.push_str(&overlay_text(draw(&m).backend().buffer()));
        run(&mut m, Command::Down);
    }
    let seen = words(&seen);
    for b in BINDINGS {
        assert!(seen.contains(&words(b.help)), "the help lacks {:?}", b.help);
    }
}

/// The model with the config's `[keys]` applied, as the explorer starts with them.
fn with_keys(mut m: Model, keys: &[(&str, &[&str])]) -> Model {
    let keys = keys
        .iter()
        .map(|(a, k)| (a.to_string(), k.iter().map(|k| k.to_string()).collect()))
        .collect();
    m.config.keymap = Keymap::with_overrides(&keys, &Default::default()).unwrap();
    m
}

/// Every help line, scrolled through from top to bottom.
fn whole_help(m: &mut Model) -> String {
    run(m, Command::ToggleHelp);
    let mut seen = String::new();
    for _ in 0..=BINDINGS.len() + callscope::tui::panels::command::COMMANDS.len() + 20 {
        seen.push_str(&screen_text(draw(m).backend().buffer()));
        run(m, Command::Down);
    }
    run(m, Command::ToggleHelp);
    seen
}

#[test]
fn remapped_keys_show_in_the_help_and_the_hint_bar_and_the_old_keys_do_not() {
    let mut m = with_keys(
        demo(Filter::default(), (140, 40)),
        &[
            ("quit", &["Q", "ctrl-q"]),
            ("groups", &["f5"]),
            ("clear_filters", &["X"]),
        ],
    );
    let t = draw(&m);
    let hints = row_text(t.backend().buffer(), 39);
    // Ctrl-C quits whatever quit is bound to.
    assert!(hints.contains("Q/Ctrl-Q/Ctrl-C quit"), "{hints}");
    assert!(hints.contains("F5 groups"), "{hints}");
    assert!(!hints.contains("q/Ctrl-C"), "{hints}");
    let help = whole_help(&mut m);
    assert!(help.contains("Q/Ctrl-Q/Ctrl-C       quit"), "{help}");
    assert!(
        help.contains("F5                    group the shown events"),
        "{help}"
    );
    assert!(
        help.contains("X                     clear the filters set here"),
        "{help}"
    );
    assert!(!help.contains("q/Ctrl-C"), "{help}");
    // In a filter input a letter is text: quit keeps only its Ctrl keys there.
    assert!(help.contains("Ctrl-Q/Ctrl-C         quit"), "{help}");
}

#[test]
fn hints_written_into_titles_and_messages_name_the_keys_in_force() {
    let remapped: &[(&str, &[&str])] = &[
        ("clear_filters", &["X"]),
        ("next_group_key", &["K"]),
        ("cancel", &["ctrl-g"]),
        ("mark", &["m"]),
        ("left", &["H"]),
        ("right", &["L"]),
    ];
    let nothing = Filter {
        search: Some("no event says this".into()),
        ..Filter::default()
    };
    let m = with_keys(demo(nothing, (140, 40)), remapped);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(text.contains("(X clears them, "), "{text}");

    // Wide enough for the groups view's every column but the sparkline: its title has room
    // for the keys after the note that names it.
    let mut m = with_keys(demo(Filter::default(), (200, 40)), remapped);
    run(&mut m, Command::ShowGroups);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("K: key, o: sort, Enter: its events"),
        "{text}"
    );
    run(&mut m, Command::Cancel);
    run(&mut m, Command::ToggleTimeline);
    let text = screen_text(draw(&m).backend().buffer());
    assert!(
        text.contains("H/L move, m: mark, Enter: show · T/Esc: close"),
        "{text}"
    );
}

#[test]
fn the_help_mentions_the_mouse_and_the_copy_keys() {
    let mut m = demo(Filter::default(), (140, 40));
    let help = whole_help(&mut m);
    assert!(
        help.contains("A click selects a row or focuses a pane"),
        "{help}"
    );
    assert!(
        help.contains("y                     copy the event's JSON"),
        "{help}"
    );
    assert_eq!(m.focus.mode(), Mode::List);
}

#[test]
fn the_help_lists_the_commands_of_the_command_line() {
    let mut m = demo(Filter::default(), (140, 40));
    let help = whole_help(&mut m);
    for spec in callscope::tui::panels::command::COMMANDS {
        assert!(help.contains(spec.usage), "the help lacks {}", spec.usage);
        assert!(help.contains(spec.help), "the help lacks {}", spec.help);
    }
}

/// Each view's section names the keys that work there though a section above describes them:
/// the story's, all of them; the groups' find and facets.
#[test]
fn each_views_section_names_the_keys_it_shares_with_the_sections_above() {
    let m = demo(Filter::default(), (140, 40));
    // The help's lines unwrapped, on a line of their own each.
    let help: Vec<String> = callscope::tui::panels::help::help_lines(&m.config, 400)
        .iter()
        .map(|line| line.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect();
    let section = |title: &str| {
        let start = help.iter().position(|l| l == title).expect(title);
        let end =
            (help[start..].iter().position(String::is_empty)).map_or(help.len(), |k| start + k);
        help[start..end]
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let story = section("In a peer's story");
    assert!(story.contains("and, as above"), "{story}");
    for key in ["Esc", "m", "Y", "J", "A"] {
        assert!(story.split(' ').any(|w| w == key), "{key}: {story}");
    }
    let groups = section("In the groups view");
    for key in ["/", "n", "N", "F", "t", "e", "A"] {
        assert!(groups.split(' ').any(|w| w == key), "{key}: {groups}");
    }
    // Quitting and this help work everywhere and are not named again.
    assert!(!groups.contains("q/Ctrl-C"), "{groups}");
}

#[test]
fn the_help_has_a_section_for_the_load_problems_list() {
    let mut m = demo(Filter::default(), (140, 40));
    let help = whole_help(&mut m);
    let section = help
        .find("In this help and the load problems list")
        .unwrap_or_else(|| panic!("{help}"));
    let rest = &help[section..];
    assert!(
        rest.contains("close the help or the load problems list"),
        "{rest}"
    );
}
