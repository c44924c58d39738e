//! The board: stones, Zobrist key, move history and incremental per-cell pattern codes.
//!
//! Every empty cell keeps a line key for each direction (see `pattern.rs`), the pattern a
//! black and a white stone would make there on that line, and the folded `Shape` per
//! colour. A move touches the ten cells around it on each of the four lines, so make and
//! undo cost forty key updates and table look-ups. Cells outside the playing area (and
//! cells a `BOARD` command blocks) are walls; a fixed padding means no bounds checks.
//!
//! `is_consistent` recomputes everything from the stones and is checked after every make
//! and undo in debug builds.

pub mod pattern;
mod renju;

use crate::types::{Color, DIRS, GRID, MAX_SIZE, MIN_SIZE, PAD, Pos, Rule, STRIDE};
use pattern::{Pattern, PatternTable, Shape, ShapeTable, WALL, slot};

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

/// Line patterns of one cell: `[color][direction]`, plus the folded shape per colour.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
struct CellPatterns {
    line: [[u8; 4]; 2],
    shape: [u8; 2],
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

/// A game position under one rule.
#[derive(Clone)]
pub struct Board {
    width: usize,
    height: usize,
    rule: Rule,
    cells: Vec<Cell>,
    /// `keys[dir][cell]`: the line key of the ten neighbours.
    keys: [Vec<u32>; 4],
    patterns: Vec<CellPatterns>,
    /// Stones within two cells (Chebyshev distance), for candidate moves.
    near: Vec<u8>,
    history: Vec<(Pos, Color)>,
    moves: Vec<Pos>,
    counts: [usize; 2],
    hash: u64,
    table: &'static PatternTable,
    shapes: &'static ShapeTable,
}

impl Board {
    /// An empty `width` × `height` board. Sizes outside 5..=32 are a caller bug.
    pub fn new(width: usize, height: usize, rule: Rule) -> Board {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&width) && (MIN_SIZE..=MAX_SIZE).contains(&height));
        let mut board = Board {
            width,
            height,
            rule,
            cells: vec![Cell::Wall; GRID],
            keys: [vec![0; GRID], vec![0; GRID], vec![0; GRID], vec![0; GRID]],
            patterns: vec![CellPatterns::default(); GRID],
            near: vec![0; GRID],
            history: Vec::with_capacity(width * height),
            moves: Vec::with_capacity(width * height),
            counts: [0; 2],
            hash: 0,
            table: PatternTable::get(rule),
            shapes: ShapeTable::get(),
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
                    board.keys[d][p.index()] = board.compute_key(p, d);
                }
                board.refresh_cell(p);
            }
        }
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

    pub fn is_full(&self) -> bool {
        self.points().all(|p| !self.is_empty(p))
    }

    /// Every point of the playing area, row by row.
    pub fn points(&self) -> impl Iterator<Item = Pos> + use<> {
        let (w, h) = (self.width, self.height);
        (0..h).flat_map(move |y| (0..w).map(move |x| Pos::new(x, y)))
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
        self.update_lines(pos, color as u32 + 1, true);
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
        self.update_lines(pos, color as u32 + 1, false);
        self.update_near(pos, false);
        debug_assert!(self.is_consistent_around(pos));
    }

    /// Blocks an empty point for the rest of the game (a `BOARD` cell marked 3).
    pub fn block(&mut self, pos: Pos) {
        debug_assert!(self.is_empty(pos));
        self.cells[pos.index()] = Cell::Wall;
        self.update_lines(pos, WALL, true);
        debug_assert!(self.is_consistent_around(pos));
    }

    /// Adds (or removes) cell code `code` at `pos` in the keys of its neighbours and
    /// refreshes their patterns.
    #[inline]
    fn update_lines(&mut self, pos: Pos, code: u32, add: bool) {
        for (d, &step) in DIRS.iter().enumerate() {
            for k in 1..=PAD as isize {
                for (q, s) in [
                    (pos.index() as isize + step * k, slot(-k)),
                    (pos.index() as isize - step * k, slot(k)),
                ] {
                    let q = q as usize;
                    let bits = code << (2 * s);
                    if add {
                        self.keys[d][q] |= bits;
                    } else {
                        self.keys[d][q] &= !bits;
                    }
                    if self.cells[q] == Cell::Empty {
                        let both = self.table.lookup(self.keys[d][q]);
                        let cp = &mut self.patterns[q];
                        cp.line[0][d] = both as u8;
                        cp.line[1][d] = (both >> 8) as u8;
                        self.refresh_shapes(Pos::from_index(q));
                    }
                }
            }
        }
    }

    #[inline]
    fn update_near(&mut self, pos: Pos, add: bool) {
        let base = pos.index() as isize;
        for dy in -2..=2isize {
            for dx in -2..=2isize {
                let q = (base + dy * STRIDE as isize + dx) as usize;
                if add {
                    self.near[q] += 1;
                } else {
                    self.near[q] -= 1;
                }
            }
        }
    }

    #[inline]
    fn refresh_shapes(&mut self, pos: Pos) {
        let cp = &mut self.patterns[pos.index()];
        for c in 0..2 {
            let l = cp.line[c];
            let packed =
                l[0] as u16 | (l[1] as u16) << 4 | (l[2] as u16) << 8 | (l[3] as u16) << 12;
            let renju_black = c == 0 && self.rule == Rule::Renju;
            cp.shape[c] = self.shapes.lookup(renju_black, packed) as u8;
        }
    }

    fn refresh_cell(&mut self, pos: Pos) {
        for d in 0..4 {
            let both = self.table.lookup(self.keys[d][pos.index()]);
            self.patterns[pos.index()].line[0][d] = both as u8;
            self.patterns[pos.index()].line[1][d] = (both >> 8) as u8;
        }
        self.refresh_shapes(pos);
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
        Pattern::from_u8(self.patterns[pos.index()].line[color.index()][dir])
    }

    /// The folded shape a stone of `color` on empty `pos` makes.
    #[inline]
    pub fn shape(&self, pos: Pos, color: Color) -> Shape {
        Shape::from_u8(self.patterns[pos.index()].shape[color.index()])
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
        let mut fresh = CellPatterns::default();
        for d in 0..4 {
            let key = self.compute_key(p, d);
            if key != self.keys[d][p.index()] {
                return false;
            }
            let both = self.table.lookup(key);
            fresh.line[0][d] = both as u8;
            fresh.line[1][d] = (both >> 8) as u8;
        }
        for c in 0..2 {
            let l = fresh.line[c];
            let packed =
                l[0] as u16 | (l[1] as u16) << 4 | (l[2] as u16) << 8 | (l[3] as u16) << 12;
            fresh.shape[c] =
                self.shapes
                    .lookup(c == 0 && self.rule == Rule::Renju, packed) as u8;
        }
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
        if counts != self.counts || hash != self.hash {
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
