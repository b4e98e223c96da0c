//! What `update` asks the runtime to do: the explorer's only ways out to the world.

use crate::source::worker;

/// What the runtime must do after an update.
#[allow(clippy::large_enum_variant)] // a handful per key press: boxing buys nothing
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Leave the explorer and restore the terminal.
    Quit,
    /// Tell the live fetch task something.
    Worker(worker::Command),
    /// Write events to a dump; an existing file is replaced only when `replace` is set.
    Save {
        path: String,
        what: SaveWhat,
        replace: bool,
    },
    /// Copy `text` to the clipboard, or write it to a file; `what` says what it is, for the
    /// confirmation.
    Copy {
        text: String,
        what: String,
        to: CopyTo,
    },
    /// Loading is over: give the memory freed back to the system.
    ReleaseMemory,
    /// Read the numbers of the loaded events on a thread of their own, so that the first
    /// search or find a number can hold does not read the whole dump on its key: a part at a
    /// time, the thread asking for the next part with [`super::action::Action::NumbersRead`].
    ReadNumbers,
    /// Give the terminal back and stop the job until `fg` (Ctrl-Z).
    Suspend,
    /// Ask the live API about the platform's data beside the events.
    Ask(crate::source::related_live::Ask),
    /// List the rooms of recent sessions, for the room prompt.
    RecentRooms,
    /// Look up a room's name in the rooms endpoint.
    LookUpRoom(String),
    /// Remember a room whose events were loaded, for the room prompt of later runs.
    RememberRoom(crate::tui::rooms_used::UsedRoom),
}

/// Where a copy goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyTo {
    /// A clipboard program's, else the terminal's (OSC 52).
    Clipboard,
    /// A file in the folder callscope was started in, for when the clipboard does not work.
    File,
}

/// Which events a save writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveWhat {
    Shown,
    Loaded,
}
