//! The population behind the events: rooms, users with their devices and SDKs, and peers.
//!
//! A peer keeps one user, room, role and session for all its events, and a user keeps one agent and
//! one set of devices, so that a person browsing the demo sees the same faces come back.

use super::catalog::{
    ACCOUNTS, AGENT_DOMAINS, ANDROID_MODELS, ANDROID_SDK_VERSIONS, ANDROID_VERSIONS, DAY_END,
    DAY_START, DeviceKit, FIRST_NAMES, FIXED_ROOM_IDS, FLUTTER_SDK_VERSIONS, FLUTTER_VERSIONS,
    IOS_MODELS, IOS_SDK_VERSIONS, IOS_VERSIONS, LAST_NAMES, MIN, MOBILE_DEVICES, NOW, PRIYA_ROOM,
    ROOMS, Role, TEMPLATES, Video, WEB_DEVICES, WEB_SDK_VERSIONS, WEB_SYSTEMS, WHOLE_NAMES,
};
use super::dice::Dice;

mod agents;
use super::json::{DAY_EPOCH_SECS, NS, hex_string, object_id, push_escaped, push_field, quoted};
pub(super) use agents::{Agent, AgentSpec, Kit, Sdk};

pub(super) struct User {
    pub id: Box<[u8]>,
    pub name: Box<[u8]>,
    pub agent: u32,
    pub kit: u32,
}

pub(super) struct Room {
    pub account: usize,
    pub template: usize,
    pub id: Box<str>,
    /// `"account_id":"…","room_id":"…"`
    pub ids: Box<[u8]>,
    /// `,"room_name":"…","template_id":"…"`
    pub named: Box<[u8]>,
    pub name: Box<str>,
    /// When the room's planned meetings begin, drawn with the room, ascending.
    pub meeting_starts: Vec<u64>,
    /// The random part of the ids of the room's first sessions, one per planned meeting.
    pub session_tags: Vec<[u8; 8]>,
    /// The meetings people join, laid out by the schedule.
    pub meetings: Vec<Meeting>,
    /// The room's sessions (indices into [`World::sessions`]), ascending by start.
    pub sessions: Vec<u32>,
}

impl Room {
    pub(super) fn roles(&self) -> &'static [Role] {
        TEMPLATES[self.template].roles
    }
}

/// A stretch of time when people meet in a room; sessions grow from who actually joins.
#[derive(Clone, Copy, Debug)]
pub(super) struct Meeting {
    pub start: u64,
    pub end: u64,
}

/// One session of a room: from the first peer's join to the last peer's leave.
pub(super) struct Session {
    pub room: u32,
    pub id: Box<str>,
    pub start: u64,
    /// When the last peer left; `None` while a peer is still in at [`NOW`].
    pub end: Option<u64>,
    /// The last join or leave.
    pub updated: u64,
    /// Its peers, by join time.
    pub peers: Vec<u32>,
}

impl Session {
    pub(super) fn covers(&self, t: u64) -> bool {
        self.start <= t && self.end.is_none_or(|end| t <= end)
    }
}

/// What a peer is in the dataset's stories, where that changes what happens around it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Part {
    /// In a meeting, without an error.
    Quiet,
    Noise,
    Storm,
    Priya,
    ConnectCluster,
    DisconnectCluster(Outcome),
    /// A new peer of a user whose earlier peer dropped, back in the same room.
    Rejoin,
    /// The browser that records a session.
    Recorder,
}

/// How a peer of the disconnect cluster ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Outcome {
    /// Reconnected and stayed in the call.
    Stayed,
    /// Dropped out, and the same user joined again as a new peer.
    Rejoined,
    /// Dropped out for good.
    Left,
}

/// The role of a recorder, which no template lists.
pub(super) const RECORDER_ROLE: u8 = u8::MAX;

pub(super) struct Peer {
    pub id: [u8; 16],
    pub user: u32,
    pub room: u32,
    pub role: u8,
    pub part: Part,
    /// When it joined a session of its room; `None` if it never got in.
    pub joined: Option<u64>,
    /// When it left; `None` if it never got in or was still in at `NOW`.
    pub left: Option<u64>,
    /// Its session (an index into [`World::sessions`]), or [`NO_SESSION`].
    pub session: u32,
}

pub(super) const NO_SESSION: u32 = u32::MAX;

pub(super) struct World {
    pub rooms: Vec<Room>,
    pub sessions: Vec<Session>,
    pub agents: Vec<Agent>,
    pub kits: Vec<Kit>,
    pub users: Vec<User>,
    pub peers: Vec<Peer>,
    /// Everyday users of each account; users made for a pattern are kept out of these pools.
    pub pools: [Vec<u32>; 2],
    web_kits: u32,
    mobile_kits: u32,
    /// The first agents are everyday ones, shared by many users.
    pub noise_agents: u32,
}

pub(super) const PRIYA_PEER: [u8; 16] = [
    0x3f, 0x6b, 0x2a, 0x9e, 0x8c, 0x41, 0x4d, 0x7a, 0x9b, 0x25, 0xe0, 0xc4, 0xd1, 0xf7, 0xa8, 0x63,
];

impl World {
    pub(super) fn new(d: &mut Dice, events: usize) -> Self {
        let room_count = (events / 240).max(10);
        let mut rooms = Vec::with_capacity(room_count);
        for i in 0..room_count {
            let (base, template) = ROOMS[i % ROOMS.len()];
            let name = if i < ROOMS.len() {
                base.to_string()
            } else {
                format!("{base}-{}", i / ROOMS.len() + 1)
            };
            // Rooms were created over the two years before the day of the events.
            let created = DAY_EPOCH_SECS - d.range(30, 730) * 86_400 - d.below(86_400);
            let id = FIXED_ROOM_IDS
                .get(i)
                .map_or_else(|| object_id(created, d.bytes()), |s| (*s).to_string());
            let account = TEMPLATES[template].account;
            let mut ids = b"\"account_id\":".to_vec();
            push_escaped(&mut ids, ACCOUNTS[account].as_bytes());
            push_field(&mut ids, "room_id", &id);
            let mut named = Vec::new();
            push_field(&mut named, "room_name", &name);
            push_field(&mut named, "template_id", TEMPLATES[template].id);
            let mut meeting_starts = vec![DAY_START - d.range(1, 30 * MIN)];
            for _ in 0..d.below(3) {
                meeting_starts.push(DAY_START + d.below(DAY_END - DAY_START));
            }
            meeting_starts.sort_unstable();
            let session_tags = meeting_starts.iter().map(|_| d.bytes()).collect();
            rooms.push(Room {
                account,
                template,
                id: id.into_boxed_str(),
                ids: ids.into_boxed_slice(),
                named: named.into_boxed_slice(),
                name: name.into_boxed_str(),
                meeting_starts,
                session_tags,
                meetings: Vec::new(),
                sessions: Vec::new(),
            });
        }

        let noise_agents = 40 + events / 20_000;
        let agents = (0..noise_agents)
            .map(|_| AgentSpec::random(d).build())
            .collect();
        let web_kits = 40;
        let mobile_kits = 12;
        let kits = (0..web_kits + mobile_kits)
            .map(|i| Kit::random(d, i < web_kits))
            .collect();

        let mut world = World {
            rooms,
            sessions: Vec::new(),
            agents,
            kits,
            users: Vec::new(),
            peers: Vec::new(),
            pools: [Vec::new(), Vec::new()],
            web_kits,
            mobile_kits,
            noise_agents: noise_agents as u32,
        };
        let user_count = (events / 8).max(40);
        for i in 0..user_count {
            let account = usize::from(i % 10 >= 7);
            let agent = d.below(u64::from(world.noise_agents)) as u32;
            let user = world.add_user(d, account, agent, None);
            world.pools[account].push(user);
        }
        world
    }

    pub(super) fn add_agent(&mut self, spec: &AgentSpec) -> u32 {
        self.agents.push(spec.build());
        self.agents.len() as u32 - 1
    }

    pub(super) fn random_web_agent(&mut self, d: &mut Dice, sdk_version: &'static str) -> u32 {
        let mut spec = AgentSpec::random(d);
        while spec.sdk != Sdk::Web {
            spec = AgentSpec::random(d);
        }
        spec.sdk_version = sdk_version;
        spec.domain = "prod-in2.100ms.live";
        spec.env = "prod";
        self.add_agent(&spec)
    }

    /// `who` fixes the id and name; otherwise both are invented in the account's style.
    pub(super) fn add_user(
        &mut self,
        d: &mut Dice,
        account: usize,
        agent: u32,
        who: Option<(&str, &str)>,
    ) -> u32 {
        let (id, name) = match who {
            Some((id, name)) => (id.to_string(), name.to_string()),
            None => {
                let id = if account == 0 {
                    format!("usr_{}", hex_string(&d.bytes::<5>()))
                } else {
                    d.range(1_000_000, 9_999_999).to_string()
                };
                (id, random_name(d))
            }
        };
        let kit = if self.agents[agent as usize].sdk == Sdk::Web {
            d.below(u64::from(self.web_kits)) as u32
        } else {
            self.web_kits + d.below(u64::from(self.mobile_kits)) as u32
        };
        self.users.push(User {
            id: quoted(&id),
            name: quoted(&name),
            agent,
            kit,
        });
        self.users.len() as u32 - 1
    }

    pub(super) fn random_role(&self, d: &mut Dice, room: usize) -> u8 {
        d.weighted_index(self.rooms[room].roles(), |r| r.weight) as u8
    }

    pub(super) fn add_peer(
        &mut self,
        d: &mut Dice,
        user: u32,
        room: usize,
        role: u8,
        part: Part,
    ) -> u32 {
        self.add_peer_with_id(d.uuid(), user, room, role, part)
    }

    pub(super) fn add_peer_with_id(
        &mut self,
        id: [u8; 16],
        user: u32,
        room: usize,
        role: u8,
        part: Part,
    ) -> u32 {
        self.peers.push(Peer {
            id,
            user,
            room: room as u32,
            role,
            part,
            joined: None,
            left: None,
            session: NO_SESSION,
        });
        self.peers.len() as u32 - 1
    }

    /// The peer's presence: it joined at `joined` and left at `left`, or was still in at `NOW`.
    pub(super) fn set_presence(&mut self, peer: u32, joined: u64, left: u64) {
        let p = &mut self.peers[peer as usize];
        p.joined = Some(joined);
        p.left = (left <= NOW).then_some(left);
    }

    pub(super) fn role_name(&self, peer: &Peer) -> &'static str {
        if peer.role == RECORDER_ROLE {
            "__internal_recorder"
        } else {
            self.rooms[peer.room as usize].roles()[usize::from(peer.role)].name
        }
    }

    /// The publishing settings of the peer's role; `None` for roles that only watch.
    pub(super) fn video_of(&self, peer: &Peer) -> Option<Video> {
        if peer.role == RECORDER_ROLE {
            None
        } else {
            self.rooms[peer.room as usize].roles()[usize::from(peer.role)].video
        }
    }

    /// The session of `room` running at `t`, if any.
    pub(super) fn session_at(&self, room: u32, t: u64) -> Option<u32> {
        let sessions = &self.rooms[room as usize].sessions;
        let after = sessions.partition_point(|&s| self.sessions[s as usize].start <= t);
        let s = *sessions[..after].last()?;
        self.sessions[s as usize].covers(t).then_some(s)
    }

    /// Groups the peers that got in into sessions: in each room, a session runs from a join into an
    /// empty room until the room is empty again. The ids of a room's first sessions take the random
    /// parts drawn with the room.
    pub(super) fn lay_out_sessions(&mut self, side: &mut Dice) {
        let mut by_room: Vec<Vec<u32>> = vec![Vec::new(); self.rooms.len()];
        for (i, p) in self.peers.iter().enumerate() {
            if p.joined.is_some() {
                by_room[p.room as usize].push(i as u32);
            }
        }
        for (room, mut peers) in by_room.into_iter().enumerate() {
            peers.sort_by_key(|&p| (self.peers[p as usize].joined, p));
            let mut open: Option<Session> = None;
            for p in peers {
                let (joined, left) = {
                    let peer = &self.peers[p as usize];
                    (peer.joined.expect("only peers that got in"), peer.left)
                };
                let joins_open = open.as_ref().is_some_and(|s| s.covers(joined));
                if !joins_open {
                    if let Some(done) = open.take() {
                        self.close_session(side, done);
                    }
                    let n = self.rooms[room].sessions.len();
                    let tag = match self.rooms[room].session_tags.get(n) {
                        Some(tag) => *tag,
                        None => side.bytes(),
                    };
                    open = Some(Session {
                        room: room as u32,
                        id: object_id(DAY_EPOCH_SECS + joined / NS, tag).into_boxed_str(),
                        start: joined,
                        end: Some(joined),
                        updated: joined,
                        peers: Vec::new(),
                    });
                    self.rooms[room].sessions.push(self.sessions.len() as u32);
                }
                let s = open.as_mut().expect("opened above");
                s.end = match (s.end, left) {
                    (Some(a), Some(b)) => Some(a.max(b)),
                    _ => None,
                };
                s.updated = s.updated.max(joined).max(left.unwrap_or(0));
                s.peers.push(p);
                self.peers[p as usize].session = self.sessions.len() as u32;
            }
            if let Some(done) = open.take() {
                self.close_session(side, done);
            }
        }
    }

    fn close_session(&mut self, side: &mut Dice, mut s: Session) {
        if s.end.is_some() {
            // The service writes the session a moment after its last peer left.
            s.updated += side.range(2, 9) * 1_000_000;
        }
        self.sessions.push(s);
    }

    pub(super) fn add_priya(&mut self, d: &mut Dice) -> u32 {
        let agent = self.add_agent(&AgentSpec {
            sdk: Sdk::Web,
            sdk_version: "0.12.3",
            device_model: "Chrome 130",
            os: "macOS",
            os_version: "14.5",
            is_prebuilt: false,
            framework: "react",
            framework_version: "18.2.0",
            framework_sdk_version: "0.10.1",
            domain: "prod-in2.100ms.live",
            env: "prod",
        });
        let user = self.add_user(
            d,
            0,
            agent,
            Some((super::PRIYA_USER_ID, super::PRIYA_USER_NAME)),
        );
        self.add_peer_with_id(PRIYA_PEER, user, PRIYA_ROOM, 0, Part::Priya)
    }
}

fn random_name(d: &mut Dice) -> String {
    let roll = d.below(100);
    let first = *d.pick(FIRST_NAMES);
    let last = *d.pick(LAST_NAMES);
    match roll {
        0..72 => format!("{first} {last}"),
        72..82 => first.to_string(),
        82..88 => format!(
            "{}.{}",
            first.to_lowercase().replace(' ', ""),
            last.to_lowercase()
        ),
        88..92 => format!("Guest {}", d.range(1000, 9999)),
        _ => (*d.pick(WHOLE_NAMES)).to_string(),
    }
}
