//! The event's JSON as a tree.

use super::*;
use crate::tui::panels::json::JsonPanel;

fn tree(m: &Model) -> &JsonPanel {
    m.focus.json().expect("the JSON tree has the keyboard")
}

/// Moves the tree's selection to the member of this path.
fn to_path(m: &mut Model, path: &str) {
    run(m, Command::Top);
    while tree(m).node().map(|n| n.path.as_str()) != Some(path) {
        let before = tree(m).selected;
        run(m, Command::Down);
        assert_ne!(before, tree(m).selected, "no member {path} shown");
    }
}

#[test]
fn the_tree_copies_a_fields_value_and_its_path() {
    let mut m = loaded(&ten());
    select(&mut m, 3);
    run(&mut m, Command::ShowJson);
    assert_eq!(m.focus.mode(), Mode::Json);
    to_path(&mut m, ".data.error_code");
    let (text, what) = copied(run(&mut m, Command::CopyJson));
    assert_eq!(text, "4005");
    assert_eq!(what, "the value of .data.error_code");
    to_path(&mut m, ".data.user_name");
    assert_eq!(copied(run(&mut m, Command::CopyJson)).0, "User 3");
    let (path, what) = copied(run(&mut m, Command::CopyId));
    assert_eq!(path, ".data.user_name");
    assert_eq!(what, "the path .data.user_name");
    // The whole of `data`, as JSON.
    to_path(&mut m, ".data");
    let (json, _) = copied(run(&mut m, Command::CopyJson));
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["user_id"], "user-3");
    run(&mut m, Command::Cancel);
    assert_eq!(m.focus.mode(), Mode::List);
}

#[test]
fn with_redaction_on_the_tree_copies_a_fields_value_redacted() {
    let mut m = loaded(&ten());
    m.config.redact = true;
    select(&mut m, 3);
    run(&mut m, Command::ShowJson);
    to_path(&mut m, ".data.user_name");
    let (text, what) = copied(run(&mut m, Command::CopyJson));
    assert_eq!(text, "user-0001");
    assert_eq!(what, "the redacted value of .data.user_name");
    match run(&mut m, Command::CopyToFile).as_slice() {
        [Effect::Copy { text, .. }] => assert_eq!(text, "user-0001"),
        other => panic!("expected one copy, got {other:?}"),
    }
    to_path(&mut m, ".data");
    let (json, _) = copied(run(&mut m, Command::CopyJson));
    assert!(
        !json.contains("User 3") && !json.contains("user-3"),
        "{json}"
    );
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["user_id"], "uid-0001");
    // What is not a person's stays as it is.
    to_path(&mut m, ".data.error_code");
    assert_eq!(copied(run(&mut m, Command::CopyJson)).0, "4005");
    // The tree itself shows the event as it is, as the detail pane does.
    to_path(&mut m, ".data.user_name");
    assert_eq!(tree(&m).node().unwrap().value, "User 3");
}

#[test]
fn folding_hides_an_objects_members_and_left_on_a_member_folds_its_object() {
    let mut m = loaded(&ten());
    run(&mut m, Command::ShowJson);
    let all = tree(&m).shown().len();
    to_path(&mut m, ".data.room_id");
    run(&mut m, Command::Left);
    assert_eq!(
        tree(&m).node().unwrap().path,
        ".data",
        "the object is folded and selected"
    );
    let folded = tree(&m).shown().len();
    assert!(folded < all - 5, "{folded} of {all}");
    run(&mut m, Command::Right);
    assert_eq!(tree(&m).shown().len(), all);
    run(&mut m, Command::Apply);
    assert_eq!(tree(&m).shown().len(), folded);
}
