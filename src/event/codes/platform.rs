//! Which table an event's code is read in: its SDK platform, from its agent (spec section 4).

use crate::event::{Event, agent_value};

/// A native SDK, under a Flutter or React Native app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Native {
    Android,
    Ios,
}

/// The SDK platform an event came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Platform {
    /// `sdk` `web`, in a browser or in Node.
    Web,
    /// `sdk` `android` (a Flutter or React Native app on Android reads so too).
    Android,
    /// `sdk` `ios` (unconfirmed: no source showed the iOS SDK's value).
    Ios,
    /// `sdk` `flutter`, with the native SDK underneath when the agent's `os` tells it.
    Flutter(Option<Native>),
    /// `sdk` `react-native`, with the native SDK underneath when the agent's `os` tells it.
    ReactNative(Option<Native>),
    /// No `sdk`, or another value, and an `os` that tells nothing.
    Unknown,
}

impl Platform {
    /// The platform of `sdk` and `os` as an agent gives them (section 4): `web`, `android` and
    /// `ios` name their tables; `flutter` and `react-native` theirs, with Android or iOS read from
    /// `os`; without a known `sdk`, an `os` starting with `web_` is web and `android` is Android.
    /// Values are compared without regard to case or surrounding spaces.
    pub fn read(sdk: Option<&str>, os: Option<&str>) -> Platform {
        let sdk = sdk
            .map(|s| s.trim().to_ascii_lowercase())
            .unwrap_or_default();
        let os = os
            .map(|s| s.trim().to_ascii_lowercase())
            .unwrap_or_default();
        let native = if os.starts_with("android") {
            Some(Native::Android)
        } else if os.starts_with("ios") || os.starts_with("ipados") {
            Some(Native::Ios)
        } else {
            None
        };
        match sdk.as_str() {
            "web" => Platform::Web,
            "android" => Platform::Android,
            "ios" => Platform::Ios,
            "flutter" => Platform::Flutter(native),
            "react-native" | "react_native" | "reactnative" => Platform::ReactNative(native),
            _ if os.starts_with("web_") => Platform::Web,
            _ if os == "android" => Platform::Android,
            _ => Platform::Unknown,
        }
    }

    /// The platform of an event: the agent's `sdk` and `os` fields, or, where a field is absent
    /// or empty, the same keys of the agent's `string`.
    pub fn of(e: &Event) -> Platform {
        let pairs = e.agent_pairs();
        let field = |key: &str| {
            e.agent_str(key)
                .filter(|v| !v.trim().is_empty())
                .or_else(|| agent_value(&pairs, key))
                .map(str::to_string)
        };
        Platform::read(field("sdk").as_deref(), field("os").as_deref())
    }

    /// The native SDK underneath a Flutter or React Native app, when known.
    pub fn native(self) -> Option<Native> {
        match self {
            Platform::Flutter(native) | Platform::ReactNative(native) => native,
            _ => None,
        }
    }

    /// The platform in a few words: `web`, `Android`, `Flutter on iOS`...
    pub fn label(self) -> &'static str {
        match self {
            Platform::Web => "web",
            Platform::Android => "Android",
            Platform::Ios => "iOS",
            Platform::Flutter(None) => "Flutter",
            Platform::Flutter(Some(Native::Android)) => "Flutter on Android",
            Platform::Flutter(Some(Native::Ios)) => "Flutter on iOS",
            Platform::ReactNative(None) => "React Native",
            Platform::ReactNative(Some(Native::Android)) => "React Native on Android",
            Platform::ReactNative(Some(Native::Ios)) => "React Native on iOS",
            Platform::Unknown => "platform not known",
        }
    }

    /// The tables asked before the general one, in a sentence.
    pub fn tables_label(self) -> &'static str {
        match self {
            Platform::Web => "web table",
            Platform::Android => "Android table",
            Platform::Ios => "iOS table",
            Platform::Flutter(None) => "Flutter table",
            Platform::Flutter(Some(Native::Android)) => "Android and Flutter tables",
            Platform::Flutter(Some(Native::Ios)) => "iOS and Flutter tables",
            Platform::ReactNative(None) => "React Native table",
            Platform::ReactNative(Some(Native::Android)) => "Android and React Native tables",
            Platform::ReactNative(Some(Native::Ios)) => "iOS and React Native tables",
            Platform::Unknown => "platform not known",
        }
    }
}
