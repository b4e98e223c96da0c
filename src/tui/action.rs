//! Everything that can change the model: what the user asked for, and what background work
//! reported. Results of background work arrive as owned values.

use crate::source::DumpProblem;
use crate::source::worker::Report;
use crate::store::Batch;

/// What a key (or a mouse gesture) asks for. Each variant is one line of the help screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// Leave callscope.
    Quit,
    /// Move the selection (or the detail pane) one line up.
    Up,
    /// Move the selection (or the detail pane) one line down.
    Down,
    /// One screen up.
    PageUp,
    /// One screen down.
    PageDown,
    /// To the first event.
    Top,
    /// To the last event.
    Bottom,
    /// Move the keyboard focus to the detail pane.
    FocusDetail,
    /// Move the keyboard focus back to the list.
    FocusList,
    /// Turn one of the five event types on or off (1-5).
    ToggleType(u8),
    /// Cycle the retry-status filter: all, final only, retried only.
    CycleTerminal,
    /// Edit the search text.
    EditSearch,
    /// Edit the room, session, peer and user filters.
    EditFilters,
    /// Clear every filter.
    ClearFilters,
    /// Show or hide the help screen.
    ToggleHelp,
    /// In a filter input: apply the filters and leave the input.
    Apply,
    /// In a filter input: leave without changing the filters.
    Cancel,
    /// In a filter input: go to the next input.
    NextField,
    /// In a filter input: go to the previous input.
    PrevField,
    /// Live: run the query again (the API snapshots results at the first query; this is how
    /// newer events appear).
    Rerun,
    /// Live: load every page that matches, or stop loading.
    LoadAll,
    /// Save the shown events to a dump.
    SaveShown,
    /// Save every loaded event to a dump.
    SaveLoaded,
    /// Answer yes to a question (replace an existing file).
    Yes,
    /// Answer no to a question.
    No,
    /// Show the shown events grouped by error (or the chosen key).
    ShowGroups,
    /// Show the story of the selected event's peer: its events folded into retry chains.
    ShowStory,
    /// Show or hide the facets (top SDKs, OSes, devices...) in place of the detail pane.
    ToggleFacets,
    /// Show or hide the timeline above the list (and move the keyboard to it).
    ToggleTimeline,
    /// Go back to the filter in force before the last group was opened.
    PopFilter,
    /// In the groups view: group by the next key.
    NextGroupKey,
    /// In the groups view: group by the previous key.
    PrevGroupKey,
    /// In the groups view: sort by count or by last seen.
    ToggleGroupSort,
    /// In the timeline: one bucket earlier.
    Left,
    /// In the timeline: one bucket later.
    Right,
    /// In the timeline: start a range at the cursor (again: clear it).
    MarkStart,
    /// Live: re-run the query every few seconds and mark what is new (again: stop).
    ToggleFollow,
}

/// One input to `update`.
#[derive(Debug)]
pub enum Action {
    Command(Command),
    /// A key typed into the focused filter input.
    Input(crossterm::event::Event),
    /// The mouse wheel turned over a cell of the screen (`down` is toward the end).
    Wheel {
        column: u16,
        row: u16,
        down: bool,
    },
    /// The terminal changed size.
    Resize {
        width: u16,
        height: u16,
    },
    /// Events read by a background loader.
    BatchLoaded(Batch),
    /// A background loader finished, with what it met on the way.
    LoadFinished {
        problems: Vec<DumpProblem>,
    },
    /// A report of the live fetch task.
    Live(Report),
    /// The file to save to exists: the user must confirm replacing it.
    SaveNeedsConfirm {
        path: String,
    },
    /// A save ended: `Ok(message)` or `Err(why)`.
    Saved(Result<String, String>),
    /// Follow mode's timer: time to look for new events.
    FollowTick,
}
