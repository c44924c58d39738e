//! Small value types shared by every layer: colours, rules and board points.
//!
//! A point is stored as an index into a fixed padded grid (`STRIDE` × `STRIDE`) so that
//! converting between coordinates and indices never needs the board's size, and so that
//! walking up to `PAD` cells past any edge stays inside the arrays.

use std::fmt;

/// The largest board side the engine supports.
pub const MAX_SIZE: usize = 32;
/// The smallest board side the engine supports.
pub const MIN_SIZE: usize = 5;
/// Cells of padding around the playing area; pattern windows reach this far.
pub const PAD: usize = 5;
/// Row length of the padded grid.
pub const STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Number of cells in the padded grid.
pub const GRID: usize = STRIDE * STRIDE;
/// Index steps of the four line directions: horizontal, vertical, diagonal, anti-diagonal.
pub const DIRS: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

/// A stone colour. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    #[inline]
    pub fn opp(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// The winning rule of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Rule {
    /// Five or more in a row wins.
    Freestyle,
    /// Exactly five wins; six or more wins for nobody.
    Standard,
    /// Black needs exactly five and may not play double-three, double-four or overline;
    /// white wins with five or more.
    Renju,
    /// Five or more wins unless both ends are blocked by the opponent.
    Caro,
}

impl Rule {
    pub const ALL: [Rule; 4] = [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro];

    /// Decodes the `INFO rule` bitmask. Bit 2 (continuous game) is ignored except that
    /// Yixin-Board sends a bare `2` for renju.
    pub fn from_protocol(value: i64) -> Option<Rule> {
        if !(0..16).contains(&value) {
            return None;
        }
        Some(if value & 4 != 0 || value == 2 {
            Rule::Renju
        } else if value & 8 != 0 {
            Rule::Caro
        } else if value & 1 != 0 {
            Rule::Standard
        } else {
            Rule::Freestyle
        })
    }

    /// The Gomocup number of the rule.
    pub fn protocol_value(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
        }
    }

    /// Whether `color` needs exactly five (a longer line is not a win for it).
    #[inline]
    pub fn exact_five(self, color: Color) -> bool {
        match self {
            Rule::Standard => true,
            Rule::Renju => color == Color::Black,
            Rule::Freestyle | Rule::Caro => false,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A point of the padded grid. `Pos::NONE` stands for "no move".
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord, Default)]
pub struct Pos(u16);

impl Pos {
    pub const NONE: Pos = Pos(0);

    /// The point at column `x`, row `y` (both from 0).
    #[inline]
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos(((y + PAD) * STRIDE + x + PAD) as u16)
    }

    #[inline]
    pub const fn from_index(index: usize) -> Pos {
        Pos(index as u16)
    }

    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub const fn x(self) -> usize {
        self.0 as usize % STRIDE - PAD
    }

    #[inline]
    pub const fn y(self) -> usize {
        self.0 as usize / STRIDE - PAD
    }

    #[inline]
    pub fn is_none(self) -> bool {
        self == Pos::NONE
    }

    /// The point `steps` cells along direction `dir` (an index into `DIRS`). The caller
    /// keeps `steps` within `PAD` of a playing-area point, so the result stays in the grid.
    #[inline]
    pub fn offset(self, dir: usize, steps: isize) -> Pos {
        Pos((self.0 as isize + DIRS[dir] * steps) as u16)
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x(), self.y())
    }
}

/// Search scores, from the point of view of the side to move.
pub mod value {
    /// The score of a five made at the root.
    pub const WIN: i32 = 30_000;
    /// Scores beyond this are wins or losses at a known distance.
    pub const WIN_THRESHOLD: i32 = WIN - 1_000;
    /// Larger than any score.
    pub const INFINITE: i32 = WIN + 1;

    /// The score of a win whose five stands `ply` plies from the root.
    #[inline]
    pub const fn win_in(ply: i32) -> i32 {
        WIN - ply
    }

    /// The score of a loss to a five `ply` plies from the root.
    #[inline]
    pub const fn loss_in(ply: i32) -> i32 {
        -WIN + ply
    }

    #[inline]
    pub const fn is_decisive(v: i32) -> bool {
        v >= WIN_THRESHOLD || v <= -WIN_THRESHOLD
    }

    /// Converts a score counted from the root into one counted from a node `ply` plies
    /// down, as the transposition table stores it, and back.
    #[inline]
    pub const fn to_tt(v: i32, ply: i32) -> i32 {
        if v >= WIN_THRESHOLD {
            v + ply
        } else if v <= -WIN_THRESHOLD {
            v - ply
        } else {
            v
        }
    }

    #[inline]
    pub const fn from_tt(v: i32, ply: i32) -> i32 {
        if v >= WIN_THRESHOLD {
            v - ply
        } else if v <= -WIN_THRESHOLD {
            v + ply
        } else {
            v
        }
    }
}
