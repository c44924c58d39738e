//! Threat-space solvers: proving wins by sequences of forcing moves.
//!
//! `vcf` (victory by continuous fours) is exact and cheap: every attacking move is a four,
//! so the defender's reply is forced. Both know renju: black never uses a forbidden
//! point, and a white four whose only defence is forbidden for black wins.

pub mod vcf;
