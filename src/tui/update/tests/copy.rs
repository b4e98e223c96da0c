//! Copying an event to the clipboard.

use super::*;

#[test]
fn y_copies_the_selected_events_json_on_one_line_and_the_status_confirms() {
    let pretty = serde_json::to_string_pretty(&event(4, JOIN, "room-a", true)).unwrap();
    let mut m = model(140, 40);
    let mut builder = BatchBuilder::new(Arc::new(Blob::Owned(pretty.clone().into_bytes())));
    builder.push(0, pretty.len()).unwrap();
    update(&mut m, Action::BatchLoaded(builder.finish()));
    let (text, what) = copied(run(&mut m, Command::CopyJson));
    assert!(!text.contains('\n') && !text.contains("  "), "{text}");
    let back: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(back, event(4, JOIN, "room-a", true));
    assert_eq!(what, format!("{} bytes of JSON", text.len()));
}

#[test]
fn a_copy_through_the_terminal_is_said_to_be_sent_not_made_with_the_key_that_writes_a_file() {
    let mut m = demo(140, 40);
    let what = "312 bytes of JSON".to_string();
    update(
        &mut m,
        Action::Copied(Ok(Copied::Terminal {
            what: what.clone(),
            failed: Vec::new(),
        })),
    );
    let status = m.status.clone().unwrap();
    assert_eq!(
        status,
        "sent 312 bytes of JSON to the terminal's clipboard (OSC 52); if it does not arrive, w writes it to a file"
    );
    assert!(!status.contains("copied"), "{status}");
    // The clipboard programs that were tried and failed are named after it.
    update(
        &mut m,
        Action::Copied(Ok(Copied::Terminal {
            what,
            failed: vec!["xclip failed (exit status: 1)".into()],
        })),
    );
    assert!(
        m.status
            .as_deref()
            .unwrap()
            .ends_with("writes it to a file (xclip failed (exit status: 1))"),
        "{:?}",
        m.status
    );
}

#[test]
fn a_copy_by_a_clipboard_program_names_the_program() {
    let mut m = demo(140, 40);
    update(
        &mut m,
        Action::Copied(Ok(Copied::Program {
            what: "the event id evt-1".into(),
            program: "xclip",
        })),
    );
    assert_eq!(
        m.status.as_deref(),
        Some("copied the event id evt-1 to the clipboard with xclip")
    );
}

#[test]
fn w_writes_what_y_copies_to_a_file_in_the_list_the_story_and_the_json_tree() {
    let mut m = loaded(&ten());
    select(&mut m, 3);
    let (json, _) = copied(run(&mut m, Command::CopyJson));
    match run(&mut m, Command::CopyToFile).as_slice() {
        [Effect::Copy { text, to, what }] => {
            assert_eq!(*to, CopyTo::File);
            assert_eq!(*text, json);
            assert!(what.ends_with("bytes of JSON"), "{what}");
        }
        other => panic!("expected one copy to a file, got {other:?}"),
    }
    update(
        &mut m,
        Action::Copied(Ok(Copied::File {
            what: "312 bytes of JSON".into(),
            path: "/home/u/callscope-selection.json".into(),
        })),
    );
    assert_eq!(
        m.status.as_deref(),
        Some("wrote 312 bytes of JSON to /home/u/callscope-selection.json")
    );
    // In a peer's story: the focused event's JSON.
    run(&mut m, Command::ShowStory);
    assert!(matches!(m.focus, Focus::Story(_)), "{:?}", m.focus.mode());
    let (story_json, _) = copied(run(&mut m, Command::CopyJson));
    assert!(matches!(
        run(&mut m, Command::CopyToFile).as_slice(),
        [Effect::Copy { text, to: CopyTo::File, .. }] if *text == story_json
    ));
    run(&mut m, Command::Cancel);
    // In the JSON tree: the selected field's value, as y copies it.
    run(&mut m, Command::ShowJson);
    let (value, _) = copied(run(&mut m, Command::CopyJson));
    match run(&mut m, Command::CopyToFile).as_slice() {
        [Effect::Copy { text, to, .. }] => {
            assert_eq!((text.as_str(), *to), (value.as_str(), CopyTo::File));
        }
        other => panic!("expected one copy to a file, got {other:?}"),
    }
}

#[test]
fn with_redaction_on_the_copied_json_holds_no_user_name_or_id() {
    let mut m = loaded(&ten());
    m.config.redact = true;
    select(&mut m, 3);
    let (text, what) = copied(run(&mut m, Command::CopyJson));
    assert!(
        !text.contains("User 3") && !text.contains("user-3"),
        "{text}"
    );
    assert!(
        text.contains("user-0001") && text.contains("uid-0001"),
        "{text}"
    );
    assert!(what.contains("redacted JSON"), "{what}");
}

#[test]
fn copying_with_nothing_selected_says_so_and_copies_nothing() {
    let mut m = model(80, 24);
    for c in [Command::CopyJson, Command::CopyId] {
        assert!(run(&mut m, c).is_empty());
        assert!(m.status.as_deref().unwrap().contains("nothing to copy"));
    }
}

#[test]
fn a_failed_copy_is_reported_in_the_status_line() {
    let mut m = demo(80, 24);
    update(&mut m, Action::Copied(Err("closed".into())));
    assert_eq!(m.status.as_deref(), Some("copy failed: closed"));
}

/// A model holding one event whose id is `id`, selected.
fn with_id(id: &str) -> Model {
    let mut v = event(1, JOIN, "room-a", true);
    v["id"] = serde_json::Value::String(id.into());
    v["data"]["error_message"] = serde_json::Value::String("a\u{9b}31m\u{202e}b".into());
    let text = v.to_string();
    let mut m = model(140, 40);
    let mut builder = BatchBuilder::new(Arc::new(Blob::Owned(text.clone().into_bytes())));
    builder.push(0, text.len()).unwrap();
    update(&mut m, Action::BatchLoaded(builder.finish()));
    m
}

#[test]
fn an_id_holding_a_control_character_is_not_copied_and_the_json_goes_out_escaped() {
    for id in [
        "evt\nrm -rf ~\n",
        "evt\u{1b}]0;x\u{7}",
        "evt\u{9b}1m",
        "evt\u{202e}",
    ] {
        let mut m = with_id(id);
        assert!(run(&mut m, Command::CopyId).is_empty(), "{id:?}");
        let status = m.status.clone().unwrap();
        assert!(status.contains("not copied"), "{status}");
        let (text, _) = copied(run(&mut m, Command::CopyJson));
        assert!(!crate::text::holds_controls(&text), "{text:?}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["id"], id, "the same JSON value");
    }
    let mut m = with_id("evt-plain-1");
    let (text, _) = copied(run(&mut m, Command::CopyId));
    assert_eq!(text, "evt-plain-1");
}
