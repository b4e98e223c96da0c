//! Profiles and the config file, tried as a user meets them: the real binary with its own HOME,
//! `list --live` against `callscope serve` started here, and `callscope config`.

use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Stdio};

use assert_cmd::Command;

const BIN: &str = env!("CARGO_BIN_EXE_callscope");

mod common;
use common::{Server, callscope};
const INCIDENT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/serve/incident.json"
);
const TOKEN_A: &str = "token-a-91f3c7";
/// The demo's join storm room: the hosted API answers queries of one room only.
const STORM_ROOM: &str = "673a1f2c9e4b8d0a5c7e3f21";
const TOKEN_B: &str = "token-b-2d8e44";

fn write_config(home: &Path, text: &str) -> PathBuf {
    let dir = home.join(".config/callscope");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("config.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// `callscope serve SOURCE` on a free port, its token in a file under `dir`.
fn serve(source: &[&str], token: &str, dir: &Path) -> Server {
    let token_file = dir.join(format!("serve-{token}"));
    std::fs::write(&token_file, format!("{token}\n")).unwrap();
    let mut cmd = StdCommand::new(BIN);
    cmd.arg("serve")
        .args(source)
        .args(["--addr", "127.0.0.1:0", "--token-file"])
        .arg(&token_file)
        .env_remove("CALLSCOPE_SERVE_TOKEN")
        .stderr(Stdio::null());
    Server::spawn(cmd)
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_fresh_home_works_as_without_a_config() {
    let home = tempfile::tempdir().unwrap();
    let plain = stdout_of(
        callscope(home.path())
            .args([
                "list", "--demo", "--type", "join", "--max", "5", "--format", "ndjson",
            ])
            .args(["--config", "/dev/null"]),
    );
    let fresh = stdout_of(callscope(home.path()).args([
        "list", "--demo", "--type", "join", "--max", "5", "--format", "ndjson",
    ]));
    assert_eq!(fresh, plain);
    assert_eq!(fresh.lines().count(), 5);
    let report = stdout_of(callscope(home.path()).arg("config"));
    let expected = home.path().join(".config/callscope/config.toml");
    assert!(
        report.contains(&format!("{} (not found", expected.display())),
        "{report}"
    );
    assert!(report.contains("profile     none"), "{report}");
    assert!(report.contains("https://api.100ms.live"), "{report}");
    // Without a terminal the explorer says so, as it always did, instead of tripping on config.
    callscope(home.path())
        .arg("--demo")
        .assert()
        .code(2)
        .stderr(predicates::str::contains("needs a terminal"));
}

#[test]
fn two_profiles_switch_base_url_token_and_filters() {
    let home = tempfile::tempdir().unwrap();
    let a = serve(&[INCIDENT], TOKEN_A, home.path());
    let b = serve(&["--demo"], TOKEN_B, home.path());
    // The incident profile reads its token from a file named relative to the config; the demo
    // profile from a variable of its own.
    let config = write_config(
        home.path(),
        &format!(
            r#"
default_profile = "incident"

[profiles.incident]
base_url = "{a}"
token_file = "incident.token"
live = true
page_size = 2
[profiles.incident.filters]
room = "room-a"

[profiles.demo]
base_url = "{b}"
token_env = "DEMO_TOKEN"
live = true

[profiles.demo.filters]
type = ["join"]
terminal = true
room = "{STORM_ROOM}"
"#,
            a = a.url,
            b = b.url
        ),
    );
    std::fs::write(
        config.with_file_name("incident.token"),
        format!("{TOKEN_A}\n"),
    )
    .unwrap();
    let list = |args: &[&str]| {
        stdout_of(
            callscope(home.path())
                .args(["list", "--format", "ndjson"])
                .args(args)
                .env("DEMO_TOKEN", TOKEN_B),
        )
    };

    // The default profile: every event of the incident's room, paged two at a time.
    let incident = list(&[]);
    let expected = stdout_of(callscope(home.path()).args([
        "list",
        INCIDENT,
        "--room",
        "room-a",
        "--format",
        "ndjson",
        "--config",
        "/dev/null",
    ]));
    assert_eq!(incident, expected);
    assert!(
        incident.lines().count() > 2,
        "more than one page: {incident}"
    );

    // The demo profile: another server, another token, its filters.
    let demo = list(&["--profile", "demo"]);
    let expected = stdout_of(callscope(home.path()).args([
        "list",
        "--demo",
        "--room",
        STORM_ROOM,
        "--type",
        "join",
        "--terminal",
        "--format",
        "ndjson",
        "--config",
        "/dev/null",
    ]));
    assert!(!demo.is_empty());
    assert_eq!(demo, expected);

    // Flags win over the profile's filters; an empty flag clears one.
    let publish = list(&["--profile", "demo", "--type", "publish", "--retried"]);
    let expected = stdout_of(callscope(home.path()).args([
        "list",
        "--demo",
        "--room",
        STORM_ROOM,
        "--type",
        "publish",
        "--retried",
        "--format",
        "ndjson",
        "--config",
        "/dev/null",
    ]));
    assert_eq!(publish, expected);
    let all_types = list(&["--profile", "demo", "--type", "", "--max", "50"]);
    assert!(all_types.lines().any(|l| !l.contains("client.join.failed")));
}

#[test]
fn the_base_url_flag_wins_over_the_profile() {
    let home = tempfile::tempdir().unwrap();
    let b = serve(&["--demo"], TOKEN_B, home.path());
    let token = home.path().join("tok");
    std::fs::write(&token, TOKEN_B).unwrap();
    write_config(
        home.path(),
        "[profiles.p]\nbase_url = \"http://127.0.0.1:9\"\nlive = true\n",
    );
    let out = stdout_of(
        callscope(home.path())
            .args(["list", "--profile", "p", "--max", "3", "--format", "ndjson"])
            .args(["--room", STORM_ROOM])
            .args(["--base-url", &b.url, "--token-file"])
            .arg(&token),
    );
    assert_eq!(out.lines().count(), 3);
}

#[test]
fn config_shows_the_settings_of_each_profile_and_no_secret() {
    let home = tempfile::tempdir().unwrap();
    let config_dir = home.path().join(".config/callscope");
    std::fs::create_dir_all(&config_dir).unwrap();
    std::fs::write(config_dir.join("prod.token"), "prod-secret-token-6b1a\n").unwrap();
    write_config(
        home.path(),
        r#"
default_profile = "dev"
theme = "dark"

[keys]
quit = ["q", "ctrl-c"]

[profiles.dev]
base_url = "http://127.0.0.1:8080"
token_env = "DEV_TOKEN"
[profiles.dev.filters]
room = "room-dev"

[profiles.prod]
base_url = "https://api.example.com"
token_file = "~/.config/callscope/prod.token"
page_size = 25
theme = "light"
[profiles.prod.filters]
type = "join"
terminal = true
[profiles.prod.keys]
quit = "Q"
"#,
    );
    let run = |profile: Option<&str>| {
        let mut cmd = callscope(home.path());
        cmd.arg("config")
            .env("DEV_TOKEN", "dev-secret-token-93c2")
            .env("HMS_SECRET", "app-secret-5521");
        match profile {
            Some("") => cmd.arg("--no-profile"),
            Some(p) => cmd.args(["--profile", p]),
            None => &mut cmd,
        };
        stdout_of(&mut cmd)
    };
    // With --no-profile, what list and the explorer would use: no profile, not the default.
    let none = run(Some(""));
    assert!(none.contains("none (--no-profile)"), "{none}");
    assert!(
        !none.contains("room-dev") && !none.contains("8080"),
        "{none}"
    );
    let dev = run(None);
    assert!(dev.contains("dev (default_profile)"), "{dev}");
    assert!(dev.contains("http://127.0.0.1:8080 (profile dev)"), "{dev}");
    assert!(dev.contains("room=room-dev"), "{dev}");
    assert!(dev.contains("$DEV_TOKEN (set)"), "{dev}");
    assert!(dev.contains("theme       dark"), "{dev}");
    assert!(dev.contains("quit = q, ctrl-c"), "{dev}");
    let prod = run(Some("prod"));
    assert!(prod.contains("prod (--profile)"), "{prod}");
    assert!(prod.contains("https://api.example.com"), "{prod}");
    assert!(prod.contains("25 (profile prod)"), "{prod}");
    assert!(
        prod.contains("type=join") && prod.contains("final only"),
        "{prod}"
    );
    assert!(prod.contains("theme       light"), "{prod}");
    assert!(prod.contains("quit = Q"), "{prod}");
    let token_path = config_dir.join("prod.token");
    assert!(
        prod.contains(&format!("{} (exists", token_path.display())),
        "{prod}"
    );
    for report in [&dev, &prod] {
        for secret in [
            "dev-secret-token-93c2",
            "prod-secret-token-6b1a",
            "app-secret-5521",
        ] {
            assert!(!report.contains(secret), "{secret} in {report}");
        }
    }
}

#[test]
fn xdg_config_home_and_callscope_config_are_honoured() {
    let home = tempfile::tempdir().unwrap();
    let xdg = home.path().join("elsewhere");
    std::fs::create_dir_all(xdg.join("callscope")).unwrap();
    std::fs::write(
        xdg.join("callscope/config.toml"),
        "default_profile = \"x\"\n[profiles.x]\npage_size = 7\n",
    )
    .unwrap();
    let out = stdout_of(
        callscope(home.path())
            .arg("config")
            .env("XDG_CONFIG_HOME", &xdg),
    );
    assert!(out.contains("7 (profile x)"), "{out}");
    let named = home.path().join("named.toml");
    std::fs::write(
        &named,
        "default_profile = \"y\"\n[profiles.y]\npage_size = 9\n",
    )
    .unwrap();
    let out = stdout_of(
        callscope(home.path())
            .arg("config")
            .env("CALLSCOPE_CONFIG", &named),
    );
    assert!(out.contains("9 (profile y)"), "{out}");
    let out = stdout_of(
        callscope(home.path())
            .arg("config")
            .env("CALLSCOPE_CONFIG", &named)
            .arg("--config")
            .arg(xdg.join("callscope/config.toml")),
    );
    assert!(out.contains("7 (profile x)"), "the flag wins: {out}");
}

/// Runs `list --demo` with a config and checks it stops with exit 2 before printing anything,
/// naming the file, the line, and what is wrong.
fn refused(text: &str, extra: &[&str], line: Option<usize>, words: &[&str]) {
    let home = tempfile::tempdir().unwrap();
    let path = write_config(home.path(), text);
    let out = callscope(home.path())
        .args(["list", "--demo", "--format", "ndjson"])
        .args(extra)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{text}: {stderr}");
    assert!(out.stdout.is_empty(), "started half-configured: {text}");
    let place = match line {
        Some(n) => format!("{}:{n}:", path.display()),
        None => path.display().to_string(),
    };
    assert!(stderr.contains(&place), "{place} not in {stderr}");
    for w in words {
        assert!(stderr.contains(w), "{w:?} not in {stderr}");
    }
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
}

#[test]
fn a_bad_config_is_reported_with_its_line_and_exit_2() {
    refused(
        "[profiles.a]\nbase_url = \"https://x.example\n",
        &[],
        Some(2),
        &["string"],
    );
    refused(
        "[profiles.a]\nbase_url = \"https://x.example\"\nbase_ulr = \"y\"\n",
        &[],
        Some(3),
        &["unknown field `base_ulr`", "base_url"],
    );
    refused(
        "[profiles.a]\n\npage_size = \"ten\"\n",
        &[],
        Some(3),
        &["a number from 1 to 100"],
    );
    refused("[profiles.a]\npage_size = 0\n", &[], Some(2), &["1 to 100"]);
    refused("[profiles.a]\nlive = \"yes\"\n", &[], Some(2), &["bool"]);
    refused(
        "colour = \"red\"\n",
        &[],
        Some(1),
        &["unknown field `colour`"],
    );
    refused(
        "[profiles.a.filters]\ntype = [\"joinn\"]\n",
        &[],
        Some(2),
        &["joinn"],
    );
    refused(
        "[profiles.a.filters]\nsince = \"yesterday\"\n",
        &[],
        Some(2),
        &["yesterday"],
    );
    refused(
        "\n\ndefault_profile = \"prd\"\n[profiles.prod]\n",
        &[],
        Some(3),
        &["prd", "prod"],
    );
    refused(
        "[profiles.prod]\n[profiles.dev]\n",
        &["--profile", "staging"],
        None,
        &["staging", "dev, prod"],
    );
    refused(
        "[profiles.a]\ntoken_env = \"eyJ.abc.def\"\n",
        &[],
        Some(2),
        &["NAME"],
    );
}

#[test]
fn a_named_config_that_is_missing_is_an_error() {
    let home = tempfile::tempdir().unwrap();
    callscope(home.path())
        .args(["list", "--demo", "--config"])
        .arg(home.path().join("nope.toml"))
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains(
            "nope.toml: no such file (named by --config)",
        ));
    // Named by the variable, the message names the variable.
    callscope(home.path())
        .env("CALLSCOPE_CONFIG", home.path().join("gone.toml"))
        .args(["list", "--demo"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains(
            "gone.toml: no such file (named by CALLSCOPE_CONFIG)",
        ));
    callscope(home.path())
        .args(["list", "--demo", "--profile", "prod"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("does not exist"));
}

#[test]
fn config_reports_a_theme_or_a_key_the_explorer_would_refuse_and_exits_2() {
    for (text, says) in [
        ("theme = \"neon\"\n", "theme = \"neon\": no such theme"),
        ("[keys]\ndown = \"zz\"\n", "\"zz\" is not a key"),
        (
            "default_profile = \"p\"\n[profiles.p]\ntheme = \"neon\"\n",
            "no such theme",
        ),
    ] {
        let home = tempfile::tempdir().unwrap();
        let path = write_config(home.path(), text);
        let out = callscope(home.path()).arg("config").output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{text}: {stderr}");
        assert!(stderr.contains(says), "{text}: {stderr}");
        assert!(stderr.contains(path.to_str().unwrap()), "{text}: {stderr}");
        // The settings are still shown, to see what was read.
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(stdout.contains("config file"), "{stdout}");
    }
    // A good one: exit 0, nothing on stderr.
    let home = tempfile::tempdir().unwrap();
    write_config(home.path(), "theme = \"dark\"\n[keys]\ndown = \"F8\"\n");
    callscope(home.path())
        .arg("config")
        .assert()
        .success()
        .stderr("");
}

/// The README's example of `[keys]` is one the explorer takes: `callscope config` reads it with
/// nothing said and exits 0, showing the bindings it gives.
#[test]
fn the_readmes_keys_example_is_accepted() {
    let readme = include_str!("../README.md");
    let start = readme
        .find("```toml\n[keys]\n")
        .expect("the README has a [keys] example")
        + "```toml\n".len();
    let example = &readme[start..start + readme[start..].find("```").unwrap()];
    let home = tempfile::tempdir().unwrap();
    write_config(home.path(), example);
    let out = callscope(home.path()).arg("config").output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{example}: {stderr}");
    assert_eq!(stderr, "", "{example}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let keys = stdout
        .lines()
        .find(|l| l.starts_with("keys "))
        .unwrap_or_else(|| panic!("no keys line: {stdout}"));
    assert!(keys.contains("down = j"), "{keys}");
}

/// What the man page says `callscope config` shows of the keys is what it shows: with no key
/// rebound, "the defaults"; with one, the binding.
#[test]
fn the_man_page_says_what_config_shows_of_the_keys() {
    let home = tempfile::tempdir().unwrap();
    let page = stdout_of(callscope(home.path()).arg("man"));
    let keys = &page[page.find(".SH KEYS").expect("a KEYS section")..];
    let intro = &keys[..keys.find(".SS ").expect("the keys of a mode")];
    let keys_line = |home: &Path| {
        let shown = stdout_of(callscope(home).arg("config"));
        let line = shown.lines().find(|l| l.starts_with("keys ")).unwrap();
        line["keys".len()..].trim().to_string()
    };
    let plain = keys_line(home.path());
    assert!(
        intro.contains("callscope config lists the keys the config rebinds")
            && intro.contains(&format!("(\"{plain}\" when it rebinds none)")),
        "the man page: {intro}; callscope config: {plain}"
    );
    write_config(home.path(), "[keys]\ndown = \"F8\"\n");
    assert_eq!(keys_line(home.path()), "down = F8");
}

#[test]
fn an_empty_id_clears_the_profiles_filter() {
    let home = tempfile::tempdir().unwrap();
    write_config(
        home.path(),
        "[profiles.one_room.filters]\nroom = \"6a1f3e2d9c8b7a6f5e4d3c2b\"\n",
    );
    let count = |args: &[&str]| {
        stdout_of(
            callscope(home.path())
                .args([
                    "list",
                    "--demo",
                    "--profile",
                    "one_room",
                    "--format",
                    "ndjson",
                ])
                .args(args),
        )
        .lines()
        .count()
    };
    assert_eq!(count(&[]), 0, "the profile's room, which the demo has not");
    assert_eq!(count(&["--room", ""]), 2400, "every room");
}

#[test]
fn list_says_which_profile_narrows_it_and_no_profile_leaves_it_out() {
    let home = tempfile::tempdir().unwrap();
    write_config(
        home.path(),
        "default_profile = \"finals\"\n[profiles.finals.filters]\nterminal = true\ntype = [\"join\"]\n",
    );
    let out = callscope(home.path())
        .args(["list", "--demo", "--format", "ndjson"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(
        stderr.contains("profile finals")
            && stderr.contains("type=join")
            && stderr.contains("final only")
            && stderr.contains("--no-profile"),
        "{stderr}"
    );
    let narrowed = String::from_utf8(out.stdout).unwrap().lines().count();
    let whole = callscope(home.path())
        .args(["list", "--demo", "--format", "ndjson", "--no-profile"])
        .output()
        .unwrap();
    assert!(whole.status.success());
    assert!(whole.stderr.is_empty(), "no profile, nothing said");
    let all = String::from_utf8(whole.stdout).unwrap().lines().count();
    assert!(narrowed > 0 && narrowed < all / 10, "{narrowed} of {all}");
}

/// The profile line names only the filters the profile adds: none of those the command line
/// sets (or clears with an empty value), and, when the command line sets none, the filters
/// `callscope config` shows for the profile.
#[test]
fn the_profile_line_names_only_the_filters_the_profile_adds() {
    let home = tempfile::tempdir().unwrap();
    write_config(
        home.path(),
        "[profiles.bare]\ntoken_env = \"MYTOK\"\n\
         [profiles.narrow.filters]\nos = \"ios\"\ntype = [\"join\"]\nroom = \"r1\"\n",
    );
    let line = |profile: &str, args: &[&str]| {
        let out = callscope(home.path())
            .args(["--profile", profile, "list", "--demo", "--format", "ndjson"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{profile} {args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let said = |profile: &str, added: &str| {
        format!(
            "callscope: profile {profile} in force; filters it adds: {added} (--no-profile \
             leaves it out)\n"
        )
    };
    assert_eq!(
        line("bare", &["--type", "join", "--terminal"]),
        said("bare", "none")
    );
    assert_eq!(
        line(
            "narrow",
            &[
                "--type",
                "publish",
                "--terminal",
                "--room",
                "",
                "--sdk",
                "web"
            ]
        ),
        said("narrow", "os=ios")
    );
    let config = stdout_of(callscope(home.path()).args(["config", "--profile", "narrow"]));
    let filters = config
        .lines()
        .find_map(|l| l.strip_prefix("filters"))
        .unwrap()
        .trim();
    assert_eq!(filters, "type=join  room=r1  os=ios (profile narrow)");
    let own = filters.strip_suffix(" (profile narrow)").unwrap();
    assert!(line("narrow", &[]).starts_with(&said("narrow", own)));
}

/// A value set by its environment variable is named by the variable in a message, not by a
/// flag the user did not pass; and a base URL the run does not use (the demo, dumps) stops
/// nothing, while one it uses is refused, named where it was set.
#[test]
fn errors_name_the_variable_that_set_the_value_and_an_unused_url_stops_nothing() {
    let home = tempfile::tempdir().unwrap();
    write_config(home.path(), "[profiles.a]\ntoken_env = \"MYTOK\"\n");
    let run = |env: (&str, &str), args: &[&str]| {
        let out = callscope(home.path())
            .env(env.0, env.1)
            .args(args)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stderr).unwrap())
    };
    let missing =
        |via: &str| format!("no profile is named \"nope\" (given by {via}); its profiles are a");
    for args in [
        &["list", "--demo"][..],
        &["config"],
        &["story", "p", "--demo"],
    ] {
        let (code, stderr) = run(("CALLSCOPE_PROFILE", "nope"), args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(
            stderr.contains(&missing("CALLSCOPE_PROFILE")),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.contains("--profile"), "{args:?}: {stderr}");
    }
    let (code, stderr) = run(
        ("CALLSCOPE_PROFILE", "a"),
        &["list", "--profile", "nope", "--demo"],
    );
    assert_eq!(code, Some(2));
    assert!(stderr.contains(&missing("--profile")), "{stderr}");
    let config = stdout_of(
        callscope(home.path())
            .env("CALLSCOPE_PROFILE", "a")
            .arg("config"),
    );
    assert!(
        config
            .lines()
            .any(|l| l == "profile     a (CALLSCOPE_PROFILE)"),
        "{config}"
    );

    let bad = ("CALLSCOPE_BASE_URL", "notaurl");
    let (code, stderr) = run(bad, &["list", "--demo", "--max", "1", "--format", "ndjson"]);
    assert_eq!((code, stderr.as_str()), (Some(0), ""));
    let (code, stderr) = run(bad, &["list", INCIDENT, "--max", "1"]);
    assert_eq!(code, Some(0));
    assert!(!stderr.contains("URL"), "{stderr}");
    let said = "callscope: CALLSCOPE_BASE_URL=notaurl: a base URL starts with http:// or \
                https://: CALLSCOPE_BASE_URL=http://notaurl\n";
    for args in [
        &["list", "--live", "--room", "r", "--token-file", INCIDENT][..],
        &[
            "story",
            "p",
            "--live",
            "--room",
            "r",
            "--token-file",
            INCIDENT,
        ],
        &[
            "serve",
            "--live",
            "--room",
            "r",
            "--live-token-file",
            INCIDENT,
        ],
    ] {
        let (code, stderr) = run(bad, args);
        assert_eq!((code, stderr.as_str()), (Some(2), said), "{args:?}");
    }
    // An empty one is said to be empty, with no URL made up of nothing.
    let (code, stderr) = run(
        ("CALLSCOPE_BASE_URL", ""),
        &["list", "--live", "--room", "r", "--token-file", INCIDENT],
    );
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("callscope: CALLSCOPE_BASE_URL=: it is empty: ")
            && !stderr.contains("http://\n"),
        "{stderr}"
    );
    let (code, stderr) = run(
        ("CALLSCOPE_BASE_URL", "https://api.100ms.live"),
        &["list", "--live", "--room", "r", "--base-url", "notaurl"],
    );
    assert_eq!(code, Some(2));
    assert!(
        stderr.starts_with("callscope: --base-url notaurl: "),
        "{stderr}"
    );
}

/// `--config`, `--profile`, `--no-profile` and `--log-file` before a command's name are that
/// command's, as after it; `serve`, which reads no config, refuses `--config` in either place.
#[test]
fn settings_before_a_command_are_read_as_after_it() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("team.toml");
    std::fs::write(
        &config,
        "default_profile = \"joins\"\n[profiles.joins.filters]\ntype = [\"join\"]\n\
         [profiles.final.filters]\nterminal = true\n",
    )
    .unwrap();
    let config = config.to_str().unwrap();
    let list = ["--demo", "--max", "20", "--format", "ndjson"];
    let after = stdout_of(
        callscope(home.path())
            .arg("list")
            .args(["--config", config, "--profile", "final"])
            .args(list),
    );
    let before = stdout_of(
        callscope(home.path())
            .args(["--config", config, "--profile=final", "list"])
            .args(list),
    );
    assert_eq!(before, after);
    assert_eq!(before.lines().count(), 20);
    assert!(
        before.lines().all(|l| l.contains("\"is_terminal\":true")),
        "{before}"
    );
    // The file's default profile, and none with --no-profile.
    let joins = stdout_of(
        callscope(home.path())
            .args(["--config", config, "list"])
            .args(list),
    );
    assert!(joins.lines().all(|l| l.contains(".join.")), "{joins}");
    let none = stdout_of(
        callscope(home.path())
            .args(["--config", config, "--no-profile", "list"])
            .args(list),
    );
    assert_ne!(none, joins);
    assert!(!none.lines().all(|l| l.contains(".join.")), "{none}");
    let report = stdout_of(callscope(home.path()).args(["--config", config, "config"]));
    assert!(report.contains(&format!("{config} (found)")), "{report}");
    let log = home.path().join("run.log");
    callscope(home.path())
        .env("CALLSCOPE_LOG", "debug")
        .arg("--log-file")
        .arg(&log)
        .args(["list", "--demo", "--max", "1"])
        .assert()
        .success();
    assert!(log.exists());
    callscope(home.path())
        .args(["--config", config, "serve", "--demo"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("unexpected argument '--config'"));
}

/// A dump named like a command is reached as before: after any other option, after `--`, or
/// with a path. Only the explorer asks for a terminal (this test has none); `list` would print.
#[test]
fn a_dump_named_like_a_command_is_still_a_dump() {
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("team.toml");
    std::fs::write(&config, "").unwrap();
    let config = config.to_str().unwrap();
    std::fs::write(home.path().join("list"), "").unwrap();
    for args in [
        &["./list"][..],
        &["--", "list"],
        &["--config", config, "--", "list"],
        &["--room", "R", "list"],
        &["--config", config, "--room", "R", "list"],
        &["--demo", "--config", config, "list"],
    ] {
        let out = callscope(home.path())
            .current_dir(home.path())
            .args(args)
            .assert()
            .code(2)
            .stdout("");
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        let explorer = stderr.contains("needs a terminal") || stderr.contains("'[FILE]...'");
        assert!(explorer, "{args:?}: {stderr}");
    }
}
