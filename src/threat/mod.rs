//! Threat-space solvers: proving wins by sequences of forcing moves.
//!
//! `vcf` (victory by continuous fours) is exact and cheap: every attacking move is a four,
//! so the defender's reply is forced. `vct` (victory by continuous threats) also plays
//! threes, so the defender has several replies and each must be refuted. Both know
//! renju: black never uses a forbidden point, and a white threat whose only defence is
//! forbidden for black wins.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

pub mod vcf;
pub mod vct;

/// A map keyed by Zobrist hashes.
pub(crate) type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// Zobrist keys are already uniform: the hasher passes them through. A fixed hasher also
/// keeps std's random seeding (and, on Windows, its extra system DLL) out of the search.
#[derive(Default)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}
