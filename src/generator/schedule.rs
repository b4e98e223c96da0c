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

fn jitter(d: &mut Dice) -> u64 {
    d.below(SEC)
}

/// The all-hands' SFU refuses nearly every join during the storm: anyone else who meant to join
/// then (the quiet audience, the noise, those coming back) gets in once it has recovered.
fn outside_storm(side: &mut Dice, room: usize, t: u64) -> u64 {
    if room == STORM_ROOM && (STORM_START..STORM_START + STORM_LEN + 30 * SEC).contains(&t) {
        STORM_START + STORM_LEN + side.range(30, 600) * SEC + side.below(SEC)
    } else {
        t
    }
}

/// Peers other than the quiet ones leave before the related data is read, so that the only active
/// sessions are the late meetings'.
fn leave_by_now(side: &mut Dice, t: u64) -> u64 {
    t.min(NOW - side.range(60, 900) * SEC - side.below(SEC))
}

/// Lays out each room's meetings: one from each planned start, a few more through the day, the
/// all-hands, the design review and, in the late room, a meeting still running when the data is
/// read.
fn meetings(side: &mut Dice, world: &mut World) {
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
fn time_in_meetings(
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

/// The roles of the all-hands' audience: nearly everyone watches.
const STORM_ROLES: &[(u8, u32)] = &[(2, 68), (3, 26), (1, 6)];

/// The SFU of the all-hands room fails nearly every join for five minutes; clients retry with
/// backoff, most get in with their next retry, a few only a minute or more later, some give up
/// and a few stop retrying without an error saying so.
fn storm(d: &mut Dice, side: &mut Dice, world: &mut World, plans: &mut Vec<Plan>, count: usize) {
    let mut left = count;
    let mut brief = false;
    while left > 0 {
        let gives_up = d.chance(20);
        let len = if gives_up {
            *d.weighted(&[(2usize, 20), (3, 30), (4, 25), (5, 15), (6, 10)])
        } else {
            *d.weighted(&[(1usize, 30), (2, 32), (3, 24), (4, 14)])
        }
        .min(left);
        left -= len;
        let gaps: Vec<u64> = (1..len)
            .map(|i| (SEC << (i - 1)) * d.range(80, 130) / 100 + d.below(300 * MS))
            .collect();
        let span: u64 = gaps.iter().sum();
        let mut t = STORM_START + d.below(STORM_LEN - span - SEC);
        // Each attendee is a person of their own, on one of the everyday agents.
        let agent = d.below(u64::from(world.noise_agents)) as u32;
        let role = *d.weighted(STORM_ROLES);
        let user = world.add_user(side, 0, agent, None);
        let peer = world.add_peer(d, user, STORM_ROOM, role, Part::Storm);
        let mut last = 0;
        for i in 0..len {
            if i > 0 {
                t += gaps[i - 1];
            }
            let at = t + d.below(SEC / 4);
            last = last.max(at);
            plans.push(Plan {
                t: at,
                who: peer,
                kind: Kind::Join,
                code: Code::JoinServer,
                terminal: gives_up && i + 1 == len,
                attempt: i as u8 + 1,
                story: Story::Storm,
            });
        }
        if gives_up {
            continue;
        }
        let joined = match side.below(100) {
            0..5 => continue,
            5..13 => last + side.range(60, 150) * SEC + side.below(SEC),
            _ => {
                let backoff = (SEC << (len - 1)) * side.range(80, 130) / 100;
                last + backoff + side.range(200, 1500) * MS + side.below(MS)
            }
        };
        let left_at = if !brief && role != 1 {
            // One viewer drops out seconds after getting in: too short for any quality sample.
            brief = true;
            joined + side.range(5, 8) * SEC
        } else if side.chance(75) {
            ALLHANDS_END - side.below(6 * MIN)
        } else {
            joined + side.range(5, 45) * MIN
        };
        world.set_presence(peer, joined, left_at.max(joined + 5 * SEC));
    }
}

/// One presenter behind a firewall whose media path keeps dropping until the SDK gives up; she
/// stays in the call a few minutes more without publishing.
fn priya(d: &mut Dice, side: &mut Dice, world: &mut World, plans: &mut Vec<Plan>, count: usize) {
    if count == 0 {
        return;
    }
    let peer = world.add_priya(d);
    let mut t = PRIYA_START;
    let mut last = 0;
    for i in 0..count {
        let at = t + jitter(d);
        last = at;
        plans.push(Plan {
            t: at,
            who: peer,
            kind: Kind::Publish,
            code: Code::IceDisconnected,
            terminal: i + 1 == count,
            attempt: i as u8 + 1,
            story: Story::Priya,
        });
        t += d.range(9, 15) * SEC;
    }
    let joined = PRIYA_START - 3 * MIN + side.below(SEC);
    world.set_presence(
        peer,
        joined,
        last + side.range(4, 8) * MIN + side.below(SEC),
    );
}

/// One handset model on one mobile network cannot resolve the service for half an hour; of those
/// who do not give up, most get in a little later (another network), the others never do.
fn connect_cluster(
    d: &mut Dice,
    side: &mut Dice,
    world: &mut World,
    plans: &mut Vec<Plan>,
    count: usize,
) {
    if count == 0 {
        return;
    }
    let agent = world.add_agent(&AgentSpec {
        sdk: Sdk::Android,
        sdk_version: CONNECT_SDK_VERSION,
        device_model: CONNECT_DEVICE,
        os: "Android",
        os_version: "13",
        is_prebuilt: false,
        framework: "none",
        framework_version: "",
        framework_sdk_version: "",
        domain: "prod-us2.100ms.live",
        env: "prod",
    });
    let rooms: Vec<usize> = (0..world.rooms.len())
        .filter(|&r| world.rooms[r].account == 1)
        .collect();
    let mut left = count;
    while left > 0 {
        let gives_up = d.chance(45);
        let len = (d.range(1, 5) as usize).min(left);
        left -= len;
        let gaps: Vec<u64> = (1..len).map(|_| d.range(3, 20) * SEC).collect();
        let span: u64 = gaps.iter().sum();
        let mut t = CONNECT_START + d.below(CONNECT_LEN - span - SEC);
        let room = *d.pick(&rooms);
        let user = world.add_user(d, 1, agent, None);
        let role = world.random_role(d, room);
        let peer = world.add_peer(d, user, room, role, Part::ConnectCluster);
        let mut last = 0;
        for i in 0..len {
            if i > 0 {
                t += gaps[i - 1];
            }
            let at = t + jitter(d);
            last = last.max(at);
            plans.push(Plan {
                t: at,
                who: peer,
                kind: Kind::Connect,
                code: Code::EndpointUnreachable,
                terminal: gives_up && i + 1 == len,
                attempt: i as u8 + 1,
                story: Story::ConnectCluster,
            });
        }
        if !gives_up && side.chance(60) {
            let joined = last + side.range(10, 180) * SEC + side.below(SEC);
            let stay = side.range(10, 40) * MIN;
            let left_at = leave_by_now(side, joined + stay);
            world.set_presence(peer, joined, left_at);
        }
    }
}

/// A web SDK release whose signalling keep-alive misbehaves: its users drop all day long, in every
/// room's meetings. Between drops they are back in the call; after the last one some stay, some
/// come back as a new peer, some are gone.
fn disconnect_cluster(
    d: &mut Dice,
    side: &mut Dice,
    world: &mut World,
    plans: &mut Vec<Plan>,
    count: usize,
) {
    if count == 0 {
        return;
    }
    let agents: Vec<u32> = (0..5)
        .map(|_| world.random_web_agent(d, DISCONNECT_SDK_VERSION))
        .collect();
    let mut left = count;
    while left > 0 {
        let mut budget = (d.range(2, 8) as usize).min(left);
        left -= budget;
        let room = d.index(world.rooms.len());
        let account = world.rooms[room].account;
        let agent = *d.pick(&agents);
        let user = world.add_user(d, account, agent, None);
        let (start, meeting_end) = time_in_meetings(
            &world.rooms[room].meetings,
            DAY_START,
            DAY_END - 50 * MIN,
            |n| d.below(n),
        );
        let role = world.random_role(d, room);
        let peer = world.add_peer(d, user, room, role, Part::Noise);
        // (first, last) plan of each chain
        let mut chains: Vec<(usize, usize)> = Vec::new();
        while budget > 0 {
            let len = (d.range(1, 3) as usize).min(budget);
            budget -= len;
            let mut t = start + d.below(50 * MIN);
            chains.push((plans.len(), plans.len() + len - 1));
            for i in 0..len {
                plans.push(Plan {
                    t: t.min(DAY_END - SEC) + jitter(d),
                    who: peer,
                    kind: Kind::Disconnected,
                    code: Code::ConnectionLost,
                    terminal: i + 1 == len && d.chance(10),
                    attempt: i as u8 + 1,
                    story: Story::DisconnectCluster,
                });
                t += d.range(4, 25) * SEC;
            }
        }
        // Only the last drop can be the one the SDK gave up on: after the others it was back.
        let (_, latest) = *chains
            .iter()
            .max_by_key(|(_, last)| (plans[*last].t, *last))
            .expect("a peer has a chain");
        for &(_, last) in &chains {
            if last != latest {
                plans[last].terminal = false;
            }
        }
        let first = chains
            .iter()
            .map(|&(f, _)| plans[f].t)
            .min()
            .unwrap_or(start);
        let last = plans[latest].t;
        let mut joined = first.min(start).saturating_sub(side.below(3 * MIN));
        if room == STORM_ROOM && (STORM_START..STORM_START + STORM_LEN + 30 * SEC).contains(&joined)
        {
            joined = STORM_START - side.range(5, 60) * SEC;
        }
        let outcome = match (plans[latest].terminal, side.below(100)) {
            (true, 0..50) | (false, 60..75) => Outcome::Rejoined,
            (false, 0..60) => Outcome::Stayed,
            _ => Outcome::Left,
        };
        world.peers[peer as usize].part = Part::DisconnectCluster(outcome);
        let left_at = match outcome {
            Outcome::Stayed => {
                // Until the meeting ends, or a while after the last drop if that came later.
                let stay = side.range(3, 40) * MIN;
                let end = meeting_end.max(last + 3 * MIN) + side.below(3 * MIN);
                leave_by_now(side, (last + stay).min(end))
            }
            _ => last + side.range(5, 40) * SEC + side.below(SEC),
        };
        world.set_presence(peer, joined, left_at);
        if outcome == Outcome::Rejoined {
            let again = world.add_peer(side, user, room, role, Part::Rejoin);
            let pause = side.range(10, 150) * SEC;
            let back = outside_storm(side, room, left_at + pause);
            let stay = side.range(5, 40) * MIN;
            let gone = leave_by_now(side, back + stay);
            world.set_presence(again, back, gone);
        }
    }
}

/// One retry chain of a noise peer, before it is placed in time.
struct Chain {
    kind: Kind,
    code: Code,
    terminal_percent: u64,
    len: usize,
}

/// Everyday failures in every room's meetings: a peer may fail to connect or join (before it gets
/// in, if it does), then fail to publish, subscribe or keep its connection while in the call.
/// Returns the (user, room) pairs whose peer gave up joining, so that no other peer of that user
/// is seen in that room.
fn noise(
    d: &mut Dice,
    side: &mut Dice,
    world: &mut World,
    plans: &mut Vec<Plan>,
    count: usize,
) -> HashSet<(u32, u32)> {
    let mut gave_up = HashSet::new();
    let mut left = count;
    while left > 0 {
        let room = d.index(world.rooms.len());
        let account = world.rooms[room].account;
        let user = *d.pick(&world.pools[account]);
        let role = world.random_role(d, room);
        let publishes = world.rooms[room].roles()[usize::from(role)].video.is_some();
        let agent = &world.agents[world.users[user as usize].agent as usize];
        let on_cluster_release =
            agent.sdk == Sdk::Web && agent.sdk_version == DISCONNECT_SDK_VERSION;
        let peer = world.add_peer(d, user, room, role, Part::Noise);
        let (mut joined, meeting_end) = time_in_meetings(
            &world.rooms[room].meetings,
            DAY_START + 2 * MIN,
            DAY_END - 25 * MIN,
            |n| side.below(n),
        );
        joined = outside_storm(side, room, joined);
        let budget = (*d.weighted(&[
            (1usize, 20),
            (2, 18),
            (3, 15),
            (4, 12),
            (5, 10),
            (7, 15),
            (11, 10),
        ]))
        .min(left);
        let mut chains = Vec::new();
        let mut drawn = 0;
        while drawn < budget {
            // Everyday connect failures are rarer than the others, so that one handset's stands
            // out among them.
            let mut kind = *d.weighted(&[
                (Kind::Publish, 26),
                (Kind::Subscribe, 27),
                (Kind::Join, 14),
                (Kind::Disconnected, 21),
                (Kind::Connect, 12),
            ]);
            if kind == Kind::Publish && !publishes {
                kind = Kind::Subscribe;
            }
            let (code, terminal_percent) = match kind {
                Kind::Publish => *d.weighted(&[
                    ((Code::IceDisconnected, 25), 55),
                    ((Code::IceFailure, 40), 20),
                    ((Code::DeviceInUse, 85), 25),
                ]),
                Kind::Subscribe => *d.weighted(&[
                    ((Code::IceDisconnected, 20), 75),
                    ((Code::IceFailure, 40), 25),
                ]),
                Kind::Join => *d.weighted(&[
                    ((Code::JoinServer, 30), 50),
                    ((Code::JoinRejected, 60), 25),
                    ((Code::InvalidRole, 90), 25),
                ]),
                Kind::Disconnected => match *d.weighted(&[
                    ((Code::ConnectionLost, 15), 70),
                    ((Code::AbnormalClose, 25), 30),
                ]) {
                    // Lost connections on the cluster's release are the cluster's own, so that
                    // its documented count is all of them.
                    (Code::ConnectionLost, _) if on_cluster_release => (Code::AbnormalClose, 25),
                    drawn => drawn,
                },
                _ => *d.weighted(&[
                    ((Code::EndpointUnreachable, 35), 60),
                    ((Code::FailedToConnect, 35), 25),
                    ((Code::InvalidToken, 90), 15),
                ]),
            };
            let len = if terminal_percent >= 80 {
                *d.weighted(&[(1usize, 85), (2, 15)])
            } else {
                *d.weighted(&[(1usize, 45), (2, 25), (3, 15), (4, 10), (5, 5)])
            }
            .min(budget - drawn);
            drawn += len;
            chains.push(Chain {
                kind,
                code,
                terminal_percent,
                len,
            });
        }
        // Connecting comes before joining, and both before anything done in the call.
        chains.sort_by_key(|c| match c.kind {
            Kind::Connect => 0,
            Kind::Join => 1,
            _ => 2,
        });
        let before = chains
            .iter()
            .take_while(|c| matches!(c.kind, Kind::Connect | Kind::Join))
            .count();

        // Failures before the join, one chain after the other, the last a little before it. Only
        // the last can be the one the SDK gave up on, and only for a peer with no failure in the
        // call: a peer that failed in the call got in, so its earlier failures were retried.
        let mut got_in = true;
        if before > 0 {
            let gaps: Vec<Vec<u64>> = chains[..before]
                .iter()
                .map(|c| (1..c.len).map(|_| d.range(1, 20) * SEC).collect())
                .collect();
            let pauses: Vec<u64> = (0..before).map(|_| d.range(5, 60) * SEC).collect();
            let total: u64 = gaps.iter().flatten().sum::<u64>() + pauses.iter().sum::<u64>() + SEC;
            let first = match joined.checked_sub(total) {
                Some(first) if first >= DAY_START => first,
                // The day's events begin at DAY_START: a peer that would have failed before
                // then comes to its early meeting late instead.
                _ => DAY_START + side.below(30 * MIN),
            };
            joined = first + total;
            let may_give_up = before == chains.len();
            let mut t = first;
            for (c, chain) in chains[..before].iter().enumerate() {
                for i in 0..chain.len {
                    if i > 0 {
                        t += gaps[c][i - 1];
                    }
                    let terminal = i + 1 == chain.len
                        && d.chance(chain.terminal_percent)
                        && may_give_up
                        && c + 1 == before;
                    plans.push(Plan {
                        t: t + jitter(d),
                        who: peer,
                        kind: chain.kind,
                        code: chain.code,
                        terminal,
                        attempt: i as u8 + 1,
                        story: Story::Noise,
                    });
                    got_in &= !terminal;
                }
                t += pauses[c];
            }
        }
        left -= budget;
        if !got_in {
            gave_up.insert((user, room as u32));
            continue;
        }

        // Failures in the call, at random moments of the peer's stay; a chain lasts at most
        // 100 s, so the last ends before the stay does.
        // Until the meeting ends at the latest, and long enough for the failures in the call,
        // which fall inside the day.
        let stay = d.range(10, 70) * MIN;
        let from = joined.max(DAY_START);
        let end = meeting_end.max(from + 4 * MIN) + side.below(5 * MIN);
        let mut left_at = (from + stay).min(end);
        let until = left_at.min(DAY_END) - 10 * SEC;
        let mut placed: Vec<(u64, usize)> = chains[before..]
            .iter()
            .enumerate()
            .map(|(i, _)| (from + 10 * SEC + d.below(until - from - 130 * SEC), i))
            .collect();
        placed.sort_unstable();
        let in_call = &chains[before..];
        let mut last = joined;
        for (n, &(start, c)) in placed.iter().enumerate() {
            let chain = &in_call[c];
            let mut t = start;
            for i in 0..chain.len {
                let mut terminal = i + 1 == chain.len && d.chance(chain.terminal_percent);
                // The SDK giving up on a lost connection ends the peer's stay.
                if terminal && chain.kind == Kind::Disconnected && n + 1 < placed.len() {
                    terminal = false;
                }
                let at = (t + jitter(d)).min(DAY_END - SEC);
                last = last.max(at);
                plans.push(Plan {
                    t: at,
                    who: peer,
                    kind: chain.kind,
                    code: chain.code,
                    terminal,
                    attempt: i as u8 + 1,
                    story: Story::Noise,
                });
                if terminal && chain.kind == Kind::Disconnected {
                    left_at = last + side.range(5, 40) * SEC;
                }
                t += d.range(1, 20) * SEC;
            }
        }
        left_at = leave_by_now(side, left_at.max(last + 30 * SEC));
        world.set_presence(peer, joined, left_at);
    }
    gave_up
}

/// The people of each meeting who had no trouble at all: its host from start to end, and an
/// audience that drifts in and out. Nobody joins the all-hands while its SFU fails.
fn quiet(side: &mut Dice, world: &mut World, gave_up: &HashSet<(u32, u32)>) {
    for room in 0..world.rooms.len() {
        let account = world.rooms[room].account;
        let webinar = world.rooms[room].template == WEBINAR;
        for m in world.rooms[room].meetings.clone() {
            let count = match (webinar, room == STORM_ROOM && m.start == ALLHANDS_START) {
                (true, true) => side.range(60, 90),
                (true, false) => side.range(12, 30),
                _ => side.range(2, 7),
            };
            let length = m.end - m.start;
            let mut present = HashSet::new();
            for i in 0..count {
                let mut user = *side.pick(&world.pools[account]);
                for _ in 0..8 {
                    if !present.contains(&user) && !gave_up.contains(&(user, room as u32)) {
                        break;
                    }
                    user = *side.pick(&world.pools[account]);
                }
                if present.contains(&user) || gave_up.contains(&(user, room as u32)) {
                    continue;
                }
                present.insert(user);
                let role = if i == 0 {
                    0
                } else {
                    world.random_role(side, room)
                };
                let peer = world.add_peer(side, user, room, role, Part::Quiet);
                let (joined, left_at) = if i == 0 {
                    (m.start + side.below(MIN), m.end - side.below(MIN))
                } else {
                    let late = side.below(length * 35 / 100);
                    let joined = outside_storm(side, room, m.start + late);
                    let left_at = if side.chance(15) {
                        (joined + side.range(3, 20) * MIN).min(m.end)
                    } else {
                        m.end - side.below(length / 5)
                    };
                    (joined, left_at.max(joined + 30 * SEC + side.below(MIN)))
                };
                world.set_presence(peer, joined, left_at);
            }
        }
    }
}
