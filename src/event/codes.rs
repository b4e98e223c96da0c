//! What an error code means and what to check, for on-call use (shared/spec/error-codes.md).
//! Codes outside this table are said to be unknown: nothing is guessed.

/// (code, family, what happened, what to check)
const CODES: &[(i64, &str, &str, &str)] = &[
    (
        500,
        "join (server)",
        "the media server refused or failed the join",
        "a server-side incident if many peers at once; otherwise retry",
    ),
    (
        1000,
        "websocket",
        "could not open the signalling websocket",
        "network, firewall, VPN or antivirus blocking websockets",
    ),
    (
        1003,
        "websocket",
        "the signalling connection dropped (ping/pong failure)",
        "the user's network; the SDK reconnects by itself",
    ),
    (
        1006,
        "websocket",
        "the websocket closed without a close frame",
        "network or proxy cutting long-lived connections",
    ),
    (
        2000,
        "init",
        "the init call to the service failed on the server side",
        "service status",
    ),
    (
        2002,
        "init",
        "the init configuration could not be fetched or the endpoint is wrong",
        "the endpoint the app passes to join",
    ),
    (
        2003,
        "init",
        "the service endpoint could not be reached (\"Failed to fetch\")",
        "network, DNS, firewall, captive portal",
    ),
    (
        2004,
        "init",
        "the auth token is not a well-formed JWT",
        "the app's token generation",
    ),
    (
        3000,
        "tracks",
        "getUserMedia failed in a generic way",
        "usually retried internally",
    ),
    (
        3001,
        "tracks",
        "the browser denied camera/microphone permission",
        "site permissions in the browser",
    ),
    (
        3002,
        "tracks",
        "the capture device is not available",
        "device plugged in / selected",
    ),
    (
        3003,
        "tracks",
        "another application holds the device",
        "close the other app",
    ),
    (
        3004,
        "tracks",
        "access to the device was lost during the call",
        "device unplugged, OS took it",
    ),
    (
        3008,
        "tracks",
        "the browser blocked audio autoplay",
        "the app must ask for a click, then unblock audio",
    ),
    (
        3009,
        "tracks",
        "the device cannot satisfy the requested constraints",
        "lower the role's media settings, or better hardware",
    ),
    (
        3010,
        "tracks",
        "no audio from the microphone track",
        "hardware; try a headset",
    ),
    (
        3011,
        "tracks",
        "the operating system denied device access",
        "OS privacy settings",
    ),
    (
        4001,
        "webrtc",
        "creating the SDP offer failed",
        "needs client logs",
    ),
    (
        4002,
        "webrtc",
        "creating the SDP answer failed",
        "needs client logs",
    ),
    (
        4003,
        "webrtc",
        "setting the local description failed",
        "needs client logs",
    ),
    (
        4004,
        "webrtc",
        "setting the remote description failed",
        "needs client logs",
    ),
    (
        4005,
        "webrtc",
        "ICE connection state went to FAILED",
        "network: UDP blocked, TURN reachability",
    ),
    (
        4006,
        "webrtc",
        "ICE connection state went to DISCONNECTED",
        "network instability; often recovers; candidate types in the description show relay/srflx/host",
    ),
    (
        5000,
        "signalling",
        "the server answered the join with an error",
        "server side",
    ),
    (
        5001,
        "signalling",
        "join called for a room already joined",
        "app logic",
    ),
    (
        5002,
        "signalling",
        "join called while preview is still in progress",
        "app logic: wait for preview",
    ),
    (
        6000,
        "generic",
        "an action was called before joining",
        "app logic",
    ),
    (
        6002,
        "generic",
        "an unknown error, often during renegotiation",
        "the error_message",
    ),
    (
        6003,
        "generic",
        "the WebRTC engine was not ready",
        "app logic: wait for preview",
    ),
    (
        6008,
        "generic",
        "joined with an invalid role, or bad ids passed to an action",
        "the role and ids the app passes",
    ),
    (
        6010,
        "generic",
        "mediaDevices undefined: page served over plain http",
        "serve the app over https",
    ),
    (
        6011,
        "generic",
        "the browser lacks WebRTC, or an extension blocks it",
        "browser version, extensions",
    ),
];

/// What a code means: (family, what happened, what to check), or `None` for an unknown code.
pub fn explain(code: i64) -> Option<(&'static str, &'static str, &'static str)> {
    CODES
        .iter()
        .find(|(c, ..)| *c == code)
        .map(|&(_, family, what, check)| (family, what, check))
}
