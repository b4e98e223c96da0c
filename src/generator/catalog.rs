//! Fixed vocabulary of the generated world: accounts, templates, rooms, names, devices, agents.

use super::json::NS;

pub(super) const ACCOUNTS: [&str; 2] = ["65af97002889d74ef8d1e18f", "6601c2a93e1b8f04d2c7a915"];

/// The value of `data.domain` (where the app runs), per account: custom app, then the prebuilt app.
pub(super) const APP_DOMAINS: [[&str; 2]; 2] = [
    ["meet.northwind.example", "northwind.app.100ms.live"],
    ["interviews.lumen.example", "lumen.app.100ms.live"],
];

/// Publishing settings of a role; `None` for roles that only watch.
#[derive(Clone, Copy)]
pub(super) struct Video {
    pub width: u32,
    pub height: u32,
    pub kbps: u32,
    pub fps: u32,
}

pub(super) struct Role {
    pub name: &'static str,
    pub weight: u32,
    pub video: Option<Video>,
}

pub(super) struct Template {
    pub id: &'static str,
    /// The template's name, which the rooms endpoint shows beside its id.
    pub name: &'static str,
    pub account: usize,
    pub roles: &'static [Role],
    /// Whether its rooms record their sessions (browser recording, `beam.recording.success`).
    pub records: bool,
}

const HD: Option<Video> = Some(Video {
    width: 1280,
    height: 720,
    kbps: 800,
    fps: 30,
});
const HD_HIGH: Option<Video> = Some(Video {
    width: 1280,
    height: 720,
    kbps: 1200,
    fps: 30,
});
const SD: Option<Video> = Some(Video {
    width: 640,
    height: 480,
    kbps: 500,
    fps: 30,
});
const LOW: Option<Video> = Some(Video {
    width: 640,
    height: 360,
    kbps: 300,
    fps: 24,
});

const fn role(name: &'static str, weight: u32, video: Option<Video>) -> Role {
    Role {
        name,
        weight,
        video,
    }
}

pub(super) const WEBINAR: usize = 0;

pub(super) const TEMPLATES: [Template; 5] = [
    Template {
        id: "6735e0b1c4a92f5d18e3b7a0",
        name: "northwind-webinar",
        records: true,
        account: 0,
        roles: &[
            role("broadcaster", 6, HD_HIGH),
            role("co-broadcaster", 6, HD),
            role("viewer-realtime", 62, None),
            role("hls-viewer", 26, None),
        ],
    },
    Template {
        id: "6735e0b1c4a92f5d18e3b7a1",
        name: "northwind-meeting",
        records: false,
        account: 0,
        roles: &[
            role("host", 18, HD),
            role("guest", 67, SD),
            role("co-host", 15, HD),
        ],
    },
    Template {
        id: "6735e0b1c4a92f5d18e3b7a2",
        name: "northwind-classroom",
        records: false,
        account: 0,
        roles: &[role("teacher", 12, HD), role("student", 88, LOW)],
    },
    Template {
        id: "6601c2f04e7a3b9d2c1f8e50",
        name: "lumen-interview",
        records: true,
        account: 1,
        roles: &[
            role("interviewer", 40, HD),
            role("candidate", 45, HD),
            role("observer", 15, None),
        ],
    },
    Template {
        id: "6601c2f04e7a3b9d2c1f8e51",
        name: "lumen-call",
        records: false,
        account: 1,
        roles: &[role("host", 25, HD), role("guest", 75, SD)],
    },
];

pub(super) const STORM_ROOM: usize = 0;
pub(super) const PRIYA_ROOM: usize = 1;

/// Room names and templates; index 0 and 1 carry fixed ids, larger worlds repeat the list with a suffix.
pub(super) const ROOMS: [(&str, usize); 12] = [
    ("weekly-allhands", WEBINAR),
    ("design-review", 1),
    ("sales-standup", 1),
    ("interview-panel-backend", 3),
    ("support-office-hours", 0),
    ("math-tutoring-4b", 2),
    ("candidate-screening", 4),
    ("eng-sync", 1),
    ("interview-panel-frontend", 3),
    ("customer-onboarding", 0),
    ("townhall-apac", 0),
    ("yoga-mornings", 4),
];

/// What each room of [`ROOMS`] is for, as its description says.
pub(super) const ROOM_DESCRIPTIONS: [&str; 12] = [
    "Company all-hands, Wednesdays at 10:00 UTC",
    "Product design critiques",
    "Daily sales standup",
    "Backend engineering interviews",
    "Open support hours for customers",
    "Grade 4 maths tutoring",
    "First-round candidate screening",
    "Engineering sync",
    "Frontend engineering interviews",
    "Guided onboarding for new customers",
    "Town hall for the APAC offices",
    "Morning yoga",
];

/// The region each account's rooms are hosted in.
pub(super) const REGIONS: [&str; 2] = ["in", "us"];

/// Where each account's recordings are uploaded.
pub(super) const RECORDING_BUCKETS: [&str; 2] = ["northwind-recordings", "lumen-call-archive"];

/// The room whose last meeting of the day is still running when the related data is read.
pub(super) const LATE_ROOM: usize = 4;

pub(super) const FIXED_ROOM_IDS: [&str; 2] =
    ["673a1f2c9e4b8d0a5c7e3f21", "673a1f4e2b7c9d1a0e8f5b63"];

pub(super) const FIRST_NAMES: &[&str] = &[
    "Aarav",
    "Ana María",
    "Ananya",
    "Ayşe",
    "Ben",
    "Björn",
    "Camila",
    "Chloé",
    "Chidi",
    "Daniel",
    "Diego",
    "Elena",
    "Emma",
    "Fatima",
    "Grace",
    "Hannah",
    "Hiroshi",
    "Ingrid",
    "Isabella",
    "Jakub",
    "James",
    "José",
    "Jürgen",
    "Kavya",
    "Kwame",
    "Laura",
    "Leon",
    "Liam",
    "Lucía",
    "Łukasz",
    "Maya",
    "Mei",
    "Mélanie",
    "Mohammed",
    "Nadia",
    "Noah",
    "Oliver",
    "Olga",
    "Omar",
    "Rahul",
    "Rosa",
    "Sam",
    "Sarah",
    "Siddharth",
    "Sofia",
    "Søren",
    "Tariq",
    "Thomas",
    "Valentina",
    "Wei",
    "Yusuf",
    "Zoë",
];

pub(super) const LAST_NAMES: &[&str] = &[
    "Adeyemi",
    "Andersen",
    "Bauer",
    "Chen",
    "Costa",
    "Dubois",
    "Fernández",
    "García",
    "Gupta",
    "Hansen",
    "Ivanova",
    "Jensen",
    "Kim",
    "Kowalski",
    "Kumar",
    "Larsen",
    "Li",
    "Martin",
    "Müller",
    "Nakamura",
    "Nguyen",
    "Novák",
    "O'Brien",
    "Okafor",
    "Patel",
    "Petrov",
    "Rossi",
    "Schmidt",
    "Silva",
    "Singh",
    "Smith",
    "Tanaka",
    "Taylor",
    "Walker",
    "Wójcik",
    "Yılmaz",
];

/// Whole names for scripts that do not split into the first/last lists.
pub(super) const WHOLE_NAMES: &[&str] = &[
    "佐藤 花子",
    "田中 太郎",
    "王伟",
    "李娜",
    "김민준",
    "Олена Коваль",
    "Nguyễn Văn An",
    "محمد علي",
    "Sam 🎧",
    "dev-tester",
    "iPad (Kitchen)",
    "Dr. Anjali Rao, PhD",
];

pub(super) struct DeviceKit {
    pub cameras: &'static [&'static str],
    pub mics: &'static [&'static str],
    pub speakers: &'static [&'static str],
}

pub(super) const WEB_DEVICES: DeviceKit = DeviceKit {
    cameras: &[
        "FaceTime HD Camera",
        "Logitech BRIO (046d:085e)",
        "HD Webcam C615 (046d:082c)",
        "Integrated Camera (04f2:b6dd)",
        "OBS Virtual Camera",
        "Microsoft LifeCam HD-3000",
    ],
    mics: &[
        "MacBook Pro Microphone (Built-in)",
        "Jabra Evolve2 65",
        "AirPods Pro",
        "Microphone Array (Realtek(R) Audio)",
        "Blue Yeti Stereo Microphone",
        "Headset Microphone (Poly BT700)",
    ],
    speakers: &[
        "MacBook Pro Speakers (Built-in)",
        "Speakers (Realtek(R) Audio)",
        "AirPods Pro",
        "DELL U2720Q (DisplayPort)",
        "Jabra Evolve2 65",
    ],
};

pub(super) const MOBILE_DEVICES: DeviceKit = DeviceKit {
    cameras: &["Front Camera", "Back Camera", "Back Ultra Wide Camera"],
    mics: &[
        "Built-in Microphone",
        "Headset Microphone",
        "Bluetooth Headset",
    ],
    speakers: &[
        "Speakerphone",
        "Earpiece",
        "Bluetooth Headset",
        "Wired Headset",
    ],
};

pub(super) struct WebSystem {
    pub os: &'static str,
    pub versions: &'static [&'static str],
    /// Only browsers that the system ships or runs.
    pub browsers: &'static [(&'static str, u32)],
}

pub(super) const WEB_SYSTEMS: &[(WebSystem, u32)] = &[
    (
        WebSystem {
            os: "macOS",
            versions: &["14.5", "14.6.1", "15.1"],
            browsers: &[
                ("Chrome 130", 40),
                ("Safari 18.1", 25),
                ("Firefox 132", 10),
                ("Chrome 129", 15),
                ("Edge 130", 10),
            ],
        },
        34,
    ),
    (
        WebSystem {
            os: "Windows",
            versions: &["10", "11"],
            browsers: &[
                ("Chrome 130", 45),
                ("Edge 130", 25),
                ("Firefox 132", 12),
                ("Chrome 129", 18),
            ],
        },
        40,
    ),
    (
        WebSystem {
            os: "Linux",
            versions: &["x86_64"],
            browsers: &[("Chrome 130", 60), ("Firefox 132", 40)],
        },
        8,
    ),
    (
        WebSystem {
            os: "Android",
            versions: &["13", "14"],
            browsers: &[("Chrome 130", 70), ("Samsung Internet 26", 30)],
        },
        9,
    ),
    (
        WebSystem {
            os: "iOS",
            versions: &["17.6.1", "18.1"],
            browsers: &[("Safari 18.1", 80), ("Chrome 130", 20)],
        },
        9,
    ),
];

pub(super) const WEB_SDK_VERSIONS: &[(&str, u32)] = &[
    ("0.12.3", 34),
    ("0.12.1", 20),
    ("0.12.0", 12),
    ("0.11.7", 16),
    ("0.10.9", 11),
    ("0.11.4", 7),
];

pub(super) const ANDROID_SDK_VERSIONS: &[(&str, u32)] =
    &[("2.9.61", 40), ("2.9.58", 35), ("2.9.47", 25)];
pub(super) const ANDROID_MODELS: &[&str] = &[
    "Pixel 8",
    "Pixel 7a",
    "Galaxy S23",
    "Galaxy S24 Ultra",
    "Redmi Note 12",
    "OnePlus 11",
    "moto g84 5G",
    "vivo Y27",
];
pub(super) const ANDROID_VERSIONS: &[&str] = &["12", "13", "14", "15"];

pub(super) const IOS_SDK_VERSIONS: &[(&str, u32)] =
    &[("1.16.2", 45), ("1.16.0", 30), ("1.15.1", 25)];
pub(super) const IOS_MODELS: &[&str] = &[
    "iPhone 15 Pro",
    "iPhone 14",
    "iPhone 13",
    "iPhone SE (3rd generation)",
    "iPad Pro 11-inch",
];
pub(super) const IOS_VERSIONS: &[&str] = &["16.7.10", "17.6.1", "18.0.1", "18.1"];

pub(super) const FLUTTER_SDK_VERSIONS: &[(&str, u32)] =
    &[("1.10.5", 50), ("1.10.3", 30), ("1.9.12", 20)];
pub(super) const FLUTTER_VERSIONS: &[&str] = &["3.24.3", "3.22.2"];

/// ((agent.domain, env), weight): where the SDK was pointed.
pub(super) const AGENT_DOMAINS: &[((&str, &str), u32)] = &[
    (("prod-in2.100ms.live", "prod"), 62),
    (("prod-us2.100ms.live", "prod"), 30),
    (("qa-in2.100ms.live", "qa"), 5),
    (("dev-in2.100ms.live", "dev"), 3),
];

pub(super) const H: u64 = 3600 * NS;
pub(super) const MIN: u64 = 60 * NS;
pub(super) const SEC: u64 = NS;
pub(super) const MS: u64 = 1_000_000;

/// The generated traffic covers 08:00 to 14:00 UTC.
pub(super) const DAY_START: u64 = 8 * H;
pub(super) const DAY_END: u64 = 14 * H;
pub(super) const STORM_START: u64 = 10 * H + 2 * MIN;
pub(super) const STORM_LEN: u64 = 5 * MIN;
pub(super) const PRIYA_START: u64 = 11 * H + 41 * MIN + 7 * SEC;
pub(super) const CONNECT_START: u64 = 12 * H + 15 * MIN;
pub(super) const CONNECT_LEN: u64 = 30 * MIN;

/// When the sessions, rooms and quality stats were read: a session with a peer still in at this
/// moment is active, and its peers still in have no `left_at`.
pub(super) const NOW: u64 = DAY_END + 30 * MIN;
/// The all-hands that the join storm hits.
pub(super) const ALLHANDS_START: u64 = 9 * H + 52 * MIN;
pub(super) const ALLHANDS_END: u64 = 11 * H + 8 * MIN;
/// The design review that Priya presents in.
pub(super) const REVIEW_START: u64 = 11 * H + 24 * MIN;
pub(super) const REVIEW_END: u64 = 12 * H + 18 * MIN;
