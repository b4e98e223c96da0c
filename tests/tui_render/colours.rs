//! Colours and their absence: status and type colours, the selection, NO_COLOR, the themes'
//! palette.

use super::*;

#[test]
fn status_cells_are_red_and_bold_for_final_and_green_for_retried() {
    let m = demo(Filter::default(), (140, 40));
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let header = list_header_row(buffer);
    let x = column_of(buffer, header, "STATUS").unwrap();
    let (mut finals, mut retried) = (0, 0);
    // The first event row is selected (reversed); the others carry only their own style.
    for y in header + 2..buffer.area.height - 1 {
        let cell = &buffer[(x, y)];
        let word: String = row_cells(buffer, y)[x as usize..x as usize + 7].concat();
        match word.trim() {
            "final" => {
                finals += 1;
                assert_eq!(cell.fg, Color::Red, "row {y}");
                assert!(cell.modifier.contains(Modifier::BOLD), "row {y}");
            }
            "retried" => {
                retried += 1;
                assert_eq!(cell.fg, Color::Green, "row {y}");
                assert!(!cell.modifier.contains(Modifier::BOLD), "row {y}");
            }
            // Another family of events: no retry status.
            "-" => {}
            other => panic!("row {y}: status {other:?}"),
        }
    }
    assert!(
        finals > 0 && retried > 0,
        "{finals} final, {retried} retried"
    );
}

#[test]
fn the_selected_row_is_reversed_and_keeps_its_status_colour() {
    let m = demo(Filter::default(), (140, 40));
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let header = list_header_row(buffer);
    let x = column_of(buffer, header, "STATUS").unwrap();
    let cell = &buffer[(x, header + 1)];
    let status = match m.events.store.row(0).is_terminal() {
        Some(true) => Color::Red,
        Some(false) => Color::Green,
        None => panic!("the demo opens on an error event"),
    };
    assert!(cell.modifier.contains(Modifier::REVERSED));
    assert_eq!(cell.fg, status);
    assert!(
        !buffer[(x, header + 2)]
            .modifier
            .contains(Modifier::REVERSED)
    );
}

#[test]
fn type_cells_have_the_colour_of_their_type() {
    let m = demo(Filter::default(), (140, 40));
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let header = list_header_row(buffer);
    let x = column_of(buffer, header, "TYPE").unwrap();
    let mut seen = Vec::new();
    for y in header + 1..buffer.area.height - 1 {
        let word: String = row_cells(buffer, y)[x as usize..x as usize + 10].concat();
        let Some(kind) = EventType::KNOWN
            .into_iter()
            .find(|k| k.short() == word.trim())
        else {
            // Another family of events, named by its own type.
            assert!(
                word.starts_with("track.") || word.starts_with("beam."),
                "row {y}: type {word:?}"
            );
            continue;
        };
        assert_eq!(
            buffer[(x, y)].fg,
            Theme::default().event_type(&kind).fg.unwrap(),
            "row {y}"
        );
        if !seen.contains(&kind) {
            seen.push(kind);
        }
    }
    assert!(seen.len() >= 4, "{seen:?}");
    let distinct: std::collections::HashSet<_> = EventType::KNOWN
        .iter()
        .map(|k| Theme::default().event_type(k).fg)
        .collect();
    assert_eq!(distinct.len(), 5, "each known type has its own colour");
}

#[test]
fn under_no_color_the_type_toggles_read_by_their_marks_alone() {
    let mut m = demo(Filter::default(), (80, 24));
    m.config.theme = Theme::named(None, true).unwrap();
    // No type chosen: every type is shown, and marked so.
    let header = |m: &Model| {
        screen_text(draw(m).backend().buffer())
            .lines()
            .take(4)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        header(&m).contains(
            " types [x]1 publish [x]2 subscribe [x]3 join [x]4 disconnected [x]5 connect"
        ),
        "{}",
        header(&m)
    );
    run(&mut m, Command::ToggleJoin);
    run(&mut m, Command::TogglePublish);
    let t = draw(&m);
    let text = header(&m);
    // At 80 columns the label gives way to the mark of the other families, hidden.
    assert!(
        text.contains(
            "\n [x]1 publish [ ]2 subscribe [x]3 join [ ]4 disconnected [ ]5 connect [ ]others"
        ),
        "{text}"
    );
    // The marks carry it: no colour anywhere on the line.
    let buffer = t.backend().buffer();
    for x in 0..buffer.area.width {
        assert_eq!(buffer[(x, 1)].fg, Color::Reset, "column {x}");
    }
    insta::assert_snapshot!("types_no_color_80x24", t.backend());
}

#[test]
fn the_header_marks_the_selected_types_and_strikes_out_the_others() {
    let mut m = demo(Filter::default(), (140, 40));
    run(&mut m, Command::ToggleJoin);
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let join = column_of(buffer, 1, "3 join").unwrap();
    assert!(row_text(buffer, 1).contains("[x]3 join"));
    assert!(row_text(buffer, 1).contains("[ ]1 publish"));
    assert_eq!(buffer[(join, 1)].fg, Color::Yellow);
    assert!(buffer[(join, 1)].modifier.contains(Modifier::BOLD));
    let publish = column_of(buffer, 1, "1 publish").unwrap();
    assert!(
        buffer[(publish, 1)]
            .modifier
            .contains(Modifier::CROSSED_OUT)
    );
}

#[test]
fn the_five_types_all_on_say_that_the_other_families_are_hidden() {
    let mut m = demo(Filter::default(), (140, 40));
    let line = |m: &Model| {
        screen_text(draw(m).backend().buffer())
            .lines()
            .nth(1)
            .unwrap()
            .to_string()
    };
    assert!(!line(&m).contains("others hidden"), "{}", line(&m));
    for toggle in Command::TYPE_TOGGLES {
        run(&mut m, toggle);
    }
    let all_five = line(&m);
    assert!(all_five.contains("others hidden"), "{all_five}");
    // The five types and their marks fit an 80-column screen; the retry status is among the
    // filters, on the next line.
    let mut narrow = demo(Filter::default(), (80, 24));
    run(&mut narrow, Command::ToggleJoin);
    run(&mut narrow, Command::CycleTerminal);
    assert!(line(&narrow).contains("[x]3 join"), "{}", line(&narrow));
    assert!(line(&narrow).contains("[ ]5 connect"), "{}", line(&narrow));
    let filters = screen_text(draw(&narrow).backend().buffer())
        .lines()
        .nth(2)
        .unwrap()
        .to_string();
    assert!(filters.contains("│ filters final only"), "{filters}");
    // And the counts agree: the demo's track and recording events are not shown.
    let others = m.events.store.len() - m.events.shown.len();
    assert!(others > 0);
    for toggle in Command::TYPE_TOGGLES {
        run(&mut m, toggle);
    }
    assert!(!line(&m).contains("others hidden"), "{}", line(&m));
    assert_eq!(m.events.shown.len(), m.events.store.len());
}

/// The screens a session passes through: list, detail, help, filter editor, groups, story,
/// timeline with facets, and a status message.
fn every_screen(mut m: Model, mut each: impl FnMut(&str, &Buffer)) {
    let mut look = |m: &Model, what: &str| each(what, draw(m).backend().buffer());
    look(&m, "list");
    run(&mut m, Command::FocusDetail);
    look(&m, "detail");
    run(&mut m, Command::ToggleHelp);
    look(&m, "help");
    run(&mut m, Command::ToggleHelp);
    run(&mut m, Command::FocusList);
    run(&mut m, Command::TogglePublish);
    run(&mut m, Command::CycleTerminal);
    run(&mut m, Command::EditFilters);
    look(&m, "filter editor");
    run(&mut m, Command::Cancel);
    run(&mut m, Command::ShowGroups);
    look(&m, "groups");
    run(&mut m, Command::Cancel);
    run(&mut m, Command::ShowStory);
    look(&m, "story");
    run(&mut m, Command::Cancel);
    run(&mut m, Command::ToggleFacets);
    run(&mut m, Command::ToggleTimeline);
    look(&m, "timeline and facets");
    update(&mut m, Action::Saved(Err("disk full".into())));
    look(&m, "status");
    let mut problem = Model::new(
        SourceLabel::Demo,
        Filter::default(),
        m.screen.width,
        m.screen.height,
    );
    problem.config.theme = m.config.theme.clone();
    update(
        &mut problem,
        Action::LoadFinished {
            problems: vec![DumpProblem {
                path: "x.json".into(),
                position: None,
                message: "unreadable".into(),
            }],
        },
    );
    look(&problem, "load problem");
}

#[test]
fn with_no_color_every_cell_is_drawn_in_the_terminals_own_colours() {
    let mut m = demo(Filter::default(), (140, 40));
    m.config.theme = Theme::named(None, true).unwrap();
    let mut screens = 0;
    every_screen(m, |what, buffer| {
        screens += 1;
        for y in 0..buffer.area.height {
            for x in 0..buffer.area.width {
                let cell = &buffer[(x, y)];
                assert_eq!(
                    (cell.fg, cell.bg),
                    (Color::Reset, Color::Reset),
                    "{what}: cell ({x}, {y}) {:?}",
                    cell.symbol()
                );
            }
        }
    });
    assert_eq!(screens, 9);
}

#[test]
fn without_colour_final_and_the_selection_still_stand_out_by_bold_and_reverse() {
    let mut m = demo(Filter::default(), (140, 40));
    m.config.theme = Theme::mono();
    let t = draw(&m);
    let buffer = t.backend().buffer();
    let header = list_header_row(buffer);
    let x = column_of(buffer, header, "STATUS").unwrap();
    assert!(
        buffer[(x, header + 1)]
            .modifier
            .contains(Modifier::REVERSED)
    );
    for y in header + 2..buffer.area.height - 1 {
        let word: String = row_cells(buffer, y)[x as usize..x as usize + 7].concat();
        let bold = buffer[(x, y)].modifier.contains(Modifier::BOLD);
        assert_eq!(bold, word.trim() == "final", "row {y}: {word:?}");
    }
    let publish = column_of(buffer, 1, "1 publish").unwrap();
    assert!(buffer[(publish, 1)].modifier.contains(Modifier::BOLD));
}

#[test]
fn every_theme_draws_in_the_sixteen_named_colours_and_body_text_in_the_default_one() {
    for name in callscope::tui::view::theme::NAMES {
        let mut m = demo(Filter::default(), (140, 40));
        m.config.theme = Theme::named(Some(name), false).unwrap();
        every_screen(m, |what, buffer| {
            for y in 0..buffer.area.height {
                for x in 0..buffer.area.width {
                    let cell = &buffer[(x, y)];
                    for c in [cell.fg, cell.bg] {
                        assert!(
                            !matches!(c, Color::Rgb(..) | Color::Indexed(_) | Color::DarkGray),
                            "{name}, {what}: cell ({x}, {y}) is {c:?}"
                        );
                    }
                    assert_eq!(cell.bg, Color::Reset, "{name}, {what}: ({x}, {y})");
                }
            }
        });
        let m = demo(Filter::default(), (140, 40));
        let buffer = draw(&m).backend().buffer().clone();
        let header = list_header_row(&buffer);
        let x = column_of(&buffer, header, "ERROR").unwrap();
        assert_eq!(
            buffer[(x, header + 2)].fg,
            Color::Reset,
            "{name}: the error names are body text"
        );
    }
}
