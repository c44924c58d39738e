//! Black's forbidden points under the international renju rules.
//!
//! A black move is forbidden when it makes an overline, two or more fours (two on one
//! line count), or two or more threes, unless it makes exactly five, which always wins.
//! A three counts only if it can become a straight four through a point that is itself
//! not forbidden once the move is on the board; that test recurses, which is how "threes
//! that only look real" are told apart. The line patterns settle everything but the
//! double-three case; only that case places stones.

use super::Board;
use super::pattern::{Pattern, slot};
use crate::types::{Color, Pos};

/// The verdict the line patterns alone can give: `None` when two or more directions
/// show open threes and the threes must be checked.
pub(super) fn quick_verdict(board: &Board, pos: Pos) -> Option<bool> {
    let mut fours = 0;
    let mut threes = 0;
    let mut overline = false;
    for d in 0..4 {
        let p = board.pattern(pos, Color::Black, d);
        if p == Pattern::Five {
            return Some(false);
        }
        overline |= p == Pattern::Overline;
        fours += p.four_count();
        threes += (p == Pattern::F3) as u32;
    }
    if overline || fours >= 2 {
        Some(true)
    } else if threes < 2 {
        Some(false)
    } else {
        None
    }
}

/// Whether black's move on `pos`, which shows open threes in two or more directions and
/// nothing that decides by itself, makes two real threes.
pub(super) fn double_three(board: &mut Board, pos: Pos) -> bool {
    let three_dirs: Vec<usize> = (0..4)
        .filter(|&d| board.pattern(pos, Color::Black, d) == Pattern::F3)
        .collect();
    board.place(pos, Color::Black);
    let mut real = 0;
    for &d in &three_dirs {
        if is_real_three(board, pos, d) {
            real += 1;
            if real >= 2 {
                break;
            }
        }
    }
    board.undo();
    real >= 2
}

/// With black's stone on `pos`, whether the three through it along `dir` can become a
/// straight four through a point that is not forbidden.
fn is_real_three(board: &mut Board, pos: Pos, dir: usize) -> bool {
    for k in -4..=4isize {
        if k == 0 {
            continue;
        }
        let e = pos.offset(dir, k);
        if !board.is_empty(e) || board.pattern(e, Color::Black, dir) != Pattern::F4 {
            continue;
        }
        // A straight four through `e` that was there without the new stone is not part
        // of this three.
        let without = board.keys[e.index()][dir] & !(3 << (2 * slot(-k)));
        if Pattern::from_u8(board.table.lookup(without) & 0xF) == Pattern::F4 {
            continue;
        }
        if !board.is_forbidden_mut(e) {
            return true;
        }
    }
    false
}
