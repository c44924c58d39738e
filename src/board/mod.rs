//! The board: stones, Zobrist key, move history and incremental per-cell pattern codes.
//!
//! Every empty cell keeps a line key for each direction (see `pattern.rs`), the pattern a
//! black and a white stone would make there on that line, and the folded `Shape` per
//! colour. A move touches the ten cells around it on each of the four lines, so make and
//! undo cost forty key updates and up to forty table look-ups (thirty-two under
//! freestyle, whose patterns never depend on the cells five away). That update is
//! unrolled straight-line code (see `Update`); undo restores logged patterns. Cells
//! outside the playing area (and cells a `BOARD` command blocks) are walls; a fixed
//! padding means no bounds checks.
//!
//! `is_consistent` recomputes everything from the stones and is checked after every make
//! and undo in debug builds.

pub mod pattern;
mod renju;

use crate::eval::{CellTable, VALUE_BIAS};
use crate::types::{Color, DIRS, GRID, MAX_SIZE, MIN_SIZE, PAD, Pos, Rule, STRIDE};
use pattern::{Pattern, PatternTable, Shape, WALL, slot};

/// What occupies a grid cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Wall = 3,
}

impl Cell {
    #[inline]
    fn of(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}

/// Everything a cell knows about itself, in one word so that the undo log copies it
/// whole:
///
/// ```text
///  63        48 47        32 31        16 15         0
/// +------------+------------+------------+------------+
/// | white lines| white info | black lines| black info |
/// +------------+------------+------------+------------+
/// lines: a 4-bit `Pattern` per direction (direction d at bits 4d..4d+3)
/// info:  shape in bits 0..3, value + VALUE_BIAS in bits 4..15 (see eval::CellTable)
/// ```
///
/// Each colour's value sits at the bottom of its own 32-bit half, so masking a word
/// gives both values ready to be summed side by side (see `Sums::values`).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct CellPatterns(u64);

impl CellPatterns {
    #[inline(always)]
    fn lines(self, c: usize) -> u16 {
        (self.0 >> (16 + 32 * c)) as u16
    }

    #[inline(always)]
    fn info(self, c: usize) -> u16 {
        (self.0 >> (32 * c)) as u16
    }

    #[inline(always)]
    fn shape(self, c: usize) -> u8 {
        (self.info(c) & 0xF) as u8
    }

    #[inline(always)]
    fn value(self, c: usize) -> i32 {
        (self.info(c) >> 4) as i32 - VALUE_BIAS
    }
}

static ZOBRIST: [[u64; GRID]; 2] = zobrist_keys();

const fn zobrist_keys() -> [[u64; GRID]; 2] {
    // splitmix64 from a fixed seed: the keys, and so the bench, are the same everywhere.
    let mut keys = [[0u64; GRID]; 2];
    let mut state: u64 = 0x7465_6e67_656e_2d31;
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < GRID {
            state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            keys[c][i] = z ^ (z >> 31);
            i += 1;
        }
        c += 1;
    }
    keys
}

/// Slots in a per-cell array: the padded grid rounded up to a power of two, so that a
/// masked index needs no bounds check on the hot path.
const GRID_CAP: usize = GRID.next_power_of_two();

/// A per-cell array indexed by grid index.
#[derive(Clone)]
struct Grid<T>(Box<[T; GRID_CAP]>);

impl<T: Copy> Grid<T> {
    fn new(fill: T) -> Grid<T> {
        Grid(Box::new([fill; GRID_CAP]))
    }
}

/// Cells from a playing-area point to the farthest cell its lines reach, either way.
const REACH: usize = PAD * (STRIDE + 1);
/// Cells in a `Grid::window`.
const WINDOW: usize = 2 * REACH + 1;

impl<T> Grid<T> {
    /// The cells within `REACH` of playing-area point `centre`, as an array: constant
    /// offsets from the centre then need neither masks nor bounds checks.
    #[inline(always)]
    fn window(&self, centre: usize) -> &[T; WINDOW] {
        (&self.0[centre - REACH..centre + REACH + 1])
            .try_into()
            .expect("WINDOW cells")
    }

    #[inline(always)]
    fn window_mut(&mut self, centre: usize) -> &mut [T; WINDOW] {
        (&mut self.0[centre - REACH..centre + REACH + 1])
            .try_into()
            .expect("WINDOW cells")
    }
}

impl<T> std::ops::Index<usize> for Grid<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.0[i & (GRID_CAP - 1)]
    }
}

impl<T> std::ops::IndexMut<usize> for Grid<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i & (GRID_CAP - 1)]
    }
}

/// A game position under one rule.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    cells: Grid<Cell>,
    /// `keys[cell][dir]`: the line key of the ten neighbours.
    keys: Grid<[u32; 4]>,
    patterns: Grid<CellPatterns>,
    /// Stones within two cells (Chebyshev distance), for candidate moves.
    near: Grid<u8>,
    history: Vec<(Pos, Color)>,
    /// For each move of `history`, the patterns of the cells its lines touch before it,
    /// restored by undo instead of recomputed.
    undo_log: UndoLog,
    moves: Vec<Pos>,
    counts: [usize; 2],
    /// Points blocked by `block`.
    blocked: usize,
    hash: u64,
    table: PatternTable,
    /// Shape and value of a cell from its packed line patterns, for black and white
    /// under this rule (see `eval.rs`).
    cell_info: CellTable,
    /// Running sums of the values and shape counts of the empty cells.
    sums: Sums,
    /// Per colour, the empty cells where it makes a four or a five (see `in_fours`), and
    /// third renju black's possible forbidden points, which may hide fours: the solvers
    /// and the threat checks visit these instead of scanning the board.
    fours: [CellSet; 3],
    /// The flips of `fours` by each move of `history` (see `toggle_fours`), the first of
    /// each move's at the index in `four_log_starts`.
    four_log: Vec<u32>,
    four_log_starts: Vec<usize>,
    /// `sums` before each move of `history`.
    sums_stack: Vec<Sums>,
}

/// Per-colour aggregates of the empty cells, kept up to date by make and undo.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct Sums {
    /// The biased values of the empty cells times 16, black's in the low half and
    /// white's in the high half: the sum of `CellPatterns` words masked with `VALUES`.
    /// Each half stays below 2^26, and a move's changes are summed as whole words, so
    /// a borrow out of the low half in between cancels out.
    values: u64,
    /// Per colour, cells with the counted shapes, a ten-bit field each (see `COUNTED`).
    threats: [u128; 2],
    /// Smallest rectangle holding every stone: min x, min y, max x, max y (empty when
    /// min > max).
    bbox: [u8; 4],
}

const NO_BBOX: [u8; 4] = [u8::MAX, u8::MAX, 0, 0];

/// The value bits of both colours in a `CellPatterns` word.
const VALUES: u64 = 0xFFF0 | 0xFFF0 << 32;

/// Field of each shape in `Sums::threats`, ten bits each: fives, open fours, the three
/// kinds of closed four, renju black's possible forbidden points, and again the closed
/// fours that also make an open three, the double threes, the closed fours that also
/// make a two or a closed three, the open threes with more beside them and the single
/// open threes, which the evaluation weighs as threats; other shapes are not counted. A
/// count never exceeds the empty cells, at most 1,023 on a 32 × 32 board with a stone,
/// so ten bits hold it. A move's changes are summed as whole words: the fields' final
/// values fit and are non-negative, so borrows between fields in between cancel out.
const COUNTED: [u128; 16] = {
    let mut t = [0u128; 16];
    t[Shape::Five as usize] = 1;
    t[Shape::Flex4 as usize] = 1 << 10;
    t[Shape::Block4 as usize] = 1 << 20;
    t[Shape::Block4Plus as usize] = 1 << 20 | 1 << 60;
    t[Shape::Block4Flex3 as usize] = 1 << 20 | 1 << 40;
    t[Shape::MaybeForbidden as usize] = 1 << 30;
    t[Shape::Flex3x2 as usize] = 1 << 50;
    t[Shape::Flex3Plus as usize] = 1 << 70;
    t[Shape::Flex3 as usize] = 1 << 80;
    t
};

/// Shape bit 3 of both colours: every counted shape but `MaybeForbidden` and the open
/// threes has it.
const HIGH_SHAPES: u64 = 8 | 8 << 32;

/// Shape bit 1 of both colours: with bit 2 also set and bit 3 clear, an open three.
const THREE_SHAPES: u64 = 2 | 2 << 32;

/// Whether `shapes`, the two colours' shapes of a cell before and after a change OR-ed
/// together, may hold a counted shape other than `MaybeForbidden`: cheaper than looking
/// all four up.
#[inline(always)]
fn may_count(shapes: u64) -> bool {
    shapes & HIGH_SHAPES != 0 || shapes & (shapes >> 1) & THREE_SHAPES != 0
}

/// Number of values `Board::threat_class` takes: five states of the fours times eight
/// sets of threes.
pub const THREAT_CLASSES: usize = 40;

#[inline(always)]
fn counted(shape: u8) -> u128 {
    COUNTED[shape as usize & 15]
}

/// The shape bits of both colours in a `CellPatterns` word.
const SHAPE_BITS: u64 = 0xF | 0xF << 32;

/// `counted(new) - counted(old)` for each pair of shapes, as a wrapping change.
static COUNTED_CHANGE: [u128; 256] = {
    let mut t = [0u128; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = COUNTED[i & 15].wrapping_sub(COUNTED[i >> 4]);
        i += 1;
    }
    t
};

#[inline(always)]
fn counted_change(old: u8, new: u8) -> u128 {
    COUNTED_CHANGE[(old as usize & 15) << 4 | new as usize & 15]
}

/// Words of a `CellSet`.
const CELL_WORDS: usize = GRID_CAP / 64;

/// A bit per grid cell.
type CellSet = [u64; CELL_WORDS];

/// Whether a cell of this shape is in its colour's `Board::fours`: a closed four of any
/// kind, an open four or a five. Renju black's possible forbidden points are not,
/// whatever they make: they have a set of their own.
#[inline(always)]
fn in_fours(shape: u8) -> bool {
    (Shape::Block4 as u8..=Shape::Five as u8).contains(&(shape & 15))
}

#[inline(always)]
fn toggle(set: &mut CellSet, index: usize) {
    set[(index / 64) & (CELL_WORDS - 1)] ^= 1 << (index % 64);
}

/// Flips the cell at grid `index` in each of `Board::fours` where its membership differs
/// between the patterns `old` and `new`, and logs the flips (index times 8 plus a bit
/// per set) so that undo can flip them back.
#[inline(always)]
fn toggle_fours(
    fours: &mut [CellSet; 3],
    log: &mut Vec<u32>,
    index: usize,
    old: CellPatterns,
    new: CellPatterns,
) {
    let members = |cp: CellPatterns| {
        [
            in_fours(cp.shape(0)),
            in_fours(cp.shape(1)),
            cp.shape(0) == Shape::MaybeForbidden as u8,
        ]
    };
    let (was, is) = (members(old), members(new));
    let mut flipped = 0;
    for (c, set) in fours.iter_mut().enumerate() {
        if was[c] != is[c] {
            toggle(set, index);
            flipped |= 1 << c;
        }
    }
    if flipped != 0 {
        log.push((index as u32) << 3 | flipped);
    }
}

/// The points of a `CellSet`, in grid order (row by row).
pub struct CellIter {
    set: CellSet,
    word: usize,
    bits: u64,
}

impl CellIter {
    fn new(set: CellSet) -> CellIter {
        CellIter {
            set,
            word: 0,
            bits: set[0],
        }
    }
}

impl Iterator for CellIter {
    type Item = Pos;

    #[inline]
    fn next(&mut self) -> Option<Pos> {
        while self.bits == 0 {
            self.word += 1;
            if self.word >= CELL_WORDS {
                return None;
            }
            self.bits = self.set[self.word];
        }
        let bit = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(Pos::from_index(self.word * 64 + bit))
    }
}

impl Board {
    /// An empty `width` × `height` board. Sizes outside 5..=32 are a caller bug.
    pub fn new(width: usize, height: usize, rule: Rule) -> Board {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&width) && (MIN_SIZE..=MAX_SIZE).contains(&height));
        let mut board = Board {
            width,
            height,
            rule,
            cells: Grid::new(Cell::Wall),
            keys: Grid::new([0; 4]),
            patterns: Grid::new(CellPatterns::default()),
            near: Grid::new(0),
            history: Vec::with_capacity(width * height),
            undo_log: UndoLog::with_capacity(width * height),
            moves: Vec::with_capacity(width * height),
            counts: [0; 2],
            blocked: 0,
            hash: 0,
            table: PatternTable::get(rule),
            cell_info: CellTable::get(),
            sums: Sums::default(),
            fours: [[0; CELL_WORDS]; 3],
            four_log: Vec::with_capacity(4 * width * height),
            four_log_starts: Vec::with_capacity(width * height),
            sums_stack: Vec::with_capacity(width * height),
        };
        for y in 0..height {
            for x in 0..width {
                board.cells[Pos::new(x, y).index()] = Cell::Empty;
            }
        }
        for y in 0..height {
            for x in 0..width {
                let p = Pos::new(x, y);
                for d in 0..4 {
                    board.keys[p.index()][d] = board.compute_key(p, d);
                }
                board.refresh_cell(p);
            }
        }
        board.sums = board.fresh_sums();
        board.fours = board.fresh_fours();
        board
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Whether (x, y) lies on the playing area.
    pub fn contains(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height
    }

    #[inline]
    pub fn cell(&self, pos: Pos) -> Cell {
        self.cells[pos.index()]
    }

    #[inline]
    pub fn stone(&self, pos: Pos) -> Option<Color> {
        match self.cells[pos.index()] {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }

    /// True for an empty point of the playing area.
    #[inline]
    pub fn is_empty(&self, pos: Pos) -> bool {
        pos.index() < GRID && self.cells[pos.index()] == Cell::Empty
    }

    /// Black moves when it has no more stones than white.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        if self.counts[0] <= self.counts[1] {
            Color::Black
        } else {
            Color::White
        }
    }

    pub fn stone_count(&self) -> usize {
        self.counts[0] + self.counts[1]
    }

    pub fn count(&self, color: Color) -> usize {
        self.counts[color.index()]
    }

    /// The stones in the order they were placed.
    pub fn history(&self) -> &[Pos] {
        &self.moves
    }

    /// Stones in placing order with their colours.
    pub fn stones(&self) -> &[(Pos, Color)] {
        &self.history
    }

    pub fn last_move(&self) -> Option<Pos> {
        self.moves.last().copied()
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash after `color` places a stone on `pos`, without placing it.
    #[inline]
    pub fn hash_with(&self, pos: Pos, color: Color) -> u64 {
        self.hash ^ ZOBRIST[color.index()][pos.index()]
    }

    /// The hash after `color` places a stone on `pos` and the opponent one on `reply`,
    /// without placing them.
    #[inline]
    pub fn hash_with_reply(&self, pos: Pos, color: Color, reply: Pos) -> u64 {
        self.hash_with(pos, color) ^ ZOBRIST[color.opp().index()][reply.index()]
    }

    pub fn is_full(&self) -> bool {
        self.empty_count() == 0
    }

    /// Empty points left on the playing area.
    #[inline]
    pub fn empty_count(&self) -> usize {
        self.area() - self.stone_count() - self.blocked
    }

    /// Every point of the playing area, row by row.
    pub fn points(&self) -> impl Iterator<Item = Pos> + use<> {
        let (w, h) = (self.width, self.height);
        (0..h).flat_map(move |y| (0..w).map(move |x| Pos::new(x, y)))
    }

    /// The points within two cells of the stones' bounding box, row by row: a superset
    /// of the points near any stone, and so of every point where a threat can be.
    pub fn area_points(&self) -> impl Iterator<Item = Pos> + use<> {
        let [x0, y0, x1, y1] = self.sums.bbox;
        let (x0, y0) = (
            (x0 as usize).saturating_sub(2),
            (y0 as usize).saturating_sub(2),
        );
        let (x1, y1) = if x0 > x1 as usize + 2 {
            (0, 0)
        } else {
            (
                (x1 as usize + 3).min(self.width),
                (y1 as usize + 3).min(self.height),
            )
        };
        (y0..y1).flat_map(move |y| (x0..x1).map(move |x| Pos::new(x, y)))
    }

    /// Plays the side to move's stone on an empty point.
    #[inline]
    pub fn play(&mut self, pos: Pos) {
        let color = self.side_to_move();
        self.place(pos, color);
    }

    /// Places a stone of any colour on an empty point.
    pub fn place(&mut self, pos: Pos, color: Color) {
        debug_assert!(self.is_empty(pos), "place on a non-empty cell {pos}");
        self.cells[pos.index()] = Cell::of(color);
        self.counts[color.index()] += 1;
        self.hash ^= ZOBRIST[color.index()][pos.index()];
        self.history.push((pos, color));
        self.moves.push(pos);
        self.sums_stack.push(self.sums);
        self.four_log_starts.push(self.four_log.len());
        self.remove_from_sums(pos);
        let b = &mut self.sums.bbox;
        let (x, y) = (pos.x() as u8, pos.y() as u8);
        *b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
        self.update_lines(pos, color as u32 + 1);
        self.update_near(pos, true);
        debug_assert!(self.is_consistent_around(pos));
    }

    /// Takes back the last stone placed. Does nothing on an empty history.
    pub fn undo(&mut self) {
        let Some((pos, color)) = self.history.pop() else {
            return;
        };
        self.moves.pop();
        self.cells[pos.index()] = Cell::Empty;
        self.counts[color.index()] -= 1;
        self.hash ^= ZOBRIST[color.index()][pos.index()];
        self.restore_lines(pos, color as u32 + 1);
        let start = self.four_log_starts.pop().unwrap_or(0);
        for entry in self.four_log.drain(start..) {
            for (c, set) in self.fours.iter_mut().enumerate() {
                if entry & (1 << c) != 0 {
                    toggle(set, (entry >> 3) as usize);
                }
            }
        }
        if let Some(sums) = self.sums_stack.pop() {
            self.sums = sums;
        }
        self.update_near(pos, false);
        debug_assert!(self.is_consistent_around(pos));
    }

    /// Blocks an empty point for the rest of the game (a `BOARD` cell marked 3).
    pub fn block(&mut self, pos: Pos) {
        debug_assert!(self.is_empty(pos));
        self.cells[pos.index()] = Cell::Wall;
        self.blocked += 1;
        let logged = self.four_log.len();
        self.remove_from_sums(pos);
        self.update_lines(pos, WALL);
        // Blocks come before any move is taken back past them, so nothing is logged.
        self.undo_log.pop();
        self.four_log.truncate(logged);
        debug_assert!(self.is_consistent_around(pos));
    }

    /// Adds cell code `code` at `pos` to the keys of its neighbours and refreshes their
    /// patterns, logging the old ones for undo.
    #[inline]
    fn update_lines(&mut self, pos: Pos, code: u32) {
        // Freestyle patterns never depend on the cells five away (see the pattern tests),
        // so their look-ups are skipped.
        match self.rule {
            Rule::Freestyle => self.update_lines_with::<false, false>(pos, code),
            Rule::Renju => self.update_lines_with::<true, true>(pos, code),
            Rule::Standard | Rule::Caro => self.update_lines_with::<true, false>(pos, code),
        }
    }

    /// `update_lines` for one family of rules; `FAR` and `RENJU` as in `Update::run`.
    #[inline(never)]
    fn update_lines_with<const FAR: bool, const RENJU: bool>(&mut self, pos: Pos, code: u32) {
        let i = pos.index();
        let mut u = Update {
            code,
            keys: self.keys.window_mut(i),
            cells: self.cells.window(i),
            patterns: self.patterns.window_mut(i),
            log: self.undo_log.push(),
            table: self.table,
            cell_info: self.cell_info,
            values: 0,
            threats: [0; 2],
            base: i - REACH,
            fours: &mut self.fours,
            four_log: &mut self.four_log,
        };
        u.run::<FAR, RENJU>();
        let (values, threats) = (u.values, u.threats);
        self.sums.values = self.sums.values.wrapping_add(values);
        for (sum, change) in self.sums.threats.iter_mut().zip(threats) {
            *sum = sum.wrapping_add(change);
        }
    }

    /// Undoes `update_lines`: removes cell code `code` at `pos` from the keys of its
    /// neighbours and puts back their logged patterns.
    #[inline]
    fn restore_lines(&mut self, pos: Pos, code: u32) {
        let Some(log) = self.undo_log.pop() else {
            return;
        };
        let i = pos.index();
        let mut r = Restore {
            code,
            keys: self.keys.window_mut(i),
            patterns: self.patterns.window_mut(i),
            log,
        };
        if self.rule == Rule::Freestyle {
            r.run::<false>();
        } else {
            r.run::<true>();
        }
    }

    /// Takes the empty cell `pos`, about to be filled, out of the sums.
    #[inline]
    fn remove_from_sums(&mut self, pos: Pos) {
        let cp = self.patterns[pos.index()];
        toggle_fours(
            &mut self.fours,
            &mut self.four_log,
            pos.index(),
            cp,
            CellPatterns::default(),
        );
        self.sums.values -= cp.0 & VALUES;
        for c in 0..2 {
            self.sums.threats[c] = self.sums.threats[c].wrapping_sub(counted(cp.shape(c)));
        }
    }

    /// The sums computed from the cells.
    fn fresh_sums(&self) -> Sums {
        let mut sums = Sums {
            bbox: NO_BBOX,
            ..Sums::default()
        };
        for p in self.points() {
            if self.stone(p).is_some() {
                let (x, y) = (p.x() as u8, p.y() as u8);
                let b = &mut sums.bbox;
                *b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
            }
        }
        for p in self.points().filter(|&p| self.is_empty(p)) {
            let cp = self.patterns[p.index()];
            sums.values += cp.0 & VALUES;
            for c in 0..2 {
                sums.threats[c] += counted(cp.shape(c));
            }
        }
        sums
    }

    /// The four cells computed from the cells.
    fn fresh_fours(&self) -> [CellSet; 3] {
        let mut fours = [[0; CELL_WORDS]; 3];
        let mut log = Vec::new();
        for p in self.points().filter(|&p| self.is_empty(p)) {
            let cp = self.patterns[p.index()];
            toggle_fours(&mut fours, &mut log, p.index(), CellPatterns::default(), cp);
        }
        fours
    }

    /// The empty points where `color` makes a four or a five (renju black's possible
    /// forbidden points aside), in grid order.
    #[inline]
    pub fn four_cells(&self, color: Color) -> CellIter {
        CellIter::new(self.fours[color.index()])
    }

    /// `four_cells(color)` and the possible forbidden points, in grid order: every point
    /// where `color` may make a four.
    #[inline]
    pub fn four_cells_or_maybe_forbidden(&self, color: Color) -> CellIter {
        let (own, maybe) = (&self.fours[color.index()], &self.fours[2]);
        CellIter::new(std::array::from_fn(|i| own[i] | maybe[i]))
    }

    /// The points where either colour makes a four or a five, or renju black's may be
    /// forbidden, in grid order: every point where either may make a four.
    #[inline]
    pub fn four_cells_of_both(&self) -> CellIter {
        let [black, white, maybe] = &self.fours;
        CellIter::new(std::array::from_fn(|i| black[i] | white[i] | maybe[i]))
    }

    /// The one point where `color` would make a five after its stone on empty `pos`, a
    /// four along `dir`, read from the lines through `pos` without placing it; `None`
    /// where the stone makes any other number of five points (an open four, two fours).
    /// The VCF asks this before it places a four, to settle the four without placing
    /// it where it can.
    pub fn lone_five_point(&self, pos: Pos, color: Color, dir: usize) -> Option<Pos> {
        // A four with one winning point on `dir`, and no four on the other lines.
        let fours: u32 = (0..4)
            .map(|d| self.pattern(pos, color, d).four_count())
            .sum();
        if fours != 1 || self.pattern(pos, color, dir) != Pattern::B4 {
            return None;
        }
        [1, -1, 2, -2, 3, -3, 4, -4].into_iter().find_map(|k| {
            let q = pos.offset(dir, k);
            (self.is_empty(q) && self.pattern_with(q, dir, k, color, color) == Pattern::Five)
                .then_some(q)
        })
    }

    /// The key of empty `q` on line `d` with a stone of `stone` added `k` steps behind it
    /// (`q` is `k` steps from the stone along `d`).
    #[inline]
    fn key_with(&self, q: Pos, d: usize, k: isize, stone: Color) -> u32 {
        self.keys[q.index()][d] | (stone as u32 + 1) << (2 * slot(-k))
    }

    /// What `color` makes on line `d` at empty `q` once a stone of `stone` is added `k`
    /// steps behind it.
    #[inline]
    fn pattern_with(&self, q: Pos, d: usize, k: isize, stone: Color, color: Color) -> Pattern {
        let both = self.table.lookup(self.key_with(q, d, k, stone));
        Pattern::from_u8(both >> (4 * color.index()) & 0xF)
    }

    /// Whether a stone of `color` on empty `pos` would leave the opponent no point where
    /// it makes an open four: what `count_flex4` would say after `place`, read from the
    /// lines through `pos` without playing it. The defences against an open three ask
    /// this of every point on the three, and a full place and undo for each cost about a
    /// tenth of the search's time.
    pub fn stops_flex4(&self, pos: Pos, color: Color) -> bool {
        let them = color.opp();
        let p = pos.index() as isize;
        let flex4_after = |q: Pos, d: usize, k: isize| {
            let both = self.table.lookup(self.key_with(q, d, k, color));
            let cp = self.with_line(self.patterns[q.index()], d, both);
            cp.shape(them.index()) == Shape::Flex4 as u8
        };
        // A stone only ever takes from the opponent's lines: an open four stays unless the
        // stone is on its lines, and one appears only where renju black's possible
        // forbidden point loses the second four or three that made it one.
        for q in self.four_cells_or_maybe_forbidden(them) {
            let shape = self.shape(q, them);
            let reopens = shape == Shape::MaybeForbidden;
            if q == pos || !(shape == Shape::Flex4 || reopens) {
                continue;
            }
            // A stone changes only the cells up to five away along its four lines.
            let diff = q.index() as isize - p;
            let aligned = (0..4).find_map(|d| {
                let k = diff / DIRS[d];
                (k * DIRS[d] == diff && (1..=PAD as isize).contains(&k.abs())).then_some((d, k))
            });
            match aligned {
                Some((d, k)) if flex4_after(q, d, k) => return false,
                None if !reopens => return false,
                _ => {}
            }
        }
        true
    }

    /// `cp` with direction `d` set to the packed pair of patterns `both` and its shapes
    /// refolded.
    #[inline]
    fn with_line(&self, cp: CellPatterns, d: usize, both: u8) -> CellPatterns {
        with_line(self.cell_info, self.rule == Rule::Renju, cp, d, both)
    }

    /// Adds one (or takes one) to the stone count of the 5×5 square around `pos`, a row
    /// of five counters at a time as one little-endian word.
    #[inline]
    fn update_near(&mut self, pos: Pos, add: bool) {
        const FIVE_ONES: u64 = 0x01_0101_0101;
        for dy in -2..=2isize {
            let start = (pos.index() as isize + dy * STRIDE as isize - 2) as usize;
            let bytes: &mut [u8; 8] = (&mut self.near.0[start..start + 8])
                .try_into()
                .expect("8 bytes");
            let word = u64::from_le_bytes(*bytes);
            // Counters stay below 26, so no byte carries into its neighbour.
            let word = if add {
                word + FIVE_ONES
            } else {
                word - FIVE_ONES
            };
            *bytes = word.to_le_bytes();
        }
    }

    fn refresh_cell(&mut self, pos: Pos) {
        self.patterns[pos.index()] = self.fresh_patterns(pos);
    }

    /// The patterns of `pos` computed from its keys.
    fn fresh_patterns(&self, pos: Pos) -> CellPatterns {
        (0..4).fold(CellPatterns::default(), |cp, d| {
            self.with_line(cp, d, self.table.lookup(self.keys[pos.index()][d]))
        })
    }

    /// The key of `pos` in direction `d`, read from the cells.
    fn compute_key(&self, pos: Pos, d: usize) -> u32 {
        let mut key = 0;
        for k in 1..=PAD as isize {
            for off in [k, -k] {
                let q = pos.offset(d, off);
                key |= (self.cells[q.index()] as u32) << (2 * slot(off));
            }
        }
        key
    }

    /// The pattern a stone of `color` on empty `pos` makes along direction `dir`.
    #[inline]
    pub fn pattern(&self, pos: Pos, color: Color, dir: usize) -> Pattern {
        Pattern::from_u8((self.patterns[pos.index()].lines(color.index()) >> (4 * dir)) as u8 & 0xF)
    }

    /// The folded shape a stone of `color` on empty `pos` makes.
    #[inline]
    pub fn shape(&self, pos: Pos, color: Color) -> Shape {
        Shape::from_u8(self.patterns[pos.index()].shape(color.index()))
    }

    /// What a stone of `color` on empty `pos` is worth (see `eval.rs`).
    #[inline]
    pub fn cell_value(&self, pos: Pos, color: Color) -> i32 {
        self.patterns[pos.index()].value(color.index())
    }

    /// Number of points on the playing area.
    pub fn area(&self) -> usize {
        self.width * self.height
    }

    /// The summed cell values of `color` over the empty cells (see `eval.rs`).
    #[inline]
    pub fn potential(&self, color: Color) -> i32 {
        let biased = (self.sums.values >> (32 * color.index())) as u32 >> 4;
        biased as i32 - VALUE_BIAS * self.empty_count() as i32
    }

    /// Empty cells where `color` makes a five.
    #[inline]
    pub fn count_fives(&self, color: Color) -> u32 {
        self.threat_field(color, 0)
    }

    /// Empty cells where `color` makes an open four (or two fours).
    #[inline]
    pub fn count_flex4(&self, color: Color) -> u32 {
        self.threat_field(color, 1)
    }

    /// Empty cells where `color` makes exactly one four (with or without a three).
    #[inline]
    pub fn count_block4(&self, color: Color) -> u32 {
        self.threat_field(color, 2)
    }

    /// Empty cells that may be forbidden for `color` (renju black's only).
    #[inline]
    pub fn count_maybe_forbidden(&self, color: Color) -> u32 {
        self.threat_field(color, 3)
    }

    /// Empty cells where `color` makes a four and an open three at once.
    #[inline]
    pub fn count_block4_flex3(&self, color: Color) -> u32 {
        self.threat_field(color, 4)
    }

    /// Empty cells where `color` makes two open threes.
    #[inline]
    pub fn count_flex3x2(&self, color: Color) -> u32 {
        self.threat_field(color, 5)
    }

    /// Empty cells where `color` makes a four and a two or a closed three.
    #[inline]
    pub fn count_block4_plus(&self, color: Color) -> u32 {
        self.threat_field(color, 6)
    }

    /// Empty cells where `color` makes an open three and a two or a closed three.
    #[inline]
    pub fn count_flex3_plus(&self, color: Color) -> u32 {
        self.threat_field(color, 7)
    }

    /// Empty cells where `color` makes an open three and nothing more.
    #[inline]
    pub fn count_flex3(&self, color: Color) -> u32 {
        self.threat_field(color, 8)
    }

    /// Which threats `color` has, as one of `THREAT_CLASSES` classes for the evaluation's
    /// threat table: eight times its fours (0 none, 1 only plain fours, 2 a four with a
    /// two or closed three, 3 a four-three, 4 both of these), plus its threes as bits
    /// (1 a double three, 2 an open three with more beside it, 4 a single open three).
    #[inline]
    pub fn threat_class(&self, color: Color) -> usize {
        let fours = if self.count_block4(color) == 0 {
            0
        } else {
            1 + (self.count_block4_plus(color) > 0) as usize
                + 2 * (self.count_block4_flex3(color) > 0) as usize
        };
        (8 * fours)
            | (self.count_flex3x2(color) > 0) as usize
            | ((self.count_flex3_plus(color) > 0) as usize) << 1
            | ((self.count_flex3(color) > 0) as usize) << 2
    }

    #[inline]
    fn threat_field(&self, color: Color, field: u32) -> u32 {
        (self.sums.threats[color.index()] >> (10 * field)) as u32 & 0x3FF
    }

    /// Number of stones within two cells of `pos`.
    #[inline]
    pub fn near(&self, pos: Pos) -> u8 {
        self.near[pos.index()]
    }

    /// Whether a stone of `color` on empty `pos` makes a winning line under the rule.
    #[inline]
    pub fn is_winning_move(&self, pos: Pos, color: Color) -> bool {
        self.is_empty(pos) && self.shape(pos, color) == Shape::Five
    }

    /// The colour whose last stone completed a winning line, if any.
    pub fn winner(&self) -> Option<Color> {
        let &(pos, color) = self.history.last()?;
        // The cell's patterns were frozen when it was filled, so they still say what the
        // stone made.
        (self.shape(pos, color) == Shape::Five).then_some(color)
    }

    /// Whether black may not play on empty `pos` (renju only).
    pub fn is_forbidden(&self, pos: Pos) -> bool {
        if self.rule != Rule::Renju || !self.is_empty(pos) {
            return false;
        }
        match renju::quick_verdict(self, pos) {
            Some(v) => v,
            None => self.clone().forbidden_deep(pos),
        }
    }

    /// `is_forbidden` without cloning, for callers that own the board mutably.
    pub fn is_forbidden_mut(&mut self, pos: Pos) -> bool {
        if self.rule != Rule::Renju || !self.is_empty(pos) {
            return false;
        }
        match renju::quick_verdict(self, pos) {
            Some(v) => v,
            None => self.forbidden_deep(pos),
        }
    }

    fn forbidden_deep(&mut self, pos: Pos) -> bool {
        renju::double_three(self, pos)
    }

    /// Every point where black may not play, in index order (empty unless renju).
    pub fn forbidden_points(&self) -> Vec<Pos> {
        if self.rule != Rule::Renju {
            return Vec::new();
        }
        let mut scratch: Option<Board> = None;
        self.points()
            .filter(|&p| {
                self.is_empty(p)
                    && match renju::quick_verdict(self, p) {
                        Some(v) => v,
                        None => scratch
                            .get_or_insert_with(|| self.clone())
                            .forbidden_deep(p),
                    }
            })
            .collect()
    }

    /// The cheap form of `is_consistent` that debug builds run after every change: the
    /// cells whose keys the change at `pos` touched.
    fn is_consistent_around(&self, pos: Pos) -> bool {
        (0..4).all(|d| {
            (-(PAD as isize)..=PAD as isize).all(|k| {
                let q = pos.offset(d, k);
                self.cells[q.index()] == Cell::Wall || self.cell_is_consistent(q)
            })
        })
    }

    fn cell_is_consistent(&self, p: Pos) -> bool {
        if self.cells[p.index()] != Cell::Empty {
            return true;
        }
        if (0..4).any(|d| self.compute_key(p, d) != self.keys[p.index()][d]) {
            return false;
        }
        let fresh = self.fresh_patterns(p);
        fresh == self.patterns[p.index()]
    }

    /// Recomputes every key and pattern from the stones and compares with the
    /// incremental state.
    pub fn is_consistent(&self) -> bool {
        let mut counts = [0; 2];
        let mut hash = 0;
        for p in self.points() {
            if let Some(c) = self.stone(p) {
                counts[c.index()] += 1;
                hash ^= ZOBRIST[c.index()][p.index()];
            }
        }
        if counts != self.counts
            || hash != self.hash
            || self.fresh_sums() != self.sums
            || self.fresh_fours() != self.fours
        {
            return false;
        }
        for p in self.points() {
            let mut stones_near = 0;
            for dy in -2..=2i32 {
                for dx in -2..=2i32 {
                    let (x, y) = (p.x() as i32 + dx, p.y() as i32 + dy);
                    if self.contains(x, y) && self.stone(Pos::new(x as usize, y as usize)).is_some()
                    {
                        stones_near += 1;
                    }
                }
            }
            if stones_near != self.near[p.index()] {
                return false;
            }
            if !self.cell_is_consistent(p) {
                return false;
            }
        }
        true
    }
}

/// `cp` with direction `d` set to the packed pair of patterns `both` and its shapes
/// refolded with the colours' cell tables.
#[inline(always)]
fn with_line(
    cell_info: CellTable,
    renju: bool,
    cp: CellPatterns,
    d: usize,
    both: u8,
) -> CellPatterns {
    let both = both as u64;
    let mask = LINE_NIBBLES << (4 * d);
    let placed = ((both & 0xF) << 16 | (both & 0xF0) << 44) << (4 * d);
    let lines = cp.0 & LINES & !mask | placed;
    let black = cell_info.lookup(renju, (lines >> 16) as u16) as u64;
    let white = cell_info.lookup(false, (lines >> 48) as u16) as u64;
    CellPatterns(lines | black | white << 32)
}

/// One undo record per move on the board. Records past `len` are kept for reuse, so
/// that making a move never clears or allocates one.
struct UndoLog {
    records: Vec<[CellPatterns; TOUCHED]>,
    len: usize,
}

impl UndoLog {
    fn with_capacity(moves: usize) -> UndoLog {
        UndoLog {
            records: Vec::with_capacity(moves),
            len: 0,
        }
    }

    /// A record for a new move, with stale contents the move overwrites.
    #[inline]
    fn push(&mut self) -> &mut [CellPatterns; TOUCHED] {
        if self.len == self.records.len() {
            self.records.push([CellPatterns::default(); TOUCHED]);
        }
        self.len += 1;
        &mut self.records[self.len - 1]
    }

    /// The last move's record, taken off the log.
    #[inline]
    fn pop(&mut self) -> Option<&[CellPatterns; TOUCHED]> {
        self.len = self.len.checked_sub(1)?;
        Some(&self.records[self.len])
    }
}

impl Clone for UndoLog {
    fn clone(&self) -> UndoLog {
        let mut records = Vec::with_capacity(self.records.capacity());
        records.extend_from_slice(&self.records[..self.len]);
        UndoLog {
            records,
            len: self.len,
        }
    }
}

/// The line patterns of both colours in a `CellPatterns` word.
const LINES: u64 = 0xFFFF_0000_FFFF_0000;
/// Direction 0's pattern nibbles of both colours in a `CellPatterns` word.
const LINE_NIBBLES: u64 = 0xF << 16 | 0xF << 48;

/// Cells whose keys one move changes: `PAD` on each side along each of the four lines.
const TOUCHED: usize = 8 * PAD;

/// Slot in an undo record of the cell `k` steps along direction `d`.
#[inline(always)]
const fn log_slot(d: usize, k: isize) -> usize {
    d * 2 * PAD
        + if k > 0 {
            k as usize - 1
        } else {
            PAD - 1 + (-k) as usize
        }
}

/// One move's pattern update, unrolled over the forty touched cells so that every
/// offset, shift and slot is a constant and the tables stay in registers.
struct Update<'a> {
    code: u32,
    /// Windows centred on the move.
    keys: &'a mut [[u32; 4]; WINDOW],
    cells: &'a [Cell; WINDOW],
    patterns: &'a mut [CellPatterns; WINDOW],
    log: &'a mut [CellPatterns; TOUCHED],
    table: PatternTable,
    cell_info: CellTable,
    /// Changes to `Sums::values` and `Sums::threats`.
    values: u64,
    threats: [u128; 2],
    /// Grid index of the window's first cell, the board's four cells and their log.
    base: usize,
    fours: &'a mut [CellSet; 3],
    four_log: &'a mut Vec<u32>,
}

impl Update<'_> {
    /// The whole update, summing the changes to `Sums::values` and `Sums::threats`.
    /// `FAR`: whether the cells five away need their patterns looked up; `RENJU`:
    /// black's cell table is renju's. Inlined into a local `Update` the optimiser keeps
    /// in registers.
    #[inline(always)]
    fn run<const FAR: bool, const RENJU: bool>(&mut self) {
        self.line::<0, FAR, RENJU>();
        self.line::<1, FAR, RENJU>();
        self.line::<2, FAR, RENJU>();
        self.line::<3, FAR, RENJU>();
    }

    #[inline(always)]
    fn line<const D: usize, const FAR: bool, const RENJU: bool>(&mut self) {
        self.cell::<D, 1, true, RENJU>();
        self.cell::<D, -1, true, RENJU>();
        self.cell::<D, 2, true, RENJU>();
        self.cell::<D, -2, true, RENJU>();
        self.cell::<D, 3, true, RENJU>();
        self.cell::<D, -3, true, RENJU>();
        self.cell::<D, 4, true, RENJU>();
        self.cell::<D, -4, true, RENJU>();
        self.cell::<D, 5, FAR, RENJU>();
        self.cell::<D, -5, FAR, RENJU>();
    }

    /// The cell `K` steps from the move along direction `D`; `LOOKUP` false when its
    /// patterns cannot change under the rule (they are then not logged either).
    #[inline(always)]
    fn cell<const D: usize, const K: isize, const LOOKUP: bool, const RENJU: bool>(&mut self) {
        let q = (REACH as isize + DIRS[D] * K) as usize;
        let key = self.keys[q][D] | self.code << (2 * slot(-K));
        self.keys[q][D] = key;
        if !LOOKUP {
            return;
        }
        let old = self.patterns[q];
        self.log[log_slot(D, K)] = old;
        if self.cells[q] != Cell::Empty {
            return;
        }
        let both = self.table.lookup(key) as u64;
        // Both colours' patterns in their places among the cell's lines.
        let placed = ((both & 0xF) << 16 | (both & 0xF0) << 44) << (4 * D);
        let mask = LINE_NIBBLES << (4 * D);
        // Far cells often see no change: nothing to store.
        if old.0 & mask == placed {
            return;
        }
        let lines = old.0 & LINES & !mask | placed;
        let black = self.cell_info.lookup(RENJU, (lines >> 16) as u16) as u64;
        let white = self.cell_info.lookup(false, (lines >> 48) as u16) as u64;
        let new = CellPatterns(lines | black | white << 32);
        self.patterns[q] = new;
        self.values = self
            .values
            .wrapping_add(new.0 & VALUES)
            .wrapping_sub(old.0 & VALUES);
        // Most changes leave both shapes as they were, or involve no counted shape on
        // either side: skip the counting.
        if (old.0 ^ new.0) & SHAPE_BITS == 0 {
            return;
        }
        let maybe_forbidden = RENJU
            && (old.shape(0) == Shape::MaybeForbidden as u8
                || new.shape(0) == Shape::MaybeForbidden as u8);
        if may_count(old.0 | new.0) || maybe_forbidden {
            toggle_fours(self.fours, self.four_log, self.base + q, old, new);
            for c in 0..2 {
                self.threats[c] =
                    self.threats[c].wrapping_add(counted_change(old.shape(c), new.shape(c)));
            }
        }
    }
}

/// Undo of one `Update`.
struct Restore<'a> {
    code: u32,
    keys: &'a mut [[u32; 4]; WINDOW],
    patterns: &'a mut [CellPatterns; WINDOW],
    log: &'a [CellPatterns; TOUCHED],
}

impl Restore<'_> {
    /// `FAR` as in `Update::run`.
    #[inline(always)]
    fn run<const FAR: bool>(&mut self) {
        self.line::<0, FAR>();
        self.line::<1, FAR>();
        self.line::<2, FAR>();
        self.line::<3, FAR>();
    }

    #[inline(always)]
    fn line<const D: usize, const FAR: bool>(&mut self) {
        self.cell::<D, 1, true>();
        self.cell::<D, -1, true>();
        self.cell::<D, 2, true>();
        self.cell::<D, -2, true>();
        self.cell::<D, 3, true>();
        self.cell::<D, -3, true>();
        self.cell::<D, 4, true>();
        self.cell::<D, -4, true>();
        self.cell::<D, 5, FAR>();
        self.cell::<D, -5, FAR>();
    }

    /// `LOGGED`: whether the update logged the cell's patterns.
    #[inline(always)]
    fn cell<const D: usize, const K: isize, const LOGGED: bool>(&mut self) {
        let q = (REACH as isize + DIRS[D] * K) as usize;
        self.keys[q][D] &= !(self.code << (2 * slot(-K)));
        if LOGGED {
            self.patterns[q] = self.log[log_slot(D, K)];
        }
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Board {}x{} {}", self.width, self.height, self.rule)?;
        for y in 0..self.height {
            for x in 0..self.width {
                let c = match self.cell(Pos::new(x, y)) {
                    Cell::Empty => '.',
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    Cell::Wall => '#',
                };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
