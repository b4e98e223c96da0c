//! A script written with the service owner's own Node server SDK (`@100mslive/server-sdk`, its
//! token minting and its HTTP layer, only the server it talks to changed) pages through a room's
//! events served by `callscope serve`, looking the room up by its name, and gets every event.
//!
//! Node.js and the SDK are needed: `tests/node/` holds the script and the SDK's lock file, and
//! the SDK is installed there from the npm registry (`npm ci`) when it is not yet. Set
//! CALLSCOPE_SKIP_NODE=1 to skip this test where Node.js cannot be installed.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

mod common;
use common::{Server, list_ndjson};

const BIN: &str = env!("CARGO_BIN_EXE_callscope");
const STORM_ROOM: &str = "673a1f2c9e4b8d0a5c7e3f21";

/// The folder of the script, with the SDK installed; `None` when Node.js is missing and the
/// test is to be skipped.
fn script_folder() -> Option<&'static Path> {
    let folder = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/node"));
    if Command::new("node").arg("--version").output().is_err() {
        if std::env::var_os("CALLSCOPE_SKIP_NODE").is_some_and(|v| v == "1") {
            eprintln!("node is not installed: skipped because CALLSCOPE_SKIP_NODE=1");
            return None;
        }
        panic!(
            "this test runs a script of the service's Node server SDK, and node is not \
             installed: install Node.js and npm (e.g. `apt-get install nodejs npm`), or set \
             CALLSCOPE_SKIP_NODE=1 to skip it"
        );
    }
    if !folder.join("node_modules/@100mslive/server-sdk").is_dir() {
        let out = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund"])
            .current_dir(folder)
            .output()
            .expect("npm is installed beside node");
        assert!(
            out.status.success(),
            "npm ci in tests/node failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Some(folder)
}

#[test]
fn the_official_node_server_sdk_pages_through_a_room_served_by_callscope() {
    let Some(folder) = script_folder() else {
        return;
    };
    // serve as the hosted API: the SDK's own management tokens let in, minted from the app's key.
    let mut cmd = Command::new(BIN);
    cmd.args(["serve", "--demo", "--addr", "127.0.0.1:0"])
        .args(["--access-key-env", "APP_KEY", "--secret-env", "APP_SECRET"])
        .env("CALLSCOPE_SERVE_TOKEN", "serve-own-token-8c2a")
        .env("APP_KEY", "ak-node-sdk")
        .env("APP_SECRET", "secret-node-sdk-51b0")
        .stderr(Stdio::null());
    let server = Server::spawn(cmd);
    let out = Command::new("node")
        .arg(folder.join("page_events.mjs"))
        .env("HMS_BASE_URL", &server.url)
        .env("HMS_ROOM_NAME", "weekly-allhands")
        .env("HMS_ACCESS_KEY", "ak-node-sdk")
        .env("HMS_SECRET", "secret-node-sdk-51b0")
        .env_remove("https_proxy")
        .env_remove("HTTPS_PROXY")
        .env_remove("no_proxy")
        .env_remove("NO_PROXY")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    // Every event of the room, every family (the script names no type), in order: compared as
    // JSON values, as the SDK parses and prints them again.
    let parse = |line: &str| -> Value { serde_json::from_str(line).unwrap() };
    let got: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(parse)
        .collect();
    let expected: Vec<Value> = list_ndjson(["--demo", "--room", STORM_ROOM])
        .iter()
        .map(|l| parse(l))
        .collect();
    assert!(expected.len() > 400, "the storm room holds many events");
    assert_eq!(got.len(), expected.len(), "{stderr}");
    assert_eq!(got, expected);
    assert!(
        stderr.contains(&format!("count: {}", expected.len())),
        "{stderr}"
    );

    // A secret the app does not have: the SDK's token is refused, and the script says so.
    let refused = Command::new("node")
        .arg(folder.join("page_events.mjs"))
        .env("HMS_BASE_URL", &server.url)
        .env("HMS_ROOM_ID", STORM_ROOM)
        .env("HMS_ACCESS_KEY", "ak-node-sdk")
        .env("HMS_SECRET", "not-the-secret")
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("401"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}
