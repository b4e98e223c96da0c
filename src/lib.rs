//! callscope: a terminal explorer for the client error events of video-call rooms.

pub mod cli;
pub mod commands;
pub mod event;
pub mod filter;
pub mod generator;
pub mod output;
pub mod sanitize;
pub mod serve;
pub mod source;
pub mod store;
pub mod time;
pub mod tui;
pub mod story;
