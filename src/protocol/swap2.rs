//! `SWAP2BOARD`: the Swap2 opening stage, decided by search.
//!
//! * No stones: we place three (black, white, black). We search each of the 26
//!   canonical openings around the centre (black in the centre, white next to it,
//!   straight or diagonal, black within two points; mirror images left out) and offer
//!   the one the search finds most balanced for white to move.
//! * Three stones, white to move (us): if white is clearly worse we swap to black; if
//!   white is clearly better we stay white and play the fourth stone; if it is close we
//!   play the fourth stone and the black fifth that keeps it closest to even, and leave
//!   the choice of colour to the opponent.
//! * Five stones, white to move (us): swap if white is clearly worse, else play.

use super::command::Coord;
use super::controller::{Controller, Think};
use crate::engine::EngineError;
use crate::search::{SearchResult, score_to_string};
use std::time::Duration;

/// A score (side to move's view) beyond which a side counts as clearly better.
const CLEAR_MARGIN: i32 = 150;
/// How many black fifth stones are compared when placing two stones; the search
/// shares its time among them, so more would mean shallower and noisier scores.
const FIFTH_STONE_CHOICES: usize = 4;

impl Controller {
    pub(super) fn swap2board(&mut self, moves: &[Coord], think: Think) {
        if self.engine.board().is_none() {
            return self.refuse(EngineError::NoGame);
        }
        if ![0, 3, 5].contains(&moves.len()) {
            let n = moves.len();
            return self
                .out
                .error(&format!("SWAP2BOARD with {n} stones; expected 0, 3 or 5"));
        }
        if let Err(error) = self.engine.set_opening(moves) {
            return self.refuse(error);
        }
        let budget = self.begin_think(think);
        let (soft, hard) = (budget.soft, budget.hard);
        match moves.len() {
            0 => self.propose_opening(soft, hard),
            3 => self.answer_three(soft, hard),
            _ => self.answer_five(soft, hard),
        }
    }

    fn propose_opening(&mut self, soft: Duration, hard: Duration) {
        let Some(board) = self.engine.board() else {
            return;
        };
        let candidates = canonical_openings(board.width() as i32, board.height() as i32);
        let share = candidates.len() as u32;
        let mut best: Option<(SearchResult, &[Coord; 3])> = None;
        for opening in &candidates {
            if let Err(error) = self.engine.set_opening(opening) {
                return self.refuse(error);
            }
            let Some(result) = self.search(soft / share, hard / share, 1, false) else {
                return;
            };
            if best.as_ref().is_none_or(|(least, _)| {
                result.score.saturating_abs() < least.score.saturating_abs()
            }) {
                best = Some((result, opening));
            }
        }
        let Some((result, opening)) = best else {
            return;
        };
        self.out.message(&format!(
            "opening score for white {}",
            score_to_string(result.score)
        ));
        if let Err(error) = self.engine.set_opening(opening) {
            return self.refuse(error);
        }
        let text: Vec<String> = opening.iter().map(|&(x, y)| format!("{x},{y}")).collect();
        self.out.line(&text.join(" "));
    }

    fn answer_three(&mut self, soft: Duration, hard: Duration) {
        let Some(result) = self.search(soft / 2, hard / 2, 1, true) else {
            return;
        };
        self.report_result(&result);
        if result.score < -CLEAR_MARGIN {
            return self.out.line("SWAP");
        }
        let fourth = result.best;
        self.engine.play(fourth);
        if result.score > CLEAR_MARGIN {
            return self.out.line(&fourth.to_string());
        }
        // Close to even: add the black stone that keeps it so, and let them choose.
        let Some(black) = self.search(soft / 2, hard / 2, FIFTH_STONE_CHOICES, true) else {
            return;
        };
        let fifth = black
            .nbest
            .iter()
            .filter(|&&(pos, _)| self.engine.is_legal(pos))
            .min_by_key(|&&(_, score)| score.saturating_abs())
            .map_or(black.best, |&(pos, _)| pos);
        self.engine.play(fifth);
        self.out.line(&format!("{fourth} {fifth}"));
    }

    fn answer_five(&mut self, soft: Duration, hard: Duration) {
        let Some(result) = self.search(soft, hard, 1, true) else {
            return;
        };
        self.report_result(&result);
        if result.score < -CLEAR_MARGIN {
            return self.out.line("SWAP");
        }
        self.engine.play(result.best);
        self.out.line(&result.best.to_string());
    }
}

/// The 26 openings: black on the centre, white touching it straight or diagonally, and
/// black within two points of the centre, one of each mirror pair.
fn canonical_openings(width: i32, height: i32) -> Vec<[Coord; 3]> {
    let (cx, cy) = (width / 2, height / 2);
    let mut openings = Vec::new();
    for (wx, wy) in [(1, 0), (1, 1)] {
        for dy in -2..=2 {
            for dx in -2..=2 {
                let taken = (dx, dy) == (0, 0) || (dx, dy) == (wx, wy);
                // The mirror that keeps the first two stones in place: across the row
                // for a straight white, across the diagonal for a diagonal one.
                let canonical = if wy == 0 { dy >= 0 } else { dx >= dy };
                if !taken && canonical {
                    openings.push([(cx, cy), (cx + wx, cy + wy), (cx + dx, cy + dy)]);
                }
            }
        }
    }
    openings
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn there_are_26_distinct_openings_inside_the_board() {
        for size in [5, 15, 20] {
            let openings = canonical_openings(size, size);
            assert_eq!(openings.len(), 26);
            let distinct: HashSet<_> = openings.iter().collect();
            assert_eq!(distinct.len(), 26);
            for opening in &openings {
                let points: HashSet<_> = opening.iter().collect();
                assert_eq!(points.len(), 3);
                assert!(
                    opening
                        .iter()
                        .all(|&(x, y)| (0..size).contains(&x) && (0..size).contains(&y))
                );
            }
        }
    }

    #[test]
    fn no_opening_is_the_mirror_of_another() {
        let openings = canonical_openings(15, 15);
        let set: HashSet<_> = openings.iter().copied().collect();
        for [b1, w2, b3] in openings {
            let (cx, cy) = b1;
            let mirrored = if w2.1 == cy {
                (b3.0, 2 * cy - b3.1)
            } else {
                (cx + (b3.1 - cy), cy + (b3.0 - cx))
            };
            if mirrored != b3 {
                assert!(
                    !set.contains(&[b1, w2, mirrored]),
                    "{b3:?} and {mirrored:?}"
                );
            }
        }
    }
}
