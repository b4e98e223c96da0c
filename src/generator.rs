//! A reproducible dataset of client error events, for the demo and for benchmarks.
//!
//! The same `(events, seed)` always gives the same bytes, on any machine and on any day: the events'
//! timestamps sit on a fixed day (2026-11-18, 08:00 to 14:00 UTC; meetings begin from 07:30 and
//! the related data is read at 14:30) and all randomness comes from seeded ChaCha8 streams. Besides
//! background noise, every dataset holds four incidents whose ids are the constants below, so
//! documentation and tests can point at them:
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
//! A twentieth of the events are of the endpoint's other families: `track.add.success`,
//! `track.update.success`, `track.remove.success` and `beam.recording.success`, in the shapes the
//! service documents.
//!
//! The same world also yields what the platform's related endpoints would answer about it
//! ([`Dataset`]): the rooms, the sessions with who was in them from when to when, and the quality
//! stats of the peers whose stories need them. They agree with the events: every session an event
//! names is in the sessions, in the event's room; a peer whose last join failure was final is in
//! no session after it; a track event falls inside its peer's stay; in the join storm most peers
//! that retried get in within a minute of their last failure, a few later, some never; Priya is in
//! her session while her publishing fails, and her stats show loss and round-trip time climbing
//! before each failure; of the disconnect cluster, some stay, some come back as a new peer, some
//! leave for good.
//!
//! The incidents' events are drawn from one random stream, and everything decided around them (who
//! got in and when, meetings, quiet peers, tracks, recordings, stats) from other streams of the same
//! seed (see `dice`), so the incidents keep their documented figures whatever the related data
//! does.

mod catalog;
mod dice;
mod json;
mod related;
mod render;
mod schedule;
mod stats;
mod tracks;
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

/// One generated world: its events, and what the rooms, sessions and peer quality stats endpoints
/// would answer about it.
pub struct Dataset {
    world: world::World,
    plans: Vec<schedule::Plan>,
    others: tracks::Others,
    seed: u64,
    /// The events stream where planning left it; rendering the lines goes on from there.
    render_dice: dice::Dice,
}

impl Dataset {
    pub fn new(events: usize, seed: u64) -> Self {
        let mut dice = dice::Dice::new(seed);
        let mut side = dice::Dice::stream(seed, dice::Stream::Related);
        let mut world = world::World::new(&mut dice, events);
        let shares = schedule::Shares::of(events);
        let mut plans = schedule::plan(&mut dice, &mut side, &mut world, &shares);
        world.lay_out_sessions(&mut side);
        let others = tracks::plan(&mut side, &mut world, &mut plans, shares.other, events);
        debug_assert_eq!(plans.len(), events);
        // Stable, so equal timestamps keep their planned order and the output stays reproducible.
        plans.sort_by_key(|p| p.t);
        Dataset {
            world,
            plans,
            others,
            seed,
            render_dice: dice,
        }
    }

    /// The events as NDJSON (one compact JSON object per line), sorted by timestamp.
    pub fn write_events<W: Write>(&self, out: W) -> io::Result<()> {
        let mut dice = self.render_dice.clone();
        let mut out = BufWriter::with_capacity(1 << 16, out);
        let mut renderer = render::Renderer::new(&self.world, &self.others);
        for plan in &self.plans {
            out.write_all(renderer.line(&mut dice, plan))?;
        }
        out.flush()
    }

    /// One response of `GET /v2/rooms` holding every room, newest first.
    pub fn write_rooms<W: Write>(&self, out: W) -> io::Result<()> {
        related::write_rooms(out, &self.world)
    }

    /// One response of `GET /v2/sessions` holding every session of every room, newest first.
    pub fn write_sessions<W: Write>(&self, out: W) -> io::Result<()> {
        related::write_sessions(out, &self.world)
    }

    /// One response of `GET /v2/analytics/peer-stats` per line, for each peer that has stats.
    pub fn write_peer_stats<W: Write>(&self, out: W) -> io::Result<()> {
        stats::write(out, &self.world, &self.others, self.seed)
    }

    /// How many rooms, sessions and peer stats responses the dataset holds.
    pub fn counts(&self) -> (usize, usize, usize) {
        (
            self.world.rooms.len(),
            self.world.sessions.len(),
            self.others.stats.len(),
        )
    }
}

/// Writes exactly `events` events as NDJSON (one compact JSON object per line), sorted by timestamp.
pub fn write_ndjson<W: Write>(out: W, events: usize, seed: u64) -> io::Result<()> {
    Dataset::new(events, seed).write_events(out)
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
