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
    /// Go back to the filter in force before the last group or time range was applied.
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
    /// Copy the selected event's JSON to the clipboard.
    CopyJson,
    /// Copy the selected event's id (in a story: its peer id) to the clipboard.
    CopyId,
}

impl Command {
    /// Every command, each with its own name.
    pub const ALL: [Command; 43] = [
        Command::Quit,
        Command::Up,
        Command::Down,
        Command::PageUp,
        Command::PageDown,
        Command::Top,
        Command::Bottom,
        Command::FocusDetail,
        Command::FocusList,
        Command::ToggleType(0),
        Command::ToggleType(1),
        Command::ToggleType(2),
        Command::ToggleType(3),
        Command::ToggleType(4),
        Command::CycleTerminal,
        Command::EditSearch,
        Command::EditFilters,
        Command::ClearFilters,
        Command::ToggleHelp,
        Command::Apply,
        Command::Cancel,
        Command::NextField,
        Command::PrevField,
        Command::Rerun,
        Command::LoadAll,
        Command::SaveShown,
        Command::SaveLoaded,
        Command::Yes,
        Command::No,
        Command::ShowGroups,
        Command::ShowStory,
        Command::ToggleFacets,
        Command::ToggleTimeline,
        Command::PopFilter,
        Command::NextGroupKey,
        Command::PrevGroupKey,
        Command::ToggleGroupSort,
        Command::Left,
        Command::Right,
        Command::MarkStart,
        Command::ToggleFollow,
        Command::CopyJson,
        Command::CopyId,
    ];

    /// The name the config file's `[keys]` table knows the command by. These names are part of
    /// the config format: renaming one breaks the configs that use it.
    pub fn name(self) -> &'static str {
        match self {
            Command::Quit => "quit",
            Command::Up => "up",
            Command::Down => "down",
            Command::PageUp => "page_up",
            Command::PageDown => "page_down",
            Command::Top => "top",
            Command::Bottom => "bottom",
            Command::FocusDetail => "focus_detail",
            Command::FocusList => "focus_list",
            Command::ToggleType(0) => "toggle_publish",
            Command::ToggleType(1) => "toggle_subscribe",
            Command::ToggleType(2) => "toggle_join",
            Command::ToggleType(3) => "toggle_disconnected",
            Command::ToggleType(4) => "toggle_connect",
            // Only 0..=4 are made (by the table); a name is still needed for the others.
            Command::ToggleType(_) => "toggle_type",
            Command::CycleTerminal => "cycle_terminal",
            Command::EditSearch => "edit_search",
            Command::EditFilters => "edit_filters",
            Command::ClearFilters => "clear_filters",
            Command::ToggleHelp => "help",
            Command::Apply => "apply",
            Command::Cancel => "cancel",
            Command::NextField => "next_field",
            Command::PrevField => "prev_field",
            Command::Rerun => "rerun",
            Command::LoadAll => "load_all",
            Command::SaveShown => "save_shown",
            Command::SaveLoaded => "save_loaded",
            Command::Yes => "yes",
            Command::No => "no",
            Command::ShowGroups => "groups",
            Command::ShowStory => "story",
            Command::ToggleFacets => "facets",
            Command::ToggleTimeline => "timeline",
            Command::PopFilter => "pop_filter",
            Command::NextGroupKey => "next_group_key",
            Command::PrevGroupKey => "prev_group_key",
            Command::ToggleGroupSort => "group_sort",
            Command::Left => "left",
            Command::Right => "right",
            Command::MarkStart => "mark",
            Command::ToggleFollow => "follow",
            Command::CopyJson => "copy_json",
            Command::CopyId => "copy_id",
        }
    }

    /// The command of a config file's action name.
    pub fn from_name(name: &str) -> Option<Command> {
        Command::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// One input to `update`.
#[derive(Debug)]
pub enum Action {
    Command(Command),
    /// A key of the list's pressed in the timeline, which has no use for it: the list takes
    /// the keyboard back (the strip stays open) and runs it.
    ListCommand(Command),
    /// A key typed into the focused filter input.
    Input(crossterm::event::Event),
    /// The mouse wheel turned over a cell of the screen (`down` is toward the end).
    Wheel {
        column: u16,
        row: u16,
        down: bool,
    },
    /// The left button was pressed on a cell of the screen.
    Click {
        column: u16,
        row: u16,
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
    /// Text was handed to the terminal's clipboard: `Ok(what was copied)` or `Err(why)`.
    Copied(Result<String, String>),
    /// Follow mode's timer: time to look for new events.
    FollowTick,
}
