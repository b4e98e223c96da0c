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
use callscope::tui::view::header::thousands;

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

/// The list rows on the screen: the lines that start with a time of day.
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
        .collect()
}

fn demo_count(filter: &Filter) -> String {
    let mut store = Store::new();
    store.merge(callscope::source::demo::load());
    thousands(store.filter(filter).len())
}

/// After the explorer quits, the shell is back on its normal screen with the terminal as it was.
fn assert_terminal_restored(tmux: &Tmux) {
    let screen = tmux.wait_for_text("explorer exited with 0");
    assert!(screen.contains(PROMPT), "{screen}");
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
    tmux.type_text("stty -a | tr ' ' '\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' '; echo end");
    tmux.keys(&["Enter"]);
    tmux.wait_for(
        |s| s.lines().any(|l| l.trim_end() == "icanon echo end"),
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
    tmux.type_text(&format!(
        "{} --demo; echo \"explorer exited with $?\"",
        binary()
    ));
    tmux.keys(&["Enter"]);

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

    tmux.keys(&["/"]);
    tmux.wait_for_text("Enter apply");
    tmux.type_text("Siddharth");
    tmux.keys(&["Enter"]);
    let found = demo_count(&Filter {
        types: vec![EventType::Join],
        search: Some("Siddharth".into()),
        ..Filter::default()
    });
    let screen = tmux.wait_for_text(&format!("{found} shown / {all} loaded"));
    assert!(screen.contains("search:Siddharth"), "{screen}");
    assert!(
        screen.contains("Enter/Tab detail"),
        "back in the list:\n{screen}"
    );

    tmux.keys(&["?"]);
    let screen = tmux.wait_for_text("show/hide join failures");
    assert!(screen.contains("quit"), "{screen}");
    tmux.keys(&["Escape"]);
    tmux.wait_for(
        |s| !s.contains("show/hide join failures"),
        "the help to close",
    );

    tmux.keys(&["q"]);
    assert_terminal_restored(&tmux);
}

#[test]
fn ctrl_c_quits_from_a_filter_input_and_restores_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let Some(tmux) = Tmux::start(dir.path()) else {
        return;
    };
    tmux.type_text(&format!(
        "{} --demo; echo \"explorer exited with $?\"",
        binary()
    ));
    tmux.keys(&["Enter"]);
    tmux.wait_for_text("loaded │ idle");
    tmux.keys(&["f"]);
    tmux.wait_for_text("Enter apply");
    tmux.type_text("q");
    tmux.keys(&["C-c"]);
    assert_terminal_restored(&tmux);
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
    tmux.type_text(&format!(
        "{} damaged.ndjson; echo \"explorer exited with $?\"",
        binary()
    ));
    tmux.keys(&["Enter"]);
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
    assert_terminal_restored(&tmux);
}
