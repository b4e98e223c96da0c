//! Setting up the live source from the command line, and paging through a whole query (for
//! `list --live`).

use std::sync::Mutex;

use super::api::Api;
use super::token::{TokenSource, check_transport};
use super::worker::{Retry, fetch_with_retries};
use crate::cli::SourceArgs;
use crate::filter::Filter;
use crate::store::Store;

/// The names of the environment variables a token is read from. A profile may rename them, so
/// that the tokens of several accounts can sit side by side in one environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenEnv {
    pub token: String,
    pub access_key: String,
    pub secret: String,
}

impl Default for TokenEnv {
    fn default() -> TokenEnv {
        TokenEnv {
            token: "HMS_MANAGEMENT_TOKEN".into(),
            access_key: "HMS_ACCESS_KEY".into(),
            secret: "HMS_SECRET".into(),
        }
    }
}

impl TokenEnv {
    /// Says a message about the standard names in terms of the names in use.
    fn rename(&self, message: &str) -> String {
        let standard = TokenEnv::default();
        message
            .replace(&standard.token, &self.token)
            .replace(&standard.access_key, &self.access_key)
            .replace(&standard.secret, &self.secret)
    }
}

/// The token source of the live options: the token file, else the token variables.
pub fn discover(source: &SourceArgs) -> Result<Option<TokenSource>, String> {
    let names = &source.token_env;
    let standard = TokenEnv::default();
    let found = TokenSource::discover_with(source.token_file.as_deref(), |name| {
        let renamed = if name == standard.token {
            &names.token
        } else if name == standard.access_key {
            &names.access_key
        } else if name == standard.secret {
            &names.secret
        } else {
            name
        };
        std::env::var(renamed).ok()
    });
    found.map_err(|e| names.rename(&e))
}

/// The API client and token source for `--live`, after the transport check.
pub fn connect(source: &SourceArgs) -> Result<(Api, TokenSource), String> {
    let tokens = discover(source)?.ok_or_else(|| {
        source.token_env.rename(
            "no token: set HMS_MANAGEMENT_TOKEN, or HMS_ACCESS_KEY and HMS_SECRET, or pass --token-file FILE",
        )
    })?;
    check_transport(&source.base_url, source.insecure)?;
    let api = Api::new(&source.base_url, source.page_size)?;
    Ok((api, tokens))
}

/// Progress of a whole-query fetch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub pages: usize,
    pub events: usize,
    pub total: Option<u64>,
}

/// Pages through everything that matches, de-duplicating by id, until `next` is empty, a cursor
/// repeats, or `max` events are loaded. On failure the events loaded so far are returned with the
/// message.
pub async fn fetch_all(
    api: &Api,
    tokens: TokenSource,
    filter: &Filter,
    max: Option<usize>,
    mut on_progress: impl FnMut(Progress),
    mut on_retry: impl FnMut(&Retry),
) -> Result<Store, (Store, String)> {
    let tokens = Mutex::new(tokens);
    let mut store = Store::new();
    let mut used = std::collections::HashSet::new();
    let mut next: Option<String> = None;
    let mut progress = Progress {
        pages: 0,
        events: 0,
        total: None,
    };
    loop {
        let page = match fetch_with_retries(api, &tokens, filter, next.as_deref(), |r| on_retry(&r))
            .await
        {
            Ok(page) => page,
            Err(e) => return Err((store, e.describe())),
        };
        store.merge(page.batch);
        progress.pages += 1;
        progress.events = store.len();
        progress.total = page.total.or(progress.total);
        on_progress(progress);
        if page.next.is_empty() || max.is_some_and(|m| store.len() >= m) {
            return Ok(store);
        }
        if !used.insert(page.next.clone()) {
            return Err((
                store,
                "the server sent a next cursor already used in this query; paging stopped instead of looping".into(),
            ));
        }
        next = Some(page.next);
    }
}
