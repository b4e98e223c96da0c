//! The four incidents the demo is built to show: the join storm, Priya Raman's publishing, the
//! connect failures of one handset, the disconnects of one SDK release.

use super::*;

/// The roles of the all-hands' audience: nearly everyone watches.
pub(super) const STORM_ROLES: &[(u8, u32)] = &[(2, 68), (3, 26), (1, 6)];

/// The SFU of the all-hands room fails nearly every join for five minutes; clients retry with
/// backoff, most get in with their next retry, a few only a minute or more later, some give up
/// and a few stop retrying without an error saying so.
pub(super) fn storm(
    d: &mut Dice,
    side: &mut Dice,
    world: &mut World,
    plans: &mut Vec<Plan>,
    count: usize,
) {
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
pub(super) fn priya(
    d: &mut Dice,
    side: &mut Dice,
    world: &mut World,
    plans: &mut Vec<Plan>,
    count: usize,
) {
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
pub(super) fn connect_cluster(
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
pub(super) fn disconnect_cluster(
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
