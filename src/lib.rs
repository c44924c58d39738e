//! Tengen: a Gomoku and Renju engine.
//!
//! The crate is a library with one binary (`pbrain-tengen`) on top. The library is split
//! the way the data flows: `board` (rules and incremental patterns) under everything,
//! the engine façade above it, and the protocol layer that turns text into commands.

#![deny(clippy::undocumented_unsafe_blocks)]

pub mod arena;
pub mod bench;
pub mod board;
pub mod eval;
pub mod movegen;
pub mod search;
#[cfg(test)]
pub mod testdata;
pub mod threat;
pub mod tt;
pub mod types;
