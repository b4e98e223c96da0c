//! The tmux driver: a tmux server of the test's own running a plain shell, with the keys,
//! clicks, screen captures and waits the tests use.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

pub const WIDTH: u16 = 120;
pub const HEIGHT: u16 = 40;
/// The shell's prompt (capture-pane drops the space that follows it at the end of a line).
pub const PROMPT: &str = "callscope-test$";
/// How long the screen may take to show what is expected: generous, for loaded CI machines.
pub const DEADLINE: Duration = Duration::from_secs(30);

/// A tmux server of its own (its own socket, in the test's folder), killed when the test ends,
/// however it ends.
pub struct Tmux {
    socket: String,
    /// Where the explorer looks for its config when none is named: empty, so that the config
    /// of the machine running the tests plays no part.
    pub config_home: std::path::PathBuf,
    /// Where the explorer remembers what it remembers (the rooms used before): the test's own.
    pub state_home: std::path::PathBuf,
}

impl Tmux {
    /// Starts a detached session of fixed size running a plain shell in `dir`, or returns `None`
    /// when tmux is missing and CALLSCOPE_SKIP_TMUX=1 says to skip.
    pub fn start(dir: &Path) -> Option<Tmux> {
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

    pub fn run(&self, args: &[&str]) -> Output {
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

    pub fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "tmux {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Sends tmux key names (`Enter`, `Tab`, `j`).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "main"];
        args.extend_from_slice(keys);
        self.ok(&args);
    }

    /// Types text literally.
    pub fn type_text(&self, text: &str) {
        self.ok(&["send-keys", "-t", "main", "-l", text]);
    }

    pub fn screen(&self) -> String {
        self.ok(&["capture-pane", "-p", "-t", "main"])
    }

    /// The screen with its colours and attributes as escape sequences.
    pub fn styled_screen(&self) -> String {
        self.ok(&["capture-pane", "-p", "-e", "-t", "main"])
    }

    /// The newest paste buffer, if any.
    pub fn buffer(&self) -> Option<String> {
        let out = self.run(&["save-buffer", "-"]);
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Polls the paste buffer until it holds `expected`.
    pub fn wait_for_buffer(&self, expected: &str) {
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
    pub fn click(&self, column: u16, row: u16) {
        let (x, y) = (column + 1, row + 1);
        self.type_text(&format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m"));
    }

    /// Starts callscope from the shell with these arguments, after `prefix` (variables, or a
    /// pipe into it); the shell then says `explorer exited with N`.
    pub fn launch(&self, prefix: &str, args: &str) {
        self.type_text(&format!(
            "{prefix}{} {args}; echo \"explorer exited with $?\"",
            binary()
        ));
        self.keys(&["Enter"]);
    }

    /// Starts the explorer from the shell with these arguments and waits until the demo is
    /// loaded.
    pub fn start_demo(&self, prefix: &str, args: &str) {
        self.launch(prefix, &format!("--demo {args}"));
        self.wait_for(
            |s| s.contains("loaded │ idle") && s.contains("events 1/"),
            "the demo loaded",
        );
    }

    /// A tmux format of the pane, e.g. `#{alternate_on}`.
    pub fn pane(&self, format: &str) -> String {
        self.ok(&["display-message", "-p", "-t", "main", format])
            .trim()
            .to_string()
    }

    /// Polls the screen until `ready` holds; fails with the last screen after the deadline.
    pub fn wait_for(&self, ready: impl Fn(&str) -> bool, what: &str) -> String {
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

    pub fn wait_for_text(&self, text: &str) -> String {
        self.wait_for(|s| s.contains(text), &format!("{text:?}"))
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

pub fn binary() -> String {
    let path = env!("CARGO_BIN_EXE_callscope");
    assert!(
        !path.contains('\''),
        "the binary's path holds a quote: {path}"
    );
    format!("'{path}'")
}
