//! callscope: a terminal explorer for the client error events of video-call rooms.

pub mod cli;
pub mod commands;
pub mod config;
pub mod event;
pub mod filter;
pub mod generator;
pub mod insight;
pub mod logging;
pub mod memory;
pub mod output;
pub mod redact;
pub mod sanitize;
pub mod serve;
pub mod source;
pub mod stop;
pub mod store;
pub mod story;
pub mod time;
pub mod tui;
