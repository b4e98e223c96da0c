//! What happens when: the incident patterns and the background noise, as a time-sorted plan.
//!
//! Every pattern takes a fixed share of the requested count, so a benchmark-sized file tells the same
//! story as the demo, with more rooms, users and peers.

use super::catalog::{
    CONNECT_LEN, CONNECT_START, DAY_END, DAY_START, MIN, MS, PRIYA_START, SEC, STORM_LEN,
    STORM_ROOM, STORM_START,
};
use super::dice::Dice;
use super::world::{AgentSpec, Sdk, World};

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
    Recording,
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
    /// A peer index, or a room index for recordings.
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
        let other = events / 100;
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

pub(super) fn plan(d: &mut Dice, world: &mut World, events: usize) -> Vec<Plan> {
    let shares = Shares::of(events);
    let mut plans = Vec::with_capacity(events);
    storm(d, world, &mut plans, shares.storm);
    priya(d, world, &mut plans, shares.priya);
    connect_cluster(d, world, &mut plans, shares.connect);
    disconnect_cluster(d, world, &mut plans, shares.disconnect);
    let first_noise_peer = world.peers.len() as u32;
    noise(d, world, &mut plans, shares.noise);
    other_families(d, world, &mut plans, shares.other, first_noise_peer);
    debug_assert_eq!(plans.len(), events);
    // Stable, so equal timestamps keep their planned order and the output stays reproducible.
    plans.sort_by_key(|p| p.t);
    plans
}

fn jitter(d: &mut Dice) -> u64 {
    d.below(SEC)
}

/// The SFU of the all-hands room fails every join for five minutes; clients retry with backoff, most
/// get in once it recovers, some give up.
fn storm(d: &mut Dice, world: &mut World, plans: &mut Vec<Plan>, count: usize) {
    let mut left = count;
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
        let user = *d.pick(&world.pools[0]);
        let role = world.random_role(d, STORM_ROOM);
        let peer = world.add_peer(d, user, STORM_ROOM, role, t);
        for i in 0..len {
            if i > 0 {
                t += gaps[i - 1];
            }
            plans.push(Plan {
                t: t + d.below(SEC / 4),
                who: peer,
                kind: Kind::Join,
                code: Code::JoinServer,
                terminal: gives_up && i + 1 == len,
                attempt: i as u8 + 1,
                story: Story::Storm,
            });
        }
    }
}

/// One presenter behind a firewall whose media path keeps dropping until the SDK gives up.
fn priya(d: &mut Dice, world: &mut World, plans: &mut Vec<Plan>, count: usize) {
    if count == 0 {
        return;
    }
    let peer = world.add_priya(d, PRIYA_START - 3 * MIN);
    let mut t = PRIYA_START;
    for i in 0..count {
        plans.push(Plan {
            t: t + jitter(d),
            who: peer,
            kind: Kind::Publish,
            code: Code::IceDisconnected,
            terminal: i + 1 == count,
            attempt: i as u8 + 1,
            story: Story::Priya,
        });
        t += d.range(9, 15) * SEC;
    }
}

/// One handset model on one mobile network cannot resolve the service for half an hour.
fn connect_cluster(d: &mut Dice, world: &mut World, plans: &mut Vec<Plan>, count: usize) {
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
        let peer = world.add_peer(d, user, room, role, t);
        for i in 0..len {
            if i > 0 {
                t += gaps[i - 1];
            }
            plans.push(Plan {
                t: t + jitter(d),
                who: peer,
                kind: Kind::Connect,
                code: Code::EndpointUnreachable,
                terminal: gives_up && i + 1 == len,
                attempt: i as u8 + 1,
                story: Story::ConnectCluster,
            });
        }
    }
}

/// A web SDK release whose signalling keep-alive misbehaves: its users drop all day long, in every room.
fn disconnect_cluster(d: &mut Dice, world: &mut World, plans: &mut Vec<Plan>, count: usize) {
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
        let start = DAY_START + d.below(DAY_END - DAY_START - 50 * MIN);
        let role = world.random_role(d, room);
        let peer = world.add_peer(d, user, room, role, start);
        while budget > 0 {
            let len = (d.range(1, 3) as usize).min(budget);
            budget -= len;
            let mut t = start + d.below(50 * MIN);
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
    }
}

fn noise(d: &mut Dice, world: &mut World, plans: &mut Vec<Plan>, count: usize) {
    let mut left = count;
    // Track events need peers to point at, even when there is no noise at all.
    let mut force_one = true;
    while left > 0 || force_one {
        force_one = false;
        let room = d.index(world.rooms.len());
        let account = world.rooms[room].account;
        let user = *d.pick(&world.pools[account]);
        let start = DAY_START + d.below(DAY_END - DAY_START - 20 * MIN);
        let role = world.random_role(d, room);
        let peer = world.add_peer(d, user, room, role, start);
        let publishes = world.rooms[room].roles()[usize::from(role)].video.is_some();
        let mut budget = (*d.weighted(&[
            (1usize, 20),
            (2, 18),
            (3, 15),
            (4, 12),
            (5, 10),
            (7, 15),
            (11, 10),
        ]))
        .min(left);
        left -= budget;
        while budget > 0 {
            let mut kind = *d.weighted(&[
                (Kind::Publish, 25),
                (Kind::Subscribe, 25),
                (Kind::Join, 15),
                (Kind::Disconnected, 20),
                (Kind::Connect, 15),
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
                Kind::Disconnected => *d.weighted(&[
                    ((Code::ConnectionLost, 15), 70),
                    ((Code::AbnormalClose, 25), 30),
                ]),
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
            .min(budget);
            budget -= len;
            let mut t = start + d.below(40 * MIN);
            for i in 0..len {
                plans.push(Plan {
                    t: t.min(DAY_END - SEC) + jitter(d),
                    who: peer,
                    kind,
                    code,
                    terminal: i + 1 == len && d.chance(terminal_percent),
                    attempt: i as u8 + 1,
                    story: Story::Noise,
                });
                t += d.range(1, 20) * SEC;
            }
        }
    }
}

/// Track and recording events, which the same endpoint returns with shapes of their own.
fn other_families(
    d: &mut Dice,
    world: &World,
    plans: &mut Vec<Plan>,
    count: usize,
    first_noise_peer: u32,
) {
    let noise_peers = world.peers.len() as u32 - first_noise_peer;
    for _ in 0..count {
        let kind = *d.weighted(&[
            (Kind::TrackAdd, 40),
            (Kind::TrackUpdate, 25),
            (Kind::TrackRemove, 20),
            (Kind::Recording, 15),
        ]);
        let (who, t) = if kind == Kind::Recording {
            (
                d.index(world.rooms.len()) as u32,
                DAY_START + 20 * MIN + d.below(DAY_END - DAY_START - 20 * MIN),
            )
        } else {
            // Prefer a peer that publishes: watch-only roles add no tracks.
            let mut peer = first_noise_peer;
            for _ in 0..8 {
                peer = first_noise_peer + d.below(u64::from(noise_peers)) as u32;
                let p = &world.peers[peer as usize];
                if world.rooms[p.room as usize].roles()[usize::from(p.role)]
                    .video
                    .is_some()
                {
                    break;
                }
            }
            let start = world.peers[peer as usize].start;
            (peer, (start + d.below(30 * MIN)).min(DAY_END - SEC))
        };
        plans.push(Plan {
            t: t + jitter(d),
            who,
            kind,
            code: Code::None,
            terminal: false,
            attempt: 1,
            story: Story::Noise,
        });
    }
}
