//! Reading an event's JSON without building a tree: the fields a row needs ([`probe`]), read in
//! one validating pass where the event has the common shape ([`plain`]) and through serde where
//! it has not, the place of each of its string values ([`walk`]), and the objects that repeat
//! from event to event, read once per batch ([`remembered`]) or once by a reader outside a store
//! ([`skipping`]), and whether a field holds a value of another type than the API's ([`shape`]).

pub(super) mod plain;
pub mod probe;

pub use plain::next_stop;
pub(super) mod remembered;
pub mod shape;
pub mod skipping;
pub(super) mod walk;
