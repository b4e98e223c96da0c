//! A refusal, answered in the hosted API's error shape: `{"code", "message", "details"}`.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// An error answer: a status, a message, and details (the useful part, as the service puts it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub status: StatusCode,
    pub message: String,
    pub details: Vec<String>,
}

impl Problem {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Problem {
        Problem {
            status,
            message: message.into(),
            details: Vec::new(),
        }
    }

    /// A 400 whose details say what is wrong, as the service's do ("room_id is required").
    pub fn bad_request(detail: impl Into<String>) -> Problem {
        Problem {
            status: StatusCode::BAD_REQUEST,
            message: "Bad Request".into(),
            details: vec![detail.into()],
        }
    }

    pub fn unauthorized(detail: impl Into<String>) -> Problem {
        Problem {
            status: StatusCode::UNAUTHORIZED,
            message: "Token validation error".into(),
            details: vec![detail.into()],
        }
    }

    pub fn not_found(detail: impl Into<String>) -> Problem {
        Problem {
            status: StatusCode::NOT_FOUND,
            message: "Not Found".into(),
            details: vec![detail.into()],
        }
    }

    pub fn internal(detail: impl Into<String>) -> Problem {
        Problem {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: "Internal Server Error".into(),
            details: vec![detail.into()],
        }
    }

    /// The first detail, or the message: what a log line names it by.
    pub fn what(&self) -> &str {
        self.details.first().unwrap_or(&self.message)
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let body = serde_json::json!({
            "code": self.status.as_u16(),
            "message": self.message,
            "details": self.details,
        })
        .to_string();
        let mut response = json_response(self.status, body.into_bytes());
        if self.status == StatusCode::UNAUTHORIZED {
            response
                .headers_mut()
                .insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        response
    }
}

/// A JSON answer that no cache keeps.
pub fn json_response(status: StatusCode, body: Vec<u8>) -> Response {
    (
        status,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        body,
    )
        .into_response()
}
