//! Shell completions and the man page, as a packager or a user installs them.

use assert_cmd::Command;

const BIN: &str = env!("CARGO_BIN_EXE_callscope");
const COMMANDS: &[&str] = &[
    "list",
    "serve",
    "story",
    "demo-data",
    "config",
    "completions",
    "man",
];

fn stdout(args: &[&str]) -> String {
    let out = Command::new(BIN).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_bash_completion_loads_in_bash() {
    let script = format!("source <('{BIN}' completions bash) && complete -p callscope");
    let out = std::process::Command::new("bash")
        .args(["--noprofile", "--norc", "-c", &script])
        .output()
        .expect("bash runs");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("callscope"), "{said}");
}

#[test]
fn the_bash_completion_offers_commands_and_values() {
    // COMP_WORDS as bash fills them for `callscope l<TAB>` and `callscope list --format <TAB>`.
    let complete = |words: &str, cword: usize| {
        let script = format!(
            "source <('{BIN}' completions bash); COMP_WORDS=({words}); COMP_CWORD={cword}; COMP_LINE=\"{words}\"; COMP_POINT=${{#COMP_LINE}}; _callscope callscope \"${{COMP_WORDS[COMP_CWORD]}}\" \"${{COMP_WORDS[COMP_CWORD-1]}}\"; printf '%s\\n' \"${{COMPREPLY[@]}}\""
        );
        let out = std::process::Command::new("bash")
            .args(["--noprofile", "--norc", "-c", &script])
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let commands = complete("callscope l", 1);
    assert!(commands.lines().any(|l| l == "list"), "{commands}");
    let formats = complete("callscope list --format ''", 3);
    for f in ["table", "ndjson", "json", "csv"] {
        assert!(formats.lines().any(|l| l == f), "{f} in {formats}");
    }
    let keys = complete("callscope list --group-by ''", 3);
    for k in ["error", "sdk", "os", "device", "peer"] {
        assert!(keys.lines().any(|l| l == k), "{k} in {keys}");
    }
    // Types are offered by name, though any full type name is taken.
    let types = complete("callscope list --type ''", 3);
    for t in [
        "join",
        "client.join.failed",
        "track.add.success",
        "beam.recording.success",
    ] {
        assert!(types.lines().any(|l| l == t), "{t} in {types}");
    }
}

#[test]
fn the_profiles_of_the_config_file_are_completed() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[profiles.prod]\n[profiles.staging]\n").unwrap();
    let out = std::process::Command::new(BIN)
        .args(["completions", "bash"])
        .env("CALLSCOPE_CONFIG", &config)
        .output()
        .unwrap();
    let script = String::from_utf8(out.stdout).unwrap();
    assert!(
        script.contains("prod") && script.contains("staging"),
        "the profiles are offered"
    );
    // A type outside the offered names is still taken.
    Command::new(BIN)
        .args([
            "list",
            "--demo",
            "--type",
            "client.preview.failed",
            "--format",
            "ndjson",
        ])
        .assert()
        .success();
}

#[test]
fn zsh_and_fish_scripts_name_every_command() {
    let zsh = stdout(&["completions", "zsh"]);
    assert!(zsh.starts_with("#compdef callscope"), "{}", &zsh[..40]);
    let fish = stdout(&["completions", "fish"]);
    for c in COMMANDS {
        assert!(zsh.contains(c), "zsh: {c}");
        assert!(fish.contains(&format!("-a \"{c}\"")), "fish: {c}");
    }
    for shell in ["zsh", "fish"] {
        let check = if shell == "zsh" { "-n" } else { "--no-execute" };
        if let Ok(out) = std::process::Command::new(shell)
            .arg(check)
            .arg("/dev/stdin")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                let text = if shell == "zsh" { &zsh } else { &fish };
                child.stdin.take().unwrap().write_all(text.as_bytes())?;
                child.wait_with_output()
            })
        {
            assert!(out.status.success(), "{shell} rejects its script");
        }
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    Command::new(BIN)
        .args(["completions", "tcsh"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("bash"));
}

#[test]
fn the_man_page_names_every_command_and_option() {
    let page = stdout(&["man"]);
    assert!(page.contains(".TH callscope 1"), "{}", &page[..200]);
    assert!(page.contains(".SH SUBCOMMANDS"));
    for c in COMMANDS {
        assert!(
            page.contains(&format!("callscope\\-{}(1)", c.replace('-', "\\-"))),
            "{c}"
        );
    }
    for option in [
        "\\-\\-profile",
        "\\-\\-config",
        "\\-\\-log\\-file",
        "\\-\\-room",
    ] {
        assert!(page.contains(option), "{option}");
    }
    // The sections a man page reader looks for: the examples as written, one per line; the
    // explorer's keys from its key table; the environment, the files, the exit statuses.
    for section in ["EXAMPLES", "KEYS", "ENVIRONMENT", "FILES", "EXIT STATUS"] {
        assert!(page.contains(&format!(".SH {section}")), "{section}");
    }
    assert!(
        page.contains(".nf\n  callscope \\-\\-demo  "),
        "examples unfilled"
    );
    for key in ["HMS_MANAGEMENT_TOKEN", "NO_COLOR", "config.toml", "143"] {
        assert!(page.contains(key), "{key}");
    }
    assert!(page.contains(".SS In the list") && page.contains("\\fBq/Ctrl\\-C\\fR"));
    let list = stdout(&["man", "list"]);
    assert!(list.contains(".TH callscope-list 1"), "{}", &list[..200]);
    for option in ["\\-\\-redact", "\\-\\-format", "\\-\\-group\\-by"] {
        assert!(list.contains(option), "{option}");
    }
    let serve = stdout(&["man", "serve"]);
    for option in [
        "\\-\\-token\\-file",
        "\\-\\-live\\-token\\-file",
        "\\-\\-addr",
    ] {
        assert!(serve.contains(option), "{option}");
    }
    // serve's own page: none of list's output options.
    assert!(!serve.contains("\\-\\-group\\-by") && !serve.contains("\\-\\-format"));
    Command::new(BIN)
        .args(["man", "nope"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("list, serve"));
}

#[test]
fn the_man_page_renders_with_man_when_it_is_installed() {
    let Ok(probe) = std::process::Command::new("man").arg("--version").output() else {
        return;
    };
    if !probe.status.success() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("callscope.1");
    std::fs::write(&path, stdout(&["man"])).unwrap();
    let out = std::process::Command::new("man")
        .arg("-l")
        .arg(&path)
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("callscope-list"), "{text}");
}

#[test]
fn every_page_is_written_into_a_folder_as_a_packager_installs_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = stdout(&["man", "--out", dir.path().to_str().unwrap()]);
    assert_eq!(out.lines().count(), COMMANDS.len() + 1, "{out}");
    for name in std::iter::once("callscope".to_string())
        .chain(COMMANDS.iter().map(|c| format!("callscope-{c}")))
    {
        let page = std::fs::read_to_string(dir.path().join(format!("{name}.1"))).unwrap();
        assert!(page.contains(&format!(".TH {name} 1")), "{name}");
        assert!(page.contains(".SH SYNOPSIS"), "{name}");
    }
}

#[test]
fn the_man_pages_keys_are_the_key_tables_every_binding() {
    let page = stdout(&["man"]);
    let keys = &page[page.find(".SH KEYS").expect("a KEYS section")..];
    let keys = &keys[..keys[4..].find(".SH ").map_or(keys.len(), |i| i + 4)];
    // roff escapes each '-' as "\-".
    let roff = |s: &str| s.replace('-', "\\-");
    for b in callscope::tui::keymap::BINDINGS {
        assert!(
            keys.contains(&roff(b.help)),
            "the KEYS section lacks {:?}",
            b.help
        );
    }
    for written in [
        "\\fBP\\fR\nevery problem met loading",
        "\\fBw\\fR\nwrite what y copies to a file",
    ] {
        assert!(keys.contains(written), "{written}");
    }
}

/// Every option README's `serve` section teaches is one `serve --help` shows (or a global one
/// `callscope --help` shows): none is taught that the help hides.
#[test]
fn serve_help_shows_every_option_the_readmes_serve_section_names() {
    let readme = include_str!("../README.md");
    let start = readme
        .find("\n## `serve`")
        .expect("README has a serve section");
    let section = &readme[start + 1..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let help = stdout(&["serve", "--help"]);
    let global = stdout(&["--help"]);
    let mut named = 0;
    for (at, _) in section.match_indices("`--") {
        let option: String = section[at + 1..]
            .chars()
            .take_while(|c| *c == '-' || c.is_ascii_alphanumeric())
            .collect();
        let shown = |text: &str| {
            text.match_indices(&option).any(|(i, _)| {
                !text[i + option.len()..].starts_with(|c: char| c == '-' || c.is_alphanumeric())
            })
        };
        assert!(
            shown(&help) || shown(&global),
            "README's serve section names {option}, which serve --help does not show"
        );
        named += 1;
    }
    assert!(named > 3, "README's serve section names {named} options");
}

/// The examples of `callscope --help` that print events run as written (FILE an empty config
/// file), the one that gives `--config` before the command's name among them.
#[test]
fn the_helps_list_examples_run_as_written() {
    let help = stdout(&["--help"]);
    let examples = help.split("Examples:\n").nth(1).expect("help has examples");
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "").unwrap();
    let mut ran = Vec::new();
    for line in examples.lines() {
        let command = line.trim().split("  ").next().unwrap_or_default();
        let words: Vec<&str> = command.split_whitespace().collect();
        if words.first() != Some(&"callscope") || !words.contains(&"list") {
            continue;
        }
        let args = words[1..].iter().map(|&w| match w {
            "FILE" => config.as_os_str(),
            w => std::ffi::OsStr::new(w),
        });
        let out = Command::new(BIN)
            .args(args)
            .env("HOME", dir.path())
            .env_remove("CALLSCOPE_CONFIG")
            .env_remove("CALLSCOPE_PROFILE")
            .output()
            .unwrap();
        assert!(
            out.status.success() && !out.stdout.is_empty(),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        ran.push(command);
    }
    assert!(
        ran.iter()
            .any(|c| c.starts_with("callscope --config FILE list")),
        "{ran:?}"
    );
}
