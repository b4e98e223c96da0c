//! The explorer as a person meets it: the real binary in a real terminal (tmux), driven by keys
//! and read back from the screen.
//!
//! tmux is required; set CALLSCOPE_SKIP_TMUX=1 to skip these tests where it cannot be installed.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use callscope::event::EventType;
use callscope::filter::Filter;
use callscope::store::Store;
use callscope::text::thousands;

mod common;

const WIDTH: u16 = 120;
const HEIGHT: u16 = 40;
/// The shell's prompt (capture-pane drops the space that follows it at the end of a line).
const PROMPT: &str = "callscope-test$";
/// How long the screen may take to show what is expected: generous, for loaded CI machines.
const DEADLINE: Duration = Duration::from_secs(30);

/// A tmux server of its own (its own socket, in the test's folder), killed when the test ends,
/// however it ends.
struct Tmux {
    socket: String,
    /// Where the explorer looks for its config when none is named: empty, so that the config
    /// of the machine running the tests plays no part.
    config_home: std::path::PathBuf,
    /// Where the explorer remembers what it remembers (the rooms used before): the test's own.
    state_home: std::path::PathBuf,
}

impl Tmux {
    /// Starts a detached session of fixed size running a plain shell in `dir`, or returns `None`
    /// when tmux is missing and CALLSCOPE_SKIP_TMUX=1 says to skip.
    fn start(dir: &Path) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            if std::env::var("CALLSCOPE_SKIP_TMUX").as_deref() == Ok("1") {
                eprintln!("tmux is not installed: skipped because CALLSCOPE_SKIP_TMUX=1");
                return None;
            }
            panic!(
                "this test drives the explorer in tmux, which is not installed: install tmux \
                 (e.g. `apt-get install tmux`), or set CALLSCOPE_SKIP_TMUX=1 to skip it"
            );
        }
        let tmux = Tmux {
            socket: dir
                .join("tmux.sock")
                .to_str()
                .expect("a UTF-8 temporary path")
                .into(),
            config_home: dir.join("config-home"),
            state_home: dir.join("state-home"),
        };
        let shell = format!("env PS1='{PROMPT} ' /bin/sh");
        let (w, h) = (WIDTH.to_string(), HEIGHT.to_string());
        let dir = dir.to_str().expect("a UTF-8 temporary path");
        tmux.ok(&[
            "new-session",
            "-d",
            "-s",
            "main",
            "-x",
            &w,
            "-y",
            &h,
            "-c",
            dir,
            &shell,
        ]);
        tmux.ok(&["set-option", "-t", "main", "remain-on-exit", "on"]);
        // What the explorer copies (OSC 52) lands in tmux's paste buffer.
        tmux.ok(&["set-option", "-g", "set-clipboard", "on"]);
        tmux.wait_for(|s| s.contains(PROMPT), "the shell prompt");
        Some(tmux)
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .args(["-S", &self.socket, "-f", "/dev/null"])
            .args(args)
            .env_remove("TMUX")
            // The explorer must use the source it is given, whatever this machine has configured.
            .env_remove("HMS_MANAGEMENT_TOKEN")
            .env_remove("HMS_ACCESS_KEY")
            .env_remove("HMS_SECRET")
            .env_remove("CALLSCOPE_BASE_URL")
            .env_remove("CALLSCOPE_CONFIG")
            .env_remove("NO_COLOR")
            .env("XDG_CONFIG_HOME", &self.config_home)
            .env("XDG_STATE_HOME", &self.state_home)
            .output()
            .expect("tmux runs")
    }

    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "tmux {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Sends tmux key names (`Enter`, `Tab`, `j`).
    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "main"];
        args.extend_from_slice(keys);
        self.ok(&args);
    }

    /// Types text literally.
    fn type_text(&self, text: &str) {
        self.ok(&["send-keys", "-t", "main", "-l", text]);
    }

    fn screen(&self) -> String {
        self.ok(&["capture-pane", "-p", "-t", "main"])
    }

    /// The screen with its colours and attributes as escape sequences.
    fn styled_screen(&self) -> String {
        self.ok(&["capture-pane", "-p", "-e", "-t", "main"])
    }

    /// The newest paste buffer, if any.
    fn buffer(&self) -> Option<String> {
        let out = self.run(&["save-buffer", "-"]);
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Polls the paste buffer until it holds `expected`.
    fn wait_for_buffer(&self, expected: &str) {
        let start = Instant::now();
        loop {
            let buffer = self.buffer();
            if buffer.as_deref() == Some(expected) {
                return;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "waited {DEADLINE:?} for the paste buffer to hold {expected:?}; it holds {buffer:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Presses the left button on a cell (0-based), as a terminal reports it in SGR mouse mode.
    fn click(&self, column: u16, row: u16) {
        let (x, y) = (column + 1, row + 1);
        self.type_text(&format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m"));
    }

    /// Starts callscope from the shell with these arguments, after `prefix` (variables, or a
    /// pipe into it); the shell then says `explorer exited with N`.
    fn launch(&self, prefix: &str, args: &str) {
        self.type_text(&format!(
            "{prefix}{} {args}; echo \"explorer exited with $?\"",
            binary()
        ));
        self.keys(&["Enter"]);
    }

    /// Starts the explorer from the shell with these arguments and waits until the demo is
    /// loaded.
    fn start_demo(&self, prefix: &str, args: &str) {
        self.launch(prefix, &format!("--demo {args}"));
        self.wait_for(
            |s| s.contains("loaded │ idle") && s.contains("events 1/"),
            "the demo loaded",
        );
    }

    /// A tmux format of the pane, e.g. `#{alternate_on}`.
    fn pane(&self, format: &str) -> String {
        self.ok(&["display-message", "-p", "-t", "main", format])
            .trim()
            .to_string()
    }

    /// Polls the screen until `ready` holds; fails with the last screen after the deadline.
    fn wait_for(&self, ready: impl Fn(&str) -> bool, what: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < DEADLINE,
                "waited {DEADLINE:?} for {what}; the screen shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn wait_for_text(&self, text: &str) -> String {
        self.wait_for(|s| s.contains(text), &format!("{text:?}"))
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

fn binary() -> String {
    let path = env!("CARGO_BIN_EXE_callscope");
    assert!(
        !path.contains('\''),
        "the binary's path holds a quote: {path}"
    );
    format!("'{path}'")
}

/// The list rows on the screen: the lines that start with a time of day, up to the detail
/// pane beside them (which tells the selected event, and changes as related data arrives).
fn list_rows(screen: &str) -> Vec<&str> {
    screen
        .lines()
        .filter(|l| {
            let b = l.as_bytes();
            b.len() > 12
                && b[2] == b':'
                && b[5] == b':'
                && b[8] == b'.'
                && b[..2].iter().all(u8::is_ascii_digit)
        })
        .map(|l| l.split('│').next().unwrap_or(l))
        .collect()
}

fn demo_count(filter: &Filter) -> String {
    let mut store = Store::new();
    store.merge(callscope::source::demo::load());
    thousands(store.filter(filter).len())
}

/// After the explorer quits with `status`, the shell is back on its normal screen with the
/// terminal as it was.
fn assert_terminal_restored(tmux: &Tmux, status: u8) {
    let screen = tmux.wait_for_text(&format!("explorer exited with {status}"));
    assert!(screen.contains(PROMPT), "{screen}");
    assert_shell_has_the_terminal(tmux);
}

/// The shell is back on its normal screen with the terminal as it was.
fn assert_shell_has_the_terminal(tmux: &Tmux) {
    assert_eq!(
        tmux.pane("#{alternate_on}"),
        "0",
        "the alternate screen is left"
    );
    assert_eq!(
        tmux.pane("#{mouse_any_flag}"),
        "0",
        "mouse reporting is off"
    );
    assert_eq!(tmux.pane("#{cursor_flag}"), "1", "the cursor is shown");
    // Raw mode off: the line discipline is canonical and echoes again.
    // A mark of its own each time, so that an earlier answer on the screen does not count.
    static CHECKS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let mark = format!(
        "end{}",
        CHECKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    );
    tmux.type_text(&format!("stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo {mark}"));
    tmux.keys(&["Enter"]);
    let answer = format!("icanon echo {mark}");
    tmux.wait_for(
        |s| s.lines().any(|l| l.trim_end() == answer),
        "the terminal settings of a canonical, echoing line",
    );
    assert_eq!(tmux.pane("#{pane_dead}"), "0", "the shell still runs");
}

#[test]
fn the_demo_explorer_answers_keys_and_restores_the_terminal_on_quit() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.launch("", "--demo");

    let all = demo_count(&Filter::default());
    let screen = tmux.wait_for(
        |s| s.contains(&format!("{all} shown / {all} loaded │ idle")) && s.contains("events 1/"),
        "the demo loaded",
    );
    assert!(screen.contains("DEMO"), "{screen}");
    assert_eq!(
        tmux.pane("#{alternate_on}"),
        "1",
        "the explorer uses the alternate screen"
    );
    assert_eq!(
        tmux.pane("#{mouse_any_flag}"),
        "1",
        "the explorer reads the mouse"
    );

    tmux.keys(&["j"]);
    tmux.wait_for_text(&format!("events 2/{}", all.replace(',', "")));

    tmux.keys(&["Enter"]);
    tmux.wait_for_text("Tab/Esc/Enter list");
    tmux.keys(&["Tab"]);
    tmux.wait_for_text("Enter/Tab detail");

    let before = list_rows(&tmux.screen()).join("\n");
    tmux.keys(&["3"]);
    let joins = demo_count(&Filter {
        types: vec![EventType::Join],
        ..Filter::default()
    });
    let screen = tmux.wait_for_text(&format!("{joins} shown / {all} loaded"));
    let rows = list_rows(&screen);
    assert!(rows.len() > 10, "{screen}");
    for row in &rows {
        assert_eq!(
            row.split_whitespace().nth(1),
            Some("join"),
            "{row}\n{screen}"
        );
    }
    assert_ne!(rows.join("\n"), before, "the rows changed");

    // A find jumps to the first event that holds the text; & keeps only those.
    tmux.keys(&["/"]);
    tmux.wait_for_text("keeps it");
    tmux.type_text("Siddharth");
    tmux.wait_for_text("\"Siddharth\" in");
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("(n/N: next/previous");
    tmux.keys(&["&"]);
    let found = demo_count(&Filter {
        types: vec![EventType::Join],
        search: Some("Siddharth".into()),
        ..Filter::default()
    });
    let screen = tmux.wait_for_text(&format!("{found} shown / {all} loaded"));
    assert!(screen.contains("search=\"Siddharth\""), "{screen}");
    assert!(
        screen.contains("Enter/Tab detail"),
        "back in the list:\n{screen}"
    );

    tmux.keys(&["?"]);
    let screen = tmux.wait_for_text("only join failures, or add/remove them");
    assert!(screen.contains("quit"), "{screen}");
    tmux.keys(&["Escape"]);
    tmux.wait_for(
        |s| !s.contains("only join failures, or add/remove them"),
        "the help to close",
    );

    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn ctrl_c_quits_from_a_filter_input_and_restores_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.launch("", "--demo");
    tmux.wait_for_text("loaded │ idle");
    tmux.keys(&["f"]);
    tmux.wait_for_text("Enter apply");
    tmux.type_text("q");
    tmux.keys(&["C-c"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn a_damaged_file_opens_with_its_readable_events_and_the_problem_in_the_header() {
    let dir = tempfile::tempdir().unwrap();
    let good = |n: u32, kind: &str| {
        format!(
            r#"{{"version":"2.0","id":"00000000-0000-4000-8000-{n:012}","timestamp":"2026-11-18T10:00:0{n}.000000001Z","type":"{kind}","data":{{"room_id":"r1","room_name":"standup","peer_id":"p{n}","user_name":"User {n}","error_code":4005,"error_name":"ICEFailure","is_terminal":true,"action":"JOIN"}}}}"#
        )
    };
    let text = format!(
        "{}\n{}\n{{\"version\":\"2.0\",\"id\":\"broken\",\"data\":{{\"error_code\":\n",
        good(1, "client.join.failed"),
        good(2, "client.publish.failed"),
    );
    std::fs::write(dir.path().join("damaged.ndjson"), text).unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.launch("", "damaged.ndjson");
    let screen = tmux.wait_for_text("2 shown / 2 loaded │ idle");
    assert!(screen.contains("FILE  damaged.ndjson"), "{screen}");
    let problem = screen
        .lines()
        .find(|l| l.contains('⚠'))
        .unwrap_or_else(|| panic!("no problem in the header:\n{screen}"));
    let position = problem
        .split("damaged.ndjson:")
        .nth(1)
        .and_then(|rest| rest.split(": ").next())
        .unwrap_or_default();
    let numbers: Vec<&str> = position.split(':').collect();
    assert!(
        numbers.len() == 2 && numbers.iter().all(|n| n.parse::<usize>().is_ok()),
        "the problem names the file and line:column: {problem}"
    );
    assert_eq!(list_rows(&screen).len(), 2, "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn with_no_source_and_no_token_the_explorer_says_it_opened_the_demo_and_how_to_go_live() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.launch("", "");
    let screen = tmux.wait_for_text("no token was found, so this is the demo");
    assert!(screen.contains("DEMO"), "{screen}");
    assert!(screen.contains("set HMS_MANAGEMENT_TOKEN"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn an_empty_file_opens_with_a_note_that_it_is_empty() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty.json"), "").unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.launch("", "empty.json");
    let screen = tmux.wait_for_text("note: empty.json is empty: it holds no events");
    assert!(screen.contains("0 shown / 0 loaded"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

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
fn a_conflicting_binding_or_an_unknown_theme_stops_the_explorer_before_it_takes_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("bad.toml");
    std::fs::write(
        &config,
        "theme = \"neon\"\n[keys]\nquit = \"ctrl-q\"\n[profiles.demo.keys]\ngroups = \"j\"\ncopy_json = \"ctrl-\"\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_callscope"))
        .args(["--demo", "--profile", "demo", "--config"])
        .arg(&config)
        .env_remove("NO_COLOR")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "nothing is drawn");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let file = format!("callscope: config file {}: ", config.display());
    for expected in [
        format!("{file}[profiles.demo.keys] groups: \"j\" already runs down in the list"),
        format!("{file}[profiles.demo.keys] copy_json: \"ctrl-\" is not a key"),
        format!("{file}theme = \"neon\": no such theme; the themes are default, dark, light, mono"),
    ] {
        assert!(
            stderr.contains(&expected),
            "{expected:?} missing:\n{stderr}"
        );
    }
    assert!(!stderr.contains("needs a terminal"), "{stderr}");
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
fn a_gzip_dump_piped_in_opens_with_every_event_and_answers_keys() {
    let dir = tempfile::tempdir().unwrap();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo.ndjson.gz");
    std::fs::copy(&demo, dir.path().join("demo.ndjson.gz")).unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // Stdin is the pipe; the keys come from the terminal.
    tmux.launch("cat demo.ndjson.gz | ", "-");
    let every = demo_count(&Filter::default());
    let screen = tmux.wait_for_text(&format!("{every} shown / {every} loaded │ idle"));
    assert!(screen.contains("FILE  -"), "{screen}");
    assert!(!screen.contains('⚠'), "no problem: {screen}");
    tmux.keys(&["3"]);
    let joins = demo_count(&Filter {
        types: vec![EventType::Join],
        ..Filter::default()
    });
    tmux.wait_for_text(&format!("{joins} shown / {every} loaded"));
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn a_dump_asked_of_stdin_when_stdin_is_the_terminal_is_refused_before_the_screen_is_taken() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // Reading the terminal as the dump would eat the keys, `q` among them.
    tmux.launch("", "-");
    let screen = tmux.wait_for_text("explorer exited with 2");
    assert!(
        screen.contains("callscope: `-` reads a dump from standard input, which is this terminal"),
        "{screen}"
    );
    assert_eq!(
        tmux.pane("#{alternate_on}"),
        "0",
        "the screen was never taken"
    );
    // The terminal named by a path.
    tmux.type_text(&format!(
        "{} /dev/stdin; echo \"path refused with $?\"",
        binary()
    ));
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("path refused with 2");
    assert!(
        screen.contains("callscope: /dev/stdin is this terminal, not a dump"),
        "{screen}"
    );
}

#[test]
fn sigterm_or_sighup_stops_the_explorer_restores_the_terminal_and_says_which_signal() {
    // The shell's status for a process killed by the signal: 128 and its number.
    for (signal, status) in [("TERM", 143), ("HUP", 129), ("INT", 130)] {
        let dir = tempfile::tempdir().unwrap();
        let Some(tmux) = Tmux::start(dir.path()) else {
            return;
        };
        // The explorer's own pid, written by the shell that becomes it.
        tmux.type_text(&format!(
            "sh -c 'echo $$ > explorer.pid; exec {} --demo'; echo \"explorer exited with $?\"",
            binary()
        ));
        tmux.keys(&["Enter"]);
        tmux.wait_for_text("loaded │ idle");
        let pid = std::fs::read_to_string(dir.path().join("explorer.pid")).unwrap();
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), pid.trim()])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -{signal} {pid}");
        assert_terminal_restored(&tmux, status);
    }
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

#[test]
fn a_live_explorer_refused_by_the_api_says_why_in_full_with_the_profiles_token_variable() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    let upstream = serve_demo("tok-good-9f2e");
    // A profile that reads the token from a variable of its own.
    std::fs::write(
        dir.path().join("prod.toml"),
        format!(
            "[profiles.prod]\nbase_url = \"{}\"\nlive = true\ntoken_env = \"PROD_TOKEN\"\n",
            upstream.url
        ),
    )
    .unwrap();
    tmux.launch(
        "PROD_TOKEN=tok-wrong-41c7 ",
        "--config prod.toml --profile prod --room 673a1f2c9e4b8d0a5c7e3f21",
    );
    let screen = tmux.wait_for_text("the query again)");
    // The reason, whole (the header has room for its start only), naming the variable the
    // profile reads and never the token.
    let body: String = screen
        .lines()
        .skip(4)
        .map(|l| l.split('│').next().unwrap_or("").trim())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        body.contains("no events loaded: HTTP 401")
            && body.contains("check the token: PROD_TOKEN")
            && body.contains("R runs the query again"),
        "{screen}"
    );
    assert!(!screen.contains("HMS_MANAGEMENT_TOKEN"), "{screen}");
    assert!(!screen.contains("tok-wrong-41c7"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn ctrl_z_gives_the_shell_its_terminal_back_and_fg_brings_the_explorer_back_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.start_demo("", "");
    tmux.keys(&["j", "j"]);
    tmux.wait_for_text("events 3/");
    tmux.keys(&["C-z"]);
    // The shell has the terminal: its own screen, a canonical line that echoes.
    // The shell has the terminal as it was; it reports the stop as a status of 128 + SIGTSTP
    // and runs the rest of the command line.
    let screen = tmux.wait_for(
        |s| s.contains("Stopped") && s.trim_end().ends_with(PROMPT),
        "the shell to say the explorer stopped",
    );
    assert!(screen.contains("explorer exited with 148"), "{screen}");
    assert!(!screen.contains("events 3/"), "{screen}");
    assert_shell_has_the_terminal(&tmux);
    // fg: the explorer takes the terminal again, where it was.
    tmux.type_text("fg");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for_text("events 3/");
    assert!(screen.contains("2,400 shown"), "{screen}");
    assert_eq!(tmux.pane("#{alternate_on}"), "1");
    assert_eq!(tmux.pane("#{mouse_any_flag}"), "1");
    // And it answers keys as before.
    tmux.keys(&["j"]);
    tmux.wait_for_text("events 4/");
    tmux.keys(&["q"]);
    tmux.wait_for(
        |s| !s.contains("events 4/") && s.trim_end().ends_with(PROMPT),
        "the shell after q",
    );
    assert_shell_has_the_terminal(&tmux);
}

#[test]
fn r_keeps_the_rows_and_the_selected_event_on_screen_until_the_slow_answer_arrives() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // A server that answers each request after a second and a half.
    let upstream = serve(&["--demo", "--delay-ms", "1500"], "tok-slow-5d1e");
    tmux.launch(
        "HMS_MANAGEMENT_TOKEN=tok-slow-5d1e ",
        &format!(
            "--live --base-url {} --room 673a1f2c9e4b8d0a5c7e3f21",
            upstream.url
        ),
    );
    tmux.wait_for(
        |s| s.contains("events 1/") && s.contains("more as you scroll"),
        "the first page",
    );
    for _ in 0..5 {
        tmux.keys(&["j"]);
    }
    let before = tmux.wait_for_text("events 6/");
    let rows_before: Vec<String> = list_rows(&before).iter().map(|r| r.to_string()).collect();
    assert!(rows_before.len() > 6, "{before}");
    tmux.keys(&["R"]);
    // While the query runs again, the old rows and the selection stay.
    let during = tmux.wait_for_text("these rows stay until its answer arrives");
    assert!(during.contains("running again…"), "{during}");
    assert_eq!(list_rows(&during), rows_before, "{during}");
    assert!(during.contains("events 6/"), "{during}");
    // The answer: the selected event is found again, on the line it was on.
    let after = tmux.wait_for(
        |s| !s.contains("running again") && s.contains("more as you scroll"),
        "the new answer",
    );
    assert!(after.contains("events 6/"), "{after}");
    assert_eq!(list_rows(&after)[5], rows_before[5], "{after}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

/// Søren Kowalski, a peer of the demo's join storm who got in after four failed joins.
const SOREN: &str = "67fc2ca6-0292-4826-b8f5-81a2c18e5bab";
/// Priya Raman, the demo's peer whose publishing gives up, in room design-review.
const PRIYA: &str = "3f6b2a9e-8c41-4d7a-9b25-e0c4d1f7a863";
const DESIGN_REVIEW: &str = "673a1f4e2b7c9d1a0e8f5b63";

#[test]
fn on_the_demo_a_peers_story_tells_whether_it_got_through_in_two_keys() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.start_demo("", &format!("--peer {SOREN}"));
    tmux.keys(&["p"]);
    // Waited for whole: a capture can catch the story drawn over part of the list.
    let screen = tmux.wait_for(
        |s| {
            s.contains("got through: joined session 6afd7544… at 10:05:10")
                && s.contains("published video")
                && s.contains("outcome: got through")
        },
        "the story with its verdict and track events, and the detail pane's verdict",
    );
    assert!(
        screen.contains("JOIN: 4 failed attempts over 7s"),
        "{screen}"
    );
    assert!(screen.contains("published video"), "{screen}");
    // The detail pane of the chain's first failure gives the same verdict.
    assert!(screen.contains("outcome: got through"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

/// `callscope serve` over the demo, with a token.
fn serve_demo(token: &str) -> common::Server {
    serve(&["--demo"], token)
}

/// `callscope serve` with these arguments on a port of its own, with a token.
fn serve(args: &[&str], token: &str) -> common::Server {
    let mut serve = Command::new(env!("CARGO_BIN_EXE_callscope"));
    serve
        .arg("serve")
        .args(args)
        .args(["--addr", "127.0.0.1:0"])
        .env("CALLSCOPE_SERVE_TOKEN", token)
        .stderr(std::process::Stdio::null());
    common::Server::spawn(serve)
}

#[test]
fn live_the_story_asks_for_the_rooms_sessions_and_the_peers_track_events() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    let upstream = serve_demo("tok-rel-3a9c");
    tmux.launch(
        "HMS_MANAGEMENT_TOKEN=tok-rel-3a9c ",
        &format!(
            "--live --base-url {} --room 673a1f2c9e4b8d0a5c7e3f21 --peer {SOREN}",
            upstream.url
        ),
    );
    tmux.wait_for_text("all pages loaded");
    tmux.keys(&["p"]);
    // The verdict rests on the sessions fetched with the events; the track events, fetched
    // when the story opened, are not among the query's errors.
    let screen = tmux.wait_for(
        |s| s.contains("got through: joined session 6afd7544…") && s.contains("published video"),
        "the verdict and the track events",
    );
    assert!(screen.contains("4 shown / 4 loaded"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn live_m_asks_for_the_peers_quality_stats_and_draws_them() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    let upstream = serve_demo("tok-rel-3a9c");
    tmux.launch(
        "HMS_MANAGEMENT_TOKEN=tok-rel-3a9c ",
        &format!(
            "--live --base-url {} --room {DESIGN_REVIEW} --peer {PRIYA}",
            upstream.url
        ),
    );
    tmux.wait_for_text("all pages loaded");
    tmux.keys(&["p"]);
    tmux.wait_for_text("PUBLISH: 10 failed attempts");
    // On the chain's line: the network around its last failure.
    tmux.keys(&["g", "m"]);
    let screen =
        tmux.wait_for_text("summary: packet loss rose to 32.9% by the failure at 11:42:50");
    assert!(
        screen.contains("publish · packet loss % ━ video h"),
        "{screen}"
    );
    assert!(screen.contains("10 error(s) marked"), "{screen}");
    tmux.keys(&["Escape"]);
    tmux.wait_for_text("PUBLISH: 10 failed attempts");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn live_the_network_view_says_the_service_answers_once_the_session_has_ended() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // A folder served: one publish failure, in a session still active.
    let folder = dir.path().join("served");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(
        folder.join("events.ndjson"),
        r#"{"version":"2.0","id":"e1","timestamp":"2026-11-18T10:00:00Z","type":"client.publish.failed","data":{"room_id":"r-active","session_id":"s-active","peer_id":"p1","user_name":"Ada","error_code":4006,"error_name":"ICEDisconnected","is_terminal":false,"action":"PUBLISH"}}
"#,
    )
    .unwrap();
    std::fs::write(
        folder.join("sessions.json"),
        r#"{"limit":1,"data":[{"id":"s-active","room_id":"r-active","active":true,"created_at":"2026-11-18T09:59:00Z","peers":{"p1":{"id":"p1","name":"Ada","joined_at":"2026-11-18T09:59:30Z"}}}],"last":"s-active"}
"#,
    )
    .unwrap();
    let upstream = serve(&[folder.to_str().unwrap()], "tok-act-71b0");
    tmux.launch(
        "HMS_MANAGEMENT_TOKEN=tok-act-71b0 ",
        &format!("--live --base-url {} --room r-active", upstream.url),
    );
    tmux.wait_for_text("all pages loaded");
    tmux.keys(&["m"]);
    let screen = tmux.wait_for_text("the service gave no quality stats");
    let body = screen.replace('\n', " ");
    assert!(
        body.contains("the session is still active: quality stats are available after it ends"),
        "{screen}"
    );
    assert!(body.contains("R asks again"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

#[test]
fn with_no_room_the_live_explorer_asks_for_one_looks_its_name_up_and_remembers_it() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    let upstream = serve_demo("tok-room-2b7a");
    let launch = || {
        tmux.launch(
            "HMS_MANAGEMENT_TOKEN=tok-room-2b7a ",
            &format!("--live --base-url {}", upstream.url),
        )
    };
    launch();
    // No query is sent (serve, like the hosted API, refuses one without a room): the prompt
    // offers the rooms of the demo's recent sessions, named through the rooms endpoint.
    let screen = tmux.wait_for(
        |s| s.contains("Choose a room") && s.contains("weekly-allhands") && s.contains("peers"),
        "the room prompt with the recent sessions' rooms",
    );
    assert!(screen.contains("no room chosen"), "{screen}");
    assert!(!screen.contains("room_id is required"), "{screen}");
    assert!(!screen.contains("Rooms used before"), "{screen}");
    // A name, looked up: its events load.
    tmux.type_text("weekly-allhands");
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for(
        |s| s.contains("events 1/") && s.contains("more as you scroll"),
        "the room's first page",
    );
    assert!(screen.contains("room=673a1f2c9e4b8d0a5c7e3f21"), "{screen}");
    assert!(!screen.contains("Choose a room"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
    let remembered = std::fs::read_to_string(tmux.state_home.join("callscope").join("rooms.json"))
        .expect("the room is remembered in the state folder");
    assert!(
        remembered.contains("673a1f2c9e4b8d0a5c7e3f21") && remembered.contains("weekly-allhands"),
        "{remembered}"
    );
    // The next run offers it among the rooms used before.
    launch();
    let screen = tmux.wait_for(
        |s| s.contains("Rooms used before") && s.contains("peers"),
        "the prompt with the rooms used before",
    );
    let used = screen
        .split("Rooms used before")
        .nth(1)
        .expect("the section is drawn");
    assert!(used.contains("weekly-allhands"), "{screen}");
    // Taken with the arrows: the last room offered is the one used before.
    for _ in 0..20 {
        tmux.keys(&["Down"]);
    }
    tmux.keys(&["Enter"]);
    let screen = tmux.wait_for(
        |s| s.contains("events 1/") && s.contains("more as you scroll"),
        "the first page of the room used before",
    );
    assert!(screen.contains("room=673a1f2c9e4b8d0a5c7e3f21"), "{screen}");
    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux, 0);
}

/// The temporary files a process holds open in `folder`, named as /proc names them (an unlinked
/// one ends in ` (deleted)`).
#[cfg(target_os = "linux")]
fn files_held_in(pid: &str, folder: &Path) -> Vec<String> {
    let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) else {
        return Vec::new();
    };
    fds.filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .map(|target| target.to_string_lossy().into_owned())
        .filter(|target| target.starts_with(folder.to_str().unwrap()))
        .collect()
}

#[test]
#[cfg(target_os = "linux")]
fn q_while_a_pipe_is_still_being_read_quits_at_once_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    // More than the explorer holds of a pipe in memory (its first pieces): the rest goes to a
    // temporary file.
    let made = Command::new(env!("CARGO_BIN_EXE_callscope"))
        .args(["demo-data", "--events", "40000", "--out"])
        .arg(dir.path().join("data"))
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    let events = std::fs::read(dir.path().join("data/events.ndjson")).unwrap();
    assert!(events.len() > 40 << 20, "{} bytes", events.len());
    let fifo = dir.path().join("events.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success(), "mkfifo");
    let temporary = dir.path().join("tmp");
    std::fs::create_dir(&temporary).unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    // The writer writes every event, then holds the pipe open until the test ends, as a
    // `kubectl logs -f | callscope -` that never ends would: the explorer cannot finish loading.
    let (done, wait_done) = std::sync::mpsc::channel::<()>();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let mut pipe = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
        // The explorer may quit before it has read every byte: a closed pipe is no failure.
        let _ = pipe.write_all(&events);
        let _ = wait_done.recv();
    });
    tmux.type_text(&format!(
        "sh -c 'echo $$ > explorer.pid; TMPDIR=tmp exec {} - < events.fifo'; echo \"explorer exited with $?\"",
        binary()
    ));
    tmux.keys(&["Enter"]);
    tmux.wait_for(
        |s| s.contains(" shown / ") && s.contains("loading…") && s.contains("events 1/"),
        "the first events shown while the pipe is still read",
    );
    let pid = std::fs::read_to_string(dir.path().join("explorer.pid")).unwrap();
    let pid = pid.trim();
    // The part beyond what it holds in memory is in a temporary file, already unlinked.
    let start = Instant::now();
    let held = loop {
        let held = files_held_in(pid, &temporary.canonicalize().unwrap());
        if !held.is_empty() || start.elapsed() > DEADLINE {
            break held;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(!held.is_empty(), "no temporary file in {temporary:?}");
    assert!(held.iter().all(|f| f.ends_with(" (deleted)")), "{held:?}");
    assert!(tmux.screen().contains("loading…"), "still loading");

    tmux.keys(&["q"]);
    // The pipe is still open: the explorer ends without waiting for its end.
    assert_terminal_restored(&tmux, 0);
    let left: Vec<_> = std::fs::read_dir(&temporary).unwrap().collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
    done.send(()).unwrap();
    writer.join().unwrap();
}
