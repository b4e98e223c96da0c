//! Spec 2.2, Android: `agent.sdk` `android`. Names marked † come from a decompiled copy of the
//! Android SDK (a secondary source), ‡ only from the API reference's constants; a row without a
//! name rests on the docs alone.

use super::Code::{FromServer, One, Span};
use super::{NOT_SHOWN, Row, row};

const PLUGIN: &str = "plugin action";
const IN_MESSAGE: &str = "PUBLISH, SUBSCRIBE (action in message)";

pub(super) static ROWS: &[Row] = &[
    row(
        &[One(400)],
        &["ServerErrors", "HTTPError"],
        "",
        "Docs: error occurred, usually a token problem.",
        "Logs; the token.",
        NOT_SHOWN,
    )
    .dagger()
    .name_note("ServerErrors for signalling, HTTPError for HTTP calls: uncertain which"),
    row(
        &[One(401)],
        &["ServerErrors", "HTTPError"],
        "",
        "Docs: error occurred, usually a token problem.",
        "Token generation and expiry.",
        NOT_SHOWN,
    )
    .dagger()
    .name_note("as 400: ServerErrors for signalling, HTTPError for HTTP calls, uncertain which"),
    row(
        &[One(410)],
        &["ServerErrors"],
        "",
        "Docs: peer is gone (no longer in the room).",
        "The user must join again.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(429), Span(500, 599)],
        &["ServerErrors"],
        "INIT, JOIN, signalling calls",
        "Rate limit or server failure.",
        "As web 429/500: usually transient; many peers at once point to load or a service \
         incident.",
        "Yes (release notes).",
    )
    .dagger(),
    row(
        &[One(500)],
        &["ServerErrors"],
        "",
        "Docs: general server error.",
        "Logs; service status.",
        "Yes (5xx).",
    )
    .dagger(),
    row(
        &[One(1000)],
        &["GenericConnect"],
        "",
        "Generic connection failure (\"Something went wrong\"). Docs: generic error.",
        "SDK logs needed.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(1003)],
        &["WebSocketConnectionLost"],
        "",
        "Signalling connection lost. Terminal once reconnection has failed for about 60 s.",
        "The user's network.",
        "Yes.",
    )
    .dagger(),
    row(
        &[One(1004)],
        &["WebSocketNotAvailable"],
        "",
        "The WebSocket was not ready yet, or already destroyed, when used.",
        "Logs; app call timing.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(2000)],
        &["ServerErrors"],
        "INIT",
        "Init call failed on the server side (\"[INIT]: Server error\").",
        "Service status.",
        "Yes (INIT retry).",
    )
    .dagger(),
    row(
        &[One(2001)],
        &["ConnectionLost"],
        "INIT",
        "Network error during the init call.",
        "Network.",
        "Yes (INIT retry), uncertain.",
    )
    .dagger(),
    row(
        &[One(2002)],
        &["InvalidEndpointURL"],
        "INIT†",
        "The endpoint URL is invalid.",
        "The endpoint the app passes to join.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(2003)],
        &["EndpointUnreachable"],
        "INIT†",
        "The endpoint could not be reached.",
        "Network, DNS, firewall.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(2004)],
        &["InvalidTokenFormat"],
        "INIT†",
        "The token is not a proper JWT.",
        "The app's token generation.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(2400)],
        &["HTTPError"],
        "",
        "API-reference constant for HTTP errors. The decompiled factory passes the HTTP status \
         as the code instead, so events may show 400, 401 etc. named HTTPError. Uncertain.",
        "Logs.",
        "",
    )
    .constant_only(),
    row(
        &[One(3000)],
        &["GenericTrack"],
        "TRACK",
        "Track creation failed (\"[PUBLISH]: Something went wrong\").",
        "Logs.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(3001)],
        &["CantAccessCaptureDevice"],
        "TRACK",
        "No permission for the camera or mic. The release notes say permission errors are \
         non-terminal.",
        "App permissions in Android settings.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(3002)],
        &["CantFindCameraIdForParticularFace"],
        "TRACK",
        "Docs: capture device not available. † message: the front or back camera was not \
         found, restart the device.",
        "The device camera.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(3003)],
        &[],
        "",
        "Docs: the capture device is in use by another app.",
        "Close the other app.",
        NOT_SHOWN,
    ),
    row(
        &[One(3004)],
        &["PeerConnectionFactoryDisposed"],
        "",
        "The WebRTC factory was already disposed when a track was needed (SDK state problem).",
        "Logs. Rejoin.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(3005)],
        &["NothingToReturn"],
        "",
        "Neither audio nor video to build a track from.",
        "Track settings or role.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(3006)],
        &["InvalidVideoSettings"],
        "",
        "Simulcast was requested without video settings.",
        "App configuration.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(3007)],
        &["CodecChangeNotPermitted"],
        "",
        "Codec change attempted mid-call.",
        "App.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(3011)],
        &["Mic Capture Failed"],
        "",
        "Mic capture failed.",
        "Mic permission; another app using the mic.",
        NOT_SHOWN,
    )
    .dagger()
    .name_note("with spaces"),
    row(
        &[One(3012)],
        &["Bluetooth Inaccessible"],
        "NONE†",
        "The BLUETOOTH_CONNECT permission is missing (Android 12+).",
        "The app must request it at runtime.",
        "Not shown. Non-terminal (release notes).",
    )
    .dagger(),
    row(
        &[One(3013)],
        &["Bluetooth Inaccessible"],
        "NONE†",
        "The BLUETOOTH permission is missing.",
        "Add the permission to the app.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(3014)],
        &["Prefer Layer failed"],
        "NONE† (default)",
        "A request to switch a remote video layer failed (unknown error).",
        "Usually harmless.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(3015)],
        &["Prefer Layer failed"],
        "NONE† (default)",
        "The server did not acknowledge a layer-switch request (timeout).",
        "Network.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(3016)],
        &["ReadPhoneStateError"],
        "NONE†",
        "READ_PHONE_STATE is not granted; the message says Android 12+ needs it.",
        "App permission.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(3017)],
        &["Media Projection Permission not present"],
        "NONE†",
        "Screen share impossible: FOREGROUND_SERVICE_MEDIA_PROJECTION is missing (Android 14).",
        "App manifest.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(4001)],
        &["CreateOfferFailed"],
        IN_MESSAGE,
        "WebRTC offer creation failed. Docs: need logs.",
        "Logs.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(4002)],
        &["CreateAnswerFailed"],
        IN_MESSAGE,
        "WebRTC answer creation failed.",
        "Logs.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(4003)],
        &["SetLocalDescriptionFailed"],
        IN_MESSAGE,
        "Setting the local description failed.",
        "Logs.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(4004)],
        &["SetRemoteDescriptionFailed"],
        IN_MESSAGE,
        "Setting the remote description failed.",
        "Logs.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(4005)],
        &["ICEFailure"],
        "PUBLISH, SUBSCRIBE",
        "The media connection failed.",
        "Network.",
        "Yes. Terminal after the reconnection window.",
    )
    .dagger(),
    row(
        &[One(5001)],
        &["AlreadyJoined"],
        "JOIN",
        "join was called for a room already joined.",
        "App logic.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(5002)],
        &["PreviewAlreadyStarted"],
        "PREVIEW",
        "preview was started while one was already running.",
        "App logic.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(6000)],
        &["NotConnected"],
        "",
        "Docs: the client failed to connect.",
        "Logs.",
        "",
    )
    .constant_only(),
    row(
        &[One(6001)],
        &["Signalling"],
        "",
        "Constant only; no docs text.",
        "",
        "",
    )
    .constant_only(),
    row(
        &[One(6002)],
        &["Unknown"],
        "",
        "Docs: unknown error; also an error while renegotiating.",
        "Logs. Retry.",
        "",
    )
    .constant_only(),
    row(
        &[One(6003)],
        &["NotReady"],
        "",
        "Constant only; no docs text.",
        "",
        "",
    )
    .constant_only(),
    row(
        &[One(6004)],
        &["JsonParsingFailed"],
        "",
        "JSON parsing failed.",
        "Logs.",
        "",
    )
    .constant_only(),
    row(
        &[One(6005)],
        &["TrackMetadataMissing"],
        "",
        "Constant only.",
        "",
        "",
    )
    .constant_only(),
    row(
        &[One(6006)],
        &["RTCTrackMissing"],
        "",
        "Constant only.",
        "",
        "",
    )
    .constant_only(),
    row(
        &[One(6007)],
        &["PeerMetadataMissing"],
        "",
        "Constant only.",
        "",
        "",
    )
    .constant_only(),
    row(
        &[One(6008)],
        &[],
        "",
        "Docs: a message could not be sent because the peer is null (SDK not in a room).",
        "App: send only after join.",
        NOT_SHOWN,
    ),
    row(
        &[One(6010)],
        &[],
        "",
        "Docs: this API is not supported on the device's Android version (docs text says \
         \"Android-31\").",
        "The device's OS version.",
        NOT_SHOWN,
    ),
    row(
        &[One(6012)],
        &[],
        "",
        "Docs: getPollResults found no such poll.",
        "The poll id.",
        NOT_SHOWN,
    ),
    row(
        &[One(7001)],
        &["PlatformNotSupported"],
        PLUGIN,
        "The plugin is not supported on this platform.",
        "Docs list of platforms.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(7002)],
        &["InitFailed"],
        PLUGIN,
        "Plugin initialisation failed.",
        "Description.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(7003)],
        &["ProcessingFailed"],
        PLUGIN,
        "Plugin processing failed.",
        "Description.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(7004)],
        &["AddAlreadyInProgress"],
        PLUGIN,
        "A plugin add was already running.",
        "App calls.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(7005)],
        &["BluetoothScoInitFailed"],
        "AUDIO_OUTPUT†",
        "The Bluetooth headset audio link (SCO) could not start: the headset is absent or busy.",
        "The headset.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(8001)],
        &["ImageCaptureException"],
        "None†",
        "captureImageAtMaxResolution failed.",
        "The message.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(8002)],
        &["Noise cancellation not supported"],
        "None†",
        "Noise cancellation is not available. The description gives the reason.",
        "Device or room support.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(8003)],
        &["NoiseCancellationToggleFailed"],
        "None†",
        "Turning noise cancellation on or off did not take effect.",
        "Logs.",
        NOT_SHOWN,
    )
    .dagger(),
    row(
        &[One(9001)],
        &[],
        "",
        "Docs: the blur plugin failed. The device needs OpenGL ES above 3.1.",
        "The device GPU.",
        NOT_SHOWN,
    ),
    row(
        &[FromServer],
        &["Prefer Layer failed"],
        "NONE†",
        "A layer-switch request failed; the code is copied from the server's reply.",
        "Usually harmless.",
        NOT_SHOWN,
    )
    .dagger()
    .name_note("with a server code"),
];
