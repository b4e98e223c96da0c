//! Each distinct thing stored once: strings ([`Interner`]), sets of them ([`SymSets`]), both kept
//! end to end in one [`slices::Slices`] table, the agents of events ([`Agents`]), and the ids of
//! the events loaded, for telling a copy of an event already loaded ([`ids`]).

mod agents;
pub mod ids;
mod sets;
mod slices;
mod strings;

pub use agents::{Agent, AgentId, Agents};
pub use sets::SymSets;
pub(super) use slices::Slices;
pub use strings::{Interner, Sym};
