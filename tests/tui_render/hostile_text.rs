//! Hostile text: control characters, conjoining jamo and decomposed syllables never reach a
//! cell as they came.

use super::*;

/// An event whose strings try to drive the terminal.
fn hostile_event() -> Value {
    let evil = "\u{1b}[2J\u{1b}]0;pwned\u{7}\r\u{202e}evil\u{8}\u{9b}31m\u{2066}\ttab\nline";
    json!({
        "version": "2.0\u{1b}[5m",
        "id": "6e7f8a9b-0c1d-4e2f-8a3b-6c7d8e9f0a1b",
        "timestamp": "2026-11-18T11:30:00.999999999Z",
        "type": "client.subscribe.failed",
        "data": {
            "user_id": format!("usr{evil}"),
            "user_name": format!("Mallory{evil}"),
            "peer_id": format!("peer{evil}"),
            "room_id": "6735e0b1c4a92f5d18e3b7a1",
            "session_id": "673b1f2e9c4d5a6b7c8d9e0f",
            "room_name": format!("weekly{evil}"),
            "role": format!("guest{evil}"),
            "error_code": 4006,
            "error_name": format!("ICE{evil}"),
            "error_message": format!("boom {evil}"),
            "error_description": format!("desc {evil}"),
            "is_terminal": true,
            "action": format!("SUBSCRIBE{evil}"),
            format!("extra{evil}"): format!("value{evil}"),
            "agent": {
                "sdk": format!("web{evil}"),
                "sdk_version": "0.12.3",
                "os": format!("Linux{evil}"),
                "os_version": "6.8",
                "string": format!("sdk:web{evil},env:prod{evil},{evil}"),
            }
        }
    })
}

fn assert_no_control_character(buffer: &Buffer, context: &str) {
    let bidi = |c: char| matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            let symbol = buffer[(x, y)].symbol();
            assert!(
                !symbol.chars().any(|c| c.is_control() || bidi(c)),
                "{context}: cell ({x}, {y}) holds {symbol:?}"
            );
        }
    }
}

#[test]
fn a_hostile_event_draws_no_control_character_anywhere() {
    let mut other = hostile_event();
    other["type"] = json!("track.add.success\u{1b}[1m\u{7}");
    other["id"] = json!("6e7f8a9b-0c1d-4e2f-8a3b-6c7d8e9f0a1c");
    let source = SourceLabel::Files {
        count: 1,
        first: "dump\u{1b}]0;title\u{7}\u{202e}.json".into(),
    };
    let filter = Filter {
        search: Some("boom".into()),
        ..Filter::default()
    };
    for size in [(140, 40), (80, 24), (60, 50)] {
        let mut m = loaded(
            source.clone(),
            filter.clone(),
            size,
            vec![batch(&[hostile_event(), other.clone()])],
        );
        update(
            &mut m,
            Action::LoadFinished {
                problems: vec![DumpProblem {
                    path: "dump\u{1b}[2J.json".into(),
                    position: Some((1, 2)),
                    message: "bad\u{7}\u{202e}".into(),
                }],
            },
        );
        assert_eq!(m.events.shown.len(), 2);
        for step in 0..2 {
            let context = format!("{size:?}, event {step}");
            assert_no_control_character(draw(&m).backend().buffer(), &context);
            assert_no_control_character(draw_detail(&m).backend().buffer(), &context);
            run(&mut m, Command::FocusDetail);
            run(&mut m, Command::Bottom);
            assert_no_control_character(draw(&m).backend().buffer(), &context);
            run(&mut m, Command::FocusList);
            run(&mut m, Command::Down);
        }
        run(&mut m, Command::EditSearch);
        let key = KeyEvent::new(KeyCode::Char('\u{1b}'), KeyModifiers::NONE);
        update(&mut m, Action::Input(TermEvent::Key(key)));
        assert_no_control_character(draw(&m).backend().buffer(), &format!("{size:?}, editor"));
    }
}

/// Conjoining Hangul jamo, which terminals draw at widths of their own: a run of leading
/// consonants is one cell pair in a terminal that clusters graphemes and a pair per consonant in
/// one that does not, so the cells between are left stale in one of them.
fn jamo_event() -> Value {
    let run = "\u{1100}".repeat(12);
    // 한국 as decomposed jamo (as macOS writes names), and a vowel after a syllable.
    let decomposed = "\u{1112}\u{1161}\u{11ab}\u{1100}\u{116e}\u{11a8}";
    json!({
        "version": "2.0",
        "id": "6e7f8a9b-0c1d-4e2f-8a3b-6c7d8e9f0a2b",
        "timestamp": "2026-11-18T11:30:00Z",
        "type": "client.join.failed",
        "data": {
            "user_name": format!("{decomposed} {run}"),
            "peer_id": format!("peer{run}"),
            "room_id": "6735e0b1c4a92f5d18e3b7a1",
            "room_name": format!("{run}가\u{1161}{run}"),
            "error_code": 4006,
            "error_name": format!("E{run}"),
            "error_message": format!("boom {run}{decomposed}"),
            "is_terminal": true,
            "agent": { "sdk": format!("web{run}"), "os": "Linux" }
        }
    })
}

#[test]
fn conjoining_jamo_reach_no_cell_and_decomposed_syllables_show_composed() {
    let is_jamo = |c: char| matches!(c, '\u{1100}'..='\u{11ff}' | '\u{a960}'..='\u{a97f}' | '\u{d7b0}'..='\u{d7ff}');
    for size in [(140, 40), (80, 24)] {
        let mut m = loaded(
            SourceLabel::Demo,
            Filter::default(),
            size,
            vec![batch(&[jamo_event()])],
        );
        let mut screens = Vec::new();
        screens.push(draw(&m).backend().buffer().clone());
        screens.push(draw_detail(&m).backend().buffer().clone());
        run(&mut m, Command::FocusDetail);
        run(&mut m, Command::Bottom);
        screens.push(draw(&m).backend().buffer().clone());
        for (k, buffer) in screens.iter().enumerate() {
            for y in 0..buffer.area.height {
                for x in 0..buffer.area.width {
                    let symbol = buffer[(x, y)].symbol();
                    assert!(
                        !symbol.chars().any(is_jamo),
                        "{size:?} screen {k}: cell ({x}, {y}) holds {symbol:?}"
                    );
                }
            }
        }
        // Each syllable in a cell, two cells wide.
        let detail = &screens[1];
        let composed = (0..detail.area.height).any(|y| {
            (0..detail.area.width.saturating_sub(2))
                .any(|x| detail[(x, y)].symbol() == "한" && detail[(x + 2, y)].symbol() == "국")
        });
        assert!(composed, "{}", screen_text(detail));
    }
}

#[test]
fn a_hostile_event_shows_its_control_characters_as_visible_symbols() {
    let m = loaded(
        SourceLabel::Demo,
        Filter::default(),
        (140, 40),
        vec![batch(&[hostile_event()])],
    );
    let t = draw_detail(&m);
    let text = screen_text(t.backend().buffer());
    assert!(text.contains("boom ␛[2J␛]0;pwned␇␍�evil␈"), "{text}");
}
