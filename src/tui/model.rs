//! The explorer's state, in a handful of parts: where the events come from, the events with the
//! filter and the selection, where the keyboard is (with the state of the panel that has it),
//! the panes that stay while the keyboard moves, the terminal's size, and the fixed settings.

mod live;
mod related;

pub use live::{Clock, Fetch, Follow, Live};
pub use related::{Asked, Beside, Outcomes};

use super::keymap::Keymap;
use super::panels::Focus;
use super::panels::detail::DetailPane;
use super::panels::facets::FacetsPane;
use super::panels::find::Find;
use super::panels::timeline::TimelineStrip;
use super::update::history::Step;
use super::view::layout::Zoom;
use super::view::theme::Theme;
use crate::filter::Filter;
use crate::insight::{Order, OrderIndex};
use crate::source::DumpProblem;
use crate::store::Store;

/// The explorer's state: changed only by `update`, drawn by `view`.
#[derive(Debug)]
pub struct Model {
    /// Where the events come from, and how loading them goes.
    pub session: Session,
    /// The loaded events, the filter, the events it shows and the selection among them.
    pub events: Events,
    /// Where the keyboard is, with the state of the panel that has it.
    pub focus: Focus,
    /// The panes that stay on screen while the keyboard moves: the detail pane, the timeline
    /// strip, the facets.
    pub panes: Panes,
    /// The platform's data beside the events: rooms, sessions, quality stats, track events
    /// fetched for a story.
    pub beside: Beside,
    /// The terminal's size, for paging and for placing mouse events.
    pub screen: Screen,
    /// A one-line message for the user (a save's result), shown in the header until the next
    /// command.
    pub status: Option<String>,
    /// What the config and the command line chose; fixed while the explorer runs.
    pub config: Config,
}

/// Where the events come from, as the header says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceLabel {
    Demo,
    Files { count: usize, first: String },
    Live { url: String },
}

/// The loader's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadState {
    Loading,
    Idle,
}

/// Where the events come from, and how loading them goes.
#[derive(Debug)]
pub struct Session {
    pub source: SourceLabel,
    pub load: LoadState,
    /// What the loaders met on the way (a damaged line, an unreadable file).
    pub problems: Vec<DumpProblem>,
    /// The live query, when the source is live.
    pub live: Option<Live>,
    /// Follow mode, while it is on.
    pub follow: Option<Follow>,
    /// The user asked to leave.
    pub quit: bool,
    /// What the saved API pages among the files say of the query they came from.
    pub saved: crate::source::pages::SavedPages,
}

/// The loaded events, the filter, the events it shows and the selection among them.
#[derive(Debug)]
pub struct Events {
    pub store: Store,
    pub filter: Filter,
    /// Indices of the events that pass the filter, in load order: what the groups, the
    /// timeline and the facets count.
    pub matching: Vec<u32>,
    /// The same events in the order in force: the list's rows.
    pub shown: Vec<u32>,
    /// The order the list shows them in.
    pub order: Order,
    /// Every loaded event in time order, and the whole order last asked for.
    pub index: OrderIndex,
    pub selection: Selection,
    /// Every filter change, with where it was made, to take back (`u`).
    pub back: Vec<Step>,
    /// The text found with `/`, and which events hold it.
    pub find: Option<Find>,
    /// How many loaded events the find looks at in one turn ([`crate::tui::panels::find::FIND_STEP`]).
    pub find_step: usize,
    /// How often the store and the shown events changed, for the views derived from them.
    pub generation: Generation,
    /// Why no event is shown, when the loaded events can say.
    pub why_empty: WhyEmptyNote,
}

/// Why the filter leaves no event, when the loaded events can say ([`crate::insight::why_empty`],
/// which may read every row): told again when the store or the shown events change, not on every
/// frame.
#[derive(Debug, Default)]
pub struct WhyEmptyNote {
    /// The generations of the store and of the shown events it was told for.
    told_for: Option<(u64, u64)>,
    pub reasons: Vec<crate::insight::WhyEmpty>,
}

impl Events {
    /// Tells again why no event is shown, when the store or the shown events changed since it
    /// was told.
    pub fn refresh_why_empty(&mut self) {
        let now = (self.generation.store, self.generation.shown);
        if self.why_empty.told_for == Some(now) {
            return;
        }
        self.why_empty = WhyEmptyNote {
            told_for: Some(now),
            reasons: if self.shown.is_empty() && !self.store.is_empty() {
                crate::insight::why_empty(&self.filter, &self.store)
            } else {
                Vec::new()
            },
        };
    }

    /// The store index of the selected event, if any is shown.
    pub fn selected(&self) -> Option<usize> {
        self.shown.get(self.selection.selected).map(|&i| i as usize)
    }
}

/// Change counters of the events. Each view derived from them (groups, timeline, facets, the
/// selected event's chain) remembers the counter it was computed for, and is computed again,
/// once per update, when the counter has moved on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Generation {
    /// Moves on when events join the store, or a new query replaces it.
    pub store: u64,
    /// Moves on when the shown events change: a new filter, new events that pass it, a new
    /// store (not a new order: what is counted of them stays).
    pub shown: u64,
}

/// Where the user is in the list, to be found again after the shown events change.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Place {
    /// The selected event: its row, and its id (to find it in a store that replaces this one).
    pub row: Option<u32>,
    pub id: Option<String>,
    /// The line of the list it is drawn on.
    pub line: usize,
    /// The selection is on the first event, or on the last: it stays there.
    pub at_top: bool,
    pub at_bottom: bool,
}

impl Place {
    /// Where the user is now.
    pub fn of(model: &Model) -> Place {
        let events = &model.events;
        let sel = &events.selection;
        let row = events.shown.get(sel.selected).copied();
        Place {
            row,
            id: row.and_then(|i| event_id(&events.store, i as usize)),
            line: sel.selected.saturating_sub(sel.offset),
            at_top: sel.selected == 0,
            at_bottom: !events.shown.is_empty() && sel.selected + 1 == events.shown.len(),
        }
    }
}

/// An event's id, as written.
pub fn event_id(store: &Store, i: usize) -> Option<String> {
    store.event(i).id().map(str::to_string)
}

/// The list's selection and scroll position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Index into the shown events.
    pub selected: usize,
    /// The first shown event drawn at the top of the list.
    pub offset: usize,
}

/// The panes that stay on screen while the keyboard moves between them.
#[derive(Debug, Default)]
pub struct Panes {
    pub detail: DetailPane,
    /// The timeline strip above the list, while it is open: it stays open when the keyboard
    /// leaves it, and the other panels are laid out around it.
    pub timeline: Option<TimelineStrip>,
    pub facets: FacetsPane,
    /// A pane alone in the body: the list (`z`), or the detail pane (`Z`).
    pub zoom: Zoom,
    /// Where the times are shown: UTC, or local time (`L`).
    pub zone: crate::time::Zone,
}

/// The terminal's size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    pub width: u16,
    pub height: u16,
}

/// What the config and the command line chose.
#[derive(Debug)]
pub struct Config {
    /// The bindings in force: what keys do, and what the help and the hints say.
    pub keymap: Keymap,
    pub theme: Theme,
    /// Saved and copied events are redacted (`redact = true` in the profile).
    pub redact: bool,
    /// How often follow mode runs the query again (`--follow-interval`).
    pub follow_every: std::time::Duration,
    /// The filter of the command line and the profile, which the first `x` goes back to.
    pub start_filter: Filter,
    /// The local time `L` shows: the system's zone (a fixed offset in tests).
    pub local_zone: crate::time::Zone,
}

impl Model {
    pub fn new(source: SourceLabel, filter: Filter, width: u16, height: u16) -> Model {
        let start_filter = filter.clone();
        Model {
            session: Session {
                source,
                load: LoadState::Loading,
                problems: Vec::new(),
                live: None,
                follow: None,
                quit: false,
                saved: Default::default(),
            },
            events: Events {
                store: Store::new(),
                filter,
                matching: Vec::new(),
                shown: Vec::new(),
                order: Order::default(),
                index: OrderIndex::default(),
                selection: Selection::default(),
                back: Vec::new(),
                find: None,
                find_step: crate::tui::panels::find::FIND_STEP,
                generation: Generation::default(),
                why_empty: WhyEmptyNote::default(),
            },
            focus: Focus::List,
            panes: Panes::default(),
            beside: Beside::default(),
            screen: Screen { width, height },
            status: None,
            config: Config {
                keymap: Keymap::default(),
                theme: Theme::default(),
                redact: false,
                follow_every: std::time::Duration::from_secs(30),
                start_filter,
                local_zone: crate::time::Zone::System,
            },
        }
    }

    /// Whether work is left for the turns of the loop when no key or batch waits: a find's
    /// events not looked at yet, or its jump still owed.
    pub fn has_work(&self) -> bool {
        self.events
            .find
            .as_ref()
            .is_some_and(|f| f.has_work(&self.events.store))
    }

    /// The store index of the selected event, if any is shown.
    pub fn selected_event(&self) -> Option<usize> {
        self.events.selected()
    }

    /// The event the detail pane shows: the story's selected event while a story is open (a
    /// chain's first event on a chain's line), else the list's.
    pub fn focused_event(&self) -> Option<usize> {
        match self.focus.beneath() {
            Focus::Story(story) => story.focused_event(),
            _ => self.selected_event(),
        }
    }
}
