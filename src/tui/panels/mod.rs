//! The panels, one module each: its state, the commands it handles, its clicks and its drawing.
//!
//! [`Focus`] says which panel has the keyboard and carries that panel's state, so that a panel
//! is open exactly while its state exists. `update` hands a command to the focused panel once;
//! the panel answers with where the keyboard goes next ([`Handled`]).

pub mod command;
pub mod detail;
pub mod editor;
pub mod facets;
pub mod find;
pub mod groups;
pub mod help;
pub mod input_view;
pub mod json;
pub mod list;
pub mod prompt;
pub mod quality;
pub mod rooms;
pub mod story;
pub mod timeline;

use super::action::Command;
use super::effect::Effect;
use super::keymap::Mode;
use command::CommandLine;
use editor::FilterEditor;
use facets::FacetsCursor;
use find::FindPrompt;
use groups::GroupsPanel;
use help::HelpPanel;
use json::JsonPanel;
use prompt::{ReplaceQuestion, SavePrompt};
use quality::QualityPanel;
use rooms::RoomPrompt;
use story::StoryPanel;

/// Where the keyboard is, with the state of the panel that has it.
///
/// The list and the detail pane keep their state (the selection, the scroll) in the model's
/// events and panes, since it stays while the keyboard is elsewhere; so does the timeline strip,
/// which stays open above the list when the keyboard leaves it.
#[derive(Debug, Default)]
pub enum Focus {
    /// The list of events.
    #[default]
    List,
    /// The detail pane of the selected event.
    Detail,
    /// The filter inputs, being edited.
    Editing(FilterEditor),
    /// The help, over the panels it was opened from.
    Help(HelpPanel),
    /// The path of a dump to save, being typed.
    SavePath(SavePrompt),
    /// Whether to replace a file that exists.
    Confirm(ReplaceQuestion),
    /// The groups of the shown events, in the list's place.
    Groups(GroupsPanel),
    /// A peer's story, in the list's place.
    Story(StoryPanel),
    /// The facets in the detail pane's place, a value selected.
    Facets(FacetsCursor),
    /// A text to find, being typed.
    Find(FindPrompt),
    /// The selected event's JSON as a tree, in the detail pane's place.
    Json(JsonPanel),
    /// The `:` command line, being typed.
    Command(CommandLine),
    /// The timeline strip, choosing a range.
    Timeline,
    /// A peer's network in a session, over the list's and the detail pane's places.
    Quality(QualityPanel),
    /// The live query's room, being chosen.
    Rooms(RoomPrompt),
}

impl Focus {
    /// The key table's mode for this focus.
    pub fn mode(&self) -> Mode {
        match self {
            Focus::List => Mode::List,
            Focus::Detail => Mode::Detail,
            Focus::Editing(_) => Mode::Editing,
            Focus::Help(_) => Mode::Help,
            Focus::SavePath(_) => Mode::SavePath,
            Focus::Confirm(_) => Mode::Confirm,
            Focus::Groups(_) => Mode::Groups,
            Focus::Story(_) => Mode::Story,
            Focus::Timeline => Mode::Timeline,
            Focus::Facets(_) => Mode::Facets,
            Focus::Find(_) => Mode::Find,
            Focus::Json(_) => Mode::Json,
            Focus::Command(_) => Mode::CommandLine,
            Focus::Quality(_) => Mode::Quality,
            Focus::Rooms(_) => Mode::Rooms,
        }
    }

    /// What the screen shows in the list's place beneath the help and the facets: the focus
    /// they were opened from. Any other focus is itself.
    pub fn beneath(&self) -> &Focus {
        match self {
            Focus::Help(help) => help.back.beneath(),
            Focus::Facets(facets) => facets.back.beneath(),
            Focus::Find(find) => find.back.beneath(),
            Focus::Json(json) => json.back.beneath(),
            Focus::Command(line) => line.back.beneath(),
            other => other,
        }
    }

    /// The groups view, when it is in the list's place (beneath the help too).
    pub fn groups(&self) -> Option<&GroupsPanel> {
        match self.beneath() {
            Focus::Groups(groups) => Some(groups),
            _ => None,
        }
    }

    /// The groups view, to count its groups again.
    pub fn groups_mut(&mut self) -> Option<&mut GroupsPanel> {
        match self {
            Focus::Help(help) => help.back.groups_mut(),
            Focus::Facets(facets) => facets.back.groups_mut(),
            Focus::Find(find) => find.back.groups_mut(),
            Focus::Json(json) => json.back.groups_mut(),
            Focus::Command(line) => line.back.groups_mut(),
            Focus::Groups(groups) => Some(groups),
            _ => None,
        }
    }

    /// The story, when it is in the list's place (beneath the help and the network view too),
    /// to tell it again.
    pub fn story_mut(&mut self) -> Option<&mut StoryPanel> {
        match self {
            Focus::Help(help) => help.back.story_mut(),
            Focus::Facets(facets) => facets.back.story_mut(),
            Focus::Find(find) => find.back.story_mut(),
            Focus::Json(json) => json.back.story_mut(),
            Focus::Command(line) => line.back.story_mut(),
            Focus::Quality(quality) => quality.back.story_mut(),
            Focus::Story(story) => Some(story),
            _ => None,
        }
    }

    /// Whether keys type text here (a filter input, the save prompt).
    pub fn takes_text(&self) -> bool {
        self.mode().takes_text()
    }
}

/// The JSON tree, when it has the keyboard (beneath the help too).
impl Focus {
    pub fn json(&self) -> Option<&JsonPanel> {
        match self {
            Focus::Help(help) => help.back.json(),
            Focus::Json(json) => Some(json),
            _ => None,
        }
    }
}

/// What a panel did with a command it was handed.
#[derive(Debug)]
pub enum Handled {
    /// The keyboard goes to this focus (the panel itself, while it stays open), and the runtime
    /// carries out these effects.
    Done(Focus, Vec<Effect>),
    /// The panel has no use for the command: it keeps the keyboard, unchanged.
    Unused(Focus),
}

impl Handled {
    /// Done, the keyboard going to `focus`, with nothing for the runtime to do.
    pub fn to(focus: Focus) -> Handled {
        Handled::Done(focus, Vec::new())
    }
}

/// Whether a command moves a selection (or scrolls).
pub fn moves(c: Command) -> bool {
    matches!(
        c,
        Command::Up
            | Command::Down
            | Command::PageUp
            | Command::PageDown
            | Command::Top
            | Command::Bottom
    )
}

/// A selection moved by a command, within `0..len`.
pub fn moved(selected: usize, len: usize, c: Command, page: usize) -> usize {
    let last = len.saturating_sub(1);
    match c {
        Command::Up => selected.saturating_sub(1),
        Command::Down => (selected + 1).min(last),
        Command::PageUp => selected.saturating_sub(page),
        Command::PageDown => (selected + page).min(last),
        Command::Top => 0,
        _ => last,
    }
}

/// `selected` moved by `step` within `0..len`.
pub fn shifted(selected: usize, len: usize, step: i64) -> usize {
    let last = len.saturating_sub(1) as i64;
    (selected as i64).saturating_add(step).clamp(0, last.max(0)) as usize
}

/// The first row shown so that `selected` is among the `height` rows from it.
pub fn visible_offset(selected: usize, offset: usize, height: usize) -> usize {
    if selected < offset {
        selected
    } else if selected >= offset + height {
        selected + 1 - height
    } else {
        offset
    }
}
