//! What serve refuses and how: a missing or wrong token, bad limits and cursors, unknown paths,
//! all answered in JSON.

use super::*;

const LIMIT_MESSAGE: &str = "limit must be an integer from 1 to 100";
const CURSOR_MESSAGE: &str = "invalid or expired start cursor";

#[tokio::test]
async fn a_token_is_required_and_checked() {
    let server = serve_demo();
    let client = reqwest::Client::new();
    let url = server.at(EVENTS);
    for auth in [
        None,
        Some("Bearer wrong-token".to_string()),
        Some(format!("Bearer {TOKEN}x")),
        Some(format!("Basic {TOKEN}")),
        Some(TOKEN.to_string()),
        Some("Bearer ".to_string()),
    ] {
        let a = get(&client, &url, &[("limit", "5")], auth.as_deref()).await;
        assert_eq!(a.status, 401, "{auth:?}");
        let message = a.message();
        assert!(!message.is_empty() && !message.contains(TOKEN), "{message}");
    }
    // Bad parameters are not looked at before the token.
    let a = get(&client, &url, &[("limit", "0")], None).await;
    assert_eq!(a.status, 401);
    let a = get(&client, &url, &[], Some(&format!("bearer  {TOKEN}"))).await;
    assert_eq!(a.status, 200, "the scheme is case-insensitive");
}

#[tokio::test]
async fn bad_limits_and_cursors_are_400_with_a_message() {
    let server = serve_demo();
    let client = reqwest::Client::new();
    for bad in ["0", "101", "abc", "", "-1", "7.0"] {
        let a = events(&client, &server, &[("limit", bad)]).await;
        assert_eq!(
            (a.status, a.message().as_str()),
            (400, LIMIT_MESSAGE),
            "limit={bad:?}"
        );
    }
    let first = events(
        &client,
        &server,
        &[("type", "client.join.failed"), ("limit", "7")],
    )
    .await;
    let cursor = first.envelope().next;
    assert!(!cursor.is_empty());

    let mut flipped = cursor.clone().into_bytes();
    let i = flipped.len() - 6;
    flipped[i] = if flipped[i] == b'x' { b'y' } else { b'x' };
    let flipped = String::from_utf8(flipped).unwrap();
    let moved = cursor.replacen(":7:", ":14:", 1);
    for garbled in [
        "garbage",
        "c1:7:0~=",
        &flipped,
        &moved,
        &cursor[..cursor.len() - 2],
    ] {
        let a = events(
            &client,
            &server,
            &[("type", "client.join.failed"), ("start", garbled)],
        )
        .await;
        assert_eq!(
            (a.status, a.message().as_str()),
            (400, CURSOR_MESSAGE),
            "start={garbled:?}"
        );
    }
    let room = demo()[0].1["data"]["room_id"].as_str().unwrap();
    for other in [
        vec![("type", "client.publish.failed")],
        vec![],
        vec![("type", "client.join.failed"), ("room_id", room)],
        vec![
            ("type", "client.join.failed"),
            ("type", "client.publish.failed"),
        ],
    ] {
        let mut params = other.clone();
        params.push(("start", &cursor));
        let a = events(&client, &server, &params).await;
        assert_eq!(
            (a.status, a.message().as_str()),
            (400, CURSOR_MESSAGE),
            "cursor reused with {other:?}"
        );
    }

    // Another serve process (a restart, possibly over other data) does not honour it.
    let other_server = serve_demo();
    let a = events(
        &client,
        &other_server,
        &[("type", "client.join.failed"), ("start", &cursor)],
    )
    .await;
    assert_eq!((a.status, a.message().as_str()), (400, CURSOR_MESSAGE));
}

#[tokio::test]
async fn the_default_page_is_ten_events_and_errors_elsewhere_are_json() {
    let server = serve_demo();
    let client = reqwest::Client::new();
    let a = events(&client, &server, &[]).await;
    let env = a.envelope();
    assert_eq!((env.limit, env.total), (10, demo().len()));
    let page: Vec<&str> = env.events.iter().map(|e| e.get()).collect();
    let first_ten: Vec<&str> = demo()[..10].iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(page, first_ten);
    assert!(!env.next.is_empty());

    let nowhere = get(
        &client,
        &server.at("/v2/analytics/nope"),
        &[],
        Some(&bearer()),
    )
    .await;
    assert_eq!(nowhere.status, 404);
    assert!(nowhere.message().contains(EVENTS));
    let post = client
        .post(server.at(EVENTS))
        .header("Authorization", bearer())
        .send()
        .await
        .unwrap();
    assert_eq!(post.status().as_u16(), 405);
    let nothing = events(&client, &server, &[("type", "not-a-type")]).await;
    assert_eq!(nothing.status, 400);
    assert!(nothing.message().contains("not-a-type"));
}
