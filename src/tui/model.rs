//! The explorer's state: small parts that `update` composes.

use tui_input::Input;

use super::keymap::{Keymap, Mode};
use super::view::theme::Theme;
use crate::event::Field;
use crate::filter::Filter;
use crate::insight::After;
use crate::insight::{GroupKey, GroupSort};
use crate::insight::{Groups, Story, Timeline};
use crate::source::DumpProblem;
use crate::store::Store;

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

/// The live query's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Live {
    pub url: String,
    /// The id of the current query; reports of older queries are dropped.
    pub query: u64,
    /// The last page's `next`: `None` before the first page, `Some("")` at the end.
    pub next: Option<String>,
    pub total: Option<u64>,
    pub pages: usize,
    pub fetch: Fetch,
    pub loading_all: bool,
    /// Whether the query is a follow mode refresh, which fetches again what is loaded.
    pub refresh: bool,
    /// Whether every page of the query was loaded once: only then are the events a refresh
    /// adds new ones, rather than old ones never loaded.
    pub complete: bool,
    /// Events that follow mode's refreshes fetched again, already loaded: the store counts
    /// them among the duplicates it dropped, which they are not.
    pub refetched: usize,
}

impl Live {
    pub fn new(url: String) -> Live {
        Live {
            url,
            query: 0,
            next: None,
            total: None,
            pages: 0,
            fetch: Fetch::Idle,
            loading_all: false,
            refresh: false,
            complete: false,
            refetched: 0,
        }
    }

    /// Why the load failed, while it stands failed.
    pub fn failure(&self) -> Option<&str> {
        match &self.fetch {
            Fetch::Failed(message) => Some(message),
            _ => None,
        }
    }

    /// Whether a further page exists and nothing is in flight or failed.
    pub fn can_fetch_more(&self) -> bool {
        self.fetch == Fetch::Idle && self.next.as_deref().is_some_and(|n| !n.is_empty())
    }
}

/// What the live fetch is doing, as the header says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fetch {
    Idle,
    Fetching {
        page: usize,
    },
    Retrying {
        attempt: u32,
        of: u32,
        wait_secs: u64,
        reason: String,
    },
    Done,
    Failed(String),
}

/// Which events a save writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveWhat {
    Shown,
    Loaded,
}

/// The save prompt: the path being typed, and what will be written.
#[derive(Debug, Clone)]
pub struct SavePrompt {
    pub path: Input,
    pub what: SaveWhat,
}

/// The groups view: the key, the order, the selected group, and the groups of the shown events.
#[derive(Debug, Clone)]
pub struct GroupsView {
    pub key: GroupKey,
    pub sort: GroupSort,
    pub selected: usize,
    pub offset: usize,
    pub groups: Groups,
    /// The widest name among the first groups, in cells: the table's columns are fitted to it
    /// once per grouping, so that they stay put while the list scrolls.
    pub name_width: usize,
}

impl GroupsView {
    /// How many of the first groups the name width is measured on (a grouping by peer has
    /// hundreds of thousands).
    const MEASURED: usize = 2_000;

    pub fn new(
        store: &crate::store::Store,
        groups: Groups,
        key: GroupKey,
        sort: GroupSort,
    ) -> Self {
        let mut view = GroupsView {
            key,
            sort,
            selected: 0,
            offset: 0,
            groups,
            name_width: 0,
        };
        view.measure(store);
        view
    }

    /// Measures the names again, after the groups were counted again.
    pub fn measure(&mut self, store: &crate::store::Store) {
        use unicode_width::UnicodeWidthStr;
        self.name_width = (0..self.groups.len().min(Self::MEASURED))
            .map(|k| {
                crate::text::for_terminal(&self.groups.group(k).label(store, self.key)).width()
            })
            .max()
            .unwrap_or(0);
    }
}

/// A peer's story: its events folded into chains, as lines to scroll through.
#[derive(Debug, Clone)]
pub struct StoryView {
    pub story: Story,
    pub lines: Vec<StoryLine>,
    pub selected: usize,
    pub offset: usize,
    /// The mode to return to.
    pub back_to: Mode,
}

/// One line of a story: a chain's summary, or one of its events (a store index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoryLine {
    Chain(usize),
    Event(u32),
    /// The events that belong to no chain (other families, no time) follow this line.
    Outside,
}

/// The timeline strip: its buckets for the shown events, a cursor and an optional range start.
#[derive(Debug, Clone)]
pub struct TimelineView {
    pub timeline: Timeline,
    pub cursor: usize,
    pub anchor: Option<usize>,
}

/// The facets in the detail pane's place (of the selected group, or of the shown events),
/// computed by `update` when what they count changes, so that drawing a frame does not count.
#[derive(Debug, Clone)]
pub struct FacetPanel {
    pub title: String,
    pub facets: Vec<crate::insight::Facet>,
    /// What the facets were counted from: they are counted again when it changes.
    pub source: FacetSource,
}

/// The inputs of a facet panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FacetSource {
    /// A group: its key and order, its index in the groups view, and how many events the view
    /// grouped under which filter.
    Group(GroupKey, GroupSort, usize, usize, crate::filter::Filter),
    /// The shown events: how many, out of how many loaded, under which filter.
    Shown(usize, usize, crate::filter::Filter),
}

/// Follow mode: the query runs again every `every`, longer after failures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Follow {
    pub every: std::time::Duration,
    /// Failed refreshes in a row: each doubles the wait, up to a few minutes.
    pub failures: u32,
    /// Events that arrived since follow mode started (once the query was loaded whole).
    pub new_events: usize,
    /// Store indices from here on arrived with a refresh ("new").
    pub new_from: Option<usize>,
    /// A refresh is running: its pages add to what is loaded instead of replacing it.
    pub refreshing: bool,
}

impl Follow {
    pub fn new(every: std::time::Duration) -> Follow {
        Follow {
            every,
            failures: 0,
            new_events: 0,
            new_from: None,
            refreshing: false,
        }
    }

    /// The wait before the next refresh.
    pub fn wait(&self) -> std::time::Duration {
        let backoff = self.every.saturating_mul(1 << self.failures.min(4));
        backoff.min(std::time::Duration::from_secs(300).max(self.every))
    }
}

/// The filter inputs, in the order Tab visits them.
pub const FIELDS: [&str; 5] = ["room", "session", "peer", "user", "search"];
pub const SEARCH_FIELD: usize = 4;
/// The fields of the inputs before the search's.
pub const ID_FIELDS: [Field; 4] = [Field::Room, Field::Session, Field::Peer, Field::User];

/// The filter bar while it is being edited.
#[derive(Debug, Clone)]
pub struct FilterEditor {
    pub inputs: [Input; 5],
    pub focus: usize,
}

impl FilterEditor {
    pub fn from_filter(f: &Filter, focus: usize) -> FilterEditor {
        let input = |v: Option<&str>| Input::new(v.unwrap_or_default().to_string());
        FilterEditor {
            inputs: [
                input(f.wanted(Field::Room)),
                input(f.wanted(Field::Session)),
                input(f.wanted(Field::Peer)),
                input(f.wanted(Field::User)),
                input(f.search.as_deref()),
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
        let mut filter = Filter {
            search: v(SEARCH_FIELD),
            ..f.clone()
        };
        for (k, field) in ID_FIELDS.into_iter().enumerate() {
            filter.set(field, v(k));
        }
        filter
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
    pub help_scroll: u16,
    pub editor: Option<FilterEditor>,
    pub load: LoadState,
    pub problems: Vec<DumpProblem>,
    /// The terminal's size, for paging and for placing mouse events.
    pub width: u16,
    pub height: u16,
    /// What the loaded events say about the selected event's chain: (event index, story).
    pub after: Option<(usize, After)>,
    pub live: Option<Live>,
    pub save: Option<SavePrompt>,
    pub groups: Option<GroupsView>,
    pub story: Option<StoryView>,
    pub timeline: Option<TimelineView>,
    /// The facets take the detail pane's place.
    pub facets: bool,
    /// What the detail pane shows while the groups view is open or `facets` is on.
    pub facet_panel: Option<FacetPanel>,
    /// Filters in force before each group was opened, to go back to.
    pub filter_stack: Vec<crate::filter::Filter>,
    pub follow: Option<Follow>,
    /// How often follow mode runs the query again (`--follow-interval`).
    pub follow_every: std::time::Duration,
    /// A one-line message for the user (a save's result), shown in the header.
    pub status: Option<String>,
    pub quit: bool,
    /// The bindings in force: what keys do, and what the help and the hints say.
    pub keymap: Keymap,
    pub theme: Theme,
    /// Saved and copied events are redacted (`redact = true` in the profile).
    pub redact: bool,
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
            help_scroll: 0,
            editor: None,
            load: LoadState::Loading,
            problems: Vec::new(),
            width,
            height,
            after: None,
            live: None,
            save: None,
            groups: None,
            story: None,
            timeline: None,
            facets: false,
            facet_panel: None,
            filter_stack: Vec::new(),
            follow: None,
            follow_every: std::time::Duration::from_secs(30),
            status: None,
            quit: false,
            keymap: Keymap::default(),
            theme: Theme::default(),
            redact: false,
        }
    }

    /// The store index of the selected event, if any is shown.
    pub fn selected_event(&self) -> Option<usize> {
        self.shown.get(self.selection.selected).map(|&i| i as usize)
    }

    /// The event the detail pane shows: the story's selected event while a story is open (a
    /// chain's first event on a chain's line), else the list's.
    pub fn focused_event(&self) -> Option<usize> {
        if let Some(story) = &self.story {
            return match story.lines.get(story.selected) {
                Some(StoryLine::Event(i)) => Some(*i as usize),
                Some(StoryLine::Chain(c)) => {
                    story.story.chains[*c].events.first().map(|&i| i as usize)
                }
                _ => None,
            };
        }
        self.selected_event()
    }
}
