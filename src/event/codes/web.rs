//! Spec 2.1, web / general: `agent.sdk` `web`, and the table every platform falls back to (it
//! holds the server codes every SDK passes through). Names, actions and retry rules were checked
//! against the web SDK 0.15.2 source.

use super::Code::{FromServer, One, Span};
use super::{Row, row};

pub(super) static ROWS: &[Row] = &[
    row(
        &[One(400)],
        &["ServerErrors"],
        "INIT, JOIN, any request",
        "The service refused the request as invalid. The iOS docs list these causes for 400: \
         invalid room, room does not match the token, peer already joined.",
        "error_message; the room id and token the app used.",
        "No. Terminal (INIT and JOIN).",
    ),
    row(
        &[One(401)],
        &["ServerErrors"],
        "INIT, JOIN, GET_TOKEN",
        "The service refused the auth token. The iOS docs list these causes: wrong access key, \
         room id, app/customer/user id or role in the token, or a bad JWT.",
        "Token generation and expiry. Get a fresh token.",
        "No. Terminal.",
    ),
    row(
        &[One(410)],
        &["ServerErrors"],
        "JOIN",
        "Peer is gone: the server no longer holds this peer in the room.",
        "The user has to join again.",
        "No. The SDK forces it terminal.",
    ),
    row(
        &[One(429)],
        &["ServerErrors"],
        "any",
        "Rate limited by the service.",
        "Usually transient. If many peers hit it at once, look at load or an incident.",
        "Yes. Connect and join retry for up to 60 s, other signalling requests up to 3 tries \
         2–4 s apart, the room-code token fetch up to 4 tries. INIT errors are reported with \
         is_terminal=true even while the connect retry runs.",
    ),
    row(
        &[One(500)],
        &["ServerErrors"],
        "JOIN (e.g. \"sfu join failed\"), INIT, any request",
        "Server-side failure.",
        "Many peers at once means a service incident. Otherwise the retry usually clears it.",
        "Yes, as for 429: connect and join retry for up to 60 s, other signalling requests up \
         to 3 tries. A join that still fails is marked terminal.",
    ),
    row(
        &[Span(501, 511)],
        &["ServerErrors"],
        "any",
        "Other 5xx server failure.",
        "As 500: many peers at once means a service incident; otherwise the retry usually \
         clears it.",
        "Yes, as 500.",
    ),
    row(
        &[FromServer],
        &["ServerErrors"],
        "any; action on-error = pushed by the server",
        "The SDK passes the server's code through unchanged. A server-pushed on-error ends the \
         session.",
        "Treat as unknown code and quote error_message.",
        "Only 5xx and 429 are retried.",
    )
    .name_note("other server code")
    .no_meaning(),
    row(
        &[One(1000)],
        &["WebsocketFailedToConnect"],
        "JOIN",
        "The signalling WebSocket failed to open (browser error event). Message \"[WS]: Error \
         opening websocket connection\".",
        "Network, or a firewall, proxy, VPN or antivirus blocking WebSockets.",
        "Yes. Connect is retried for up to 60 s, then terminal.",
    ),
    row(
        &[One(1003)],
        &["WebSocketConnectionLost"],
        "RECONNECT_SIGNAL (ping-pong timeout, browser offline, socket closed after opening); or \
         the action of a request cut off mid-flight (JOIN, PUBLISH, SUBSCRIBE, TRACK, NONE)",
        "The signalling connection was lost. error_description gives the trigger, e.g. \"ping \
         pong failure\" or \"code: 1006, unexpected websocket close\".",
        "The user's network. The SDK reconnects by itself.",
        "Yes. Reconnect for up to 60 s, then terminal. Signalling requests get up to 3 tries.",
    ),
    row(
        &[One(1006)],
        &["WebSocketAbnormalClose"],
        "JOIN",
        "The socket closed before it finished opening. The description carries the close code. \
         A close after opening is reported as 1003.",
        "Network, or a proxy cutting WebSockets.",
        "Yes (connect retry, 60 s).",
    ),
    row(
        &[One(2000)],
        &[],
        "",
        "Init server error: init failures carry the server's or HTTP code instead.",
        "",
        "",
    )
    .not_raised(),
    row(
        &[One(2002)],
        &["InitError"],
        "INIT",
        "The SDK tried to open signalling without an init config (\"[INIT]: Init Config not \
         found\"). The docs call 2002 \"invalid endpoint URL\", which is what it means on \
         Android and iOS.",
        "SDK logs. The init endpoint passed to join.",
        "No.",
    ),
    row(
        &[One(2003)],
        &["EndpointUnreachable"],
        "INIT; also GET_TOKEN, FEEDBACK",
        "The init (or token or feedback) endpoint could not be reached: the fetch failed \
         (\"Failed to fetch\", \"NetworkError\", \"ECONNRESET\") or init answered HTTP 404.",
        "Network, DNS, firewall, captive portal; a custom init endpoint.",
        "Connect is retried only while the browser reports itself offline. The token fetch gets \
         4 tries. An online failure is final even though the event says is_terminal=false.",
    ),
    row(
        &[One(2004)],
        &["InvalidTokenFormat"],
        "INIT",
        "The token is empty, not three dot-separated parts, or its payload is not JSON.",
        "The app's token generation.",
        "No. Terminal.",
    ),
    row(
        &[One(3000)],
        &["GenericTrack"],
        "TRACK",
        "getUserMedia failed for an unclassified reason, or constraints still failed after the \
         SDK dropped them, or screen-share cropping failed.",
        "error_description (the browser's message).",
        "It already follows a 3009 retry when constraints were the cause. Not retried \
         otherwise.",
    ),
    row(
        &[One(3001)],
        &["CantAccessCaptureDevice"],
        "TRACK",
        "The user or browser denied camera, mic or screen access (NotAllowedError).",
        "Site permissions in the browser address bar.",
        "No. During preview or join the SDK carries on with an empty track.",
    ),
    row(
        &[One(3002)],
        &["DeviceNotAvailable"],
        "TRACK",
        "No matching capture device was found (NotFoundError).",
        "Device plugged in and selected.",
        "No. Carries on with an empty track (preview or join).",
    ),
    row(
        &[One(3003)],
        &["DeviceInUse"],
        "TRACK",
        "The device could not be read, typically because another app holds it \
         (NotReadableError).",
        "Close the other app.",
        "No. Carries on with an empty track (preview or join).",
    ),
    row(
        &[One(3004)],
        &["DeviceLostMidway"],
        "",
        "Device lost mid-call.",
        "Hardware connection.",
        "",
    )
    .not_raised(),
    row(
        &[One(3005)],
        &["NothingToReturn"],
        "TRACK",
        "Nothing to capture: neither audio nor video was requested, the browser threw \
         TypeError, or an audio-only screen share was started without ticking \"share audio\".",
        "Role publish settings; the \"share audio\" tick box.",
        "No.",
    ),
    row(
        &[One(3006)],
        &["InvalidVideoSettings"],
        "TRACK",
        "Simulcast was requested without video settings.",
        "App configuration.",
        "No.",
    ),
    row(&[One(3007)], &["CodecChangeNotPermitted"], "", "", "", "").not_raised(),
    row(
        &[One(3008)],
        &["AutoplayBlocked"],
        "AUTOPLAY",
        "The browser blocked remote audio until the user interacts with the page.",
        "The app must show a button that calls unblockAudio().",
        "No. Waits for the app.",
    ),
    row(
        &[One(3009)],
        &["OverConstrained"],
        "TRACK",
        "The device cannot meet the requested media constraints.",
        "Lower the role's media settings, or better hardware.",
        "Yes, once with default constraints. If that also fails, a 3000 follows.",
    ),
    row(
        &[One(3010)],
        &["NoAudioDetected"],
        "PREVIEW",
        "No sound from the mic during preview. Sent to the app only in diagnostics mode.",
        "Mic hardware. Try a headset.",
        "No.",
    ),
    row(
        &[One(3011)],
        &["SystemDeniedPermission"],
        "TRACK",
        "The operating system (not the browser) denied device or screen access.",
        "OS privacy settings.",
        "No.",
    ),
    row(
        &[One(3012)],
        &["CurrentTabNotShared"],
        "TRACK",
        "The app required sharing the current tab and the user picked something else.",
        "Ask the user to share the current tab.",
        "No.",
    ),
    row(
        &[One(3013)],
        &["Audio playback error"],
        "TRACK",
        "A remote track's <audio> element raised an error. The description carries the media \
         error code.",
        "Browser and audio output.",
        "Partly: on a decode error the SDK rebuilds the element.",
    )
    .name_note("with spaces"),
    row(
        &[One(3014)],
        &["SelectedDeviceMissing"],
        "TRACK",
        "The selected mic or camera disappeared during a device change.",
        "Device connection.",
        "No.",
    ),
    row(
        &[One(3015)],
        &["Track does not have any data"],
        "TRACK",
        "A local track is published but carries no data (muted or ended), e.g. an incoming \
         phone call or another app took the mic or camera.",
        "Close other calls or apps, then retry.",
        "No.",
    )
    .name_note("with spaces"),
    row(
        &[One(4001)],
        &["CreateOfferFailed"],
        "PUBLISH, SUBSCRIBE",
        "WebRTC createOffer failed.",
        "Client logs. Ask the user to rejoin.",
        "Not directly. A failure on the subscribe side ends the session.",
    ),
    row(
        &[One(4002)],
        &["CreateAnswerFailed"],
        "PUBLISH, SUBSCRIBE",
        "WebRTC createAnswer failed.",
        "Client logs. Ask the user to rejoin.",
        "Not directly. A failure on the subscribe side ends the session.",
    ),
    row(
        &[One(4003)],
        &["SetLocalDescriptionFailed"],
        "PUBLISH, SUBSCRIBE",
        "Setting the local description failed (message says \"Failed to set offer\").",
        "Client logs. Ask the user to rejoin.",
        "Not directly. A failure on the subscribe side ends the session.",
    ),
    row(
        &[One(4004)],
        &["SetRemoteDescriptionFailed"],
        "PUBLISH, SUBSCRIBE, JOIN",
        "Setting the remote description failed (message says \"Failed to set answer\"). Also \
         used when a join's publish answer had to be discarded.",
        "Client logs. Ask the user to rejoin.",
        "No. Terminal by default.",
    ),
    row(
        &[One(4005)],
        &["ICEFailure"],
        "PUBLISH, SUBSCRIBE",
        "The media (peer) connection went to failed. For PUBLISH it is also raised when DTLS \
         stays stuck past a server-set timeout (description \"DTLS transport state ... \
         timeout\", terminal).",
        "Network: UDP blocked, TURN reachability. Check candidate types in the description.",
        "Yes. ICE restart for up to 60 s, then terminal.",
    ),
    row(
        &[One(4006)],
        &["ICEDisconnected"],
        "PUBLISH, SUBSCRIBE",
        "The media connection dropped and was not connected again within 5 s.",
        "Network instability. Often recovers.",
        "Yes, as 4005: ICE restart for up to 60 s, then terminal.",
    ),
    row(
        &[One(4007)],
        &["StatsFailed"],
        "TRACK, PUBLISH, SUBSCRIBE",
        "WebRTC getStats failed. Sent as the rtc.stats.failed analytics event.",
        "Usually harmless.",
        "No.",
    ),
    row(
        &[One(4008)],
        &["PublishAnswerSuperseded"],
        "PUBLISH or the track action",
        "Internal: a publish answer was dropped because a newer offer is in flight. The SDK \
         keeps it out of publish.failed events.",
        "Nothing to act on.",
        "Yes, non-terminal: the next offer carries the change.",
    ),
    row(
        &[One(5000)],
        &[],
        "",
        "Server errors keep the server's own code.",
        "",
        "",
    )
    .not_raised(),
    row(
        &[One(5001)],
        &["AlreadyJoined"],
        "JOIN",
        "join was called while the SDK was not disconnected (\"Cannot join a meeting in <state> \
         state\").",
        "The app calls join twice.",
        "No.",
    ),
    row(
        &[One(5002)],
        &["CannotJoinPreviewInProgress"],
        "",
        "This case (join while preview is in progress) raises 6003 instead.",
        "",
        "",
    )
    .not_raised(),
    row(
        &[One(6000)],
        &["NotConnected"],
        "VALIDATION",
        "An API was called before preview or join finished, or with no local peer.",
        "The app's call order.",
        "No.",
    ),
    row(
        &[One(6001)],
        &["Signalling"],
        "VALIDATION",
        "Generic signalling error. In 0.15.2 only raised when stopping transcription without a \
         mode.",
        "App arguments.",
        "No.",
    ),
    row(
        &[One(6002)],
        &["Unknown"],
        "PUBLISH, SUBSCRIBE",
        "Unexpected exception, mostly while renegotiating or during a media-server migration. \
         The description holds the original message.",
        "error_description. Rejoin.",
        "No. A SUBSCRIBE failure ends the session even if the event says is_terminal=false.",
    ),
    row(
        &[One(6003)],
        &["NotReady"],
        "JOIN",
        "join was called while preview was still running (\"Preview is in progress, can't \
         join\").",
        "App: wait for preview to finish.",
        "No.",
    ),
    row(&[One(6004)], &["JsonParsingFailed"], "", "", "", "").not_raised(),
    row(&[One(6005)], &["TrackMetadataMissing"], "", "", "", "").not_raised(),
    row(&[One(6006)], &["RTCTrackMissing"], "", "", "", "").not_raised(),
    row(&[One(6007)], &["PeerMetadataMissing"], "", "", "", "").not_raised(),
    row(
        &[One(6008)],
        &["InvalidRole"],
        "PREVIEW, VALIDATION",
        "A role is not in the room's policy (mid-call preview role, or a peer's role). The docs \
         call 6008 \"invalid arguments\"; in the source that is 6013.",
        "Role names used by the app and template.",
        "No. Flagged terminal.",
    ),
    row(
        &[One(6009)],
        &["PreviewAlreadyInProgress"],
        "PREVIEW",
        "preview was called again while a preview was running. The docs describe it as \
         join-during-preview.",
        "App call order.",
        "No.",
    ),
    row(
        &[One(6010)],
        &["MissingMediaDevices"],
        "JOIN",
        "navigator.mediaDevices is missing: the page is served over plain http (not localhost \
         or https).",
        "Serve the app over https.",
        "No. Terminal.",
    ),
    row(
        &[One(6011)],
        &["MissingRTCPeerConnection"],
        "JOIN",
        "RTCPeerConnection is missing: the browser lacks WebRTC or an extension blocks it.",
        "Browser version; extensions.",
        "No. Terminal.",
    ),
    row(
        &[One(6012)],
        &["LocalStorageAccessDenied"],
        "NONE",
        "The page cannot use localStorage (e.g. private mode). The SDK only logs it.",
        "Allow cookies and storage, or use a normal window.",
        "No.",
    ),
    row(
        &[One(6013)],
        &["ValidationFailed"],
        "VALIDATION",
        "Bad arguments: unknown peer or track, empty message, message to self, non-boolean \
         flag. Also leave called before join completed.",
        "The ids and arguments the app passes.",
        "No.",
    ),
    row(
        &[One(7001)],
        &["PlatformNotSupported"],
        "AUDIO_PLUGINS, VIDEO_PLUGINS",
        "The plugin does not support this browser or platform.",
        "Supported-platform list.",
        "No.",
    ),
    row(
        &[One(7002)],
        &["InitFailed"],
        "AUDIO_PLUGINS, VIDEO_PLUGINS",
        "Plugin initialisation failed.",
        "Description.",
        "No.",
    ),
    row(
        &[One(7003)],
        &["ProcessingFailed"],
        "AUDIO_PLUGINS, VIDEO_PLUGINS",
        "The plugin failed while processing, or could not be attached to the track.",
        "Description.",
        "No.",
    ),
    row(
        &[One(7004)],
        &["AddAlreadyInProgress"],
        "AUDIO_PLUGINS, VIDEO_PLUGINS",
        "A plugin add was already running.",
        "App calls.",
        "No.",
    ),
    row(
        &[One(7005)],
        &["DeviceNotSupported"],
        "AUDIO_PLUGINS, VIDEO_PLUGINS",
        "The plugin does not support this device.",
        "Supported-device list.",
        "No.",
    ),
    row(
        &[One(7006)],
        &["NotAllowedForRoom"],
        "AUDIO_PLUGINS",
        "The plugin (e.g. Krisp noise cancellation) is not enabled for this room.",
        "Room or template settings.",
        "No.",
    ),
    row(
        &[One(8001)],
        &["NoEntryToPlay"],
        "PLAYLIST",
        "Playlist has nothing to play: end or start reached, or nothing is playing.",
        "Playlist state when calling next, previous or seek.",
        "No.",
    ),
    row(
        &[One(8002)],
        &["NoEntryIsPlaying"],
        "PLAYLIST",
        "Nothing playing: in 0.15.2 \"nothing playing\" raises 8001.",
        "",
        "",
    )
    .not_raised(),
];
