//! The demo's scenarios in its events: the join storm, Priya's publish retries, connect
//! failures on one handset, disconnects on one web SDK version, and shares kept at any size.

use super::*;

#[test]
fn join_storm_in_the_allhands_room() {
    let storm: Vec<&Value> = demo()
        .iter()
        .filter(|v| {
            s(v, "/type") == "client.join.failed"
                && v["data"]["error_code"] == 500
                && s(v, "/data/room_id") == STORM_ROOM_ID
        })
        .collect();
    assert!(
        storm
            .iter()
            .all(|v| s(v, "/data/room_name") == STORM_ROOM_NAME)
    );
    let times: Vec<i64> = storm.iter().map(|v| nanos(v)).collect();
    let window = 600 * 1_000_000_000;
    let busiest = (0..times.len())
        .map(|i| {
            times[i..]
                .iter()
                .take_while(|t| **t - times[i] <= window)
                .count()
        })
        .max();
    assert!(
        busiest.unwrap_or(0) >= 300,
        "busiest 10 minutes: {busiest:?}"
    );

    let mut chains: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    for v in storm
        .iter()
        .filter(|v| s(v, "/data/error_description").contains(STORM_SFU_NODE))
    {
        chains.entry(s(v, "/data/peer_id")).or_default().push(v);
    }
    assert!(chains.len() >= 80, "{} peers", chains.len());
    let mut gave_up = 0;
    for chain in chains.values() {
        let retries: Vec<u64> = chain
            .iter()
            .map(|v| v["data"]["retries_join"].as_u64().expect("number"))
            .collect();
        assert_eq!(retries, (1..=chain.len() as u64).collect::<Vec<_>>());
        let terminal: Vec<bool> = chain.iter().map(|v| is_terminal(v)).collect();
        assert!(
            !terminal[..terminal.len() - 1].contains(&true),
            "only the last attempt can be final"
        );
        gave_up += usize::from(terminal[terminal.len() - 1]);
    }
    let share = gave_up * 100 / chains.len();
    assert!(
        (10..=30).contains(&share),
        "{share}% of storm peers gave up"
    );
    assert!(
        chains.values().any(|c| c.len() >= 4),
        "long retry chains exist"
    );
    let node_elsewhere = demo()
        .iter()
        .filter(|v| {
            v.pointer("/data/error_description")
                .is_some_and(|d| d.as_str().is_some_and(|d| d.contains(STORM_SFU_NODE)))
        })
        .count();
    assert_eq!(node_elsewhere, chains.values().map(Vec::len).sum::<usize>());
}

#[test]
fn priya_retries_publishing_until_a_final_failure() {
    let hers = || {
        demo()
            .iter()
            .filter(|v| v.pointer("/data/peer_id") == Some(&Value::from(PRIYA_PEER_ID)))
    };
    let chain: Vec<&Value> = hers()
        .filter(|v| ERROR_TYPES.contains(&s(v, "/type")))
        .collect();
    assert!((8..=12).contains(&chain.len()), "{} events", chain.len());
    for v in &chain {
        assert_eq!(s(v, "/type"), "client.publish.failed");
        assert_eq!(v["data"]["error_code"], 4006);
        assert_eq!(s(v, "/data/error_name"), "ICEDisconnected");
        assert_eq!(s(v, "/data/user_name"), PRIYA_USER_NAME);
        assert_eq!(s(v, "/data/user_id"), PRIYA_USER_ID);
        assert_eq!(s(v, "/data/room_id"), PRIYA_ROOM_ID);
        assert_eq!(s(v, "/data/room_name"), PRIYA_ROOM_NAME);
        assert!(s(v, "/data/error_description").contains("typ relay"));
    }
    let terminal: Vec<bool> = chain.iter().map(|v| is_terminal(v)).collect();
    assert_eq!(terminal.iter().filter(|t| **t).count(), 1);
    assert!(terminal[terminal.len() - 1], "the final failure comes last");
    let span = nanos(chain[chain.len() - 1]) - nanos(chain[0]);
    assert!((60..=240).contains(&(span / 1_000_000_000)), "{span} ns");
    let others = demo()
        .iter()
        .filter(|v| v.pointer("/data/user_name") == Some(&Value::from(PRIYA_USER_NAME)))
        .count();
    assert_eq!(others, hers().count(), "the name is unique to her");
}

#[test]
fn connect_failures_cluster_on_one_handset() {
    let cluster: Vec<&Value> = demo()
        .iter()
        .filter(|v| {
            v.pointer("/data/agent/sdk_version") == Some(&Value::from(CONNECT_CLUSTER_SDK_VERSION))
        })
        .collect();
    assert!(cluster.len() >= 100, "{}", cluster.len());
    let start = nanos(&serde_json::json!({"timestamp": "2026-11-18T12:15:00.000000000Z"}));
    for v in &cluster {
        assert_eq!(s(v, "/type"), "client.connect.failed");
        assert_eq!(v["data"]["error_code"], 2003);
        assert_eq!(s(v, "/data/agent/sdk"), "android");
        assert_eq!(s(v, "/data/agent/device_model"), CONNECT_CLUSTER_DEVICE);
        assert!(s(v, "/data/error_description").contains(CONNECT_CLUSTER_DNS));
        let offset = nanos(v) - start;
        assert!((0..=1800 * 1_000_000_000).contains(&offset));
    }
    let devices = demo()
        .iter()
        .filter(|v| {
            v.pointer("/data/agent/device_model") == Some(&Value::from(CONNECT_CLUSTER_DEVICE))
        })
        .count();
    assert_eq!(devices, cluster.len());
    let peers: BTreeSet<&str> = cluster.iter().map(|v| s(v, "/data/peer_id")).collect();
    assert!(peers.len() >= 25);
}

#[test]
fn disconnects_cluster_on_one_web_sdk_version() {
    let mut per_version: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for v in demo()
        .iter()
        .filter(|v| s(v, "/type") == "client.disconnected" && v["data"]["error_code"] == 1003)
    {
        *per_version
            .entry((s(v, "/data/agent/sdk"), s(v, "/data/agent/sdk_version")))
            .or_default() += 1;
    }
    let cluster = per_version
        .remove(&("web", DISCONNECT_CLUSTER_SDK_VERSION))
        .unwrap_or(0);
    assert!(cluster >= 200, "{cluster}");
    let runner_up = per_version.values().max().copied().unwrap_or(0);
    assert!(
        cluster >= 4 * runner_up,
        "{cluster} vs {runner_up}: {per_version:?}"
    );
}

#[test]
fn large_datasets_keep_the_shares_and_grow_the_population() {
    let n = 24_000;
    let events = parse(&generate(n, 5));
    assert_eq!(events.len(), n);
    let rooms: BTreeSet<&str> = events.iter().map(|v| s(v, "/data/room_id")).collect();
    assert!(rooms.len() >= 90, "{} rooms", rooms.len());
    let storm = events
        .iter()
        .filter(|v| {
            v.pointer("/data/error_description")
                .and_then(Value::as_str)
                .is_some_and(|d| d.contains(STORM_SFU_NODE))
        })
        .count();
    assert_eq!(storm, n / 6);
    let peers: BTreeSet<&str> = events
        .iter()
        .filter_map(|v| v.pointer("/data/peer_id")?.as_str())
        .collect();
    assert!(peers.len() > 3000, "{} peers", peers.len());
}
