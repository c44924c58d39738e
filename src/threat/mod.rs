//! Threat-space solvers: proving wins by sequences of forcing moves.
//!
//! `vcf` (victory by continuous fours) is exact and cheap: every attacking move is a four,
//! so the defender's reply is forced. `vct` (victory by continuous threats) also plays
//! threes, so the defender has several replies and each must be refuted. Both know
//! renju: black never uses a forbidden point, and a white threat whose only defence is
//! forbidden for black wins.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use crate::types::Pos;

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

/// Nodes between two readings of the clock.
pub const CHECK_INTERVAL: u64 = 1024;

/// What a solver may spend: nodes counted against a cap, and an optional deadline.
pub struct Budget {
    /// Nodes spent.
    pub nodes: u64,
    /// Stop once this many nodes are spent.
    pub max_nodes: u64,
    /// Stop at this time, if set (checked every `CHECK_INTERVAL` nodes).
    pub deadline: Option<Instant>,
    /// `nodes` when the clock was last read. Inner solvers add their nodes in batches,
    /// so the count jumps and a check on exact multiples could be skipped for long.
    checked: u64,
}

impl Budget {
    pub fn new(max_nodes: u64) -> Budget {
        Budget {
            nodes: 0,
            max_nodes,
            deadline: None,
            checked: 0,
        }
    }

    pub fn exhausted(&self) -> bool {
        self.nodes >= self.max_nodes
    }

    /// Counts a node; false once the cap or the deadline is reached. Out of time, the
    /// budget counts as spent from then on.
    pub fn spend(&mut self) -> bool {
        if self.exhausted() {
            return false;
        }
        self.nodes += 1;
        if self.nodes - self.checked < CHECK_INTERVAL {
            return true;
        }
        self.checked = self.nodes;
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.max_nodes = self.nodes;
            return false;
        }
        true
    }
}

/// Move lists by recursion level, kept so that a solver called at every leaf of the main
/// search does not allocate per node. `take` gives the next level's list, empty;
/// `give_back` returns it.
#[derive(Default)]
pub(crate) struct MoveStack {
    lists: Vec<Vec<Pos>>,
    level: usize,
}

impl MoveStack {
    pub fn take(&mut self) -> Vec<Pos> {
        if self.lists.len() <= self.level {
            self.lists.resize_with(self.level + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.lists[self.level]);
        moves.clear();
        self.level += 1;
        moves
    }

    pub fn give_back(&mut self, moves: Vec<Pos>) {
        self.level -= 1;
        self.lists[self.level] = moves;
    }
}
