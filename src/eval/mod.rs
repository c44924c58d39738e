//! Static evaluation from the board's pattern codes.
//!
//! Every empty cell has, for each colour, a value: what a stone of that colour would
//! gain there, from its four line patterns and their folded shape. The board keeps the
//! sum of these values per colour up to date on every make and undo, so evaluating a
//! position is two subtractions and a look-up. The side to move gets its potential
//! counted in full and the opponent's discounted, because the side to move acts on its
//! threats first.
//! A cell's value is the sum of its four lines' values, a bonus for their folded shape,
//! and a correction for the combination of the four patterns, which the lines' sum
//! cannot see (two closed threes on one cell are more than twice one). The board also
//! counts each colour's kinds of fours and threes, and a table adds what the
//! combination of both sides' threats is worth beyond their cells; under renju each
//! colour to move has a table of its own.
//!
//! The weights are named constants in `weights.rs`: `pbrain-tengen tune` fits them to
//! arena games (see `tune.rs`) and prints that file's tables.

use std::sync::OnceLock;

mod weights;

pub use weights::*;

use crate::board::pattern::{Pattern, SHAPE_SPACE, Shape, ShapeTable};
use crate::board::{Board, THREAT_CLASSES};
use crate::types::{Color, Rule};

/// Number of combinations of four line patterns, in any order.
pub const COMBINATIONS: usize = 1365;

const _: () = assert!(COMBINATION_VALUE.len() == COMBINATIONS);
/// Entries of one role's threat table: a class for each side.
pub const THREAT_ENTRIES: usize = THREAT_CLASSES * THREAT_CLASSES;
/// Roles of the threat table: everyone outside renju, and under renju black to move and
/// white to move, whose threats are worth different things (black's four-three may be
/// forbidden, white's may win by forcing black onto a forbidden point).
pub const THREAT_ROLES: usize = 3;

const _: () = assert!(THREAT_VALUE.len() == THREAT_ROLES * THREAT_ENTRIES);

/// The index of the combination of four line patterns in `COMBINATION_VALUE`, the same
/// for every order of them: the rank of the sorted patterns in the combinatorial number
/// system of multisets.
pub fn combination_index(patterns: [Pattern; 4]) -> usize {
    let mut p = patterns.map(|p| p as usize);
    p.sort_unstable();
    let choose = |n: usize, k: usize| -> usize { (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1)) };
    choose(p[3] + 3, 4) + choose(p[2] + 2, 3) + choose(p[1] + 1, 2) + p[0]
}

/// Offset that makes every cell value non-negative in its 12-bit field.
pub const VALUE_BIAS: i32 = 64;

/// Shape (bits 0..3) and value + `VALUE_BIAS` (bits 4..15) of a cell from its four line
/// patterns (a nibble each), for one colour role: black under renju, where forbidden
/// shapes are worth nothing, or everyone else.
///
/// Both roles share one array, everyone else's first: a direct look-up on the hot path
/// of every move, resident in the level-2 cache, with one base pointer. The array lives
/// for the whole run, so the table is a pointer that boards copy.
#[derive(Clone, Copy)]
pub struct CellTable {
    info: &'static [u16; 2 * SHAPE_SPACE],
}

impl CellTable {
    pub fn get() -> CellTable {
        static TABLE: OnceLock<CellTable> = OnceLock::new();
        *TABLE.get_or_init(build)
    }

    /// Shape and value for the packed line patterns of one colour; `renju_black` for
    /// black under renju.
    #[inline(always)]
    pub fn lookup(self, renju_black: bool, lines: u16) -> u16 {
        self.info[(renju_black as usize) << 16 | lines as usize]
    }
}

fn build() -> CellTable {
    let shapes = ShapeTable::get();
    let info: Vec<u16> = [false, true]
        .into_iter()
        .flat_map(|renju_black| (0..SHAPE_SPACE).map(move |packed| (renju_black, packed)))
        .map(|(renju_black, packed)| {
            // Nibbles above the last pattern never occur on a board; fold them onto Dead.
            let patterns = [0, 4, 8, 12].map(|s| match (packed >> s) as u8 & 15 {
                nibble @ 0..=11 => Pattern::from_u8(nibble),
                _ => Pattern::Dead,
            });
            let shape = shapes.lookup(renju_black, packed as u16);
            let value = if shape == Shape::MaybeForbidden {
                SHAPE_BONUS[Shape::MaybeForbidden as usize]
            } else {
                patterns
                    .iter()
                    .map(|&p| LINE_VALUE[p as usize])
                    .sum::<i16>()
                    + SHAPE_BONUS[shape as usize]
                    + COMBINATION_VALUE[combination_index(patterns)]
            };
            let biased = (value as i32 + VALUE_BIAS).clamp(0, 0xFFF) as u16;
            shape as u16 | biased << 4
        })
        .collect();
    let info: Box<[u16; 2 * SHAPE_SPACE]> = info
        .into_boxed_slice()
        .try_into()
        .expect("two roles of SHAPE_SPACE entries");
    CellTable {
        info: Box::leak(info),
    }
}

/// The static value of the position for the side to move.
pub fn evaluate(board: &Board) -> i32 {
    let us = board.side_to_move();
    let own = board.potential(us);
    let theirs = board.potential(us.opp());
    own - theirs * OPPONENT_WEIGHT_16THS / 16 + TEMPO + THREAT_VALUE[threat_entry(board)] as i32
}

/// The position's entry in `THREAT_VALUE`.
#[inline]
pub fn threat_entry(board: &Board) -> usize {
    let us = board.side_to_move();
    THREAT_ENTRIES * threat_role(board.rule(), us)
        + board.threat_class(us)
        + THREAT_CLASSES * board.threat_class(us.opp())
}

/// The role whose part of `THREAT_VALUE` prices the threats when `us` is to move.
#[inline]
pub fn threat_role(rule: Rule, us: Color) -> usize {
    match (rule, us) {
        (Rule::Renju, Color::Black) => 1,
        (Rule::Renju, Color::White) => 2,
        _ => 0,
    }
}
