//! The explorer's state: small parts that `update` composes.

use tui_input::Input;

use super::keymap::Mode;
use crate::filter::Filter;
use crate::source::DumpProblem;
use crate::store::Store;
use crate::story::After;

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

/// The filter inputs, in the order Tab visits them.
pub const FIELDS: [&str; 5] = ["room", "session", "peer", "user", "search"];
pub const SEARCH_FIELD: usize = 4;

/// The filter bar while it is being edited.
#[derive(Debug, Clone)]
pub struct FilterEditor {
    pub inputs: [Input; 5],
    pub focus: usize,
}

impl FilterEditor {
    pub fn from_filter(f: &Filter, focus: usize) -> FilterEditor {
        let input = |v: &Option<String>| Input::new(v.clone().unwrap_or_default());
        FilterEditor {
            inputs: [
                input(&f.room),
                input(&f.session),
                input(&f.peer),
                input(&f.user),
                input(&f.search),
            ],
            focus,
        }
    }

    /// The filter with the edited inputs applied (an empty input clears its filter).
    pub fn apply_to(&self, f: &Filter) -> Filter {
        let v = |i: usize| {
            let s = self.inputs[i].value().trim();
            (!s.is_empty()).then(|| s.to_string())
        };
        Filter {
            room: v(0),
            session: v(1),
            peer: v(2),
            user: v(3),
            search: v(4),
            ..f.clone()
        }
    }
}

/// The list's selection and scroll position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Selection {
    /// Index into the shown events.
    pub selected: usize,
    /// The first shown event drawn at the top of the list.
    pub offset: usize,
}

#[derive(Debug)]
pub struct Model {
    pub store: Store,
    pub source: SourceLabel,
    pub filter: Filter,
    /// Indices of the events that pass the filter, in load order.
    pub shown: Vec<u32>,
    pub selection: Selection,
    pub mode: Mode,
    /// The mode to return to when the help closes.
    pub mode_before_help: Mode,
    pub detail_scroll: u16,
    pub editor: Option<FilterEditor>,
    pub load: LoadState,
    pub problems: Vec<DumpProblem>,
    /// The terminal's size, for paging and for placing mouse events.
    pub width: u16,
    pub height: u16,
    /// What the loaded events say about the selected event's chain: (event index, story).
    pub after: Option<(usize, After)>,
    pub quit: bool,
}

impl Model {
    pub fn new(source: SourceLabel, filter: Filter, width: u16, height: u16) -> Model {
        Model {
            store: Store::new(),
            source,
            filter,
            shown: Vec::new(),
            selection: Selection::default(),
            mode: Mode::List,
            mode_before_help: Mode::List,
            detail_scroll: 0,
            editor: None,
            load: LoadState::Loading,
            problems: Vec::new(),
            width,
            height,
            after: None,
            quit: false,
        }
    }

    /// The store index of the selected event, if any is shown.
    pub fn selected_event(&self) -> Option<usize> {
        self.shown
            .get(self.selection.selected)
            .map(|&i| i as usize)
    }
}
