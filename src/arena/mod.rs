pub mod openings;
pub mod stats;
