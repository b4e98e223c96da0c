//! A reproducible dataset of client error events, for the demo and for benchmarks.
//!
//! The same `(events, seed)` always gives the same bytes, on any machine and on any day: timestamps
//! sit on a fixed day (2026-11-18, 08:00 to 14:00 UTC) and all randomness comes from a seeded ChaCha8
//! stream. Besides background noise, every dataset holds four incidents whose ids are the constants
//! below, so documentation and tests can point at them:
//!
//! 1. a join storm: `client.join.failed` 500 ServerErrors in room [`STORM_ROOM_NAME`] from 10:02 to
//!    10:07, every peer retrying (`retries_join` 1, 2, 3...), about one peer in five giving up;
//! 2. one presenter, [`PRIYA_USER_NAME`], whose `client.publish.failed` 4006 ICEDisconnected repeats
//!    from 11:41 for about two minutes until a final terminal one;
//! 3. `client.connect.failed` 2003 EndpointUnreachable from one handset, Android SDK
//!    [`CONNECT_CLUSTER_SDK_VERSION`] on a [`CONNECT_CLUSTER_DEVICE`], from 12:15 to 12:45, all through
//!    the resolver [`CONNECT_CLUSTER_DNS`];
//! 4. `client.disconnected` 1003 WebSocketConnectionLost concentrated on web SDK
//!    [`DISCONNECT_CLUSTER_SDK_VERSION`], all day and in every room.
//!
//! About 1% of the events are of other families (`track.*.success`, `recording.success`), with data
//! shapes of their own.

mod catalog;
mod dice;
mod json;
mod render;
mod schedule;
mod world;

#[cfg(test)]
mod tests;

use std::io::{self, BufWriter, Write};

/// Size of the bundled demo dataset (`assets/demo.ndjson.gz`).
pub const DEMO_EVENTS: usize = 2400;
/// Seed of the bundled demo dataset.
pub const DEMO_SEED: u64 = 7;

pub const STORM_ROOM_ID: &str = catalog::FIXED_ROOM_IDS[catalog::STORM_ROOM];
pub const STORM_ROOM_NAME: &str = catalog::ROOMS[catalog::STORM_ROOM].0;
/// The SFU node named in every storm event's `error_description`, and in no other event.
pub const STORM_SFU_NODE: &str = render::STORM_SFU;

pub const PRIYA_PEER_ID: &str = "3f6b2a9e-8c41-4d7a-9b25-e0c4d1f7a863";
pub const PRIYA_USER_ID: &str = "usr_5c0e9a71d3";
pub const PRIYA_USER_NAME: &str = "Priya Raman";
pub const PRIYA_ROOM_ID: &str = catalog::FIXED_ROOM_IDS[catalog::PRIYA_ROOM];
pub const PRIYA_ROOM_NAME: &str = catalog::ROOMS[catalog::PRIYA_ROOM].0;

pub const CONNECT_CLUSTER_SDK_VERSION: &str = schedule::CONNECT_SDK_VERSION;
pub const CONNECT_CLUSTER_DEVICE: &str = schedule::CONNECT_DEVICE;
pub const CONNECT_CLUSTER_DNS: &str = render::CONNECT_DNS;

pub const DISCONNECT_CLUSTER_SDK_VERSION: &str = schedule::DISCONNECT_SDK_VERSION;

/// The two customer accounts that own the rooms.
pub const ACCOUNT_IDS: [&str; 2] = catalog::ACCOUNTS;

/// Writes exactly `events` events as NDJSON (one compact JSON object per line), sorted by timestamp.
pub fn write_ndjson<W: Write>(out: W, events: usize, seed: u64) -> io::Result<()> {
    let mut dice = dice::Dice::new(seed);
    let mut world = world::World::new(&mut dice, events);
    let plans = schedule::plan(&mut dice, &mut world, events);
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let mut renderer = render::Renderer::new(&world);
    for plan in &plans {
        out.write_all(renderer.line(&mut dice, plan))?;
    }
    out.flush()
}

/// The lines of [`write_ndjson`]'s dump, for tests.
#[cfg(test)]
pub(crate) fn ndjson_lines(events: usize, seed: u64) -> Vec<String> {
    let mut generated = Vec::new();
    write_ndjson(&mut generated, events, seed).expect("writing to memory");
    String::from_utf8(generated)
        .expect("generated events are UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}
