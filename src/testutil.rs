//! Helpers the unit tests of several modules share (tests only).

use crate::board::Board;
use crate::types::Pos;

/// An empty point of `board`, drawn uniformly by `rng`, or `None` on a full board: the
/// step of the random games the consistency tests play.
pub fn random_empty(board: &Board, rng: &mut fastrand::Rng) -> Option<Pos> {
    let empties: Vec<Pos> = board.points().filter(|&p| board.is_empty(p)).collect();
    (!empties.is_empty()).then(|| empties[rng.usize(0..empties.len())])
}
