//! The room prompt: the live API answers queries of one room only, so with none named the
//! explorer asks for one instead of sending a query it would refuse. It offers the rooms of
//! recent sessions (newest first, with when their newest session ran and how many peers joined)
//! and the rooms used before, and takes a room's id or name as typed (a name is looked up in the
//! rooms endpoint: several rooms of that name are offered, none is said).

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use tui_input::Input;

use super::{Focus, Handled};
use crate::event::Field;
use crate::source::api::rooms::{Named, Room, looks_like_room_id};
use crate::source::recent::RecentRoom;
use crate::text::{cut, for_terminal};
use crate::time::Zone;
use crate::tui::action::Command;
use crate::tui::effect::Effect;
use crate::tui::model::Model;
use crate::tui::rooms_used::{self, UsedRoom};
use crate::tui::update::history::{self, Return};

/// The rooms of recent sessions, as far as they are known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recent {
    Loading,
    Loaded(Vec<RecentRoom>),
    Failed(String),
}

/// The room prompt's state.
#[derive(Debug, Clone)]
pub struct RoomPrompt {
    /// A room's id or name, as typed.
    pub input: Input,
    pub recent: Recent,
    /// The rooms used before with this API, newest first.
    pub used: Vec<UsedRoom>,
    /// The rooms a looked-up name found: several of that name, or (none of it) those whose
    /// names contain it.
    pub found: Vec<Room>,
    /// The choice selected, among [`RoomPrompt::choices`].
    pub selected: usize,
    /// The last key moved the selection: Enter takes the selected room, not the typed text.
    pub picking: bool,
    /// The name being looked up.
    pub looking_up: Option<String>,
    /// What the last lookup found, or why it failed.
    pub message: Option<String>,
}

/// A room the prompt offers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub id: String,
    pub name: Option<String>,
}

impl RoomPrompt {
    /// The prompt with the rooms used before with the API at `base_url`; those of recent
    /// sessions are on their way.
    pub fn new(used: &[UsedRoom], base_url: &str) -> RoomPrompt {
        RoomPrompt {
            input: Input::default(),
            recent: Recent::Loading,
            used: rooms_used::of_api(used, base_url).cloned().collect(),
            found: Vec::new(),
            selected: 0,
            picking: false,
            looking_up: None,
            message: None,
        }
    }

    /// Every room offered, in the order drawn: those a lookup found, those of recent sessions,
    /// then those used before (a room may be among both).
    pub fn choices(&self) -> Vec<Choice> {
        let mut out: Vec<Choice> = self
            .found
            .iter()
            .map(|r| Choice {
                id: r.id.clone(),
                name: Some(r.name.clone()).filter(|n| !n.is_empty()),
            })
            .collect();
        if let Recent::Loaded(rooms) = &self.recent {
            out.extend(rooms.iter().map(|r| Choice {
                id: r.id.clone(),
                name: r.name.clone(),
            }));
        }
        for r in &self.used {
            out.push(Choice {
                id: r.id.clone(),
                name: r.name.clone(),
            });
        }
        out
    }
}

/// How a person opens the prompt again, for messages.
pub const HOW_TO_CHOOSE: &str = ":room chooses one";

/// Opens the prompt over whatever has the keyboard, and asks for the rooms of recent sessions;
/// with `typed` (a room's name), looks it up as well.
pub fn open(model: &mut Model, typed: &str) -> Vec<Effect> {
    let Some(live) = &model.session.live else {
        return Vec::new();
    };
    let mut prompt = RoomPrompt::new(&live.rooms_used, &live.url);
    let mut effects = vec![Effect::RecentRooms];
    let typed = typed.trim();
    if !typed.is_empty() {
        prompt.input = Input::new(typed.to_string());
        prompt.message = Some(format!("looking up the room named {typed:?}…"));
        prompt.looking_up = Some(typed.to_string());
        effects.push(Effect::LookUpRoom(typed.to_string()));
    }
    model.focus = Focus::Rooms(prompt);
    effects
}

/// A live source, a room's name no loaded event gives: the prompt opens and looks it up.
/// Whether it did.
pub fn look_up_named(model: &mut Model, name: &str) -> bool {
    let Some(live) = model.session.live.as_mut() else {
        return false;
    };
    live.ask_room = Some(name.to_string());
    true
}

/// A command while the prompt has the keyboard.
pub fn handle(mut prompt: RoomPrompt, model: &mut Model, c: Command) -> Handled {
    let count = prompt.choices().len();
    match c {
        Command::Up | Command::Down | Command::PageUp | Command::PageDown => {
            prompt.selected = super::moved(prompt.selected, count, c, 5);
            prompt.picking = true;
            Handled::to(Focus::Rooms(prompt))
        }
        Command::Apply => {
            let typed = prompt.input.value().trim().to_string();
            if typed.is_empty() || prompt.picking {
                return match prompt.choices().into_iter().nth(prompt.selected) {
                    Some(choice) => choose(model, choice.id, choice.name),
                    None => {
                        prompt.message = Some("type a room's id or name".into());
                        Handled::to(Focus::Rooms(prompt))
                    }
                };
            }
            if looks_like_room_id(&typed) {
                return choose(model, typed, None);
            }
            prompt.message = Some(format!("looking up the room named {typed:?}…"));
            prompt.looking_up = Some(typed.clone());
            Handled::Done(Focus::Rooms(prompt), vec![Effect::LookUpRoom(typed)])
        }
        Command::Cancel => {
            if model.events.filter.room().is_none() {
                model.status = Some(format!("no room chosen: {HOW_TO_CHOOSE}"));
            }
            Handled::to(Focus::List)
        }
        _ => Handled::Unused(Focus::Rooms(prompt)),
    }
}

/// Runs the live query for the room `id`: the filter's room becomes it (a step the back stack
/// can take back).
fn choose(model: &mut Model, id: String, name: Option<String>) -> Handled {
    let mut filter = model.events.filter.clone();
    filter.set(Field::Room, Some(id.clone()));
    if let Some(live) = model.session.live.as_mut() {
        live.chosen = Some((id, name));
    }
    let from = Return::list(model);
    let effects = if filter == model.events.filter {
        // The room in force, chosen again: its query runs again.
        crate::tui::update::events::new_query(model)
    } else {
        history::change(model, filter, from)
    };
    Handled::Done(Focus::List, effects)
}

/// Text typed into the prompt: Enter then takes it rather than the selected room.
pub fn typed(prompt: &mut RoomPrompt) {
    prompt.picking = false;
}

/// The rooms of recent sessions arrived (or could not be listed).
pub fn recent_arrived(model: &mut Model, result: Result<Vec<RecentRoom>, String>) {
    if let Focus::Rooms(prompt) = &mut model.focus {
        prompt.recent = match result {
            Ok(rooms) => Recent::Loaded(rooms),
            Err(why) => Recent::Failed(why),
        };
    }
}

/// A name's lookup ended: one room runs its query; several, or rooms whose names contain it,
/// are offered; none is said.
pub fn looked_up(model: &mut Model, name: String, result: Result<Named, String>) -> Vec<Effect> {
    let Focus::Rooms(prompt) = &mut model.focus else {
        return Vec::new();
    };
    if prompt.looking_up.as_deref() != Some(name.as_str()) {
        // An answer to a name typed before: the prompt moved on.
        return Vec::new();
    }
    prompt.looking_up = None;
    let found = match result {
        Err(why) => {
            prompt.message = Some(why);
            return Vec::new();
        }
        Ok(found) => found,
    };
    match found {
        Named::One(room) => {
            let name = Some(room.name).filter(|n| !n.is_empty());
            let prompt = std::mem::take(&mut model.focus);
            match choose(model, room.id, name) {
                Handled::Done(focus, effects) => {
                    model.focus = focus;
                    effects
                }
                Handled::Unused(_) => {
                    model.focus = prompt;
                    Vec::new()
                }
            }
        }
        Named::Several(rooms) => {
            prompt.message = Some(format!(
                "{} rooms are named {name:?}: choose the one you mean",
                rooms.len()
            ));
            offer(prompt, rooms);
            Vec::new()
        }
        Named::None { near } if near.is_empty() => {
            // The rooms offered whose names contain it, for a name half remembered.
            let lower = name.to_lowercase();
            let offered: Vec<Room> = prompt
                .choices()
                .into_iter()
                .filter(|c| {
                    c.name
                        .as_deref()
                        .is_some_and(|n| n.to_lowercase().contains(&lower))
                })
                .fold(Vec::new(), |mut rooms, c| {
                    if !rooms.iter().any(|r: &Room| r.id == c.id) {
                        rooms.push(Room {
                            id: c.id,
                            name: c.name.unwrap_or_default(),
                            enabled: None,
                            created_at: None,
                            raw: String::new(),
                        });
                    }
                    rooms
                });
            if offered.is_empty() {
                prompt.message = Some(format!(
                    "no room is named {name:?}: check the name, or give the room's id"
                ));
                prompt.found.clear();
            } else {
                prompt.message = Some(format!(
                    "no room is named {name:?}; these rooms offered here have names that contain it"
                ));
                offer(prompt, offered);
            }
            Vec::new()
        }
        Named::None { near } => {
            prompt.message = Some(format!(
                "no room is named {name:?}; these rooms' names contain it"
            ));
            offer(prompt, near);
            Vec::new()
        }
    }
}

/// Offers the rooms a lookup found first, the first selected and Enter taking it.
fn offer(prompt: &mut RoomPrompt, rooms: Vec<Room>) {
    prompt.found = rooms;
    prompt.selected = 0;
    prompt.picking = true;
    prompt.input = Input::default();
}

/// When, in `zone`: `2026-11-18 10:02`.
fn when(ns: i64, zone: Zone) -> String {
    crate::time::format_short(zone.shift(ns))[..16].to_string()
}

/// When a room's newest session ran, in `zone` and naming it: `2026-11-18 10:02–10:40 UTC`, or
/// `… running`.
fn ran(r: &RecentRoom, zone: Zone) -> String {
    let Some(start) = r.started else {
        return if r.active {
            "running".into()
        } else {
            "start unknown".into()
        };
    };
    let (label, at) = (zone.label(start), |ns| when(ns, zone));
    match (r.active, r.ended) {
        (true, _) => format!("{} {label}, running now", at(start)),
        (false, Some(end)) if at(end).get(..10) == at(start).get(..10) => {
            format!("{}–{} {label}", at(start), at(end).get(11..).unwrap_or(""))
        }
        (false, Some(end)) => format!("{} – {} {label}", at(start), at(end)),
        (false, None) => format!("{} {label}", at(start)),
    }
}

/// A room's name (or a dash) and id, cut to fit.
fn named_room(name: Option<&str>, id: &str) -> String {
    let name = name.map(for_terminal).unwrap_or_default();
    format!(
        "{:<24} {:<24}",
        cut(
            if name.is_empty() {
                "(name not known)"
            } else {
                &name
            },
            24
        ),
        cut(&for_terminal(id), 24)
    )
}

/// Draws the prompt over the body.
pub fn draw(model: &Model, prompt: &RoomPrompt, frame: &mut Frame, area: Rect) {
    let theme = &model.config.theme;
    frame.render_widget(Clear, area);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.focused_border())
        .title(" Choose a room ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height == 0 || inner.width < 4 {
        return;
    }
    let width = inner.width as usize;
    let mut lines: Vec<Line> = vec![Line::styled(
        "The live API answers the events of one room at a time: choose one, or type its id or name.",
        theme.label(),
    )];
    let label = "room: ";
    let (text, cursor) =
        super::input_view::visible(&prompt.input, width.saturating_sub(label.len()).max(1));
    lines.push(Line::from(vec![
        Span::styled(label, theme.key()),
        Span::styled(text, theme.input_focused()),
    ]));
    if inner.height > 1 {
        frame.set_cursor_position(Position::new(
            inner.x + label.len() as u16 + cursor as u16,
            inner.y + 1,
        ));
    }
    // A lookup on its way is news; what it found (or why it failed) is a problem to read.
    let style = if prompt.looking_up.is_some() {
        theme.label()
    } else {
        theme.problem()
    };
    lines.push(match &prompt.message {
        Some(m) => Line::styled(for_terminal(m).into_owned(), style),
        None => Line::raw(""),
    });
    // The offers, the selected one marked; scrolled to keep it in sight.
    let mut rows: Vec<(Option<usize>, Line)> = Vec::new();
    let mut k = 0;
    let mut row = |rows: &mut Vec<(Option<usize>, Line)>, text: String| {
        let mark = if k == prompt.selected { "▶ " } else { "  " };
        let style = if k == prompt.selected {
            theme.selected_row()
        } else {
            ratatui::style::Style::new()
        };
        rows.push((
            Some(k),
            Line::styled(cut(&format!("{mark}{text}"), width), style),
        ));
        k += 1;
    };
    if !prompt.found.is_empty() {
        rows.push((None, Line::styled("Rooms found", theme.heading())));
        for r in &prompt.found {
            let mut text = named_room(Some(&r.name), &r.id);
            if r.enabled == Some(false) {
                text.push_str(" disabled");
            }
            if let Some(created) = &r.created_at {
                text.push_str(&format!(
                    " created {}",
                    created.get(..10).unwrap_or(created)
                ));
            }
            row(&mut rows, text);
        }
    }
    rows.push((
        None,
        Line::styled("Rooms of recent sessions (newest first)", theme.heading()),
    ));
    match &prompt.recent {
        Recent::Loading => rows.push((
            None,
            Line::styled("  asking the sessions endpoint…", theme.label()),
        )),
        Recent::Failed(why) => rows.push((
            None,
            Line::styled(format!("  {}", for_terminal(why)), theme.problem()),
        )),
        Recent::Loaded(rooms) if rooms.is_empty() => {
            rows.push((None, Line::styled("  no sessions listed", theme.label())))
        }
        Recent::Loaded(rooms) => {
            for r in rooms {
                let peers = if r.peers == 1 {
                    "1 peer".to_string()
                } else {
                    format!("{} peers", r.peers)
                };
                let more = match r.sessions {
                    1 => String::new(),
                    n => format!(" · {n} sessions"),
                };
                row(
                    &mut rows,
                    format!(
                        "{} {} · {peers}{more}",
                        named_room(r.name.as_deref(), &r.id),
                        ran(r, model.panes.zone)
                    ),
                );
            }
        }
    }
    if !prompt.used.is_empty() {
        rows.push((None, Line::styled("Rooms used before", theme.heading())));
        for u in &prompt.used {
            let ns = u.used_at.saturating_mul(1_000_000_000);
            let (zone, at) = (model.panes.zone, when(ns, model.panes.zone));
            let at = format!("last loaded {at} {}", zone.label(ns));
            row(
                &mut rows,
                format!("{} {at}", named_room(u.name.as_deref(), &u.id)),
            );
        }
    }
    let room_for_rows = (inner.height as usize).saturating_sub(lines.len());
    let at = rows
        .iter()
        .position(|(k, _)| *k == Some(prompt.selected))
        .unwrap_or(0);
    let skip = (at + 1).saturating_sub(room_for_rows);
    lines.extend(rows.into_iter().skip(skip).map(|(_, l)| l));
    frame.render_widget(Paragraph::new(lines), inner);
}
