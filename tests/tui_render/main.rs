//! The explorer's screens, drawn on a test terminal of fixed size: snapshots of what a person sees,
//! and the styled buffer where colour carries meaning.
//!
//! Each module below holds the tests of one part of the screen; the helpers they share are here.
//! A snapshot is `snapshots/tui_render__MODULE__NAME.snap`.

use callscope::event::{EventType, Field};
use callscope::filter::{Filter, TimeBound};
use callscope::source::DumpProblem;
use callscope::store::Batch;
use callscope::tui::action::{Action, Command};
use callscope::tui::keymap::{BINDINGS, Keymap, Mode};
use callscope::tui::model::{Model, SourceLabel};
use callscope::tui::panels::detail;
use callscope::tui::update::update;
use callscope::tui::view::theme::Theme;
use callscope::tui::view::view;
use crossterm::event::{Event as TermEvent, KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Position;
use ratatui::style::{Color, Modifier};
use serde_json::{Value, json};

mod colours;
mod cuts;
mod detail_pane;
mod group_widths;
mod groups;
mod header;
mod header_widths;
mod help;
mod hostile_text;
mod inputs;
mod list;
mod local_time;
mod stories;
mod timeline;

/// The room of the demo's join storm.
const STORM_ROOM_ID: &str = "673a1f2c9e4b8d0a5c7e3f21";

/// A batch of these events, one per line of one buffer.
fn batch(events: &[Value]) -> Batch {
    Batch::of_objects(events.iter().map(|e| e.to_string())).expect("a test event is a JSON object")
}

fn loaded(source: SourceLabel, filter: Filter, size: (u16, u16), batches: Vec<Batch>) -> Model {
    let mut m = Model::new(source, filter, size.0, size.1);
    for b in batches {
        update(&mut m, Action::BatchLoaded(b));
    }
    update(
        &mut m,
        Action::LoadFinished {
            problems: Vec::new(),
        },
    );
    m
}

/// A join failure in room `r` at time `ts`.
fn join_at(id: &str, ts: &str) -> Value {
    json!({"id": id, "type": "client.join.failed", "timestamp": ts, "data": {"room_id": "r", "error_code": 500, "error_name": "ServerErrors"}})
}

/// The explorer on these events alone, at this size.
fn of_events(size: (u16, u16), events: &[Value]) -> Model {
    loaded(
        SourceLabel::Demo,
        Filter::default(),
        size,
        vec![batch(events)],
    )
}

/// The demo as the explorer loads it: its events, then the related data beside them (rooms,
/// sessions, quality stats).
fn demo(filter: Filter, size: (u16, u16)) -> Model {
    let mut m = loaded(
        SourceLabel::Demo,
        filter,
        size,
        vec![callscope::source::demo::load()],
    );
    let objects = callscope::source::demo::related().into_objects().collect();
    update(&mut m, Action::RelatedLoaded { objects, now: 0 });
    m
}

/// The filter on Priya Raman, the demo's peer whose publishing gives up.
fn peer_priya() -> Filter {
    Filter::default().with(Field::Peer, callscope::generator::PRIYA_PEER_ID)
}

/// The demo at `size` on Priya's network view: her story, on her chain's line, then its
/// network.
fn priyas_network(size: (u16, u16)) -> Model {
    let mut m = demo(peer_priya(), size);
    run(&mut m, Command::ShowStory);
    run(&mut m, Command::Top);
    run(&mut m, Command::ShowQuality);
    m
}

/// The demo at 140x40 with the story open of a peer of the join storm who gave up.
fn story_of_one_who_gave_up() -> Model {
    let filter = Filter {
        terminal: Some(true),
        since: Some(bound("2026-11-18T10:02:00Z")),
        ..Filter::default().with(Field::Room, STORM_ROOM_ID)
    };
    let mut m = demo(filter, (140, 40));
    run(&mut m, Command::ShowStory);
    m
}

fn run(m: &mut Model, c: Command) {
    update(m, Action::Command(c));
}

fn draw(m: &Model) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(m.screen.width, m.screen.height)).unwrap();
    t.draw(|f| view(m, f)).unwrap();
    t
}

/// The detail pane alone, as wide as the pane is in the model's layout and exactly as tall as
/// its content.
fn draw_detail(m: &Model) -> Terminal<TestBackend> {
    let width = callscope::tui::view::layout::areas(m.screen.width, m.screen.height)
        .detail
        .width;
    let render = |height| {
        let mut t = Terminal::new(TestBackend::new(width, height)).unwrap();
        t.draw(|f| detail::draw(m, f, f.area())).unwrap();
        t
    };
    let tall = render(400);
    let buffer = tall.backend().buffer();
    let used = (0..buffer.area.height)
        .rev()
        .find(|&y| row_text(buffer, y).trim_start_matches('│').trim() != "")
        .expect("the pane draws its border");
    assert!(
        used + 1 < buffer.area.height,
        "the detail pane is longer than 400 rows"
    );
    render(used + 1)
}

/// The text of row `y`, one entry per cell (the cell after a wide character holds a hidden space).
fn row_cells(buffer: &Buffer, y: u16) -> Vec<&str> {
    (0..buffer.area.width)
        .map(|x| buffer[(x, y)].symbol())
        .collect()
}

fn row_text(buffer: &Buffer, y: u16) -> String {
    row_cells(buffer, y).concat()
}

fn screen_text(buffer: &Buffer) -> String {
    (0..buffer.area.height)
        .map(|y| row_text(buffer, y))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The column where `needle` starts in row `y`.
fn column_of(buffer: &Buffer, y: u16, needle: &str) -> Option<u16> {
    let cells = row_cells(buffer, y);
    (0..cells.len())
        .find(|&x| cells[x..].concat().starts_with(needle))
        .map(|x| x as u16)
}

/// The row holding the list's column titles.
fn list_header_row(buffer: &Buffer) -> u16 {
    (0..buffer.area.height)
        .find(|&y| row_text(buffer, y).contains("TIME (UTC)   TYPE"))
        .expect("the list shows its column titles")
}

/// A text's words with one space between each: a wrapped line reads as the line.
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The line of the screen that starts with `start` (a table's column titles), up to the pane
/// beside the table.
fn left_of_pane(m: &Model, start: &str) -> String {
    let text = screen_text(draw(m).backend().buffer());
    let line = text
        .lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line starts with {start:?}:\n{text}"));
    line.split('│').next().unwrap_or_default().to_string()
}

/// The row of the group named `name` in the screen's text.
fn row_of<'a>(text: &'a str, name: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(name))
        .unwrap_or_else(|| panic!("{name} missing:\n{text}"))
}

fn bound(text: &str) -> TimeBound {
    TimeBound {
        text: text.to_string(),
        nanos: callscope::time::parse_rfc3339_nanos(text).unwrap(),
    }
}

/// A live explorer on a room, its first page loaded (100 of the 2,400 events the server counts),
/// the clock at `start`.
fn live_loading(start: std::time::Instant) -> Model {
    live_loading_at(start, (140, 12))
}

/// [`live_loading`] on a terminal of this size.
fn live_loading_at(start: std::time::Instant, size: (u16, u16)) -> Model {
    let url = "https://api.100ms.live";
    let mut m = Model::new(
        SourceLabel::Live { url: url.into() },
        Filter::default().with(Field::Room, STORM_ROOM_ID),
        size.0,
        size.1,
    );
    let mut live = callscope::tui::model::Live::new(url.into());
    live.clock = callscope::tui::model::Clock {
        at: start,
        unix: 1_763_460_000,
    };
    m.session.live = Some(live);
    m.session.load = callscope::tui::model::LoadState::Idle;
    let effects = callscope::tui::update::new_query(&mut m);
    // The query, and the room's sessions asked for beside it.
    assert_eq!(effects.len(), 2, "{effects:?}");
    let query = m.session.live.as_ref().unwrap().query;
    let events: Vec<Value> = (0..100)
        .map(|k| {
            let mut e = join_at(
                &format!("e{k}"),
                &format!("2026-11-18T10:{:02}:00Z", k % 60),
            );
            e["data"]["room_id"] = STORM_ROOM_ID.into();
            e["data"]["peer_id"] = format!("peer-{}", k % 4).into();
            e["data"]["is_terminal"] = (k % 3 == 0).into();
            e
        })
        .collect();
    let page = callscope::source::api::Page {
        batch: Box::new(batch(&events)),
        next: "more".into(),
        total: Some(2_400),
    };
    update(
        &mut m,
        Action::Live(callscope::source::worker::Report::Page { query, page }),
    );
    m
}
