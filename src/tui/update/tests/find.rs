//! Find: `/`, `n`/`N`, `&`.

use super::*;

fn find(m: &mut Model, text: &str) {
    run(m, Command::Find);
    assert_eq!(m.focus.mode(), Mode::Find);
    type_text(m, text);
}

#[test]
fn find_jumps_as_it_is_typed_and_counts_what_holds_the_text_numbers_included() {
    let mut m = demo(140, 40);
    find(&mut m, "4006");
    let expected = m.events.store.filter(&Filter {
        search: Some("4006".into()),
        ..Filter::default()
    });
    let codes = m
        .events
        .store
        .filter(&Filter::default().with(Field::Code, "4006"));
    assert!(
        codes.iter().all(|i| expected.contains(i)),
        "every event of code 4006 holds it"
    );
    let f = m.events.find.as_ref().unwrap();
    assert_eq!(f.shown_hits(), Some(expected.len()));
    let selected = m.selected_event().unwrap() as u32;
    assert!(f.hit(&m.events.store, selected));
    // The first event holding it from where the find started: every event before it does not.
    let k = m.events.selection.selected;
    assert!(
        m.events.shown[..k]
            .iter()
            .all(|&i| !f.hit(&m.events.store, i))
    );
    run(&mut m, Command::Apply);
    assert_eq!(m.focus.mode(), Mode::List);
    assert!(
        m.status.as_deref().unwrap().contains("hold \"4006\""),
        "{:?}",
        m.status
    );
    // The filter did not change: a find only moves the selection.
    assert!(m.events.filter.is_empty());
}

#[test]
fn n_and_shift_n_go_from_hit_to_hit_round_the_ends() {
    let mut m = loaded(&ten());
    find(&mut m, "message 3");
    run(&mut m, Command::Apply);
    assert_eq!(selected_number(&m), Some(3));
    run(&mut m, Command::FindNext);
    assert_eq!(selected_number(&m), Some(3), "the only hit, found again");
    assert_eq!(m.status.as_deref(), Some("found again from the top"));
    run(&mut m, Command::Find);
    type_text(&mut m, "room-b");
    run(&mut m, Command::Apply);
    // room-b holds 2, 3, 6, 7.
    assert_eq!(selected_number(&m), Some(3), "from where the find began");
    run(&mut m, Command::FindNext);
    assert_eq!(selected_number(&m), Some(6));
    run(&mut m, Command::FindNext);
    assert_eq!(selected_number(&m), Some(7));
    run(&mut m, Command::FindNext);
    assert_eq!(selected_number(&m), Some(2));
    run(&mut m, Command::FindPrev);
    assert_eq!(selected_number(&m), Some(7));
}

#[test]
fn esc_drops_the_typed_find_and_goes_back_where_it_began() {
    let mut m = loaded(&ten());
    select(&mut m, 1);
    find(&mut m, "room-b");
    run(&mut m, Command::Apply);
    let before = m.selected_event();
    find(&mut m, "message 9");
    assert_eq!(selected_number(&m), Some(9));
    run(&mut m, Command::Cancel);
    assert_eq!(m.selected_event(), before);
    assert_eq!(m.events.find.as_ref().unwrap().text, "room-b");
    // Nothing to find again without a find.
    m.events.find = None;
    run(&mut m, Command::FindNext);
    assert!(
        m.status
            .as_deref()
            .unwrap()
            .starts_with("nothing to find again")
    );
}

#[test]
fn ampersand_keeps_only_the_events_holding_the_text_found_as_a_step_u_takes_back() {
    let mut m = loaded(&ten());
    find(&mut m, "room-b");
    run(&mut m, Command::Apply);
    run(&mut m, Command::FindToFilter);
    assert_eq!(m.events.filter.search.as_deref(), Some("room-b"));
    assert_eq!(shown_numbers(&m), [2, 3, 6, 7]);
    run(&mut m, Command::PopFilter);
    assert_eq!(shown_numbers(&m).len(), 10);
}

#[test]
fn events_that_arrive_later_are_looked_at_too() {
    let mut m = loaded(&ten());
    find(&mut m, "room-z");
    run(&mut m, Command::Apply);
    assert_eq!(m.events.find.as_ref().unwrap().shown_hits(), Some(0));
    update(
        &mut m,
        Action::BatchLoaded(batch(&[event(30, JOIN, "room-z", true)])),
    );
    assert_eq!(m.events.find.as_ref().unwrap().shown_hits(), Some(1));
    run(&mut m, Command::FindNext);
    assert_eq!(selected_number(&m), Some(30));
}

#[test]
fn in_the_groups_view_find_looks_for_a_groups_name() {
    let mut m = demo(140, 40);
    run(&mut m, Command::ShowGroups);
    run(&mut m, Command::Find);
    type_text(&mut m, "InvalidRole");
    let g = m.focus.groups().unwrap();
    let label = g.groups.group(g.selected).label(&m.events.store, g.key);
    assert!(label.contains("InvalidRole"), "{label}");
    run(&mut m, Command::Apply);
    assert_eq!(m.focus.mode(), Mode::Groups);
    run(&mut m, Command::FindNext);
    let g = m.focus.groups().unwrap();
    assert!(
        g.groups
            .group(g.selected)
            .label(&m.events.store, g.key)
            .contains("InvalidRole")
    );
}

/// The events a find of `text` would hold, looked for afresh in every loaded event.
fn afresh(m: &Model, text: &str) -> Vec<u32> {
    m.events.store.filter(&Filter {
        search: Some(text.into()),
        ..Filter::default()
    })
}

fn hits(m: &Model) -> Vec<u32> {
    let f = m.events.find.as_ref().unwrap();
    (0..m.events.store.len() as u32)
        .filter(|&i| f.hit(&m.events.store, i))
        .collect()
}

#[test]
fn a_find_typed_letter_by_letter_holds_what_a_find_of_the_whole_text_holds() {
    let mut m = demo(140, 40);
    run(&mut m, Command::Find);
    // Each letter looks only among the events of the text before it: the same events.
    for text in ["4", "40", "400", "4006"] {
        type_text(&mut m, &text[text.len() - 1..]);
        assert_eq!(hits(&m), afresh(&m, text), "{text}");
        assert_eq!(
            m.events.find.as_ref().unwrap().shown_hits(),
            Some(afresh(&m, text).len())
        );
    }
    run(&mut m, Command::Apply);
    // In any case, and from a find in force that the new text holds.
    find(&mut m, "JOIN");
    run(&mut m, Command::Apply);
    let join = afresh(&m, "join");
    assert_eq!(hits(&m), join);
    find(&mut m, "ioN");
    assert_eq!(
        hits(&m),
        afresh(&m, "ion"),
        "a text that does not hold the one before"
    );
    run(&mut m, Command::Cancel);
    find(&mut m, "JoIn 500");
    assert_eq!(hits(&m), afresh(&m, "join 500"));
}

#[test]
fn a_narrowed_find_looks_at_events_loaded_after_and_counts_the_shown_ones_of_a_new_filter() {
    let mut m = loaded(&ten());
    find(&mut m, "room-");
    type_text(&mut m, "b");
    run(&mut m, Command::Apply);
    assert_eq!(hits(&m), afresh(&m, "room-b"));
    update(
        &mut m,
        Action::BatchLoaded(batch(&[
            event(30, JOIN, "room-b", true),
            event(31, JOIN, "room-c", true),
        ])),
    );
    assert_eq!(hits(&m), afresh(&m, "room-b"));
    assert_eq!(m.events.find.as_ref().unwrap().shown_hits(), Some(5));
    // A filter that shows some events only: the hits among them are counted.
    run(&mut m, Command::CycleTerminal);
    let shown = m.events.shown.len();
    assert!(shown < m.events.store.len(), "the filter hides some events");
    let f = m.events.find.as_ref().unwrap();
    assert_eq!(
        f.shown_hits(),
        Some(
            m.events
                .shown
                .iter()
                .filter(|&&i| f.hit(&m.events.store, i))
                .count()
        )
    );
}

/// A live query's first answer replaces the events while the find prompt is open: Esc brings
/// back the find in force before, looked for among the new events, not the old ones' hits.
#[test]
fn esc_after_the_events_were_replaced_brings_the_find_back_for_the_new_events() {
    let mut m = loaded(&ten());
    find(&mut m, "room-b");
    run(&mut m, Command::Apply);
    find(&mut m, "message 9");
    crate::tui::update::events::replace_store(&mut m);
    // The new events: room-b is in others than before (the first four, of ten).
    let new: Vec<serde_json::Value> = (0..10)
        .map(|n| event(n, JOIN, if n < 4 { "room-b" } else { "room-a" }, false))
        .collect();
    update(&mut m, Action::BatchLoaded(batch(&new)));
    run(&mut m, Command::Cancel);
    let mut f = m.events.find.take().unwrap();
    assert_eq!(f.text, "room-b");
    f.refresh(&m.events, m.events.find_step);
    let want = m.events.store.filter(&Filter {
        search: Some("room-b".into()),
        ..Filter::default()
    });
    assert_eq!(want, [0, 1, 2, 3]);
    let hits: Vec<u32> = (0..m.events.store.len() as u32)
        .filter(|&i| f.hit(&m.events.store, i))
        .collect();
    assert_eq!(hits, want);
}

/// Turns of the loop with nothing else to do, until the find has no work left; how many.
fn idle_until_done(m: &mut Model) -> usize {
    let mut turns = 0;
    while m.has_work() {
        update(m, Action::Idle);
        turns += 1;
        assert!(
            turns <= m.events.store.len() + 1,
            "the find's work never ends"
        );
    }
    turns
}

#[test]
fn a_find_looked_at_a_part_at_a_time_counts_and_jumps_as_one_looked_at_at_once() {
    let mut whole = demo(140, 40);
    find(&mut whole, "4006");
    assert!(
        !whole.has_work(),
        "the demo's events are looked at in one part"
    );
    let mut parts = demo(140, 40);
    parts.events.find_step = 97;
    find(&mut parts, "4006");
    let f = parts.events.find.as_ref().unwrap();
    assert!(parts.has_work(), "more than one part is left");
    assert_eq!(
        f.shown_hits(),
        None,
        "no count before every event is looked at"
    );
    assert!(!f.complete(&parts.events.store));
    // The jump did not wait for the parts: the first event from where the find began.
    assert_eq!(
        parts.events.selection.selected,
        whole.events.selection.selected
    );
    let turns = idle_until_done(&mut parts);
    let len = parts.events.store.len();
    assert_eq!(turns, len.div_ceil(97) - 1, "a part each turn");
    let f = parts.events.find.as_ref().unwrap();
    assert!(f.complete(&parts.events.store));
    assert_eq!(f.shown_hits(), Some(afresh(&parts, "4006").len()));
    assert_eq!(hits(&parts), afresh(&parts, "4006"));
    assert_eq!(
        parts.events.selection.selected,
        whole.events.selection.selected
    );
}

#[test]
fn a_find_typed_on_between_parts_holds_what_the_whole_text_holds() {
    // Letters typed with none, some or every part looked at in between, and parts of one event
    // to more than the store: each text's events are those of a find of it afresh.
    for step in [1, 13, 250, 1 << 19] {
        for turns_between in [0, 1, 3, usize::MAX] {
            let mut m = demo(140, 40);
            m.events.find_step = step;
            run(&mut m, Command::Find);
            for text in ["4", "40", "400", "4006"] {
                type_text(&mut m, &text[text.len() - 1..]);
                let mut turns = 0;
                while m.has_work() && turns < turns_between {
                    update(&mut m, Action::Idle);
                    turns += 1;
                }
                assert_eq!(hits(&m), afresh(&m, text), "{text}, step {step}");
            }
            idle_until_done(&mut m);
            let f = m.events.find.as_ref().unwrap();
            assert_eq!(
                f.shown_hits(),
                Some(afresh(&m, "4006").len()),
                "step {step}"
            );
            let looked_at: Vec<u32> = (0..m.events.store.len() as u32)
                .filter(|&i| f.hit(&m.events.store, i))
                .collect();
            assert_eq!(looked_at, afresh(&m, "4006"), "step {step}");
        }
    }
}

#[test]
fn a_jump_still_owed_goes_on_in_the_turns_after_and_is_given_up_when_the_user_moves() {
    // One event a part: the jump looks at one event alone a turn, so "message 9" is reached
    // only in the turns after.
    let owed = || {
        let mut m = loaded(&ten());
        m.events.find_step = 1;
        find(&mut m, "message 9");
        assert_eq!(selected_number(&m), Some(0), "not reached yet");
        m
    };
    let mut m = owed();
    idle_until_done(&mut m);
    assert_eq!(
        selected_number(&m),
        Some(9),
        "the jump was made once reached"
    );
    run(&mut m, Command::Apply);
    assert!(
        m.status
            .as_deref()
            .unwrap()
            .contains("1 of the 10 shown events hold"),
        "{:?}",
        m.status
    );

    let mut m = owed();
    run(&mut m, Command::Apply);
    assert!(
        m.status
            .as_deref()
            .unwrap()
            .starts_with("looking through the 10 shown events for \"message 9\""),
        "no count claimed before it is known: {:?}",
        m.status
    );
    run(&mut m, Command::Down);
    idle_until_done(&mut m);
    assert_eq!(selected_number(&m), Some(1), "the user's move stands");
    assert_eq!(m.events.find.as_ref().unwrap().shown_hits(), Some(1));
}

#[test]
fn a_find_typed_on_after_events_arrived_looks_at_them_all() {
    // Parts of three: the find of "room-" looked at all ten, then at the five that arrive in
    // parts of its own (10..13, 13..15); "room-b" looks within the thirteen "room-" covered,
    // in parts that end elsewhere (12..15 crosses it), and at the last two in full.
    let mut m = loaded(&ten());
    m.events.find_step = 3;
    find(&mut m, "room-");
    idle_until_done(&mut m);
    let arrived: Vec<serde_json::Value> =
        (30..35).map(|n| event(n, JOIN, "room-b", true)).collect();
    update(&mut m, Action::BatchLoaded(batch(&arrived)));
    type_text(&mut m, "b");
    idle_until_done(&mut m);
    assert_eq!(hits(&m), afresh(&m, "room-b"));
    assert_eq!(hits(&m).len(), 9);
    let f = m.events.find.as_ref().unwrap();
    assert_eq!(f.shown_hits(), Some(9));
}

/// A find whose jump is owed ("message 9" is reached only in the turns after), typed on ten
/// events with one event a part.
fn jump_owed_on_ten() -> Model {
    let mut m = loaded(&ten());
    m.events.find_step = 1;
    find(&mut m, "message 9");
    assert_eq!(selected_number(&m), Some(0), "not reached yet");
    m
}

#[test]
fn a_jump_still_owed_goes_on_when_events_of_the_load_arrive_meanwhile() {
    // A batch of the load joins the shown events: the user did not move, and the jump that a
    // find looked at in one part would have made at once is still made.
    let mut m = jump_owed_on_ten();
    update(
        &mut m,
        Action::BatchLoaded(batch(&[event(30, JOIN, "room-z", true)])),
    );
    assert_eq!(selected_number(&m), Some(0), "not reached yet");
    idle_until_done(&mut m);
    assert_eq!(selected_number(&m), Some(9));
    // An event that holds it arrives just before the one the find began from, at the place
    // that one had: the walk begins from that one's new place, and goes round to event 1.
    let mut m = loaded(&ten());
    m.events.find_step = 1;
    select(&mut m, 2);
    find(&mut m, "message 1");
    assert_eq!(selected_number(&m), Some(2), "not reached yet");
    let mut early = event(11, JOIN, "room-z", false);
    early["timestamp"] = json!("2026-11-18T10:00:01.500000000Z");
    early["data"]["error_message"] = json!("message 1");
    update(&mut m, Action::BatchLoaded(batch(&[early])));
    assert_eq!(m.events.shown[2], 10, "the new event is where event 2 was");
    idle_until_done(&mut m);
    assert_eq!(
        selected_number(&m),
        Some(1),
        "round from the end, from event 2"
    );
}

#[test]
fn a_jump_still_owed_is_given_up_when_the_order_changes_under_the_same_place() {
    // room-x is held by events 5 and 8 only. The jump is owed when the time's way is flipped:
    // the selection stays at the top, on another event, and the events walked before are
    // others now. It is given up: not made to event 5, past event 8 it never looked at.
    let events: Vec<serde_json::Value> = (0..10)
        .map(|n| {
            let room = if n == 5 || n == 8 { "room-x" } else { "room-a" };
            event(n, JOIN, room, false)
        })
        .collect();
    let mut m = loaded(&events);
    m.events.find_step = 1;
    find(&mut m, "room-x");
    assert_eq!(selected_number(&m), Some(0), "not reached yet");
    run(&mut m, Command::Apply);
    run(&mut m, Command::FlipTime);
    assert_eq!(
        m.events.selection.selected, 0,
        "the selection stays at the top"
    );
    assert_eq!(selected_number(&m), Some(9));
    idle_until_done(&mut m);
    assert_eq!(selected_number(&m), Some(9), "the user's move stands");
    // Away from the top, the selected event stays selected, at another place.
    let mut m = loaded(&events);
    m.events.find_step = 1;
    select(&mut m, 3);
    find(&mut m, "room-x");
    assert_eq!(selected_number(&m), Some(3), "not reached yet");
    run(&mut m, Command::Apply);
    run(&mut m, Command::FlipTime);
    assert_eq!(selected_number(&m), Some(3));
    idle_until_done(&mut m);
    assert_eq!(selected_number(&m), Some(3), "the user's move stands");
}

#[test]
fn a_jump_still_owed_is_given_up_when_the_user_changes_the_filter() {
    let mut m = jump_owed_on_ten();
    run(&mut m, Command::Apply);
    run(&mut m, Command::CycleTerminal);
    assert!(m.events.shown.contains(&9), "event 9 is still shown");
    assert_eq!(selected_number(&m), Some(0), "event 0 stays selected");
    idle_until_done(&mut m);
    assert_eq!(selected_number(&m), Some(0), "the user's move stands");
}

/// What a find in force holds and counts, against a find of its text afresh: every loaded
/// event's answer, and the count of the shown ones once it is claimed; with no work left, the
/// count is claimed.
fn assert_find_holds_what_a_find_afresh_holds(m: &Model, what: &str) {
    let Some(f) = m.events.find.as_ref() else {
        return;
    };
    let want = afresh(m, &f.text);
    assert_eq!(hits(m), want, "{what}: \"{}\"", f.text);
    let shown = m
        .events
        .shown
        .iter()
        .filter(|i| want.binary_search(i).is_ok())
        .count();
    if let Some(n) = f.shown_hits() {
        assert_eq!(n, shown, "{what}: the count of \"{}\"", f.text);
    }
    if !m.has_work() {
        assert_eq!(
            f.shown_hits(),
            Some(shown),
            "{what}: no work left, no count"
        );
    }
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config {
        cases: 200,
        failure_persistence: None,
        ..proptest::test_runner::Config::default()
    })]

    /// Letters typed and taken back, turns with nothing else to do, events of a load, a new
    /// filter, a live query's answer replacing the events, Enter, Esc and `n`, in any order and
    /// with parts of any size: the find holds and counts what a find of its text afresh does.
    #[test]
    fn a_find_holds_what_a_find_afresh_holds_whatever_happens_between_its_parts(
        step in 1usize..6,
        ops in proptest::collection::vec((0u8..9, 0usize..10), 1..40),
    ) {
        let mut m = loaded(&ten());
        m.events.find_step = step;
        let mut next = 100;
        let events = |count: usize, next: &mut u32| -> Vec<serde_json::Value> {
            (0..count)
                .map(|k| {
                    *next += 1;
                    let room = ["room-a", "room-b", "room-ab"][k % 3];
                    event(*next, PUBLISH, room, next.is_multiple_of(2))
                })
                .collect()
        };
        for (op, arg) in ops {
            let finding = m.focus.mode() == Mode::Find;
            let what = match op {
                0 => {
                    if !finding {
                        run(&mut m, Command::Find);
                    }
                    let c = ['r', 'o', 'm', '-', 'a', 'b', '4', '0', ' ', '1'][arg];
                    type_text(&mut m, &c.to_string());
                    "typed"
                }
                1 if finding => {
                    press(&mut m, KeyCode::Backspace, KeyModifiers::NONE);
                    "taken back"
                }
                2 => {
                    update(&mut m, Action::Idle);
                    "idle"
                }
                3 => {
                    let batch_of = events(arg + 1, &mut next);
                    update(&mut m, Action::BatchLoaded(batch(&batch_of)));
                    "loaded"
                }
                4 if !finding => {
                    run(&mut m, Command::CycleTerminal);
                    "filtered"
                }
                5 if finding => {
                    run(&mut m, Command::Apply);
                    "applied"
                }
                6 if finding => {
                    run(&mut m, Command::Cancel);
                    "cancelled"
                }
                7 => {
                    crate::tui::update::events::replace_store(&mut m);
                    let batch_of = events(arg + 3, &mut next);
                    update(&mut m, Action::BatchLoaded(batch(&batch_of)));
                    "replaced"
                }
                8 if !finding => {
                    run(&mut m, Command::FindNext);
                    "next"
                }
                _ => continue,
            };
            assert_find_holds_what_a_find_afresh_holds(&m, what);
        }
        idle_until_done(&mut m);
        assert_find_holds_what_a_find_afresh_holds(&m, "done");
    }
}

#[test]
fn n_meeting_events_not_looked_at_yet_looks_at_every_one_first_then_goes_to_the_hit() {
    // One event a part: after the key and Enter, most events are not looked at yet.
    let mut m = loaded(&ten());
    m.events.find_step = 1;
    find(&mut m, "message 9");
    run(&mut m, Command::Apply);
    assert!(m.has_work());
    run(&mut m, Command::FindNext);
    assert_eq!(selected_number(&m), Some(9));
    let f = m.events.find.as_ref().unwrap();
    assert!(
        f.complete(&m.events.store),
        "every event looked at in one pass, not one by one"
    );
    assert_eq!(f.shown_hits(), Some(1));
    assert!(!m.has_work());
}

#[test]
fn esc_leaves_the_selection_where_the_prompt_opened_even_with_a_jump_owed_before() {
    // A find that still owes its jump, then a new prompt that Esc drops.
    let mut m = loaded(&ten());
    m.events.find_step = 1;
    find(&mut m, "message 9");
    run(&mut m, Command::Apply);
    assert!(m.has_work());
    run(&mut m, Command::Find);
    type_text(&mut m, "x");
    run(&mut m, Command::Cancel);
    let at = selected_number(&m);
    idle_until_done(&mut m);
    assert_eq!(
        selected_number(&m),
        at,
        "nothing moved the selection after Esc"
    );
    assert_eq!(m.events.find.as_ref().unwrap().text, "message 9");
}
