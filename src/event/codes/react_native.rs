//! Spec 2.5, React Native: a framework on top of the Android or iOS SDK, whose table is asked
//! first. The RN docs add Bluetooth codes and 5-digit server codes, and copy a web meaning for
//! 3008; the RN wrappers also raise codes of their own, which are not native SDK errors.

use super::Code::{One, Span};
use super::{Code, NOT_SHOWN, Native, Refers, Row, row};

/// A 5-digit code of the RN docs: the other docs give the same causes under 401, 400 and 410, so
/// they look like detailed server codes; whether they appear in analytics events is not shown.
const fn detailed(codes: &'static [Code], what: &'static str, check: &'static str) -> Row {
    row(codes, &[], "", what, check, NOT_SHOWN)
}

pub(super) static ROWS: &[Row] = &[
    row(
        &[
            One(1003),
            One(2002),
            One(2003),
            One(2004),
            One(3001),
            One(3002),
            One(3003),
            Span(4001, 4005),
            One(5001),
        ],
        &[],
        "as native",
        "As the Android or iOS row.",
        "As native.",
        "As native (1003: terminal after 60 s, RN docs).",
    )
    .name_note("as native")
    .refers(Refers::Native),
    row(
        &[One(3008)],
        &[],
        "",
        "RN docs say \"browser auto-play exception\", which is the web wording. On iOS devices \
         3008 is audiovideoSubsystemFailure; Android defines no 3008.",
        "Use the iOS row when on iOS; otherwise unknown code.",
        "",
    )
    .no_meaning(),
    row(
        &[One(3012)],
        &["Bluetooth Inaccessible"],
        "",
        "BLUETOOTH_CONNECT permission not granted (Android).",
        "Request it at runtime.",
        NOT_SHOWN,
    )
    .dagger()
    .only(Native::Android),
    row(
        &[One(3013)],
        &["Bluetooth Inaccessible"],
        "",
        "BLUETOOTH permission not granted (Android).",
        "Add it to the app.",
        NOT_SHOWN,
    )
    .dagger()
    .only(Native::Android),
    row(
        &[One(6002)],
        &["Unknown"],
        "",
        "Docs: renegotiation error. The RN wrappers also use 6002 for their own errors (bad \
         build parameters, framework info missing).",
        "Description.",
        "",
    )
    .name_note("or wrapper text"),
    detailed(&[One(40100)], "Generic token error.", "Logs."),
    detailed(&[One(40101)], "Token: invalid access key.", "Token."),
    detailed(&[One(40102)], "Token: invalid room id.", "Token."),
    detailed(&[One(40103)], "Token: invalid auth id.", "Token."),
    detailed(&[One(40104)], "Token: invalid app id.", "Token."),
    detailed(&[One(40105)], "Token: invalid customer id.", "Token."),
    detailed(&[One(40107)], "Token: invalid user id.", "Token."),
    detailed(&[One(40108)], "Token: invalid role.", "Token."),
    detailed(&[One(40109)], "Token: bad JWT.", "Token."),
    detailed(&[One(40001)], "Invalid room.", "Room id."),
    detailed(&[One(40002)], "Room does not match the token.", "Room id."),
    detailed(&[One(40004)], "Peer already joined.", "Duplicate join."),
    detailed(&[One(41001)], "Peer is gone.", "Rejoin."),
    row(
        &[Span(7001, 7004)],
        &[],
        "",
        "Plugin errors.",
        "",
        NOT_SHOWN,
    )
    .name_note("as Android")
    .refers(Refers::Android),
    row(
        &[One(103)],
        &[
            "RESULT_CANCELED",
            "SCREENSHARE_IS_ALREADY_RUNNING",
            "AUDIOSHARE_IS_ALREADY_RUNNING",
        ],
        "",
        "The RN Android wrapper's screen share, audio share or frame capture was cancelled, \
         already running, or failed. Not a native SDK error.",
        "User cancelled the system prompt, or app logic.",
        NOT_SHOWN,
    )
    .name_note("or a frame-copy result; the RN Android wrapper's own")
    .only(Native::Android),
    row(
        &[One(5000)],
        &[],
        "",
        "The RN iOS wrapper reports \"Preview is in progress\" when preview is called twice.",
        "App call order.",
        NOT_SHOWN,
    )
    .name_note("the RN iOS wrapper's own")
    .only(Native::Ios),
    row(
        &[One(7000)],
        &[],
        "",
        "The RN iOS wrapper is missing required keys, or got no error object.",
        "App arguments.",
        NOT_SHOWN,
    )
    .name_note("the RN iOS wrapper's own")
    .only(Native::Ios),
];
