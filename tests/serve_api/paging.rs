//! Paging through serve: every filter combination serves each match once in order, and cursors
//! are bound to the filter, not its spelling.

use super::*;

/// The filters of the paging test, as API parameters and as `list` flags.
#[derive(Debug, Clone, Default)]
struct Combo {
    types: Vec<&'static str>,
    room: Option<String>,
    session: Option<String>,
    peer: Option<String>,
    user: Option<String>,
}

impl Combo {
    fn params(&self) -> Vec<(&str, &str)> {
        let mut p: Vec<(&str, &str)> = self.types.iter().map(|t| ("type", *t)).collect();
        for (name, v) in self.ids() {
            if let Some(v) = v {
                p.push((name, v.as_str()));
            }
        }
        p
    }

    fn list_args(&self) -> Vec<String> {
        let mut a = vec!["--demo".to_string()];
        for t in &self.types {
            a.extend(["--type".to_string(), t.to_string()]);
        }
        for ((_, v), flag) in
            self.ids()
                .into_iter()
                .zip(["--room", "--session", "--peer", "--user"])
        {
            if let Some(v) = v {
                a.extend([flag.to_string(), v.clone()]);
            }
        }
        a
    }

    fn ids(&self) -> [(&'static str, &Option<String>); 4] {
        [
            ("room_id", &self.room),
            ("session_id", &self.session),
            ("peer_id", &self.peer),
            ("user_id", &self.user),
        ]
    }

    /// Decided from the event's JSON alone, independently of callscope's filter code.
    fn matches(&self, event: &Value) -> bool {
        let type_ok = self.types.is_empty() || self.types.iter().any(|t| event["type"] == *t);
        type_ok
            && self.ids().iter().all(|(field, want)| {
                want.as_ref()
                    .is_none_or(|w| event["data"][*field].as_str() == Some(w))
            })
    }
}

/// Every combination of: no type, one type, two types; and each of room, session, peer, user
/// present or not. The values come from one demo event whose user has many events, so that most
/// combinations match something and several need many pages.
fn combos() -> Vec<Combo> {
    let demo = demo();
    let count = |field: &str, value: &Value| {
        demo.iter()
            .filter(|(_, e)| e["data"][field] == *value)
            .count()
    };
    let (_, seed) = demo
        .iter()
        .filter(|(_, e)| e["data"]["session_id"].is_string())
        .max_by_key(|(_, e)| count("user_id", &e["data"]["user_id"]))
        .unwrap();
    let text = |field: &str| seed["data"][field].as_str().unwrap().to_string();
    let known = [
        "client.publish.failed",
        "client.subscribe.failed",
        "client.join.failed",
        "client.disconnected",
        "client.connect.failed",
    ];
    let first = *known.iter().find(|t| seed["type"] == **t).unwrap();
    let second = *known.iter().find(|t| **t != first).unwrap();
    let mut out = Vec::new();
    for types in [vec![], vec![first], vec![second, first]] {
        for mask in 0..16u8 {
            let pick = |bit: u8, field: &str| (mask & bit != 0).then(|| text(field));
            out.push(Combo {
                types: types.clone(),
                room: pick(1, "room_id"),
                session: pick(2, "session_id"),
                peer: pick(4, "peer_id"),
                user: pick(8, "user_id"),
            });
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn paging_with_every_filter_combination_serves_each_match_once_in_order() {
    let server = serve_demo();
    let client = reqwest::Client::new();
    let combos = combos();

    // The same filters through `list` must give the same bytes: one combination per filter
    // kind, run while the paging below goes on.
    let picks: Vec<Combo> = [0usize, 16, 32, 1, 2, 4, 8, 47]
        .iter()
        .map(|&i| combos[i].clone())
        .collect();
    let listing: Vec<_> = picks
        .iter()
        .map(|c| {
            let args = c.list_args();
            std::thread::spawn(move || list_ndjson(&args))
        })
        .collect();

    let results: Vec<(usize, Vec<String>, usize)> =
        futures::stream::iter(combos.iter().enumerate())
            .map(|(i, combo)| {
                let (client, server) = (&client, &server);
                async move {
                    let (served, total) = page_through(client, server, &combo.params(), 7).await;
                    (i, served, total)
                }
            })
            .buffer_unordered(4)
            .collect()
            .await;
    let mut multi_page = 0;
    for (i, served, total) in results {
        let combo = &combos[i];
        let expected: Vec<&str> = demo()
            .iter()
            .filter(|(_, e)| combo.matches(e))
            .map(|(line, _)| line.as_str())
            .collect();
        assert_eq!(total, expected.len(), "{combo:?}");
        assert_eq!(
            served, expected,
            "{combo:?}: every match once, in order, byte for byte"
        );
        if expected.len() > 14 {
            multi_page += 1;
        }
    }
    assert_eq!(combos.len(), 48);
    assert!(
        multi_page >= 8,
        "the combinations exercise paging ({multi_page} span three pages or more)"
    );

    for (combo, listing) in picks.iter().zip(listing) {
        let lines = listing.join().unwrap();
        let (served, _) = page_through(&client, &server, &combo.params(), 100).await;
        assert_eq!(served, lines, "serve and list agree for {combo:?}");
    }
}

#[tokio::test]
async fn cursors_are_bound_to_the_filter_not_its_spelling_and_can_be_reused() {
    let server = serve_demo();
    let client = reqwest::Client::new();
    let joins: Vec<&str> = demo()
        .iter()
        .filter(|(_, e)| e["type"] == "client.join.failed")
        .map(|(l, _)| l.as_str())
        .collect();
    let first = events(
        &client,
        &server,
        &[("type", "join"), ("limit", "7"), ("colour", "blue")],
    )
    .await;
    let env = first.envelope();
    assert_eq!(
        env.total,
        joins.len(),
        "an alias is the full type name; unknown parameters are ignored"
    );
    let cursor = env.next.clone();

    let a = events(
        &client,
        &server,
        &[
            ("start", &cursor),
            ("type", "client.join.failed"),
            ("limit", "7"),
        ],
    )
    .await;
    let b = events(
        &client,
        &server,
        &[
            ("type", "client.join.failed"),
            ("start", &cursor),
            ("limit", "7"),
        ],
    )
    .await;
    assert_eq!(
        a.body, b.body,
        "the same cursor gives the same page, next included"
    );
    let page: Vec<&str> = a.envelope().events.iter().map(|e| e.get()).collect();
    assert_eq!(page, joins[7..14]);

    // The page size may change from one page to the next.
    let c = events(
        &client,
        &server,
        &[
            ("type", "client.join.failed"),
            ("start", &cursor),
            ("limit", "3"),
        ],
    )
    .await;
    let env = c.envelope();
    let page: Vec<&str> = env.events.iter().map(|e| e.get()).collect();
    assert_eq!(page, joins[7..10]);
    let d = events(
        &client,
        &server,
        &[
            ("type", "client.join.failed"),
            ("start", &env.next),
            ("limit", "3"),
        ],
    )
    .await;
    let page: Vec<&str> = d.envelope().events.iter().map(|e| e.get()).collect();
    assert_eq!(page, joins[10..13]);

    // A cursor goes back unencoded too: its characters survive a query string as they are.
    let raw = format!(
        "{}?type=client.join.failed&limit=7&start={cursor}",
        server.at(EVENTS)
    );
    let e = get(&client, &raw, &[], Some(&bearer())).await;
    assert_eq!(e.body, a.body);
}
