//! What each request carries (filters, token, cursor, gzip), and how refusals are answered: a
//! room required, a 429's wait, a minted token refused.

use super::*;

#[tokio::test(start_paused = true)]
async fn the_request_carries_every_filter_the_token_and_the_encoded_cursor() {
    let server = FaultServer::start(vec![
        Reply::page(&[1], "a:b~c=d_e-f/g", 2),
        Reply::page(&[2], "", 2),
    ])
    .await;
    let filter = Filter {
        types: vec![EventType::Publish, EventType::Join],
        terminal: Some(true),
        ..Filter::default()
    }
    .with(Field::Room, "room 1")
    .with(Field::Session, "s1")
    .with(Field::Peer, "p1")
    .with(Field::User, "u&1");
    let (_, _, failure) = load_all(&server, filter).await;
    assert_eq!(failure, None);
    let queries = server.queries();
    assert_eq!(
        queries[0],
        "/v2/analytics/events?type=client.publish.failed&type=client.join.failed&room_id=room+1&session_id=s1&peer_id=p1&user_id=u%261&limit=3"
    );
    assert!(
        queries[1].ends_with("&limit=3&start=a%3Ab%7Ec%3Dd_e-f%2Fg"),
        "{}",
        queries[1]
    );
    let auth = server.requests.lock().unwrap()[0].1.clone();
    assert_eq!(auth, format!("Bearer {TOKEN}"));
}

/// A rate limit of `secs` on the second request of the subscribe cursor, said as `said`.
async fn rate_limited(secs: u64, said: Said) -> (Catalog, Outcome) {
    let mut setup = setup(mixed(60));
    setup.faults.push(Fault {
        key: "client.subscribe.failed",
        nth: 1,
        status: 429,
        retry_after: Some((secs, said)),
    });
    let server = Catalog::start(setup).await;
    let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
    (server, out)
}

#[tokio::test(start_paused = true)]
async fn a_429_holds_back_every_cursor_for_the_wait_it_states_in_seconds_a_date_or_words() {
    for said in [Said::Seconds, Said::Date, Said::Words] {
        // Over a minute: loading everything goes on through it.
        let (server, out) = rate_limited(65, said).await;
        assert_eq!(out.failure, None, "{said:?}");
        assert_eq!(out.numbers, (1..=60).collect::<Vec<_>>(), "{said:?}");
        assert_eq!(out.retries.len(), 1, "{said:?}: {:?}", out.retries);
        let asked = out.retries[0].wait;
        let expected = match said {
            // A date has whole seconds: the server rounds up.
            Said::Date => 65..=67,
            _ => 65..=65,
        };
        assert!(
            expected.contains(&asked.as_secs()),
            "{said:?}: waited {asked:?}"
        );
        assert!(out.retries[0].asked);
        assert_one_request_at_a_time(&server);
        let subscribe = server.requests_of("client.subscribe.failed");
        assert_eq!(subscribe[1].status, 429);
        let refused = subscribe[1].answered.unwrap();
        assert!(
            subscribe[2].arrived >= refused + asked,
            "{said:?}: the refused cursor waited"
        );
        // No cursor sent a request while the wait ran.
        for r in server.requests() {
            assert!(
                r.arrived <= refused || r.arrived >= refused + asked,
                "{said:?}: {} asked at {:?} during the wait ({:?} to {:?})",
                r.key,
                r.arrived,
                refused,
                refused + asked
            );
        }
    }
}

#[tokio::test(start_paused = true)]
async fn a_refused_minted_token_is_minted_again_once_for_every_cursor() {
    for status in [401, 403] {
        let mut setup = setup(mixed(60));
        setup.expire_first_token = Some(status);
        let server = Catalog::start(setup).await;
        let minted = TokenSource::Minted {
            access_key: "access-key-1".into(),
            secret: Token::new("app-secret-1".into()),
            current: None,
        };
        let out = load(&server, in_room(), Fanout::PerType, minted).await;
        assert_eq!(out.failure, None, "{status}");
        assert_eq!(out.numbers, (1..=60).collect::<Vec<_>>(), "{status}");
        assert!(out.retries.is_empty(), "a re-mint is not a retry");
        let requests = server.requests();
        let refused = requests.iter().filter(|r| r.status == status).count();
        assert_eq!(
            refused, 6,
            "{status}: the five typed cursors and the untyped one were refused"
        );
        let tokens: HashSet<&str> = requests.iter().map(|r| r.auth.as_str()).collect();
        assert_eq!(
            tokens.len(),
            2,
            "{status}: one new token, shared by every cursor"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn every_request_asks_for_a_gzipped_answer() {
    let server = Catalog::start(setup(mixed(30))).await;
    let out = load(&server, in_room(), Fanout::PerType, tokens()).await;
    assert_eq!(out.failure, None);
    let requests = server.requests();
    assert!(requests.len() > 5);
    assert!(requests.iter().all(|r| r.gzip), "{requests:?}");
}

#[tokio::test(start_paused = true)]
async fn a_query_without_a_room_is_refused_with_the_servers_details_shown() {
    let server = Catalog::start(setup(mixed(30))).await;
    let out = load(&server, Filter::default(), Fanout::PerType, tokens()).await;
    assert_eq!(
        out.failure.as_deref(),
        Some("HTTP 400: Bad Request (room_id is required)")
    );
    assert_eq!(server.requests().len(), 1, "a 400 is not retried");
}
