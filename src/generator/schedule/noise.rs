//! The everyday failures around the incidents, and the peers who join without failing.

use super::*;

/// One retry chain of a noise peer, before it is placed in time.
pub(super) struct Chain {
    kind: Kind,
    code: Code,
    terminal_percent: u64,
    len: usize,
}

/// Everyday failures in every room's meetings: a peer may fail to connect or join (before it gets
/// in, if it does), then fail to publish, subscribe or keep its connection while in the call.
/// Returns the (user, room) pairs whose peer gave up joining, so that no other peer of that user
/// is seen in that room.
pub(super) fn noise(
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
pub(super) fn quiet(side: &mut Dice, world: &mut World, gave_up: &HashSet<(u32, u32)>) {
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
