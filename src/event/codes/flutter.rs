//! Spec 2.4, Flutter: a framework on top of the Android or iOS SDK, which emits the events and
//! whose table gives the meaning. The Flutter docs table is a copy of the Android docs table,
//! kept here compactly; its "as Android" rows stand for the Android rows.

use super::Code::{One, Span};
use super::{NOT_SHOWN, Refers, Row, row};

pub(super) static ROWS: &[Row] = &[
    row(
        &[One(400), One(401), One(410), One(500)],
        &[],
        "",
        "As Android.",
        "As Android.",
        "As Android.",
    )
    .name_note("as Android")
    .refers(Refers::Android),
    row(
        &[One(1000), One(1003)],
        &[],
        "",
        "Generic connect error; WebSocket disconnected.",
        "Network.",
        "1003: yes, 60 s (Flutter docs).",
    )
    .name_note("as Android")
    .refers(Refers::Android),
    row(
        &[One(2002), One(2003), One(2004)],
        &[],
        "",
        "Invalid endpoint; unreachable endpoint; bad token format.",
        "Endpoint; network; token.",
        "As native.",
    )
    .name_note("as Android / iOS")
    .refers(Refers::Native),
    row(
        &[Span(3000, 3003), Span(3005, 3007), One(3011)],
        &[],
        "",
        "Track errors as in the Android table.",
        "As Android.",
        NOT_SHOWN,
    )
    .name_note("as Android")
    .refers(Refers::Android),
    row(
        &[One(3017)],
        &[],
        "",
        "Screen-share permission missing (Android 14).",
        "Manifest.",
        NOT_SHOWN,
    )
    .name_note("as Android")
    .refers(Refers::Android),
    row(
        &[Span(4001, 4004)],
        &[],
        "",
        "WebRTC set-up errors.",
        "Logs.",
        "",
    )
    .name_note("as Android / iOS")
    .refers(Refers::Native),
    row(
        &[One(4005)],
        &[],
        "PUBLISH, SUBSCRIBE (Flutter docs)",
        "ICE failure; terminal after 60 s of reconnection.",
        "Network.",
        "Yes.",
    )
    .name_note("as Android / iOS")
    .refers(Refers::Native),
    row(
        &[One(5001), One(5002)],
        &[],
        "",
        "Already joined; preview already started.",
        "App.",
        NOT_SHOWN,
    )
    .name_note("as Android")
    .refers(Refers::Android),
    row(
        &[
            One(6000),
            One(6002),
            One(6004),
            One(6008),
            One(6010),
            One(6012),
        ],
        &[],
        "",
        "See the Android rows.",
        "",
        "",
    )
    .name_note("as Android")
    .refers(Refers::Android),
    row(
        &[One(6004)],
        &["Room code null error"],
        "text such as \"Check logs for more info\"",
        "The Flutter plugin's own argument errors (null ids, missing room code) returned to the \
         Dart app. These do not come from the native SDK and should not appear in analytics \
         events (not confirmed).",
        "App arguments.",
        NOT_SHOWN,
    )
    .name_note("wrapper; none, or e.g. this"),
    row(
        &[Span(7001, 7005), One(8001), One(9001)],
        &[],
        "",
        "See the Android rows (Android only).",
        "",
        "",
    )
    .name_note("as Android")
    .refers(Refers::Android),
];
