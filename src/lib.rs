//! Tengen: a Gomoku and Renju engine.
//!
//! The crate is a library with one binary (`pbrain-tengen`) on top. The library is split
//! the way the data flows: `board` (rules and incremental patterns) under everything,
//! the search on the board, the engine façade above it, and the protocol layer that
//! turns text into commands and results into replies through `output`.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod arena;
pub mod bench;
pub mod board;
pub mod console;
pub mod engine;
pub mod eval;
pub mod memory;
pub mod movegen;
pub mod output;
pub mod platform;
pub mod play;
pub mod protocol;
pub mod search;
#[cfg(test)]
pub mod testdata;
#[cfg(test)]
pub mod testutil;
pub mod threat;
pub mod timeman;
pub mod tt;
pub mod tune;
pub mod types;
