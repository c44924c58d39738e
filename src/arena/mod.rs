pub mod config;
pub mod engine;
pub mod openings;
pub mod referee;
pub mod stats;
