//! Everything that can change the model: what the user asked for, and what background work
//! reported. Results of background work arrive as owned values.

use super::effect::SaveWhat;
use crate::source::DumpProblem;
use crate::source::worker::Report;
use crate::store::Batch;

/// Where a copy went, for the status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Copied {
    /// A clipboard program took `what` and exited with success.
    Program { what: String, program: &'static str },
    /// `what` was sent to the terminal as OSC 52 (which it may drop without a word); `failed`
    /// says why each clipboard program tried did not take it.
    Terminal { what: String, failed: Vec<String> },
    /// `what` was written to the file `path`.
    File { what: String, path: String },
}

/// What a key (or a mouse gesture) asks for. Each variant is one line of the help screen.
///
/// A command's name in the config's `[keys]` table is its variant's name in snake case, unless
/// the variant says otherwise. These names are part of the config format: renaming a variant
/// (or its `serialize` name) breaks the configs that use it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, strum::IntoStaticStr, strum::EnumString, strum::VariantArray,
)]
#[strum(serialize_all = "snake_case")]
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
    /// Turn publish failures on or off (1).
    TogglePublish,
    /// Turn subscribe failures on or off (2).
    ToggleSubscribe,
    /// Turn join failures on or off (3).
    ToggleJoin,
    /// Turn disconnections on or off (4).
    ToggleDisconnected,
    /// Turn connect failures on or off (5).
    ToggleConnect,
    /// Cycle the retry-status filter: all, final only, retried only.
    CycleTerminal,
    /// Edit the search filter.
    EditSearch,
    /// Find a text in the shown events as it is typed (in the groups view: in the groups'
    /// names).
    Find,
    /// To the next event (or group) that holds the text found.
    FindNext,
    /// To the previous event (or group) that holds the text found.
    FindPrev,
    /// Show only the events that hold the text found: it becomes the search filter.
    #[strum(serialize = "find_to_filter")]
    FindToFilter,
    /// Edit the filters: every one of the command line's.
    EditFilters,
    /// The `:` command line: `:goto 10:02`, `:room NAME`, `:code 4006`...
    #[strum(serialize = "command_line")]
    OpenCommandLine,
    /// Clear the filters set in the explorer; again: those of the command line and profile.
    ClearFilters,
    /// Show or hide the help screen.
    #[strum(serialize = "help")]
    ToggleHelp,
    /// List every problem met loading the events, each with its place (file:line:column).
    #[strum(serialize = "problems")]
    ShowProblems,
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
    #[strum(serialize = "groups")]
    ShowGroups,
    /// Show the story of the selected event's peer: its events folded into retry chains.
    #[strum(serialize = "story")]
    ShowStory,
    /// Show or hide the facets (top SDKs, OSes, devices...) in place of the detail pane.
    #[strum(serialize = "facets")]
    ToggleFacets,
    /// Show or hide the timeline above the list (and move the keyboard to it).
    #[strum(serialize = "timeline")]
    ToggleTimeline,
    /// Take the last filter change back, and go back to where it was made (the groups view,
    /// the list on the event that was selected).
    PopFilter,
    /// In the groups view: group by the next key.
    NextGroupKey,
    /// In the groups view: group by the previous key.
    PrevGroupKey,
    /// In the groups view or the facets: hide the events of the selected group or value.
    #[strum(serialize = "hide")]
    HideValue,
    /// In the groups view: sort by count or by last seen.
    #[strum(serialize = "group_sort")]
    ToggleGroupSort,
    /// In the timeline: one bucket earlier.
    Left,
    /// In the timeline: one bucket later.
    Right,
    /// In the timeline: start a range at the cursor (again: clear it).
    #[strum(serialize = "mark")]
    MarkStart,
    /// Live: re-run the query every few seconds and mark what is new (again: stop).
    #[strum(serialize = "follow")]
    ToggleFollow,
    /// Sort the list by the next column: time, type, code, room, user, SDK, final/retried
    /// (each in time order within).
    #[strum(serialize = "sort")]
    CycleSort,
    /// Newest events first, or oldest first.
    #[strum(serialize = "reverse")]
    FlipTime,
    /// The list alone, the detail pane hidden (again: both).
    #[strum(serialize = "zoom_list")]
    ZoomList,
    /// The detail pane alone, full screen (again: both).
    #[strum(serialize = "zoom_detail")]
    ZoomDetail,
    /// The selected event's JSON as a tree, where a field's value or path can be copied.
    #[strum(serialize = "json")]
    ShowJson,
    /// Show times in local time, or in UTC.
    #[strum(serialize = "local_time")]
    ToggleLocalTime,
    /// The peer's network in the event's session: its quality stats as charts over the
    /// session's time, its errors marked (live: asked for then).
    #[strum(serialize = "quality")]
    ShowQuality,
    /// Copy the selected event's JSON to the clipboard.
    CopyJson,
    /// Copy the selected event's id (in a story: its peer id) to the clipboard.
    CopyId,
    /// Write what `copy_json` copies (the event's JSON, in the JSON tree the field's value) to a
    /// file, for when the clipboard does not work.
    CopyToFile,
    /// Give the terminal back to the shell until `fg` (Ctrl-Z).
    Suspend,
}

impl Command {
    /// Every command, in the order the config's error messages list their names.
    pub const ALL: &'static [Command] = <Command as strum::VariantArray>::VARIANTS;

    /// The commands that turn each of the five event types on or off, in the order of
    /// [`EventType::KNOWN`](crate::event::EventType::KNOWN) (and of the keys 1 to 5).
    pub const TYPE_TOGGLES: [Command; 5] = [
        Command::TogglePublish,
        Command::ToggleSubscribe,
        Command::ToggleJoin,
        Command::ToggleDisconnected,
        Command::ToggleConnect,
    ];

    /// The name the config file's `[keys]` table knows the command by.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The command of a config file's action name.
    pub fn from_name(name: &str) -> Option<Command> {
        name.parse().ok()
    }

    /// Which of [`EventType::KNOWN`](crate::event::EventType::KNOWN) the command turns on or
    /// off, if it is one of the type toggles.
    pub fn toggled_type(self) -> Option<usize> {
        Command::TYPE_TOGGLES.iter().position(|&c| c == self)
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
    /// A key that no binding of the mode in force names (as the key table writes it).
    Unbound(String),
    /// No key or batch waits, and work is left for such turns ([`crate::tui::model::Model::has_work`]):
    /// its next part is done.
    Idle,
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
    /// The thread reading the numbers of the loaded events ahead of a search read the part
    /// it was given: time for the next part, if any is left.
    NumbersRead,
    /// A report of the live fetch task.
    Live(Report),
    /// What the saved API pages among the files say of their query (its total, whether its
    /// last page is there).
    SavedPages(crate::source::pages::SavedPages),
    /// The file to save to exists: the user must confirm replacing it with `what`.
    SaveNeedsConfirm {
        path: String,
        what: SaveWhat,
    },
    /// A save ended: `Ok(message)` or `Err(why)`.
    Saved(Result<String, String>),
    /// A copy ended: where the text went, or `Err(why)` it went nowhere.
    Copied(Result<Copied, String>),
    /// Follow mode's timer: time to look for new events.
    FollowTick,
    /// The platform's data an offline source holds beside its events (a folder's rooms,
    /// sessions and quality stats, the demo's), read off the UI thread, and when it was read.
    RelatedLoaded {
        objects: Vec<crate::related::Object>,
        now: i64,
    },
    /// A live answer about the platform's data beside the events, and when it came.
    Answered {
        answer: crate::source::related_live::Answer,
        now: i64,
    },
    /// The clock, every second while a live request is on its way or a retry waits: the
    /// header's waits and countdowns count from it.
    Tick(super::model::Clock),
    /// The rooms of recent sessions, for the room prompt, or why they could not be listed.
    RecentRooms(Result<Vec<crate::source::recent::RecentRoom>, String>),
    /// What the rooms endpoint says of a name typed into the room prompt.
    RoomLookedUp {
        name: String,
        result: Result<crate::source::api::rooms::Named, String>,
    },
}
