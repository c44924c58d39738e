//! Protocol transcripts against the real brain process.
//!
//! Every test starts the brain (see `harness.rs`; `TENGEN_BRAIN` picks another
//! executable), talks to it as a manager would and checks each reply, and where a
//! command must leave the game alone, checks the position afterwards.

mod bad_input;
mod core;
mod extensions;
mod harness;
mod league;
mod lifecycle;
mod memory;
mod records;
