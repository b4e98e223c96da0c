//! Text for people: what a string from the data may do to a terminal, and how much room it takes.

mod count;
mod sanitize;
mod width;

pub use count::{plural, thousands};
pub use sanitize::{ForTerminal, for_terminal, holds_controls, json_escaped};
pub use width::{Give, NARROWEST, TABLE_GAP, cut, display_width, fit_table};
