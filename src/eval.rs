//! Static evaluation from the board's pattern codes.
//!
//! Every empty cell has, for each colour, a value: what a stone of that colour would
//! gain there, from its four line patterns and their folded shape. The board keeps the
//! sum of these values per colour up to date on every make and undo, so evaluating a
//! position is two subtractions and a look-up. The side to move gets its potential
//! counted in full and the opponent's discounted, because the side to move acts on its
//! threats first.
//! The board also counts each colour's fours, four-threes and double threes, and a
//! table adds what those combinations are worth beyond their cells.
//!
//! All weights are named constants here. `pbrain-tengen tune` fits them to arena games
//! (see `tune.rs`); the values below are such a fit, the threat table fitted last with
//! the other weights held.

use std::sync::OnceLock;

use crate::board::Board;
use crate::board::pattern::{Pattern, SHAPE_SPACE, Shape, ShapeTable};

/// Value of one line pattern at an empty cell, indexed by `Pattern as usize`.
pub const LINE_VALUE: [i16; 12] = [
    0,   // Dead
    0,   // Overline
    -2,  // B1
    3,   // F1
    5,   // B2
    42,  // F2
    43,  // B3
    31,  // F3
    94,  // B4
    300, // F4
    300, // DoubleFour
    900, // Five
];

/// Extra value for a cell whose line patterns combine into a shape, by `Shape as usize`.
pub const SHAPE_BONUS: [i16; 14] = [
    0,    // None
    -40,  // MaybeForbidden (for black under renju a threat it may not use)
    -31,  // Flex2
    -22,  // Block3
    -37,  // Flex2x2
    -18,  // Block3Plus
    47,   // Flex3
    61,   // Flex3Plus
    79,   // Flex3x2
    3,    // Block4
    106,  // Block4Plus
    492,  // Block4Flex3
    600,  // Flex4
    1500, // Five
];

/// Weight of the opponent's potential against the side to move's, in 1/16ths.
pub const OPPONENT_WEIGHT_16THS: i32 = 13;

/// Bonus for having the move. The fit makes it slightly negative: the side to move's
/// potential already counts in full against the opponent's discounted one.
pub const TEMPO: i32 = -14;

/// Threats a position holds, one entry per combination: the side to move's
/// `Board::threat_bits` plus eight times the opponent's. A cell's value cannot tell
/// that the opponent's four-three must be answered now, or that two threats of the side
/// to move are more than their sum; this table can. A row per set of the opponent's
/// threats, a column per set of the side to move's: a four (1), a four-three (2), a
/// double three (4). Entry 0 is the tempo's.
pub const THREAT_VALUE: [i16; 64] = [
    0, 76, 0, 0, 435, 747, 0, 0, // the opponent has none
    -66, -60, 0, -39, 15, 576, 0, -1, // a four
    0, 0, 0, 0, 0, 0, 0, 0, // (a four-three is a four)
    -158, 37, 0, 27, -357, 21, 0, 11, // a four-three
    41, 327, 0, 0, 346, 732, 0, 0, // a double three
    -198, 31, 0, 9, 101, 474, 0, 0, // a four and a double three
    0, 0, 0, 0, 0, 0, 0, 0, // (a four-three is a four)
    -583, -101, 0, 1, -191, 18, 0, 0, // a four-three and a double three
];

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
    board.threat_bits(us) | board.threat_bits(us.opp()) << 3
}
