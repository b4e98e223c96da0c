//! Who may query serve: the holder of its own token, and, when serve is given an app's access key
//! and secret, the holder of a management token minted from them, as the hosted service accepts
//! (HS256; `access_key`, `type` = `management`, `version` = 2, `exp` and `nbf` checked, a little
//! clock skew allowed). The official server SDKs mint such tokens themselves.

use axum::http::{HeaderMap, header};
use serde::Deserialize;

use super::cursor::Mac;
use super::problem::Problem;

/// Clock skew allowed on `exp` and `nbf`, as servers allow a few seconds.
const LEEWAY_SECS: u64 = 30;

/// An app's access key and secret, whose management tokens serve accepts.
#[derive(Clone)]
pub struct AppKey {
    pub access_key: String,
    pub secret: String,
}

impl std::fmt::Debug for AppKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppKey")
            .field("access_key", &self.access_key)
            .finish_non_exhaustive()
    }
}

/// The checks a request's bearer token must pass.
pub struct Auth {
    mac: Mac,
    /// The own token's tag under `mac`: requests are checked against it, so the token itself is
    /// not kept and comparing takes the same time whatever the token sent.
    token_tag: String,
    app: Option<AppKey>,
}

#[derive(Deserialize)]
struct Claims {
    access_key: String,
    #[serde(rename = "type")]
    kind: String,
    version: i64,
}

impl Auth {
    pub fn new(token: &str, app: Option<AppKey>) -> Auth {
        let mac = Mac::random();
        Auth {
            token_tag: mac.tag(token.as_bytes()),
            mac,
            app,
        }
    }

    /// The MAC that signs cursors: drawn with the token's, at start-up.
    pub fn mac(&self) -> &Mac {
        &self.mac
    }

    /// Whether the request's `Authorization: Bearer` token may query.
    pub fn check(&self, headers: &HeaderMap) -> Result<(), Problem> {
        let Some(value) = headers.get(header::AUTHORIZATION) else {
            return Err(Problem::unauthorized(
                "missing Authorization header: send Authorization: Bearer <token>",
            ));
        };
        let value = value.as_bytes();
        let token = match value.iter().position(|&b| b == b' ') {
            Some(space) if value[..space].eq_ignore_ascii_case(b"bearer") => {
                value[space + 1..].trim_ascii()
            }
            _ => {
                return Err(Problem::unauthorized(
                    "the Authorization header must be: Bearer <token>",
                ));
            }
        };
        if self.mac.check(&self.token_tag, token) {
            return Ok(());
        }
        match &self.app {
            Some(app) => check_management_token(app, token),
            None => Err(Problem::unauthorized("invalid bearer token")),
        }
    }
}

/// Checks a management token minted from `app`'s key and secret.
fn check_management_token(app: &AppKey, token: &[u8]) -> Result<(), Problem> {
    let token =
        std::str::from_utf8(token).map_err(|_| Problem::unauthorized("invalid bearer token"))?;
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::HS256);
    validation.leeway = LEEWAY_SECS;
    validation.validate_nbf = true;
    validation.set_required_spec_claims(&["exp", "nbf"]);
    let key = jsonwebtoken::DecodingKey::from_secret(app.secret.as_bytes());
    let data = jsonwebtoken::decode::<Claims>(token, &key, &validation).map_err(|e| {
        use jsonwebtoken::errors::ErrorKind;
        Problem::unauthorized(match e.kind() {
            ErrorKind::ExpiredSignature => "the token has expired",
            ErrorKind::ImmatureSignature => "the token is not valid yet (nbf)",
            ErrorKind::InvalidSignature => "invalid bearer token",
            ErrorKind::MissingRequiredClaim(_) => "the token lacks exp or nbf",
            _ => "invalid bearer token",
        })
    })?;
    let claims = data.claims;
    if claims.access_key != app.access_key {
        return Err(Problem::unauthorized(
            "the token's access_key is not this app's",
        ));
    }
    if claims.kind != "management" || claims.version != 2 {
        return Err(Problem::unauthorized(
            "not a management token (type management, version 2)",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::token::{Token, mint};

    fn headers(token: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(
            header::AUTHORIZATION,
            format!("Bearer {token}").parse().unwrap(),
        );
        h
    }

    fn app() -> AppKey {
        AppKey {
            access_key: "ak-1".into(),
            secret: "app-secret-1".into(),
        }
    }

    fn now() -> i64 {
        chrono::Utc::now().timestamp()
    }

    #[test]
    fn the_own_token_and_a_token_minted_from_the_apps_key_are_let_in() {
        let auth = Auth::new("own-token", Some(app()));
        assert!(auth.check(&headers("own-token")).is_ok());
        let minted = mint(
            "ak-1",
            &Token::new("app-secret-1".into()),
            now(),
            now() + 600,
        )
        .unwrap();
        assert!(auth.check(&headers(minted.expose())).is_ok());
        let without_app = Auth::new("own-token", None);
        assert!(without_app.check(&headers(minted.expose())).is_err());
    }

    #[test]
    fn a_token_of_another_key_secret_or_kind_or_out_of_its_time_is_refused() {
        let auth = Auth::new("own-token", Some(app()));
        let secret = Token::new("app-secret-1".into());
        let refused = |token: &str| auth.check(&headers(token)).unwrap_err().what().to_string();
        let other_key = mint("ak-2", &secret, now(), now() + 600).unwrap();
        assert!(refused(other_key.expose()).contains("access_key"));
        let other_secret = mint("ak-1", &Token::new("wrong".into()), now(), now() + 600).unwrap();
        assert_eq!(refused(other_secret.expose()), "invalid bearer token");
        let expired = mint("ak-1", &secret, now() - 7200, now() - 3600).unwrap();
        assert_eq!(refused(expired.expose()), "the token has expired");
        let app_token = jsonwebtoken::encode(
            &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
            &serde_json::json!({"access_key":"ak-1","type":"app","version":2,"exp":now()+600,"nbf":now()}),
            &jsonwebtoken::EncodingKey::from_secret(b"app-secret-1"),
        )
        .unwrap();
        assert!(refused(&app_token).contains("management"));
        let later = jsonwebtoken::encode(
            &jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256),
            &serde_json::json!({"access_key":"ak-1","type":"management","version":2,"exp":now()+7200,"nbf":now()+3600}),
            &jsonwebtoken::EncodingKey::from_secret(b"app-secret-1"),
        )
        .unwrap();
        assert!(refused(&later).contains("not valid yet"));
        assert!(refused("not-a-jwt").contains("invalid"));
        let missing = HeaderMap::new();
        assert!(auth.check(&missing).unwrap_err().what().contains("missing"));
    }
}
