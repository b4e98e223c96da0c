//! The management token: where it comes from, minting and renewing it, and keeping it out of
//! every log, message, screen and dump.

use std::fmt;
use std::path::Path;

use serde::Serialize;

/// How long a minted token is valid.
pub const MINTED_LIFETIME_SECS: i64 = 24 * 3600;
/// A minted token is renewed when less than this remains (at least a minute, as servers allow
/// only a little clock skew).
pub const RENEW_BEFORE_SECS: i64 = 5 * 60;
/// `iat`/`nbf` are set this far in the past to absorb clock skew.
const SKEW_SECS: i64 = 10;

/// A bearer token. Its `Debug` and `Display` print a redaction; the value is reachable only
/// through [`Token::expose`], used where the HTTP header is built.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    pub fn new(value: String) -> Token {
        Token(value)
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(<redacted>)")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// Where tokens come from.
#[derive(Clone)]
pub enum TokenSource {
    /// A token given as is (`--token-file` or `HMS_MANAGEMENT_TOKEN`).
    Fixed { token: Token, origin: &'static str },
    /// Minted from the app's access key and secret, renewed before it expires.
    Minted {
        access_key: String,
        secret: Token,
        current: Option<(Token, i64)>,
    },
}

impl fmt::Debug for TokenSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokenSource::Fixed { origin, .. } => write!(f, "TokenSource::Fixed({origin})"),
            TokenSource::Minted { .. } => f.write_str("TokenSource::Minted"),
        }
    }
}

/// Where a token is read from, by the names messages give them: the environment variables (a
/// profile may rename them, so that the tokens of several accounts can sit side by side in one
/// environment) and the token file's flag (`serve`'s is `--live-token-file`, its `--token-file`
/// being the token its own clients send).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenEnv {
    pub token: String,
    pub access_key: String,
    pub secret: String,
    pub file_flag: &'static str,
}

impl Default for TokenEnv {
    fn default() -> TokenEnv {
        TokenEnv {
            token: "HMS_MANAGEMENT_TOKEN".into(),
            access_key: "HMS_ACCESS_KEY".into(),
            secret: "HMS_SECRET".into(),
            file_flag: "--token-file",
        }
    }
}

impl TokenEnv {
    /// Says a message about the standard names in terms of the names in use (once: a renamed
    /// message may hold a standard name within a new one).
    pub fn rename(&self, message: &str) -> String {
        let standard = TokenEnv::default();
        message
            .replace(&standard.token, &self.token)
            .replace(&standard.access_key, &self.access_key)
            .replace(&standard.secret, &self.secret)
            .replace(standard.file_flag, self.file_flag)
    }
}

#[derive(Serialize)]
struct Claims<'a> {
    access_key: &'a str,
    #[serde(rename = "type")]
    kind: &'static str,
    version: u8,
    iat: i64,
    nbf: i64,
    exp: i64,
    jti: String,
}

impl TokenSource {
    /// Finds a token source, first found wins: `--token-file`, `HMS_MANAGEMENT_TOKEN`, then
    /// `HMS_ACCESS_KEY` + `HMS_SECRET`. `Ok(None)` when none is configured.
    pub fn discover(token_file: Option<&Path>) -> Result<Option<TokenSource>, String> {
        Self::discover_with(token_file, |name| std::env::var(name).ok())
    }

    pub fn discover_with(
        token_file: Option<&Path>,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<TokenSource>, String> {
        if let Some(path) = token_file {
            return Ok(Some(TokenSource::Fixed {
                token: Token(read_token_file(path)?),
                origin: "--token-file",
            }));
        }
        if let Some(t) = env("HMS_MANAGEMENT_TOKEN").filter(|t| !t.trim().is_empty()) {
            return Ok(Some(TokenSource::Fixed {
                token: Token(t.trim().to_string()),
                origin: "HMS_MANAGEMENT_TOKEN",
            }));
        }
        let key = env("HMS_ACCESS_KEY").filter(|k| !k.trim().is_empty());
        let secret = env("HMS_SECRET").filter(|s| !s.is_empty());
        match (key, secret) {
            (Some(access_key), Some(secret)) => Ok(Some(TokenSource::Minted {
                access_key: access_key.trim().to_string(),
                secret: Token(secret),
                current: None,
            })),
            (Some(_), None) => Err("HMS_ACCESS_KEY is set but HMS_SECRET is not".into()),
            (None, Some(_)) => Err("HMS_SECRET is set but HMS_ACCESS_KEY is not".into()),
            (None, None) => Ok(None),
        }
    }

    /// The token to send now (`now` in unix seconds), minting a new one when the current one is
    /// missing or within [`RENEW_BEFORE_SECS`] of its expiry.
    pub fn bearer(&mut self, now: i64) -> Result<Token, String> {
        match self {
            TokenSource::Fixed { token, .. } => Ok(token.clone()),
            TokenSource::Minted {
                access_key,
                secret,
                current,
            } => {
                if let Some((token, exp)) = current
                    && *exp - now > RENEW_BEFORE_SECS
                {
                    return Ok(token.clone());
                }
                let exp = now + MINTED_LIFETIME_SECS;
                let token = mint(access_key, secret, now, exp)?;
                *current = Some((token.clone(), exp));
                Ok(token)
            }
        }
    }

    /// Forgets a minted token so the next request mints a fresh one (after a 401).
    pub fn invalidate(&mut self) {
        if let TokenSource::Minted { current, .. } = self {
            *current = None;
        }
    }

    pub fn describe(&self) -> &'static str {
        match self {
            TokenSource::Fixed { origin, .. } => origin,
            TokenSource::Minted { .. } => "minted from HMS_ACCESS_KEY and HMS_SECRET",
        }
    }
}

/// Mints a management token: HS256 over the claims of api-facts.md.
pub fn mint(access_key: &str, secret: &Token, now: i64, exp: i64) -> Result<Token, String> {
    let claims = Claims {
        access_key,
        kind: "management",
        version: 2,
        iat: now - SKEW_SECS,
        nbf: now - SKEW_SECS,
        exp,
        jti: uuid::Uuid::new_v4().to_string(),
    };
    let header = jsonwebtoken::Header::new(jsonwebtoken::Algorithm::HS256);
    let key = jsonwebtoken::EncodingKey::from_secret(secret.expose().as_bytes());
    jsonwebtoken::encode(&header, &claims, &key)
        .map(Token)
        .map_err(|e| format!("cannot mint a management token: {e}"))
}

/// Whether a bearer token may be sent to this base URL: https anywhere, http only to this
/// machine (a loopback address or `localhost`), unless the user said `--insecure`.
pub fn check_transport(base_url: &str, insecure: bool) -> Result<(), String> {
    let url = reqwest::Url::parse(base_url).map_err(|e| format!("--base-url {base_url}: {e}"))?;
    match url.scheme() {
        "https" => Ok(()),
        "http" if insecure => Ok(()),
        "http" => {
            if super::api::is_this_machine(&url) {
                Ok(())
            } else {
                Err(format!(
                    "refusing to send the token over plain http to {}: use https, or --insecure if you really mean it",
                    url.host_str().unwrap_or("?")
                ))
            }
        }
        other => Err(format!("--base-url must be http or https, not {other}")),
    }
}

/// The token a token file holds: its first line, blanks around it left out. A file that cannot
/// be read, or whose first line is blank, is an error that names the file (never its text).
pub fn read_token_file(path: &Path) -> Result<String, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the token file {}: {e}", path.display()))?;
    let first = text.lines().next().unwrap_or("").trim();
    if first.is_empty() {
        return Err(format!(
            "the token file {} has no token on its first line",
            path.display()
        ));
    }
    Ok(first.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_debug_and_display_are_redacted() {
        let t = Token::new("s3cr3t-value".into());
        assert!(!format!("{t:?} {t}").contains("s3cr3t"));
        let src = TokenSource::Fixed {
            token: t,
            origin: "HMS_MANAGEMENT_TOKEN",
        };
        assert!(!format!("{src:?}").contains("s3cr3t"));
    }

    #[test]
    fn token_file_wins_over_the_environment() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tok");
        std::fs::write(&path, "from-file\nsecond line\n").unwrap();
        let env = |n: &str| (n == "HMS_MANAGEMENT_TOKEN").then(|| "from-env".to_string());
        let mut src = TokenSource::discover_with(Some(&path), env)
            .unwrap()
            .unwrap();
        assert_eq!(src.bearer(0).unwrap().expose(), "from-file");
        let mut src = TokenSource::discover_with(None, env).unwrap().unwrap();
        assert_eq!(src.bearer(0).unwrap().expose(), "from-env");
    }

    #[test]
    fn a_key_without_its_secret_is_an_error() {
        let env = |n: &str| (n == "HMS_ACCESS_KEY").then(|| "k".to_string());
        assert!(TokenSource::discover_with(None, env).is_err());
        assert!(
            TokenSource::discover_with(None, |_| None)
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn minted_tokens_carry_the_management_claims_and_verify_with_the_secret() {
        let secret = Token::new("app-secret".into());
        let token = mint("access-key-1", &secret, 1_000_000, 1_000_000 + 3600).unwrap();
        let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::HS256);
        validation.validate_exp = false;
        validation.validate_nbf = false;
        validation.required_spec_claims.clear();
        let data = jsonwebtoken::decode::<serde_json::Value>(
            token.expose(),
            &jsonwebtoken::DecodingKey::from_secret(b"app-secret"),
            &validation,
        )
        .unwrap();
        let c = data.claims;
        assert_eq!(c["access_key"], "access-key-1");
        assert_eq!(c["type"], "management");
        assert_eq!(c["version"], 2);
        assert_eq!(c["iat"], 1_000_000 - 10);
        assert_eq!(c["nbf"], 1_000_000 - 10);
        assert_eq!(c["exp"], 1_000_000 + 3600);
        assert_eq!(c["jti"].as_str().unwrap().len(), 36);
    }

    #[test]
    fn minted_tokens_are_renewed_before_they_expire() {
        let mut src = TokenSource::Minted {
            access_key: "k".into(),
            secret: Token::new("s".into()),
            current: None,
        };
        let first = src.bearer(0).unwrap();
        assert_eq!(
            src.bearer(3600).unwrap(),
            first,
            "reused while far from expiry"
        );
        let late = MINTED_LIFETIME_SECS - RENEW_BEFORE_SECS + 1;
        assert_ne!(src.bearer(late).unwrap(), first, "renewed near expiry");
    }

    #[test]
    fn plain_http_is_refused_except_to_this_machine() {
        assert!(check_transport("https://api.100ms.live", false).is_ok());
        assert!(check_transport("http://127.0.0.1:8080", false).is_ok());
        assert!(check_transport("http://localhost:8080", false).is_ok());
        assert!(check_transport("http://[::1]:8080", false).is_ok());
        assert!(check_transport("http://example.com", false).is_err());
        assert!(check_transport("http://10.0.0.5", false).is_err());
        assert!(check_transport("http://example.com", true).is_ok());
        assert!(check_transport("ftp://example.com", true).is_err());
    }
}
