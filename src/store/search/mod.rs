//! The text search (`--search`): a case-insensitive substring of any string value of an event.
//! Its answers for each distinct string and set of strings are computed once ([`SearchBits`]), so
//! that an event is matched by its row; its JSON is read only for what the row could not index.

mod bigrams;
mod bits;
mod caseless;
mod located;
mod needle;
mod numbers;
mod places;
mod recent;
mod spelled;

pub(super) use bigrams::Bigrams;
pub use bits::SearchBits;
pub(super) use located::LocatedRows;
pub use needle::Needle;
pub(super) use needle::is_time_char;
pub(super) use numbers::NumberIndex;
pub use numbers::NumberWork;
pub(super) use places::{Place, Places};
pub(super) use recent::RecentSearches;
pub(super) use spelled::timestamp_digits;
