//! callscope: a terminal explorer for the client error events of video-call rooms.
//!
//! The modules stand on floors; a module imports only from its own floor's others (without a
//! cycle) and from the floors below (`tests/layers.rs` checks it; `docs/architecture.md` draws
//! the data flow):
//!
//! | floor | modules | what they hold |
//! |---|---|---|
//! | 6 | `cli` | the command line and the config file's profiles, read into plain values |
//! | 5 | `app`, `logging` | the front ends (explorer, list, serve, demo-data) and their failures |
//! | 4 | `tui`, `serve` | the explorer's model, update and views; the HTTP server |
//! | 3 | `source`, `insight`, `output`, `redact` | where events come from; groups, timelines and chains; list's formats |
//! | 2 | `store` | the loaded events: raw bytes, compact rows, interned strings, the search index |
//! | 1 | `event`, `related`, `filter`, `text`, `time`, `generator`, `folders`, `stop`, `memory` | the event model and the platform's related data (rooms, sessions, quality stats), the filter as data, text for terminals, times, the demo's generator |

pub mod app;
pub mod cli;
pub mod event;
pub mod filter;
pub mod folders;
pub mod generator;
pub mod insight;
pub mod logging;
pub mod memory;
pub mod output;
pub mod redact;
pub mod related;
pub mod serve;
pub mod source;
pub mod stop;
pub mod store;
pub mod text;
pub mod time;
pub mod tui;
