//! What happens when: the incident patterns and the background noise, as a time-sorted plan, and
//! for every peer whether and when it was in a session.
//!
//! Every pattern takes a fixed share of the requested count, so a benchmark-sized file tells the same
//! story as the demo, with more rooms, users and peers.
//!
//! The incidents draw from the events stream exactly as they always have, so that the figures the
//! documentation gives for them (peers, final failures) stay true; everything they did not decide
//! before (who got in, when they left, meetings, quiet peers) comes from the related stream.

use std::collections::HashSet;

use super::catalog::{
    ALLHANDS_END, ALLHANDS_START, CONNECT_LEN, CONNECT_START, DAY_END, DAY_START, LATE_ROOM, MIN,
    MS, NOW, PRIYA_ROOM, PRIYA_START, REVIEW_END, REVIEW_START, ROOMS, SEC, STORM_LEN, STORM_ROOM,
    STORM_START, WEBINAR,
};
use super::dice::Dice;
use super::world::{AgentSpec, Meeting, Outcome, Part, Sdk, World};

mod incidents;
mod noise;
use incidents::*;
use noise::*;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    Publish,
    Subscribe,
    Join,
    Disconnected,
    Connect,
    TrackAdd,
    TrackUpdate,
    TrackRemove,
    BeamRecording,
}

impl Kind {
    /// Whether an event of this kind is one of the five error types.
    pub(super) fn is_error(self) -> bool {
        matches!(
            self,
            Kind::Publish | Kind::Subscribe | Kind::Join | Kind::Disconnected | Kind::Connect
        )
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Code {
    IceDisconnected,
    IceFailure,
    DeviceInUse,
    JoinServer,
    JoinRejected,
    InvalidRole,
    ConnectionLost,
    AbnormalClose,
    EndpointUnreachable,
    FailedToConnect,
    InvalidToken,
    /// Events of other families carry no error.
    None,
}

/// Which incident an event belongs to, where that changes its wording.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Story {
    Noise,
    Storm,
    Priya,
    ConnectCluster,
    DisconnectCluster,
}

#[derive(Clone, Copy)]
pub(super) struct Plan {
    pub t: u64,
    /// A peer index for error events; for track and recording events, an index into the
    /// [`Others`](super::tracks::Others) of the dataset.
    pub who: u32,
    pub kind: Kind,
    pub code: Code,
    pub terminal: bool,
    /// Attempt number within a retry chain, starting at 1.
    pub attempt: u8,
    pub story: Story,
}

pub(super) const CONNECT_SDK_VERSION: &str = "2.9.54";
pub(super) const CONNECT_DEVICE: &str = "Galaxy A14";
pub(super) const DISCONNECT_SDK_VERSION: &str = "0.11.4";

/// Counts per pattern for `events` in total; the remainder is noise.
pub(super) struct Shares {
    pub storm: usize,
    pub priya: usize,
    pub connect: usize,
    pub disconnect: usize,
    pub other: usize,
    pub noise: usize,
}

impl Shares {
    pub(super) fn of(events: usize) -> Self {
        let storm = events / 6;
        let priya = (events / 24).min(10);
        let connect = events / 20;
        let disconnect = events * 25 / 240;
        let other = events / 20;
        let noise = events - storm - priya - connect - disconnect - other;
        Shares {
            storm,
            priya,
            connect,
            disconnect,
            other,
            noise,
        }
    }
}

/// Plans every error event and every peer's presence. Track and recording events are added by
/// [`super::tracks`] once the sessions are laid out.
pub(super) fn plan(d: &mut Dice, side: &mut Dice, world: &mut World, shares: &Shares) -> Vec<Plan> {
    let mut plans = Vec::with_capacity(shares.storm + shares.noise + shares.disconnect * 2);
    meetings(side, world);
    storm(d, side, world, &mut plans, shares.storm);
    priya(d, side, world, &mut plans, shares.priya);
    connect_cluster(d, side, world, &mut plans, shares.connect);
    disconnect_cluster(d, side, world, &mut plans, shares.disconnect);
    let gave_up = noise(d, side, world, &mut plans, shares.noise);
    quiet(side, world, &gave_up);
    plans
}

pub(super) fn jitter(d: &mut Dice) -> u64 {
    d.below(SEC)
}

/// The all-hands' SFU refuses nearly every join during the storm: anyone else who meant to join
/// then (the quiet audience, the noise, those coming back) gets in once it has recovered.
pub(super) fn outside_storm(side: &mut Dice, room: usize, t: u64) -> u64 {
    if room == STORM_ROOM && (STORM_START..STORM_START + STORM_LEN + 30 * SEC).contains(&t) {
        STORM_START + STORM_LEN + side.range(30, 600) * SEC + side.below(SEC)
    } else {
        t
    }
}

/// Peers other than the quiet ones leave before the related data is read, so that the only active
/// sessions are the late meetings'.
pub(super) fn leave_by_now(side: &mut Dice, t: u64) -> u64 {
    t.min(NOW - side.range(60, 900) * SEC - side.below(SEC))
}

/// Lays out each room's meetings: one from each planned start, a few more through the day, the
/// all-hands, the design review and, in the late room, a meeting still running when the data is
/// read.
pub(super) fn meetings(side: &mut Dice, world: &mut World) {
    for (index, room) in world.rooms.iter_mut().enumerate() {
        let mut meetings: Vec<Meeting> = room
            .meeting_starts
            .iter()
            .enumerate()
            .map(|(i, &start)| {
                let minutes = if i == 0 {
                    side.range(45, 100)
                } else {
                    side.range(25, 90)
                };
                Meeting {
                    start,
                    end: (start + minutes * MIN + side.below(MIN)).min(DAY_END + 10 * MIN),
                }
            })
            .collect();
        // More through the day, so that the rooms are busy from morning to afternoon.
        for _ in 0..side.range(3, 5) {
            let start = DAY_START + 30 * MIN + side.below(DAY_END - DAY_START - 70 * MIN);
            meetings.push(Meeting {
                start,
                end: (start + side.range(25, 75) * MIN + side.below(MIN)).min(DAY_END + 10 * MIN),
            });
        }
        if index == STORM_ROOM {
            // The all-hands room holds nothing else around the all-hands.
            meetings
                .retain(|m| m.end + 20 * MIN < ALLHANDS_START || m.start > ALLHANDS_END + 20 * MIN);
            meetings.push(Meeting {
                start: ALLHANDS_START,
                end: ALLHANDS_END,
            });
        }
        if index == PRIYA_ROOM {
            meetings.push(Meeting {
                start: REVIEW_START,
                end: REVIEW_END,
            });
        }
        if index % ROOMS.len() == LATE_ROOM {
            let start = DAY_END - side.range(30, 50) * MIN;
            meetings.push(Meeting {
                start,
                end: NOW + side.range(40, 80) * MIN,
            });
        }
        meetings.sort_by_key(|m| m.start);
        room.meetings = meetings;
    }
}

/// A time inside one of the room's meetings, within `[lo, hi)` of the day, and when that meeting
/// ends (`hi` when the room has no meeting then); `pick` is one draw.
pub(super) fn time_in_meetings(
    meetings: &[Meeting],
    lo: u64,
    hi: u64,
    pick: impl FnOnce(u64) -> u64,
) -> (u64, u64) {
    let windows: Vec<(u64, u64, u64)> = meetings
        .iter()
        .map(|m| (m.start.max(lo), m.end.min(hi), m.end))
        .filter(|(a, b, _)| b > a)
        .collect();
    let total: u64 = windows.iter().map(|(a, b, _)| b - a).sum();
    if total == 0 {
        return (lo + pick(hi - lo), hi);
    }
    let mut at = pick(total);
    for (a, b, end) in windows {
        if at < b - a {
            return (a + at, end);
        }
        at -= b - a;
    }
    unreachable!("the draw is below the windows' total")
}
