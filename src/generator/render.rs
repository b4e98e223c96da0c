//! One planned event to one NDJSON line, in the field order of the service's responses.

use super::catalog::{APP_DOMAINS, RECORDING_BUCKETS, TEMPLATES};
use super::dice::Dice;
use super::json::{
    DAY_EPOCH_SECS, NS, push_escaped, push_field, push_time, push_time_ms, push_u64, push_uuid,
};
use super::schedule::{Code, Kind, Plan, Story};
use super::tracks::{Change, Other, Others};
use super::world::{NO_SESSION, Peer, Sdk, World};

impl Kind {
    pub(super) fn type_name(self) -> &'static str {
        match self {
            Kind::Publish => "client.publish.failed",
            Kind::Subscribe => "client.subscribe.failed",
            Kind::Join => "client.join.failed",
            Kind::Disconnected => "client.disconnected",
            Kind::Connect => "client.connect.failed",
            Kind::TrackAdd => "track.add.success",
            Kind::TrackUpdate => "track.update.success",
            Kind::TrackRemove => "track.remove.success",
            Kind::BeamRecording => "beam.recording.success",
        }
    }

    fn action(self) -> &'static str {
        match self {
            Kind::Publish => "PUBLISH",
            Kind::Subscribe => "SUBSCRIBE",
            Kind::Join => "JOIN",
            Kind::Disconnected => "RECONNECT_SIGNAL",
            _ => "INIT",
        }
    }
}

impl Code {
    /// (error_code, error_name, error_message without the action prefix)
    fn describe(self) -> (u64, &'static str, &'static str) {
        match self {
            Code::IceDisconnected => (4006, "ICEDisconnected", "ICE Connection Disconnected"),
            Code::IceFailure => (4005, "ICEFailure", "ICE Connection Failed"),
            Code::DeviceInUse => (3003, "DeviceInUse", "Device in use"),
            Code::JoinServer => (500, "ServerErrors", "sfu join failed"),
            Code::JoinRejected => (5000, "ServerErrors", "Join rejected by server"),
            Code::InvalidRole => (6008, "InvalidRole", "Invalid role"),
            Code::ConnectionLost => (1003, "WebSocketConnectionLost", "Network connection lost"),
            Code::AbnormalClose => (1006, "AbnormalClose", "WebSocket closed abnormally"),
            Code::EndpointUnreachable => (2003, "EndpointUnreachable", "Endpoint is not reachable"),
            Code::FailedToConnect => (
                1000,
                "FailedToConnect",
                "Failed to connect to the websocket",
            ),
            Code::InvalidToken => (
                2004,
                "InvalidTokenFormat",
                "Token is not in proper JWT format",
            ),
            Code::None => (0, "", ""),
        }
    }
}

pub(super) const STORM_SFU: &str = "sfu-prod-in2-07";
pub(super) const CONNECT_DNS: &str = "198.51.100.53";

pub(super) struct Renderer<'w> {
    world: &'w World,
    others: &'w Others,
    line: Vec<u8>,
    scratch: Vec<u8>,
}

impl<'w> Renderer<'w> {
    pub(super) fn new(world: &'w World, others: &'w Others) -> Self {
        Self {
            world,
            others,
            line: Vec::with_capacity(4096),
            scratch: Vec::with_capacity(512),
        }
    }

    pub(super) fn line(&mut self, d: &mut Dice, p: &Plan) -> &[u8] {
        let buf = &mut self.line;
        buf.clear();
        buf.extend_from_slice(b"{\"version\":\"2.0\",\"id\":\"");
        push_uuid(buf, &d.uuid());
        buf.extend_from_slice(b"\",\"timestamp\":\"");
        push_time(buf, p.t);
        buf.extend_from_slice(b"\",\"type\":\"");
        buf.extend_from_slice(p.kind.type_name().as_bytes());
        buf.extend_from_slice(b"\",\"data\":{");
        if p.kind.is_error() {
            self.error(d, p);
        } else {
            match self.others.events[p.who as usize] {
                Other::Track { peer, change } => self.track(peer, &change),
                Other::Recording(r) => self.recording(r),
            }
        }
        self.line.extend_from_slice(b"}}\n");
        &self.line
    }

    fn error(&mut self, d: &mut Dice, p: &Plan) {
        let world = self.world;
        let peer = &world.peers[p.who as usize];
        let user = &world.users[peer.user as usize];
        let room = &world.rooms[peer.room as usize];
        let agent = &world.agents[user.agent as usize];
        let buf = &mut self.line;

        buf.extend_from_slice(b"\"user_id\":");
        buf.extend_from_slice(&user.id);
        buf.extend_from_slice(b",\"user_name\":");
        buf.extend_from_slice(&user.name);
        buf.extend_from_slice(b",\"peer_id\":\"");
        push_uuid(buf, &peer.id);
        buf.extend_from_slice(b"\",");
        buf.extend_from_slice(&room.ids);
        let session_percent = match p.kind {
            Kind::Disconnected | Kind::Connect => 0,
            Kind::Join => 70,
            _ => 96,
        };
        if session_percent > 0 && d.chance(session_percent) {
            // A peer in the call names its session; a join failure, the one running then, if any.
            let session = match p.kind {
                Kind::Join => world.session_at(peer.room, p.t),
                _ => Some(peer.session).filter(|&s| s != NO_SESSION),
            };
            if let Some(s) = session {
                push_field(buf, "session_id", &world.sessions[s as usize].id);
            }
        }
        if p.kind != Kind::Connect {
            buf.extend_from_slice(&room.named);
            push_field(buf, "role", world.role_name(peer));
        }

        let (code, name, message) = p.code.describe();
        let action = p.kind.action();
        buf.extend_from_slice(b",\"error_code\":");
        push_u64(buf, code);
        push_field(buf, "error_name", name);
        buf.extend_from_slice(b",\"error_message\":\"[");
        buf.extend_from_slice(action.as_bytes());
        buf.extend_from_slice(b"]: ");
        buf.extend_from_slice(message.as_bytes());
        buf.extend_from_slice(b"\",\"error_description\":");
        describe(&mut self.scratch, d, world, peer, p);
        push_escaped(buf, &self.scratch);
        buf.extend_from_slice(if p.terminal {
            b",\"is_terminal\":true"
        } else {
            b",\"is_terminal\":false"
        });
        push_field(buf, "action", action);
        buf.extend_from_slice(b",\"agent\":");
        buf.extend_from_slice(&agent.json);

        let app_domain = APP_DOMAINS[room.account][usize::from(agent.prebuilt)];
        match p.kind {
            Kind::Publish => {
                let kit = &world.kits[user.kit as usize];
                let video =
                    room.roles()[usize::from(peer.role)]
                        .video
                        .unwrap_or(super::catalog::Video {
                            width: 640,
                            height: 480,
                            kbps: 500,
                            fps: 30,
                        });
                push_field(buf, "domain", app_domain);
                buf.extend_from_slice(b",\"audio\":{\"maxBitrate\":32,\"deviceId\":");
                push_escaped(buf, kit.mic_id.as_bytes());
                buf.extend_from_slice(b",\"volume\":");
                push_u64(buf, u64::from(kit.volume));
                buf.extend_from_slice(b",\"codec\":\"opus\"},\"video\":{\"deviceId\":");
                push_escaped(buf, kit.camera_id.as_bytes());
                buf.extend_from_slice(b",\"maxFramerate\":");
                push_u64(buf, u64::from(video.fps));
                buf.extend_from_slice(b",\"maxBitrate\":");
                push_u64(buf, u64::from(video.kbps));
                let codec = if agent.sdk == Sdk::Ios { "h264" } else { "vp8" };
                push_field(buf, "codec", codec);
                buf.extend_from_slice(b",\"height\":");
                push_u64(buf, u64::from(video.height));
                buf.extend_from_slice(b",\"width\":");
                push_u64(buf, u64::from(video.width));
                buf.extend_from_slice(b"},\"devices\":");
                buf.extend_from_slice(&kit.devices);
            }
            Kind::Join => {
                push_field(buf, "domain", app_domain);
                buf.extend_from_slice(b",\"retries_join\":");
                push_u64(buf, u64::from(p.attempt));
            }
            Kind::Disconnected => {
                let state =
                    *d.weighted(&[("Connected", 60), ("Reconnecting", 20), ("Preview", 20)]);
                push_field(buf, "transport_state", state);
            }
            Kind::Connect => {
                push_field(buf, "transport_state", "Connecting");
                let endpoint = if d.chance(85) {
                    ""
                } else {
                    "https://prod-init.100ms.live/init"
                };
                push_field(buf, "endpoint", endpoint);
            }
            _ => {}
        }
    }

    fn track(&mut self, peer_index: u32, change: &Change) {
        let world = self.world;
        let peer = &world.peers[peer_index as usize];
        let user = &world.users[peer.user as usize];
        let room = &world.rooms[peer.room as usize];
        let track = &self.others.timelines[&peer_index].tracks[change.track as usize];
        let buf = &mut self.line;
        buf.extend_from_slice(b"\"room_id\":");
        push_escaped(buf, room.id.as_bytes());
        push_field(buf, "session_id", &world.sessions[peer.session as usize].id);
        push_field(buf, "room_name", &room.name);
        buf.extend_from_slice(b",\"peer_id\":\"");
        push_uuid(buf, &peer.id);
        buf.extend_from_slice(b"\",\"user_id\":");
        buf.extend_from_slice(&user.id);
        buf.extend_from_slice(b",\"user_name\":");
        buf.extend_from_slice(&user.name);
        buf.extend_from_slice(b",\"joined_at\":\"");
        push_time(
            buf,
            peer.joined.expect("a peer with tracks is in the session"),
        );
        buf.push(b'"');
        push_field(buf, "role", world.role_name(peer));
        buf.extend_from_slice(b",\"track_id\":\"");
        push_uuid(buf, &track.id);
        buf.extend_from_slice(b"\",\"stream_id\":\"");
        push_uuid(buf, &track.stream);
        buf.push(b'"');
        push_field(buf, "type", if track.video { "video" } else { "audio" });
        push_field(
            buf,
            "source",
            if track.screen { "screen" } else { "regular" },
        );
        buf.extend_from_slice(if change.mute {
            b",\"mute\":true"
        } else {
            b",\"mute\":false"
        });
        buf.extend_from_slice(b",\"started_at\":\"");
        push_time(buf, track.start);
        buf.push(b'"');
        if let (Kind::TrackRemove, Some(stop)) = (change.kind, track.stop) {
            buf.extend_from_slice(b",\"stopped_at\":\"");
            push_time(buf, stop);
            buf.push(b'"');
        }
    }

    fn recording(&mut self, index: u32) {
        let world = self.world;
        let rec = &self.others.recordings[index as usize];
        let session = &world.sessions[rec.session as usize];
        let room = &world.rooms[session.room as usize];
        let recorder = &world.peers[rec.peer as usize];
        let buf = &mut self.line;
        buf.extend_from_slice(b"\"beam_id\":");
        push_escaped(buf, rec.beam_id.as_bytes());
        push_field(buf, "room_id", &room.id);
        push_field(buf, "session_id", &session.id);
        buf.extend_from_slice(b",\"peer_id\":\"");
        push_uuid(buf, &recorder.id);
        buf.push(b'"');
        push_field(buf, "template_id", TEMPLATES[room.template].id);
        buf.extend_from_slice(b",\"created_at\":\"");
        push_time(buf, rec.created);
        buf.extend_from_slice(b"\",\"duration\":");
        push_u64(buf, (rec.stopped - rec.started) / NS);
        buf.extend_from_slice(b",\"started_at\":\"");
        push_time_ms(buf, rec.started);
        buf.extend_from_slice(b"\",\"stopped_at\":\"");
        push_time_ms(buf, rec.stopped);
        buf.extend_from_slice(b"\",\"max_width\":1280,\"max_height\":720");
        let bucket = RECORDING_BUCKETS[room.account];
        let mut path = Vec::with_capacity(160);
        path.extend_from_slice(b"beam/");
        path.extend_from_slice(room.id.as_bytes());
        path.push(b'/');
        path.extend_from_slice(session.id.as_bytes());
        path.extend_from_slice(b"/Rec-");
        path.extend_from_slice(room.id.as_bytes());
        path.push(b'-');
        push_u64(&mut path, DAY_EPOCH_SECS + rec.started / NS);
        path.extend_from_slice(b".mp4");
        buf.extend_from_slice(b",\"recording_path\":\"s3://");
        buf.extend_from_slice(bucket.as_bytes());
        buf.push(b'/');
        buf.extend_from_slice(&path);
        buf.extend_from_slice(b"\",\"recording_presigned_url\":\"https://");
        buf.extend_from_slice(bucket.as_bytes());
        buf.extend_from_slice(b".s3.amazonaws.com/");
        buf.extend_from_slice(&path);
        buf.extend_from_slice(
            b"?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=86400&X-Amz-Signature=",
        );
        super::json::push_hex(buf, &rec.signature);
        buf.extend_from_slice(b"\",\"meeting_url\":\"https://");
        buf.extend_from_slice(APP_DOMAINS[room.account][1].as_bytes());
        buf.extend_from_slice(b"/preview/");
        push_room_code(buf, &room.id);
        buf.extend_from_slice(b"?token=beam_recording\",\"rtmp\":[");
        if room.template == super::catalog::WEBINAR {
            buf.extend_from_slice(b"{\"url\":\"rtmp://a.rtmp.youtube.com/live2\"}");
        }
        buf.extend_from_slice(b"],\"session_started_at\":\"");
        push_time_ms(buf, session.start);
        buf.extend_from_slice(b"\",\"size\":");
        push_u64(buf, rec.size);
    }
}

/// The room's code in its meeting link (three groups of three letters), made from its id.
fn push_room_code(buf: &mut Vec<u8>, id: &str) {
    for (i, b) in id.bytes().rev().take(9).enumerate() {
        if i > 0 && i % 3 == 0 {
            buf.push(b'-');
        }
        let value = (b as char).to_digit(16).unwrap_or(0) as u8;
        buf.push(b'a' + (value * 7 + i as u8 * 5) % 26);
    }
}

/// A dotted quad; `a.b.c` is a fixed prefix from the documentation or private ranges.
fn push_ip(s: &mut Vec<u8>, prefix: &str, last: u64) {
    s.extend_from_slice(prefix.as_bytes());
    push_u64(s, last);
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cand {
    Host,
    Srflx,
    Relay,
}

/// A local ICE candidate line the way browsers print it. The peer's addresses come from its id, so
/// one peer keeps its network across events.
fn push_local_candidate(s: &mut Vec<u8>, d: &mut Dice, peer: &Peer, story: Story) {
    let (kind, tcp) = if story == Story::Priya {
        (Cand::Relay, false)
    } else {
        (
            *d.weighted(&[(Cand::Host, 25), (Cand::Srflx, 50), (Cand::Relay, 25)]),
            d.chance(15),
        )
    };
    let id = &peer.id;
    let private_prefix;
    let private_last;
    if id[0] & 1 == 0 {
        private_prefix = match id[1] % 3 {
            0 => "192.168.0.".to_string(),
            1 => "192.168.1.".to_string(),
            _ => "192.168.29.".to_string(),
        };
        private_last = u64::from(id[2] % 250) + 2;
    } else {
        private_prefix = format!("10.{}.{}.", id[1], id[2]);
        private_last = u64::from(id[3] % 250) + 2;
    }
    let public_last = if story == Story::Priya {
        44
    } else {
        u64::from(id[4] % 250) + 2
    };
    let port = d.range(49152, 65535);
    let raddr_port = d.range(49152, 65535);

    s.extend_from_slice(b"candidate:");
    push_u64(s, d.range(100_000_000, 4_294_967_295));
    s.extend_from_slice(if tcp { b" 1 tcp " } else { b" 1 udp " });
    let priority = match (kind, tcp) {
        (Cand::Host, false) => 2_122_260_223,
        (Cand::Host, true) => 1_518_280_447,
        (Cand::Srflx, false) => 1_686_052_607,
        (Cand::Srflx, true) => 1_019_216_383,
        (Cand::Relay, false) => 41_885_439,
        (Cand::Relay, true) => 25_108_223,
    };
    push_u64(s, priority);
    s.push(b' ');
    match kind {
        Cand::Host => push_ip(s, &private_prefix, private_last),
        Cand::Srflx => push_ip(s, "203.0.113.", public_last),
        Cand::Relay => push_ip(
            s,
            "192.0.2.",
            if story == Story::Priya {
                10
            } else {
                10 + d.below(4) * 10
            },
        ),
    }
    s.push(b' ');
    push_u64(s, if tcp { 9 } else { port });
    s.extend_from_slice(b" typ ");
    match kind {
        Cand::Host => s.extend_from_slice(b"host"),
        Cand::Srflx => {
            s.extend_from_slice(b"srflx raddr ");
            push_ip(s, &private_prefix, private_last);
            s.extend_from_slice(b" rport ");
            push_u64(s, raddr_port);
        }
        Cand::Relay => {
            s.extend_from_slice(b"relay raddr ");
            push_ip(s, "203.0.113.", public_last);
            s.extend_from_slice(b" rport ");
            push_u64(s, raddr_port);
        }
    }
    if tcp {
        s.extend_from_slice(b" tcptype active");
    }
    s.extend_from_slice(b" generation 0 ufrag ");
    for _ in 0..4 {
        s.push(*d.pick(b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789+/"));
    }
    s.extend_from_slice(b" network-id ");
    push_u64(s, d.range(1, 3));
}

fn describe(s: &mut Vec<u8>, d: &mut Dice, world: &World, peer: &Peer, p: &Plan) {
    s.clear();
    let user = &world.users[peer.user as usize];
    let mobile = world.agents[user.agent as usize].sdk != Sdk::Web;
    match p.code {
        Code::IceDisconnected | Code::IceFailure => {
            s.extend_from_slice(if p.code == Code::IceFailure {
                b"ICE connection state is failed. local candidate - "
            } else {
                b"ICE connection state is disconnected. local candidate - "
            });
            push_local_candidate(s, d, peer, p.story);
            s.extend_from_slice(b"; remote candidate - candidate:");
            push_u64(s, d.range(100_000_000, 4_294_967_295));
            s.extend_from_slice(b" 1 udp 2130706431 ");
            push_ip(s, "198.51.100.", d.range(20, 40));
            s.push(b' ');
            push_u64(s, d.range(10_000, 20_000));
            s.extend_from_slice(b" typ host generation 0");
            if p.code == Code::IceFailure {
                s.extend_from_slice(b"; no response to STUN binding requests for 30 s");
            }
        }
        Code::DeviceInUse => {
            let camera = world.kits[user.kit as usize].camera;
            if mobile {
                s.extend_from_slice(b"Camera \"");
                s.extend_from_slice(camera.as_bytes());
                s.extend_from_slice(b"\" is in use by another app (ERROR_CAMERA_IN_USE)");
            } else {
                s.extend_from_slice(b"NotReadableError: Could not start video source. \"");
                s.extend_from_slice(camera.as_bytes());
                s.extend_from_slice(b"\" is in use by another application");
            }
        }
        Code::JoinServer => {
            s.extend_from_slice(b"sfu join failed: 500 Internal Server Error from ");
            if p.story == Story::Storm {
                s.extend_from_slice(STORM_SFU.as_bytes());
                s.extend_from_slice(b" (upstream overloaded, join queue full after ");
            } else {
                let node = *d.pick(&[
                    "sfu-prod-in2-03",
                    "sfu-prod-in2-11",
                    "sfu-prod-us2-02",
                    "sfu-prod-us2-05",
                ]);
                s.extend_from_slice(node.as_bytes());
                s.extend_from_slice(b" (upstream connect timeout after ");
            }
            push_u64(s, d.range(2000, 5000));
            s.extend_from_slice(b" ms)");
        }
        Code::JoinRejected => {
            s.extend_from_slice(b"join rejected by server: ");
            let reason = *d.pick(&[
                "peer limit of 100 reached for the room",
                "the room is disabled",
                "the session is locked by the host",
            ]);
            s.extend_from_slice(reason.as_bytes());
        }
        Code::InvalidRole => {
            let role = *d.pick(&["presenter", "speaker", "admin", "moderator"]);
            s.extend_from_slice(b"role \"");
            s.extend_from_slice(role.as_bytes());
            s.extend_from_slice(b"\" is not defined in template ");
            let room = &world.rooms[peer.room as usize];
            s.extend_from_slice(TEMPLATES[room.template].id.as_bytes());
        }
        Code::ConnectionLost => {
            s.extend_from_slice(b"no pong from the server for ");
            push_u64(s, d.range(8, 30) * 1000);
            s.extend_from_slice(b" ms; the signalling websocket closed, reconnecting (attempt ");
            push_u64(s, u64::from(p.attempt));
            s.push(b')');
        }
        Code::AbnormalClose => {
            s.extend_from_slice(b"WebSocket closed with code 1006 (no close frame) after ");
            push_u64(s, d.range(30, 3600));
            s.extend_from_slice(b" s; a proxy or VPN may be cutting long-lived connections");
        }
        Code::EndpointUnreachable => {
            if p.story == Story::ConnectCluster {
                s.extend_from_slice(b"Unable to resolve host \"prod-init.100ms.live\": No address associated with hostname (network: cellular, dns ");
                s.extend_from_slice(CONNECT_DNS.as_bytes());
                s.push(b')');
            } else if mobile {
                if d.chance(50) {
                    s.extend_from_slice(b"Unable to resolve host \"prod-init.100ms.live\": No address associated with hostname (network: wifi, dns ");
                    s.extend_from_slice(
                        d.pick(&["192.168.1.1", "192.168.0.1", "10.0.0.1", "192.168.43.1"])
                            .as_bytes(),
                    );
                    s.push(b')');
                } else {
                    s.extend_from_slice(b"failed to connect to prod-init.100ms.live/198.51.100.9 (port 443) after 10000ms");
                }
            } else {
                s.extend_from_slice(
                    b"Failed to fetch: GET https://prod-init.100ms.live/base/init net::",
                );
                let reason = *d.pick(&[
                    "ERR_NAME_NOT_RESOLVED",
                    "ERR_INTERNET_DISCONNECTED",
                    "ERR_CONNECTION_TIMED_OUT",
                ]);
                s.extend_from_slice(reason.as_bytes());
            }
        }
        Code::FailedToConnect => {
            s.extend_from_slice(
                b"WebSocket connection to 'wss://prod-in2.100ms.live/v2/ws' failed: net::",
            );
            let reason = *d.pick(&[
                "ERR_CONNECTION_RESET",
                "ERR_TUNNEL_CONNECTION_FAILED",
                "ERR_CONNECTION_CLOSED",
            ]);
            s.extend_from_slice(reason.as_bytes());
            s.extend_from_slice(b" during the handshake");
        }
        Code::InvalidToken => {
            s.extend_from_slice(b"auth token is not a JWT: expected 3 dot-separated parts, got ");
            push_u64(s, d.range(1, 2));
        }
        Code::None => {}
    }
}
