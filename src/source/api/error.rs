//! Why a request to the API did not give what was asked: no answer, a refusal in the hosted
//! API's error shape (`{"code", "message", "details"}`), or a body that is not what the endpoint
//! sends. And how long the server asked to be left alone.

use std::sync::LazyLock;
use std::time::{Duration, SystemTime};

use crate::text::for_terminal;

use super::super::token::Token;

/// Why a request did not give what was asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FetchError {
    /// No answer: connection refused or dropped, DNS, a timeout.
    Network(String),
    /// An HTTP error status, with the server's message and details (sanitised) and the wait it
    /// asked for, in a `Retry-After` header or in its message.
    Status {
        status: u16,
        message: String,
        details: Vec<String>,
        retry_after: Option<Duration>,
    },
    /// An https request answered in plain http: the server does not speak TLS, and asking again
    /// will not make it.
    NotTls,
    /// A 200 whose body is not what the endpoint sends.
    BadPage(String),
    /// A 200 of valid JSON in another shape than a page of events: what was expected where.
    /// Not asked for again: a proxy's error page is seldom JSON, and a service answering in
    /// another shape (another endpoint, another API at `--base-url`) will answer so again.
    WrongShape(String),
    /// An answer larger than any page can be (see [`MAX_ANSWER_BYTES`](super::MAX_ANSWER_BYTES)):
    /// not read past that many bytes, and not asked for again.
    TooLarge { limit: usize },
    /// A refusal whose stated wait ends past the time for retries: given up at once, since a
    /// request sent before the wait ends would be refused again. `wait` is the wait asked for
    /// (as far as it is honoured), `window` the time for retries.
    WaitPast {
        refusal: Box<FetchError>,
        wait: Duration,
        window: Duration,
    },
    /// Given up while waiting out a wait the server asked of another request, which ends past
    /// the time for retries (`window`) since `refusal`'s request first failed.
    HeldPast {
        refusal: Box<FetchError>,
        window: Duration,
    },
}

impl FetchError {
    /// Connection errors, timeouts, 429 and 5xx may pass; other 4xx will not.
    pub fn is_retryable(&self) -> bool {
        match self {
            FetchError::Network(_) => true,
            FetchError::Status { status, .. } => *status == 429 || *status >= 500,
            // A cut body is the connection's fault as often as the server's.
            FetchError::BadPage(_) => true,
            // The same query would bring the same answer.
            FetchError::TooLarge { .. } | FetchError::NotTls | FetchError::WrongShape(_) => false,
            // Given up already: the time for retries would end before the wait.
            FetchError::WaitPast { .. } | FetchError::HeldPast { .. } => false,
        }
    }

    /// The status, for an HTTP error.
    pub fn status(&self) -> Option<u16> {
        match self {
            FetchError::Status { status, .. } => Some(*status),
            FetchError::WaitPast { refusal, .. } | FetchError::HeldPast { refusal, .. } => {
                refusal.status()
            }
            _ => None,
        }
    }

    /// The wait the server asked for, if it asked.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            FetchError::Status { retry_after, .. } => *retry_after,
            FetchError::WaitPast { refusal, .. } | FetchError::HeldPast { refusal, .. } => {
                refusal.retry_after()
            }
            _ => None,
        }
    }

    /// What to tell a person: the server's own words (its message, then its details, which
    /// often hold the useful part), and a hint of what to try where one helps.
    pub fn describe(&self) -> String {
        self.words(true)
    }

    /// [`FetchError::describe`] for an endpoint whose 404 is an answer (the peer quality stats:
    /// none for that peer and session, or none yet), not a sign of a wrong address: no hint to
    /// check `--base-url` for it.
    pub fn describe_where_404_answers(&self) -> String {
        self.words(!matches!(self, FetchError::Status { status: 404, .. }))
    }

    /// The words of [`FetchError::describe`], with the hint of a status or not.
    fn words(&self, hinted: bool) -> String {
        match self {
            FetchError::Network(m) => format!("network error: {m}"),
            FetchError::NotTls => {
                "the server does not speak TLS (https): use http:// in --base-url".to_string()
            }
            FetchError::BadPage(m) => format!("the server sent a page that is not valid: {m}"),
            FetchError::WrongShape(m) => format!(
                "the server's answer is JSON but not a page of events: {m} (check --base-url)"
            ),
            FetchError::TooLarge { limit } => format!(
                "the server's answer is larger than {} MiB, more than a page of at most 100 events can be: it was not read further (check --base-url)",
                limit >> 20
            ),
            FetchError::WaitPast {
                refusal,
                wait,
                window,
            } => format!(
                "{}; the service asks to wait {}, which would end past the {} of retries since the first failure",
                refusal.words(hinted),
                span_words(*wait),
                span_words(*window)
            ),
            FetchError::HeldPast { refusal, window } => format!(
                "{}; the service asked another request to wait past the {} of retries since \
                 this one first failed",
                refusal.words(hinted),
                span_words(*window)
            ),
            FetchError::Status {
                status,
                message,
                details,
                ..
            } => {
                let mut text = format!("HTTP {status}");
                if !message.is_empty() {
                    text.push_str(": ");
                    text.push_str(message);
                }
                let details: Vec<&String> = details
                    .iter()
                    .filter(|d| !d.is_empty() && !message.contains(d.as_str()))
                    .collect();
                if !details.is_empty() {
                    let joined: Vec<&str> = details.iter().map(|d| d.as_str()).collect();
                    text.push_str(&format!(" ({})", joined.join("; ")));
                }
                let said = |words: &str| {
                    let lower = text.to_lowercase();
                    words.split('|').any(|w| lower.contains(w))
                };
                let hint = match status {
                    401 => {
                        " (check the token: HMS_MANAGEMENT_TOKEN, --token-file, or HMS_ACCESS_KEY + HMS_SECRET; it may have expired)"
                    }
                    403 => {
                        " (the token is not allowed to read these events, or is not valid: check it, and that the app's key may read analytics)"
                    }
                    404 => " (check --base-url)",
                    400 if message.is_empty() && details.is_empty() => {
                        " (the server refused the query's parameters)"
                    }
                    429 if !said("rate|too many") => " (rate limited)",
                    _ => "",
                };
                if hinted {
                    text.push_str(hint);
                }
                text
            }
        }
    }
}

/// A span of time in words: "45 s" below two minutes, else "10 min" or "7 min 30 s".
pub fn span_words(span: Duration) -> String {
    let secs = span.as_secs_f64().ceil() as u64;
    match (secs, secs % 60) {
        (0..120, _) => format!("{secs} s"),
        (_, 0) => format!("{} min", secs / 60),
        (_, s) => format!("{} min {s} s", secs / 60),
    }
}

/// The server's words in an error answer: the hosted API's `{"code", "message", "details"}`
/// (or a `message`, `error`, `msg`, `detail` field), else the body's text; shortened, sanitised,
/// and never the token, should a server echo it.
pub fn server_words(body: &[u8], token: Option<&Token>) -> (String, Vec<String>) {
    let clean = |text: &str| {
        let text = match token {
            Some(t) if !t.expose().is_empty() => text.replace(t.expose(), "<redacted>"),
            _ => text.to_string(),
        };
        crate::text::cut(for_terminal(text.trim()).as_ref(), 300)
    };
    match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(v) if v.is_object() => {
            let message = ["message", "error", "msg", "detail"]
                .iter()
                .find_map(|k| v.get(*k).and_then(|m| m.as_str()))
                .map(clean);
            let details: Vec<String> = match v.get("details") {
                Some(serde_json::Value::Array(items)) => items
                    .iter()
                    .map(|d| d.as_str().map_or_else(|| clean(&d.to_string()), clean))
                    .take(10)
                    .collect(),
                Some(serde_json::Value::String(s)) => vec![clean(s)],
                _ => Vec::new(),
            };
            match message {
                Some(message) => (message, details),
                None if !details.is_empty() => (String::new(), details),
                None => (clean(&v.to_string()), details),
            }
        }
        Ok(v) => (clean(&v.to_string()), Vec::new()),
        Err(_) => (clean(&String::from_utf8_lossy(body)), Vec::new()),
    }
}

/// The wait a refusal asks for: a `Retry-After` header in seconds or as an HTTP date, else a
/// wait its words state ("retry after 45 seconds", the shape a sibling endpoint documents).
pub fn retry_after(header: Option<&str>, words: &str, now: SystemTime) -> Option<Duration> {
    if let Some(value) = header.map(str::trim).filter(|v| !v.is_empty()) {
        if let Ok(secs) = value.parse::<u64>() {
            return Some(Duration::from_secs(secs));
        }
        if let Ok(when) = chrono::DateTime::parse_from_rfc2822(value) {
            let when = SystemTime::from(when.with_timezone(&chrono::Utc));
            return Some(when.duration_since(now).unwrap_or(Duration::ZERO));
        }
    }
    static STATED: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)(?:retry|try again)\s+(?:after|in)\s+(\d{1,6})\s*(s|sec|secs|seconds?|m|min|mins|minutes?)\b",
        )
        .expect("a valid pattern")
    });
    let found = STATED.captures(words)?;
    let n: u64 = found[1].parse().ok()?;
    let unit = found[2].to_ascii_lowercase();
    Some(if unit.starts_with('m') {
        Duration::from_secs(n * 60)
    } else {
        Duration::from_secs(n)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hosted_error_shape_gives_its_message_and_details() {
        let body = br#"{"code":400,"message":"Bad Request","details":["room_id is required"]}"#;
        let (message, details) = server_words(body, None);
        assert_eq!(message, "Bad Request");
        assert_eq!(details, ["room_id is required"]);
        let e = FetchError::Status {
            status: 400,
            message,
            details,
            retry_after: None,
        };
        assert_eq!(e.describe(), "HTTP 400: Bad Request (room_id is required)");
        // Without details, and with no body at all.
        let (message, details) =
            server_words(br#"{"code": 400, "message": "invalid digit"}"#, None);
        assert_eq!((message.as_str(), details.len()), ("invalid digit", 0));
        let empty = FetchError::Status {
            status: 400,
            message: String::new(),
            details: Vec::new(),
            retry_after: None,
        };
        assert_eq!(
            empty.describe(),
            "HTTP 400 (the server refused the query's parameters)"
        );
    }

    #[test]
    fn plain_text_and_echoed_tokens_are_shown_safely() {
        let token = Token::new("s3cret-token".into());
        let (message, _) = server_words(b"upstream \x1b[31mdown s3cret-token", Some(&token));
        assert!(!message.contains("s3cret"), "{message}");
        assert!(!message.contains('\x1b'), "{message}");
        let (message, details) =
            server_words(br#"{"code":401,"details":["not found"]}"#, Some(&token));
        assert_eq!(
            (message.as_str(), details),
            ("", vec!["not found".to_string()])
        );
    }

    #[test]
    fn a_rate_limit_is_said_once() {
        let e = FetchError::Status {
            status: 429,
            message: "rate limit exceeded, retry after 45 seconds".into(),
            details: Vec::new(),
            retry_after: None,
        };
        assert_eq!(
            e.describe(),
            "HTTP 429: rate limit exceeded, retry after 45 seconds"
        );
        let bare = FetchError::Status {
            status: 429,
            message: String::new(),
            details: Vec::new(),
            retry_after: None,
        };
        assert_eq!(bare.describe(), "HTTP 429 (rate limited)");
    }

    #[test]
    fn a_wait_is_read_from_seconds_an_http_date_or_the_words() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_480);
        assert_eq!(
            retry_after(Some("7"), "", now),
            Some(Duration::from_secs(7))
        );
        // Wed, 21 Oct 2015 07:28:00 GMT is 1445412480.
        assert_eq!(
            retry_after(Some("Wed, 21 Oct 2015 07:28:45 GMT"), "", now),
            Some(Duration::from_secs(45))
        );
        assert_eq!(
            retry_after(Some("Wed, 21 Oct 2015 07:27:00 GMT"), "", now),
            Some(Duration::ZERO),
            "a date gone by: no wait"
        );
        assert_eq!(
            retry_after(None, "rate limit exceeded, retry after 45 seconds", now),
            Some(Duration::from_secs(45))
        );
        assert_eq!(
            retry_after(None, "Too many requests. Try again in 2 minutes.", now),
            Some(Duration::from_secs(120))
        );
        assert_eq!(retry_after(Some("soon"), "slow down", now), None);
        // The header wins over the words.
        assert_eq!(
            retry_after(Some("3"), "retry after 45 seconds", now),
            Some(Duration::from_secs(3))
        );
    }
}
