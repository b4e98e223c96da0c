//! The command line's arguments, as clap reads them: a contract that scripts and tests rely on
//! (PRODUCT.md).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::event::{EventType, Field};
use crate::filter::{Filter, TimeBound};
use crate::insight::{GroupKey, GroupSort};
use crate::output::Format;
use crate::source::LiveSource;
use crate::source::token::TokenEnv;
use crate::time::{now_nanos, parse_time_bound};

use super::parse::{Suggest, base_url, base_url_problem, choice};

pub const DEFAULT_BASE_URL: &str = "https://api.100ms.live";

/// The environment variable that names the API's base URL when `--base-url` is not given.
pub const BASE_URL_ENV: &str = "CALLSCOPE_BASE_URL";
/// The variable that names a profile, as `--profile` does.
pub const PROFILE_ENV: &str = "CALLSCOPE_PROFILE";

/// Events per API page when `--page-size` is not given: the most the API sends.
pub const DEFAULT_PAGE_SIZE: u32 = 100;

#[derive(Debug, Parser)]
#[command(
    name = "callscope",
    version,
    about = "Explore the client error events of video-call rooms: why peers fail to connect, join, publish or subscribe, or get disconnected.",
    after_help = "Examples:\n  callscope --demo                      browse the bundled demo dataset\n  callscope incident.json dumps/        open saved API responses\n  callscope --live --room ROOM --type join\n  callscope list --demo --type join --terminal --format csv\n  callscope serve incident.json --addr 127.0.0.1:0\n  callscope --profile prod --room ROOM  settings from ~/.config/callscope/config.toml\n  callscope --config FILE list --demo   settings options: before the command or after\n  callscope list --demo --redact        pseudonyms for IP addresses, user names and ids",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub source: SourceArgs,
    #[command(flatten)]
    pub filters: FilterArgs,
    #[command(flatten)]
    pub settings: SettingsArgs,
    #[command(flatten)]
    pub log: LogArgs,
    #[command(flatten)]
    pub follow: FollowArgs,
}

/// Follow mode of the explorer (live only).
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Explorer")]
pub struct FollowArgs {
    /// Start in follow mode: re-run the live query every few seconds and mark new events.
    #[arg(long)]
    pub follow: bool,
    /// Seconds between two runs of the query in follow mode.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=86_400), value_name = "SECS")]
    pub follow_interval: u64,
}

impl Cli {
    /// The command's settings and source options, where it has them, for [`Cli::from_env`].
    fn origins_mut(&mut self) -> (Option<&mut SettingsArgs>, Option<&mut SourceArgs>) {
        match &mut self.command {
            None => (Some(&mut self.settings), Some(&mut self.source)),
            Some(Command::List(a)) => (Some(&mut a.settings), Some(&mut a.source)),
            Some(Command::Story(a)) => (Some(&mut a.settings), Some(&mut a.source)),
            Some(Command::Config(a)) => (Some(&mut a.settings), None),
            Some(_) => (None, None),
        }
    }

    /// Notes which of the command's values came from their environment variable rather than
    /// their flag, as clap's `matches` (the command's own) saw it, for messages to name it.
    pub fn from_env(&mut self, matches: &clap::ArgMatches) {
        let from_env = |id: &str| {
            matches.ids().any(|i| i.as_str() == id)
                && matches.value_source(id) == Some(clap::parser::ValueSource::EnvVariable)
        };
        let (settings, source) = self.origins_mut();
        if let Some(settings) = settings {
            settings.profile_from_env = from_env("profile");
            settings.config_from_env = from_env("config");
        }
        if let Some(source) = source {
            source.base_url_from_env = from_env("base_url");
        }
    }
}

/// Where settings come from: the config file and one of its profiles.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Settings")]
pub struct SettingsArgs {
    /// Read settings from this file instead of ~/.config/callscope/config.toml.
    #[arg(long, env = "CALLSCOPE_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Whether `config` is `CALLSCOPE_CONFIG`'s, not the flag's: a message names the one the
    /// user set.
    #[arg(skip)]
    pub config_from_env: bool,
    /// Use this profile of the config file (else its default_profile); flags given here win over it.
    #[arg(long, env = PROFILE_ENV, value_name = "NAME")]
    pub profile: Option<String>,
    /// Whether `profile` is `CALLSCOPE_PROFILE`'s, not the flag's: a message names the one the
    /// user set.
    #[arg(skip)]
    pub profile_from_env: bool,
    /// Use no profile, not even the config file's default_profile.
    #[arg(long)]
    pub no_profile: bool,
}

#[derive(Debug, Args, Clone, Default)]
pub struct LogArgs {
    /// Write a log of requests, retries and errors to this file (CALLSCOPE_LOG sets the level,
    /// and alone logs to callscope.log in the XDG state folder). Tokens are never logged.
    #[arg(long, global = true, value_name = "FILE", help_heading = "Settings")]
    pub log_file: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
#[allow(clippy::large_enum_variant)] // parsed once per run
pub enum Command {
    /// Print the matching events, without the terminal UI.
    List(ListArgs),
    /// Serve events over the same HTTP API as the service.
    Serve(ServeArgs),
    /// Write a generated dataset: its events as NDJSON to stdout, or with --out the events, rooms,
    /// sessions and peer quality stats as a folder.
    DemoData(DemoDataArgs),
    /// Print where the config file is and the settings in force, with every secret left out.
    Config(ConfigArgs),
    /// Print a peer's retry chains with their outcomes: did it get through, on what evidence.
    Story(StoryArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(CompletionsArgs),
    /// Print a man page (roff) to stdout: callscope man | man -l -
    Man(ManArgs),
}

#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Source")]
pub struct SourceArgs {
    /// Saved dumps: files, folders (every .json, .ndjson, .jsonl, .gz in them), or - for stdin.
    #[arg(value_name = "FILE")]
    pub files: Vec<String>,
    /// Use the bundled demo dataset.
    #[arg(long, conflicts_with_all = ["files", "live"])]
    pub demo: bool,
    /// Use the live API at --base-url.
    #[arg(long, conflicts_with = "files")]
    pub live: bool,
    /// The API's base URL (checked when the run reads the API).
    #[arg(long, env = BASE_URL_ENV, default_value = DEFAULT_BASE_URL, value_name = "URL")]
    pub base_url: String,
    /// Whether `base_url` is `CALLSCOPE_BASE_URL`'s, not the flag's: a message names the one the
    /// user set.
    #[arg(skip)]
    pub base_url_from_env: bool,
    /// Read the management token from the first line of this file (else HMS_MANAGEMENT_TOKEN, else
    /// a token minted from HMS_ACCESS_KEY and HMS_SECRET).
    #[arg(long, value_name = "FILE")]
    pub token_file: Option<PathBuf>,
    /// Allow sending the token over plain http to a host that is not this machine.
    #[arg(long)]
    pub insecure: bool,
    /// Events per API page (1..100).
    #[arg(long, default_value_t = DEFAULT_PAGE_SIZE, value_parser = clap::value_parser!(u32).range(1..=100), value_name = "N")]
    pub page_size: u32,
    /// The environment variables the token is read from (a profile may rename them).
    #[arg(skip)]
    pub token_env: TokenEnv,
}

impl SourceArgs {
    /// Refuses a base URL that is no http or https URL, naming where it was set
    /// (`--base-url`, or `CALLSCOPE_BASE_URL`). Asked only of a run that reads the API: a URL
    /// that no run uses stops nothing.
    pub fn check_base_url(&self) -> Result<(), String> {
        let text = &self.base_url;
        let set = |value: &str| match self.base_url_from_env {
            true => format!("{BASE_URL_ENV}={value}"),
            false => format!("--base-url {value}"),
        };
        base_url_problem(text, &set).map_or(Ok(()), |problem| {
            Err(format!(
                "{}: {problem}",
                set(&crate::text::for_terminal(text))
            ))
        })
    }

    /// The live API the options name.
    pub fn live(&self) -> LiveSource {
        LiveSource {
            base_url: self.base_url.clone(),
            page_size: self.page_size,
            insecure: self.insecure,
            token_file: self.token_file.clone(),
            names: self.token_env.clone(),
        }
    }
}

#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Filters")]
pub struct FilterArgs {
    /// Event type (repeatable): publish, subscribe, join, disconnected, connect, or a full name.
    #[arg(long = "type", value_name = "T", value_parser = Suggest::types(), hide_possible_values = true)]
    pub types: Vec<String>,
    /// Events of this room id.
    #[arg(long, value_name = "ID")]
    pub room: Option<String>,
    /// Events of this session id.
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Events of this peer id.
    #[arg(long, value_name = "ID")]
    pub peer: Option<String>,
    /// Events of this user id.
    #[arg(long, value_name = "ID")]
    pub user: Option<String>,
    /// Events of this SDK (the agent's sdk: web, android, ios, flutter...).
    #[arg(long, value_name = "SDK")]
    pub sdk: Option<String>,
    /// Events of this SDK version (the agent's sdk_version).
    #[arg(long, value_name = "VERSION")]
    pub sdk_version: Option<String>,
    /// Events of this operating system (the agent's os).
    #[arg(long, value_name = "OS")]
    pub os: Option<String>,
    /// Events of this device model (the agent's device_model).
    #[arg(long, value_name = "MODEL")]
    pub device: Option<String>,
    /// Events of this environment (the env of the agent's string: prod, qa...).
    #[arg(long, value_name = "ENV")]
    pub env: Option<String>,
    /// Only final errors (is_terminal true: the SDK made no more retries).
    #[arg(long, conflicts_with = "retried")]
    pub terminal: bool,
    /// Only retried errors (is_terminal false).
    #[arg(long)]
    pub retried: bool,
    /// Only this error_code.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub code: Option<i64>,
    /// Case-insensitive text found in any string value, or in any number as written (`4006`).
    #[arg(long, value_name = "TEXT")]
    pub search: Option<String>,
    /// Events at or after T: RFC 3339, or a duration back from now (90m, 2h, 3d).
    #[arg(long, value_name = "T")]
    pub since: Option<String>,
    /// Events at or before T: RFC 3339, or a duration back from now.
    #[arg(long, value_name = "T")]
    pub until: Option<String>,
}

impl FilterArgs {
    /// Builds the filter; an unknown type or an unreadable time is a usage error.
    pub fn to_filter(&self) -> Result<Filter, String> {
        let mut types = Vec::new();
        for t in &self.types {
            for part in t.split(',').filter(|p| !p.trim().is_empty()) {
                let t = EventType::from_arg(part)?;
                if !types.contains(&t) {
                    types.push(t);
                }
            }
        }
        types.sort();
        let now = now_nanos();
        let bound = |flag: &str, v: &Option<String>| -> Result<Option<TimeBound>, String> {
            v.as_ref()
                .map(|text| {
                    parse_time_bound(text, now)
                        .map(|nanos| TimeBound {
                            text: text.clone(),
                            nanos,
                        })
                        .map_err(|e| format!("--{flag}: {e}"))
                })
                .transpose()
        };
        // An empty value left here cleared no profile's filter: it is most likely a script's
        // unset variable, and neither reading of it (no event, every event) is what was meant.
        let mut filter = Filter {
            types,
            terminal: if self.terminal {
                Some(true)
            } else if self.retried {
                Some(false)
            } else {
                None
            },
            search: self.search.clone().filter(|s| !s.is_empty()),
            since: bound("since", &self.since)?,
            until: bound("until", &self.until)?,
            ..Filter::default()
        };
        for (field, value) in self.fields() {
            // An id pasted with a space or a newline around it is the id.
            match value.as_deref().map(str::trim) {
                Some("") => {
                    let flag = field.name().replace('_', "-");
                    let what = match field {
                        Field::Room | Field::Session | Field::Peer | Field::User => "an id",
                        _ => "a value",
                    };
                    return Err(format!(
                        "--{flag} is empty: give {what}, or leave --{flag} out for every {}",
                        field.name().replace('_', " ")
                    ));
                }
                // The explorer's `!value` (hide a value) is no value a field holds: said, rather
                // than matching nothing in silence.
                Some(v) if v.starts_with('!') => {
                    let flag = field.name().replace('_', "-");
                    return Err(format!(
                        "--{flag} {v:?}: give a value to keep; the explorer's filters (f) hide one with {v}"
                    ));
                }
                Some(v) => filter.set(field, Some(v.to_string())),
                None => {}
            }
        }
        if let Some(code) = self.code {
            filter.set(Field::Code, Some(code.to_string()));
        }
        Ok(filter)
    }

    /// The flags that require a field to have a value, by the field they name.
    pub fn fields(&self) -> [(Field, &Option<String>); 9] {
        [
            (Field::Room, &self.room),
            (Field::Session, &self.session),
            (Field::Peer, &self.peer),
            (Field::User, &self.user),
            (Field::Sdk, &self.sdk),
            (Field::SdkVersion, &self.sdk_version),
            (Field::Os, &self.os),
            (Field::Device, &self.device),
            (Field::Env, &self.env),
        ]
    }
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub source: SourceArgs,
    #[command(flatten)]
    pub filters: FilterArgs,
    /// Output format (default: the one the --output file's extension names: .csv, .json,
    /// .ndjson or .jsonl, .txt a table; else table on a terminal, ndjson otherwise).
    #[arg(long, value_parser = choice(&Format::ALL, Format::name), help_heading = "Output")]
    pub format: Option<Format>,
    /// Write to this file (atomically: a temporary file, then a rename) instead of stdout.
    #[arg(long, short = 'o', value_name = "FILE", help_heading = "Output")]
    pub output: Option<PathBuf>,
    /// Print at most N events (with --group-by: group the first N matching events).
    #[arg(long, value_name = "N", help_heading = "Output")]
    pub max: Option<usize>,
    /// Print groups instead of events: count, final, distinct peers and rooms, first and last seen.
    #[arg(long, value_parser = choice(&GroupKey::ALL, GroupKey::name), value_name = "KEY", help_heading = "Output")]
    pub group_by: Option<GroupKey>,
    /// The order of the groups (with --group-by).
    #[arg(long, value_parser = choice(&GroupSort::ALL, GroupSort::name), default_value = "count", requires = "group_by", help_heading = "Output")]
    pub sort: GroupSort,
    /// Replace IP addresses, user names and user ids with pseudonyms (the same value gets the same
    /// pseudonym throughout the output; into a folder, in every file of it).
    #[arg(long, help_heading = "Output")]
    pub redact: bool,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Saved dumps to serve: files, folders (every .json, .ndjson, .jsonl, .gz in them), or - for
    /// stdin.
    #[arg(value_name = "FILE", help_heading = "Source")]
    pub files: Vec<String>,
    /// Serve the bundled demo dataset.
    #[arg(long, conflicts_with = "files", help_heading = "Source")]
    pub demo: bool,
    /// Serve what the live API at --base-url holds: every event that matches the filters,
    /// fetched once before serving starts.
    #[arg(long, conflicts_with_all = ["files", "demo"], help_heading = "Source")]
    pub live: bool,
    /// With --live: the live API's base URL (else CALLSCOPE_BASE_URL, else the hosted service,
    /// api.100ms.live). Clients reach serve at --addr.
    #[arg(long, value_name = "URL", value_parser = base_url, help_heading = "Source")]
    pub base_url: Option<String>,
    /// With --live: read the API's management token from the first line of this file (else
    /// HMS_MANAGEMENT_TOKEN, else a token minted from HMS_ACCESS_KEY and HMS_SECRET).
    #[arg(long, value_name = "FILE", help_heading = "Source")]
    pub live_token_file: Option<PathBuf>,
    /// With --live: allow sending the API's token over plain http to a host that is not this
    /// machine.
    #[arg(long, help_heading = "Source")]
    pub insecure: bool,
    /// With --live: events per API page (1..100; 100 when not given).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100), value_name = "N", help_heading = "Source")]
    pub page_size: Option<u32>,
    #[command(flatten)]
    pub filters: FilterArgs,
    /// Address to listen on (port 0 picks a free port).
    #[arg(
        long,
        default_value = "127.0.0.1:8080",
        value_name = "ADDR",
        help_heading = "Server"
    )]
    pub addr: String,
    /// The bearer token clients must send: the first line of this file (else
    /// CALLSCOPE_SERVE_TOKEN, else a random one printed on stderr).
    #[arg(long, value_name = "FILE", help_heading = "Server")]
    pub token_file: Option<PathBuf>,
    /// Serve the events, and the rooms, sessions and quality stats beside them, with IP
    /// addresses, user names and user ids replaced by pseudonyms (the same in every answer).
    #[arg(long, help_heading = "Server")]
    pub redact: bool,
    /// Also let in management tokens minted from an app's access key, read from this
    /// environment variable (with --secret-env), as the hosted API does: clients built on the
    /// official server SDKs then work unchanged.
    #[arg(
        long,
        value_name = "NAME",
        requires = "secret_env",
        help_heading = "Server"
    )]
    pub access_key_env: Option<String>,
    /// The environment variable holding the app secret that --access-key-env's tokens are
    /// signed with.
    #[arg(
        long,
        value_name = "NAME",
        requires = "access_key_env",
        help_heading = "Server"
    )]
    pub secret_env: Option<String>,
    /// Accept what the hosted API refuses (a query without room_id, type aliases such as join,
    /// comma lists): for local use; scripts tested this way may fail against the hosted API.
    #[arg(long, help_heading = "Server")]
    pub lenient: bool,
    /// Wait this many milliseconds before answering each request, as a distant server would:
    /// for trying the explorer and scripts on slow pages (not part of the API).
    #[arg(long, value_name = "MS", default_value_t = 0, help_heading = "Server")]
    pub delay_ms: u64,
}

impl ServeArgs {
    /// The dumps, demo or live API to load, in the shape the loaders take.
    pub fn source(&self) -> SourceArgs {
        SourceArgs {
            files: self.files.clone(),
            demo: self.demo,
            live: self.live,
            base_url: self
                .base_url
                .clone()
                .or_else(|| std::env::var(BASE_URL_ENV).ok())
                .unwrap_or_else(|| DEFAULT_BASE_URL.to_string()),
            base_url_from_env: self.base_url.is_none() && std::env::var_os(BASE_URL_ENV).is_some(),
            token_file: self.live_token_file.clone(),
            insecure: self.insecure,
            page_size: self.page_size.unwrap_or(DEFAULT_PAGE_SIZE),
            token_env: TokenEnv {
                file_flag: "--live-token-file",
                ..Default::default()
            },
        }
    }
}

#[derive(Debug, Args)]
pub struct StoryArgs {
    /// The peer whose story to tell (its peer_id).
    #[arg(value_name = "PEER_ID")]
    pub peer: String,
    #[command(flatten)]
    pub source: SourceArgs,
    /// Live: the peer's room, an id or a name (the API answers one room's queries only).
    #[arg(long, value_name = "ROOM")]
    pub room: Option<String>,
    /// text for people, json for scripts.
    #[arg(long, default_value = "text", value_parser = ["text", "json"])]
    pub format: String,
    /// Live: also fetch the peer's quality stats in each of its sessions (available once a
    /// session has ended).
    #[arg(long)]
    pub quality: bool,
    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(Debug, Args)]
pub struct ConfigArgs {
    #[command(flatten)]
    pub settings: SettingsArgs,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The command whose page to print (list, serve, story, demo-data, config, completions);
    /// without one, callscope's own page.
    #[arg(value_name = "COMMAND", conflicts_with = "out")]
    pub command: Option<String>,
    /// Write every page (callscope.1, callscope-list.1...) into this folder instead.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct DemoDataArgs {
    /// How many events.
    #[arg(long, default_value_t = crate::generator::DEMO_EVENTS, value_name = "N")]
    pub events: usize,
    /// Random seed: the same seed gives the same bytes.
    #[arg(long, default_value_t = crate::generator::DEMO_SEED, value_name = "S")]
    pub seed: u64,
    /// Write the whole dataset into this folder (made if missing), each file atomically:
    /// events.ndjson, rooms.json (one rooms response), sessions.json (one sessions response
    /// holding every room's sessions) and peer-stats.ndjson (one peer quality stats response a
    /// line). Without it, the events go to stdout.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
}
