//! The rooms endpoint's answer about one room (`GET /v2/rooms/<id>`): a 404 is no such room; a
//! 400 is the error it is, said with its details by `list --live`, never as a room the service
//! does not have; but for a name no room has, tried as an id at last, a 400 answers the guess.

use super::*;

/// A 400 in the hosted error shape, for a reason that is not the room.
const REFUSED: &str =
    r#"{"code":400,"message":"Bad Request","details":["token has no access_key claim"]}"#;

/// The words [`REFUSED`] is told in.
const SAID: &str = "HTTP 400: Bad Request (token has no access_key claim)";

fn status(status: u16, body: &'static str) -> Reply {
    Reply::Status {
        status,
        body,
        retry_after: None,
    }
}

#[tokio::test]
async fn only_a_404_is_no_such_room_and_a_400_is_an_error_with_its_details() {
    let server = FaultServer::start(vec![
        status(
            404,
            r#"{"code":404,"message":"room not found","details":[]}"#,
        ),
        status(400, REFUSED),
    ])
    .await;
    let api = Api::new(&server.url, 10).unwrap();
    let token = Token::new(TOKEN.into());
    assert_eq!(api.room(&token, fault_server::ROOM_ID).await, Ok(None));
    let refused = api
        .room(&token, fault_server::ROOM_ID)
        .await
        .expect_err("a 400 is no answer about the room");
    assert_eq!(refused.describe(), SAID);
    let path = format!("/v2/rooms/{}", fault_server::ROOM_ID);
    assert_eq!(server.queries(), [path.clone(), path]);
}

#[tokio::test]
async fn list_live_of_a_room_that_brings_nothing_says_the_refusal_of_the_question_about_it() {
    let server = FaultServer::start(vec![Reply::page(&[], "", 0), status(400, REFUSED)]).await;
    let out = list_live_at(
        &server.url,
        fault_server::ROOM_ID,
        &["--type", "join", "--format", "ndjson"],
    )
    .await;
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "the answer stands: {stderr}");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "");
    assert_eq!(
        stderr,
        format!(
            "callscope: note: the service did not say whether it has a room of id {}: {SAID}\n",
            fault_server::ROOM_ID
        )
    );
    let queries = server.queries();
    assert_eq!(queries.len(), 2, "{queries:?}");
    assert_eq!(queries[1], format!("/v2/rooms/{}", fault_server::ROOM_ID));
}

/// A name no room has, taken for an id as a last guess, which the service refuses with a 400:
/// the guess is answered (the same token was just taken for the lookups by name), and what is
/// said is that no room has the name, with the rooms whose names hold it.
#[tokio::test]
async fn a_room_name_whose_guess_as_an_id_is_refused_is_said_to_name_no_room() {
    let no_rooms = status(200, r#"{"limit":100,"data":[]}"#);
    // No enabled room of that name, nor a disabled one; then the name taken for an id.
    let server = FaultServer::start(vec![no_rooms.clone(), no_rooms, status(400, REFUSED)]).await;
    let out = list_live_at(&server.url, "weekly-allhands", &[]).await;
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no room is named \"weekly-allhands\""),
        "{stderr}"
    );
    assert!(!stderr.contains(SAID), "{stderr}");
    let queries = server.queries();
    assert_eq!(queries.len(), 3, "no events asked for: {queries:?}");
    assert_eq!(queries[2], "/v2/rooms/weekly-allhands");
}
