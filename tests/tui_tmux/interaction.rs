//! Colour, copying, the mouse, remapped keys and the trace log in a real terminal; `list`
//! printing to one.

use super::*;

/// The SGR parameters that set a colour: 30-38 and 90-97 (foreground), 40-48 and 100-107
/// (background). 39 and 49, back to the terminal's own colours, are not colours.
fn colour_sequences(styled: &str) -> Vec<String> {
    let mut found = Vec::new();
    for sequence in styled.split("\x1b[").skip(1) {
        let Some(end) = sequence.find(|c: char| !(c.is_ascii_digit() || c == ';')) else {
            continue;
        };
        if !sequence[end..].starts_with('m') {
            continue;
        }
        let params = &sequence[..end];
        let colour = params.split(';').any(|p| {
            matches!(
                p.parse::<u16>(),
                Ok(30..=38 | 40..=48 | 90..=97 | 100..=107)
            )
        });
        if colour {
            found.push(format!("\\e[{params}m"));
        }
    }
    found
}

#[test]
fn no_color_draws_without_any_colour_sequence_while_the_default_draws_in_colour() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.start_demo("", "");
    let coloured = colour_sequences(&tmux.styled_screen());
    assert!(
        !coloured.is_empty(),
        "the default theme draws in colour, so that the check below can see colours"
    );
    tmux.keys(&["q"]);
    tmux.wait_for_text("explorer exited with 0");
    tmux.type_text("printf '\\033[H\\033[2J'");
    tmux.keys(&["Enter"]);
    tmux.wait_for(|s| !s.contains("explorer exited"), "the screen to clear");

    tmux.start_demo("NO_COLOR=1 ", "");
    let mut screens = vec![tmux.styled_screen()];
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("Tab/Esc/Enter list");
    screens.push(tmux.styled_screen());
    tmux.keys(&["Tab", "e"]);
    tmux.wait_for_text("groups by error");
    screens.push(tmux.styled_screen());
    tmux.keys(&["?"]);
    tmux.wait_for_text("this help");
    screens.push(tmux.styled_screen());
    for screen in &screens {
        let coloured = colour_sequences(screen);
        assert!(coloured.is_empty(), "{coloured:?} in:\n{screen}");
        assert!(
            screen.contains("\x1b[1m") || screen.contains(";1m") || screen.contains("[1;"),
            "bold still carries emphasis:\n{screen:?}"
        );
    }
    // One key at a time: Esc and a key sent together read as Alt and that key.
    tmux.keys(&["Escape"]);
    tmux.wait_for(|s| !s.contains("this help"), "the help to close");
    tmux.keys(&["Escape"]);
    tmux.wait_for(|s| !s.contains("groups by error"), "the groups to close");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

/// The demo's first event as it is copied: its JSON on one line.
fn first_demo_event() -> (String, String) {
    let mut store = Store::new();
    store.merge(callscope::source::demo::load());
    let raw = store.raw(0);
    let json = String::from_utf8(callscope::tui::clipboard::compact_json(raw)).unwrap();
    let id = store.event(0).id().unwrap().to_string();
    (json, id)
}

#[test]
fn y_puts_the_selected_events_json_on_tmuxs_buffer_and_shift_y_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // No clipboard program on the PATH: the copy goes to the terminal.
    tmux.start_demo("PATH=/nonexistent ", "");
    let (json, id) = first_demo_event();
    tmux.keys(&["y"]);
    // Sent, not "copied": the terminal does not say whether it took it.
    tmux.wait_for_text("of JSON to the terminal's clipboard (OSC 52)");
    tmux.wait_for_buffer(&json);
    let copied: serde_json::Value = serde_json::from_str(&tmux.buffer().unwrap()).unwrap();
    assert_eq!(copied["id"], serde_json::Value::from(id.clone()));

    tmux.keys(&["Y"]);
    tmux.wait_for_text(&format!(
        "sent the event id {id} to the terminal's clipboard (OSC 52)"
    ));
    tmux.wait_for_buffer(&id);
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[cfg(unix)]
#[test]
fn y_uses_a_clipboard_program_on_the_path_and_w_writes_the_json_to_a_file_it_names() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // A stand-in xclip: what it is given on its standard input goes to a file.
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let clip = dir.path().join("clipboard");
    let xclip = bin.join("xclip");
    std::fs::write(
        &xclip,
        format!("#!/bin/sh\nexec /bin/cat > '{}'\n", clip.display()),
    )
    .unwrap();
    std::fs::set_permissions(&xclip, std::fs::Permissions::from_mode(0o755)).unwrap();
    tmux.start_demo(&format!("PATH='{}' ", bin.display()), "");
    let (json, _) = first_demo_event();
    tmux.keys(&["y"]);
    tmux.wait_for_text("of JSON to the clipboard with xclip");
    assert_eq!(std::fs::read_to_string(&clip).unwrap(), json);

    // The fallback: the same JSON in a file of the folder callscope was started in.
    tmux.keys(&["w"]);
    let file = dir.path().join("callscope-selection.json");
    let canonical = std::fs::canonicalize(dir.path())
        .unwrap()
        .join("callscope-selection.json");
    tmux.wait_for(
        |s| {
            let s = s.replace('\n', "");
            s.contains(&format!("to {}", file.display()))
                || s.contains(&format!("to {}", canonical.display()))
        },
        "the status naming the file written",
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), format!("{json}\n"));
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn a_click_selects_a_row_and_another_focuses_the_detail_pane() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.start_demo("", "");
    // The layout of the demo on this terminal, as the explorer computes it.
    let mut model = callscope::tui::model::Model::new(
        callscope::tui::model::SourceLabel::Demo,
        Filter::default(),
        WIDTH,
        HEIGHT,
    );
    callscope::tui::update::update(
        &mut model,
        callscope::tui::action::Action::BatchLoaded(callscope::source::demo::load()),
    );
    let a = callscope::tui::view::layout::areas_of(&model);
    let first_row = a.list.y + callscope::tui::view::layout::TABLE_FIRST_ROW;
    tmux.click(a.list.x + 3, first_row + 4);
    tmux.wait_for_text("events 5/");
    tmux.click(a.detail.x + 5, a.detail.y + 3);
    tmux.wait_for_text("Tab/Esc/Enter list");
    tmux.keys(&["Escape"]);
    tmux.wait_for_text("Enter/Tab detail");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn keys_remapped_in_the_config_work_and_show_in_the_hints_and_the_help() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("keys.toml"),
        "[keys]\nquit = [\"Q\", \"ctrl-q\"]\ngroups = \"f5\"\nhelp = \"H\"\n",
    )
    .unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.start_demo("", "--config keys.toml");
    let screen = tmux.wait_for_text("H help  Q/Ctrl-Q/Ctrl-C quit");
    assert!(screen.contains("F5 groups"), "{screen}");
    tmux.keys(&["F5"]);
    tmux.wait_for_text("groups by error");
    tmux.keys(&["Escape"]);
    tmux.wait_for(|s| !s.contains("groups by error"), "the list again");
    tmux.keys(&["H"]);
    let help = tmux.wait_for_text("this help");
    assert!(help.contains("Q/Ctrl-Q/Ctrl-C       quit"), "{help}");
    assert!(help.contains("H closes"), "{help}");
    tmux.keys(&["H"]);
    tmux.wait_for(|s| !s.contains("this help"), "the help to close");
    // q is no longer bound: the explorer stays.
    tmux.keys(&["q", "j"]);
    tmux.wait_for_text("events 2/");
    tmux.keys(&["Q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn the_help_pages_and_jumps_to_its_ends_with_the_lists_keys() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.start_demo("", "");
    tmux.keys(&["?"]);
    // The help's first line and its last, more than a screen apart.
    const FIRST: &str = "Browsing (in the detail pane";
    const LAST: &str = "A click selects a row or focuses a pane";
    let top = tmux.wait_for_text(FIRST);
    assert!(!top.contains(LAST), "{top}");
    for (down, up) in [
        ("End", "Home"),
        ("G", "g"),
        ("Space", "C-b"),
        ("PageDown", "PageUp"),
        ("C-f", "PageUp"),
    ] {
        tmux.keys(&[down]);
        // A jump to the end shows the last line; a page, the lines between.
        let to_end = ["End", "G"].contains(&down);
        tmux.wait_for(|s| !s.contains(FIRST) && s.contains(LAST) == to_end, down);
        tmux.keys(&[up]);
        tmux.wait_for_text(FIRST);
    }
    tmux.keys(&["Escape"]);
    tmux.wait_for(|s| !s.contains(FIRST), "the help to close");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn a_trace_log_times_each_frames_update_and_drawing() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.start_demo("CALLSCOPE_LOG=callscope=trace ", "--log-file frames.log");
    tmux.keys(&["e"]);
    tmux.wait_for_text("groups by error");
    tmux.keys(&["q"]);
    tmux.wait_for_text("explorer exited with 0");
    let log = std::fs::read_to_string(dir.path().join("frames.log")).expect("the log was written");
    // The demo's batch and the key e, at least: each frame with both of its times.
    let frames: Vec<(f64, f64)> = log
        .lines()
        .filter(|l| l.contains(" frame "))
        .map(|l| {
            let field = |name: &str| -> f64 {
                let at = l.find(name).unwrap_or_else(|| panic!("{name} in {l:?}")) + name.len();
                let digits: String = l[at..]
                    .chars()
                    .take_while(|c| c.is_ascii_digit() || *c == '.')
                    .collect();
                digits.parse().unwrap_or_else(|_| panic!("{name} in {l:?}"))
            };
            (field("update_ms="), field("draw_ms="))
        })
        .collect();
    assert!(frames.len() >= 2, "frames logged: {log}");
    // Grouping every event takes some time: at least one frame has more than nothing in it.
    assert!(frames.iter().any(|&(u, d)| u > 0.0 && d > 0.0), "{log}");
}

#[test]
fn list_on_a_terminal_shows_control_characters_that_a_file_gets_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // A message that, obeyed, would set the window's title, clear the screen and start a C1
    // control sequence; and a user name reversed by a bidirectional override.
    let event = serde_json::json!({
        "id": "ev-1",
        "type": "client.join.failed",
        "timestamp": "2026-11-18T10:00:00Z",
        "data": {
            "error_message": "\u{1b}]0;PWNED\u{7}\u{1b}[2J hidden \u{9b}31m",
            "user_name": "\u{202e}nimda",
            "room_id": "r1"
        }
    });
    std::fs::write(dir.path().join("evil.ndjson"), format!("{event}\n")).unwrap();
    for format in ["csv", "ndjson", "table"] {
        tmux.type_text(&format!(
            "echo before-{format}; {} list evil.ndjson --format {format}; echo \"{format} exited with $?\"",
            binary()
        ));
        tmux.keys(&["Enter"]);
        let screen = tmux.wait_for_text(&format!("{format} exited with 0"));
        assert!(
            screen.contains(&format!("before-{format}")),
            "{format}: the screen was not cleared:\n{screen}"
        );
        assert_ne!(tmux.pane("#{pane_title}"), "PWNED", "{format}");
        // The bidirectional override reaches the terminal in no format, NDJSON's raw JSON
        // included (JSON escapes the C0 controls, not this).
        assert!(
            screen.contains("\u{fffd}nimda") && !screen.contains('\u{202e}'),
            "{format}:\n{screen}"
        );
        // NDJSON writes the escape as JSON does (\u001b); the other two show it.
        if format != "ndjson" {
            assert!(
                screen.contains("␛]0;PWNED␇␛[2J hidden"),
                "{format}:\n{screen}"
            );
        }
    }
    // Into a pipe or a file, the bytes are the data's.
    let out = Command::new(env!("CARGO_BIN_EXE_callscope"))
        .args(["list", "--format", "csv"])
        .arg(dir.path().join("evil.ndjson"))
        .output()
        .unwrap();
    let csv = String::from_utf8(out.stdout).unwrap();
    assert!(csv.contains("\u{1b}]0;PWNED\u{7}"), "{csv:?}");
    assert!(csv.contains("\u{202e}nimda"), "{csv:?}");
}

#[test]
fn list_tables_fit_the_terminal_they_are_printed_on() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    for width in [80u16, WIDTH] {
        tmux.ok(&["resize-window", "-t", "main", "-x", &width.to_string()]);
        for (what, args) in [
            ("events", "--max 20"),
            ("groups", "--group-by error"),
            ("peers", "--group-by peer --max 200"),
        ] {
            tmux.ok(&["clear-history", "-t", "main"]);
            tmux.type_text(&format!(
                "clear; {} list --demo --format table {args}; echo \"{what} exited with $?\"",
                binary()
            ));
            tmux.keys(&["Enter"]);
            tmux.wait_for_text(&format!("{what} exited with 0"));
            // Lines the terminal wrapped are joined again: none may be wider than the pane.
            let joined = tmux.ok(&["capture-pane", "-p", "-J", "-t", "main"]);
            let lines: Vec<&str> = joined
                .lines()
                .filter(|l| !l.contains("exited with") && !l.contains(" list --demo"))
                .filter(|l| !l.trim().is_empty())
                .collect();
            let widest = lines
                .iter()
                .map(|l| unicode_width::UnicodeWidthStr::width(*l))
                .max()
                .unwrap();
            assert!(
                widest <= usize::from(width),
                "{what} at {width}: a line of {widest} columns:\n{joined}"
            );
            // At 80 columns every one of these tables had to give way, and uses the whole
            // width it gave way to.
            if width == 80 {
                assert_eq!(widest, 80, "{what}: {widest} columns used:\n{joined}");
            }
        }
    }
}

/// Part of a live answer saved from the explorer opens again as a part: the envelope carries
/// the service's total and its cursor, and `list` says the file holds part of its query. Saved
/// as NDJSON, which cannot say so, the status line says that instead.
#[test]
fn a_save_of_part_of_a_live_answer_says_it_is_a_part_in_the_file_and_on_screen() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    let room = "673a1f2c9e4b8d0a5c7e3f21";
    let token = "tok-part-5d1e";
    let upstream = serve_demo(token);
    tmux.launch(
        &format!("HMS_MANAGEMENT_TOKEN={token} "),
        &format!(
            "--live --base-url {} --room {room} --type join --page-size 10",
            upstream.url
        ),
    );
    tmux.wait_for(|s| s.contains("more as you scroll"), "the first pages");
    // What the service holds of the query, as the demo has it.
    let filter = Filter {
        types: vec![EventType::Join],
        ..Filter::default().with(callscope::event::Field::Room, room)
    };
    let total = demo_count(&filter).replace(',', "");
    let save = |path: &str| {
        tmux.keys(&["s"]);
        tmux.wait_for(
            |s| s.contains(" into: ") || s.contains(" to: "),
            "the save prompt",
        );
        tmux.keys(&["C-u"]);
        tmux.type_text(path);
        tmux.keys(&["Enter"]);
        tmux.wait_for_text(&format!("to {path}"))
    };
    let screen = save("part.json");
    assert!(
        screen.contains(&format!("part of the {total} the query matched")),
        "{screen}"
    );
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("part.json")).unwrap()).unwrap();
    let held = saved["events"].as_array().unwrap().len();
    assert!(held > 0 && held.to_string() != total, "{held} of {total}");
    assert_eq!(saved["total"].to_string(), total);
    assert!(!saved["next"].as_str().unwrap().is_empty(), "{saved:#}");
    let reopened = Command::new(env!("CARGO_BIN_EXE_callscope"))
        .args(["list", "part.json", "--format", "ndjson"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&reopened.stderr);
    assert!(
        stderr.contains("partial") && stderr.contains(&format!("of the {total} events")),
        "{stderr}"
    );
    let screen = save("part.ndjson");
    assert!(screen.contains("NDJSON cannot say so"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}
