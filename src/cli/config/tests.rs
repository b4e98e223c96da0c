use std::path::{Path, PathBuf};

use super::*;
use crate::cli::{FilterArgs, SourceArgs};
use crate::folders::expand_home_in;

fn error_of(text: &str) -> (Option<(usize, usize)>, String) {
    parse(text).unwrap_err()
}

#[test]
fn an_empty_file_is_every_default() {
    let f = parse("").unwrap();
    assert!(f.profiles.is_empty() && f.default_profile.is_none() && f.keys.is_empty());
}

#[test]
fn a_full_profile_reads() {
    let f = parse(
        r#"
default_profile = "prod"
theme = "dark"
[keys]
quit = ["q", "ctrl-c"]
down = "j"
[profiles.prod]
base_url = "https://api.example.com"
token_env = "PROD_TOKEN"
page_size = 50
live = true
[profiles.prod.filters]
type = ["join", "publish"]
room = "r1"
terminal = true
since = "2h"
[profiles.prod.keys]
down = ["n"]
"#,
    )
    .unwrap();
    let config = Config {
        path: Some(PathBuf::from("/x/config.toml")),
        given: false,
        exists: true,
        file: f,
    };
    let selected = config.select(None).unwrap().unwrap();
    assert_eq!((selected.name, selected.via), ("prod", "default_profile"));
    let p = selected.profile;
    assert_eq!(p.page_size, Some(PageSize(50)));
    assert_eq!(
        p.filters.types,
        Some(TypeList(vec!["join".into(), "publish".into()]))
    );
    let settings = config.settings(Some(selected));
    assert_eq!(settings.theme.as_deref(), Some("dark"));
    assert_eq!(settings.keys["quit"], vec!["q", "ctrl-c"]);
    assert_eq!(
        settings.keys["down"],
        vec!["n"],
        "the profile's binding wins"
    );
}

#[test]
fn errors_carry_line_and_column() {
    let (at, message) = error_of("[profiles.a]\nbase_url = \"https://x\"\nbse_url = 1\n");
    assert_eq!(at.map(|p| p.0), Some(3));
    assert!(message.contains("bse_url"), "{message}");
    let (at, message) = error_of("[profiles.a]\npage_size = \"ten\"\n");
    assert_eq!(at.map(|p| p.0), Some(2));
    assert!(message.contains("a number from 1 to 100"), "{message}");
    let (at, message) = error_of("[profiles.a]\npage_size = 500\n");
    assert_eq!(at, Some((2, 13)));
    assert!(message.contains("1 to 100"), "{message}");
    let (at, _) = error_of("x = [\n");
    assert!(at.is_some());
    let (at, message) = error_of("default_profile = \"nope\"\n[profiles.a]\n");
    assert_eq!(at, Some((1, 19)));
    assert!(
        message.contains("nope") && message.contains(" a"),
        "{message}"
    );
    let (_, message) = error_of("[profiles.a.filters]\ntype = [\"bogus\"]\n");
    assert!(message.contains("bogus"), "{message}");
    let (_, message) = error_of("[profiles.a.filters]\nterminal = true\nretried = true\n");
    assert!(message.contains("both"), "{message}");
}

#[test]
fn a_token_pasted_as_a_variable_name_is_refused_without_repeating_it() {
    let (_, message) = error_of("[profiles.a]\ntoken_env = \"eyJhbGciOi.s3cr3t.sig\"\n");
    assert!(!message.contains("s3cr3t"), "{message}");
    assert!(message.contains("NAME"), "{message}");
}

#[test]
fn flags_win_and_empty_flags_clear() {
    let p = Profile {
        base_url: Some(BaseUrl("https://p.example".into())),
        page_size: Some(PageSize(7)),
        filters: Filters {
            room: Some("r".into()),
            user: Some("u".into()),
            types: Some(TypeList(vec!["join".into()])),
            retried: Some(true),
            ..Filters::default()
        },
        ..Profile::default()
    };
    let mut source = SourceArgs {
        base_url: "https://flag.example".into(),
        page_size: 100,
        ..SourceArgs::default()
    };
    p.apply_source(
        &mut source,
        Explicit {
            base_url: true,
            page_size: false,
        },
        None,
    );
    assert_eq!(
        (source.base_url.as_str(), source.page_size),
        ("https://flag.example", 7)
    );
    let mut filters = FilterArgs {
        room: Some(String::new()),
        terminal: true,
        ..FilterArgs::default()
    };
    p.apply_filters(&mut filters);
    assert_eq!(filters.room, None);
    assert_eq!(filters.user.as_deref(), Some("u"));
    assert_eq!(filters.types, vec!["join"]);
    assert!(filters.terminal && !filters.retried);
}

#[test]
fn token_paths_are_read_from_the_config_folder() {
    let folder = Path::new("/etc/cs");
    assert_eq!(
        resolve_path(Path::new("tok"), Some(folder)),
        PathBuf::from("/etc/cs/tok")
    );
    assert_eq!(
        resolve_path(Path::new("/abs/tok"), Some(folder)),
        PathBuf::from("/abs/tok")
    );
}

#[test]
fn positions_count_characters() {
    assert_eq!(position("ab\ncdé\nx", 0), (1, 1));
    assert_eq!(position("ab\ncdé\nx", 3), (2, 1));
    assert_eq!(position("ab\ncdé\nx", 8), (3, 1));
}

#[test]
fn each_binding_remembers_the_table_it_was_written_in() {
    let f = parse(
        "[keys]\nquit = \"x\"\ndown = \"j\"\n[profiles.\"on call\".keys]\ndown = \"n\"\n[profiles.b]\n",
    )
    .unwrap();
    let config = Config {
        path: Some(PathBuf::from("/x/config.toml")),
        given: false,
        exists: true,
        file: f,
    };
    let settings = config.settings(config.select(Some("on call")).unwrap());
    assert_eq!(settings.key_origins["quit"], "keys");
    assert_eq!(settings.key_origins["down"], "profiles.\"on call\".keys");
    assert_eq!(settings.path.as_deref(), Some(Path::new("/x/config.toml")));
    let settings = config.settings(config.select(Some("b")).unwrap());
    assert_eq!(settings.key_origins["down"], "keys");
}

#[test]
fn a_path_from_home_is_expanded_and_others_are_kept() {
    let home = Path::new("/home/on-call");
    let expand = |p: &str| expand_home_in(Path::new(p), Some(home));
    assert_eq!(expand("~/x.json"), home.join("x.json"));
    assert_eq!(expand("~"), home.to_path_buf());
    assert_eq!(expand("~/a/b.ndjson"), home.join("a/b.ndjson"));
    for kept in ["x.json", "/tmp/~/x.json", "~other/x.json", "./~/x.json"] {
        assert_eq!(expand(kept), Path::new(kept), "{kept}");
    }
    // With no home folder known, `~` is a name like any other.
    assert_eq!(expand_home_in(Path::new("~/x"), None), Path::new("~/x"));
}
