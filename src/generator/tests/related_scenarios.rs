//! The scenarios in the related data: storm peers mostly get in within a minute, Priya's loss
//! climbs before each failure, the disconnected peers come back or leave for good.

use super::*;

/// The storm told by the sessions: the peers' last error is no verdict, the session is.
#[test]
fn storm_peers_mostly_get_in_within_a_minute_and_some_never() {
    let stays = related().stays();
    let mut chains: BTreeMap<&str, Vec<&Value>> = BTreeMap::new();
    for v in demo().iter().filter(|v| {
        v.pointer("/data/error_description")
            .and_then(Value::as_str)
            .is_some_and(|d| d.contains(STORM_SFU_NODE))
    }) {
        chains.entry(s(v, "/data/peer_id")).or_default().push(v);
    }
    let (mut retried, mut within_a_minute, mut later, mut never, mut gave_up) = (0, 0, 0, 0, 0);
    let mut in_after_retries = 0;
    for (peer, chain) in &chains {
        let last = chain.last().unwrap();
        let got_in = stays
            .get(*peer)
            .into_iter()
            .flatten()
            .filter(|stay| stay.room == STORM_ROOM_ID)
            .map(|stay| stay.joined)
            .min();
        if is_terminal(last) {
            gave_up += 1;
            assert_eq!(got_in, None, "{peer} gave up, yet is in the session");
            continue;
        }
        retried += 1;
        match got_in {
            None => never += 1,
            Some(joined) => {
                let after = joined - nanos(last);
                assert!(after > 0, "{peer} joined before its last failure");
                if after <= 60 * SEC_NS {
                    within_a_minute += 1;
                } else {
                    later += 1;
                }
                if chain.len() >= 2 {
                    in_after_retries += 1;
                }
            }
        }
    }
    assert_eq!(
        (chains.len(), gave_up),
        (157, 38),
        "the figures README gives"
    );
    assert!(
        within_a_minute * 10 >= retried * 8,
        "{within_a_minute} of {retried}"
    );
    assert!(later >= 1 && never >= 1, "later {later}, never {never}");
    assert!(in_after_retries >= 10);
}

#[test]
fn priya_was_in_the_call_and_her_loss_climbs_before_each_failure() {
    let failures: Vec<i64> = demo()
        .iter()
        .filter(|v| v.pointer("/data/peer_id") == Some(&json!(PRIYA_PEER_ID)))
        .filter(|v| s(v, "/type") == "client.publish.failed")
        .map(nanos)
        .collect();
    assert_eq!(failures.len(), 10);
    let stays = &related().stays()[PRIYA_PEER_ID];
    assert_eq!(stays.len(), 1);
    let stay = &stays[0];
    assert_eq!(stay.room, PRIYA_ROOM_ID);
    assert!(stay.joined < failures[0] && stay.left.unwrap() > failures[9]);

    let stats = related()
        .stats
        .iter()
        .find(|v| s(v, "/peer_id") == PRIYA_PEER_ID)
        .expect("her quality stats");
    let camera = stats["publisher"]["video"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["rid"] == "h" && e["type"] == "regular")
        .expect("her camera's top layer");
    let series = |name: &str| -> Vec<(i64, f64)> {
        let ts = &camera["time_series"];
        ts["timestamps"]
            .as_array()
            .unwrap()
            .iter()
            .zip(ts[name].as_array().unwrap())
            .map(|(t, x)| (t.as_i64().unwrap() * 1_000_000, x.as_f64().unwrap()))
            .collect()
    };
    for name in ["packet_loss_percent", "rtt_ms"] {
        let samples = series(name);
        let mut calm: Vec<f64> = samples
            .iter()
            .filter(|(t, _)| *t < failures[0] - 60 * SEC_NS)
            .map(|(_, x)| *x)
            .collect();
        calm.sort_by(f64::total_cmp);
        assert!(calm.len() >= 6, "a calm stretch before the trouble");
        let baseline = calm[calm.len() / 2];
        for &failure in &failures {
            let before: Vec<f64> = samples
                .iter()
                .filter(|(t, _)| (failure - 40 * SEC_NS..failure).contains(t))
                .map(|(_, x)| *x)
                .collect();
            let (first, last) = (before[0], *before.last().unwrap());
            assert!(
                last > first,
                "{name} rises in the 40 s before {failure}: {before:?}"
            );
            assert!(last >= 3.0 * baseline, "{name} {last} against {baseline}");
        }
    }
}

#[test]
fn disconnect_cluster_peers_come_back_or_leave_for_good() {
    let stays = related().stays();
    let mut drops: BTreeMap<&str, (i64, i64, &str, &str)> = BTreeMap::new();
    for v in demo().iter().filter(|v| {
        s(v, "/type") == "client.disconnected"
            && v["data"]["error_code"] == 1003
            && v.pointer("/data/agent/sdk_version") == Some(&json!(DISCONNECT_CLUSTER_SDK_VERSION))
    }) {
        let e = drops.entry(s(v, "/data/peer_id")).or_insert((
            i64::MAX,
            0,
            s(v, "/data/user_id"),
            s(v, "/data/room_id"),
        ));
        e.0 = e.0.min(nanos(v));
        e.1 = e.1.max(nanos(v));
    }
    assert_eq!(drops.len(), 56, "the figure README gives");
    let mut tracks_after: HashMap<&str, i64> = HashMap::new();
    for v in demo()
        .iter()
        .filter(|v| s(v, "/type").starts_with("track."))
    {
        let t = tracks_after.entry(s(v, "/data/peer_id")).or_default();
        *t = (*t).max(nanos(v));
    }
    let (mut rejoined, mut tracked, mut gone) = (0, 0, 0);
    for (peer, (first, last, user, room)) in &drops {
        let own = &stays[*peer];
        assert!(
            own.iter()
                .any(|stay| stay.room == *room && stay.holds(*first)),
            "{peer} was in the call when it first dropped"
        );
        let new_peer = stays.iter().any(|(other, list)| {
            other != peer
                && list
                    .iter()
                    .any(|stay| stay.user == *user && stay.room == *room && stay.joined > *last)
        });
        let track = tracks_after.get(peer).is_some_and(|t| t > last);
        let stayed = own
            .iter()
            .any(|stay| stay.left.is_none_or(|l| l > last + 120 * SEC_NS));
        rejoined += usize::from(new_peer);
        tracked += usize::from(track);
        if !new_peer && !track && !stayed {
            gone += 1;
            assert!(
                own.iter()
                    .all(|stay| stay.left.is_some_and(|l| l < last + 60 * SEC_NS))
            );
        }
    }
    assert!(
        rejoined >= 3 && tracked >= 2 && gone >= 3,
        "{rejoined} {tracked} {gone}"
    );
}
