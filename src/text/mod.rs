//! Text for people: what a string from the data may do to a terminal, and how much room it takes.

mod count;
mod sanitize;
mod stderr;
mod width;

pub use count::{plural, thousands};
pub use sanitize::{ForTerminal, for_terminal, holds_controls, json_escaped};
pub use stderr::write_stderr;
pub(crate) use stderr::{say, say_part};
pub use width::{
    Give, NARROWEST, TABLE_GAP, cut, cut_after_numbers, cut_at_space, cut_left, display_width,
    fit_table,
};

/// The one word for a value an event does not have, wherever one is shown: the detail pane,
/// the groups, the facets, the filters (where it is written to choose such events) and the
/// config's messages.
pub const NONE: &str = "(none)";
