//! Line patterns and the tables that classify them.
//!
//! Every empty cell keeps, for each of the four directions, a 20-bit key describing the
//! ten cells around it on that line (five each side, two bits per cell: empty, black,
//! white, wall). A table indexed by that key says what a stone of each colour would make
//! on that line if it were played on the cell. The table is built once per rule from a
//! brute-force analysis of the eleven-cell window, which is wide enough to decide fives,
//! fours and threes exactly (exact five needs to see one cell past a five).
//!
//! A second, smaller table folds the four line patterns of a cell into one `Shape`, the
//! cell-level summary that move generation and evaluation read.

use std::sync::OnceLock;

use crate::types::{Color, Rule};

/// Bits of a line key: ten cells of two bits.
pub const KEY_BITS: u32 = 20;
const KEY_SPACE: usize = 1 << KEY_BITS;

/// Two-bit cell codes inside a line key.
pub const EMPTY: u32 = 0;
pub const WALL: u32 = 3;

/// What a stone played on a cell makes on one line, ordered by strength.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
#[repr(u8)]
pub enum Pattern {
    /// No five can ever be made through this cell on this line.
    Dead = 0,
    /// A line of five or more that does not win under the rule (overline for an exact-five
    /// side, a five blocked at both ends in caro).
    Overline,
    B1,
    F1,
    B2,
    F2,
    /// A three that can become a four with one completion point.
    B3,
    /// An open three: one more stone makes a straight four.
    F3,
    /// A four with exactly one winning point.
    B4,
    /// A straight four: two winning points around four stones in a row.
    F4,
    /// Two separate fours on this one line (two winning points, not a straight four).
    DoubleFour,
    /// A winning line.
    Five,
}

impl Pattern {
    const ALL: [Pattern; 12] = [
        Pattern::Dead,
        Pattern::Overline,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::B3,
        Pattern::F3,
        Pattern::B4,
        Pattern::F4,
        Pattern::DoubleFour,
        Pattern::Five,
    ];

    #[inline]
    pub fn from_u8(v: u8) -> Pattern {
        Pattern::ALL[v as usize]
    }

    /// Fours this pattern makes, as renju counts them.
    #[inline]
    pub fn four_count(self) -> u32 {
        match self {
            Pattern::B4 | Pattern::F4 => 1,
            Pattern::DoubleFour => 2,
            _ => 0,
        }
    }
}

/// The cell-level summary of the four line patterns for one colour, ordered by urgency.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
#[repr(u8)]
pub enum Shape {
    None = 0,
    /// Black's possible forbidden point under renju (several fours or threes, or an
    /// overline); the exact check in `renju.rs` decides.
    MaybeForbidden,
    Flex2,
    Block3,
    Flex2x2,
    Block3Plus,
    Flex3,
    Flex3Plus,
    Flex3x2,
    Block4,
    Block4Plus,
    Block4Flex3,
    /// Two winning points after the move: a straight four, or two fours.
    Flex4,
    Five,
}

/// Number of `Shape` values.
pub const SHAPE_COUNT: usize = 14;

impl Shape {
    const ALL: [Shape; SHAPE_COUNT] = [
        Shape::None,
        Shape::MaybeForbidden,
        Shape::Flex2,
        Shape::Block3,
        Shape::Flex2x2,
        Shape::Block3Plus,
        Shape::Flex3,
        Shape::Flex3Plus,
        Shape::Flex3x2,
        Shape::Block4,
        Shape::Block4Plus,
        Shape::Block4Flex3,
        Shape::Flex4,
        Shape::Five,
    ];

    #[inline]
    pub fn from_u8(v: u8) -> Shape {
        Shape::ALL[v as usize]
    }
}

/// How a colour's fives are judged.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum FiveRule {
    /// Five or more.
    Free,
    /// Exactly five.
    Exact,
    /// Five not blocked by the opponent at both ends; six or more always.
    Caro,
}

impl FiveRule {
    fn of(rule: Rule, color: Color) -> FiveRule {
        match rule {
            Rule::Caro => FiveRule::Caro,
            _ if rule.exact_five(color) => FiveRule::Exact,
            _ => FiveRule::Free,
        }
    }
}

/// Window slot of the cell at `offset` (±1..=±5) from the centre.
#[inline]
pub const fn slot(offset: isize) -> u32 {
    if offset < 0 {
        (offset + 5) as u32
    } else {
        (offset + 4) as u32
    }
}

const OWN: u8 = 1;
const OPP: u8 = 2;
const CENTER: usize = 5;

/// The eleven-cell line of a key from the point of view of the side that owns code 1,
/// with that side's stone on the centre.
fn key_to_line(key: u32) -> [u8; 11] {
    let mut line = [0u8; 11];
    for (i, cell) in line.iter_mut().enumerate() {
        *cell = match i {
            CENTER => OWN,
            _ => {
                let s = if i < CENTER { i } else { i - 1 };
                ((key >> (2 * s)) & 3) as u8
            }
        };
    }
    line
}

fn line_to_key(line: &[u8; 11]) -> u32 {
    let mut key = 0;
    for (i, &cell) in line.iter().enumerate() {
        if i != CENTER {
            let s = if i < CENTER { i } else { i - 1 };
            key |= (cell as u32) << (2 * s);
        }
    }
    key
}

/// The run of own stones through `i`.
fn run_through(line: &[u8; 11], i: usize) -> (usize, usize) {
    let mut a = i;
    while a > 0 && line[a - 1] == OWN {
        a -= 1;
    }
    let mut b = i;
    while b < 10 && line[b + 1] == OWN {
        b += 1;
    }
    (a, b)
}

fn is_five(line: &[u8; 11], a: usize, b: usize, rule: FiveRule) -> bool {
    let len = b - a + 1;
    match rule {
        FiveRule::Free => len >= 5,
        FiveRule::Exact => len == 5,
        FiveRule::Caro => {
            let blocked_left = a > 0 && line[a - 1] == OPP;
            let blocked_right = b < 10 && line[b + 1] == OPP;
            len >= 6 || (len == 5 && !(blocked_left && blocked_right))
        }
    }
}

struct Classifier {
    rule: FiveRule,
    memo: Vec<u8>,
}

const UNKNOWN: u8 = u8::MAX;

impl Classifier {
    fn classify(&mut self, key: u32) -> Pattern {
        let cached = self.memo[key as usize];
        if cached != UNKNOWN {
            return Pattern::from_u8(cached);
        }
        let mut line = key_to_line(key);
        let p = self.compute(&mut line);
        self.memo[key as usize] = p as u8;
        p
    }

    fn compute(&mut self, line: &mut [u8; 11]) -> Pattern {
        let (a, b) = run_through(line, CENTER);
        if b - a + 1 >= 5 {
            return if is_five(line, a, b, self.rule) {
                Pattern::Five
            } else {
                Pattern::Overline
            };
        }
        let mut five_points = [false; 11];
        let mut n_five = 0;
        for e in 0..11 {
            if line[e] != EMPTY as u8 {
                continue;
            }
            line[e] = OWN;
            let (a, b) = run_through(line, e);
            if a <= CENTER && CENTER <= b && is_five(line, a, b, self.rule) {
                five_points[e] = true;
                n_five += 1;
            }
            line[e] = EMPTY as u8;
        }
        if n_five > 0 {
            let straight = (0..6).any(|e| {
                five_points[e] && five_points[e + 5] && line[e + 1..e + 5].iter().all(|&c| c == OWN)
            });
            return if straight {
                Pattern::F4
            } else if n_five >= 2 {
                Pattern::DoubleFour
            } else {
                Pattern::B4
            };
        }
        let mut best = Pattern::Dead;
        for e in 0..11 {
            if line[e] != EMPTY as u8 {
                continue;
            }
            line[e] = OWN;
            let up = self.classify(line_to_key(line));
            line[e] = EMPTY as u8;
            let p = match up {
                Pattern::F4 => Pattern::F3,
                Pattern::B4 | Pattern::DoubleFour => Pattern::B3,
                Pattern::F3 => Pattern::F2,
                Pattern::B3 => Pattern::B2,
                Pattern::F2 => Pattern::F1,
                Pattern::B2 => Pattern::B1,
                _ => Pattern::Dead,
            };
            best = best.max(p);
        }
        best
    }
}

/// Exchanges black and white codes in a key; walls and empties stay.
#[inline]
pub fn swap_colors(key: u32) -> u32 {
    const LOW: u32 = 0x55555;
    ((key & LOW) << 1) | ((key >> 1) & LOW)
}

/// Distinct half-windows once cells behind a wall are ignored: 3^0 + 3^1 + … + 3^5.
const HALVES: usize = 364;
/// Bits of one half of a key (five cells).
const HALF_BITS: u32 = KEY_BITS / 2;

/// Black's pattern in the low nibble, white's in the high nibble, for every key.
///
/// A key is looked up in two steps: each half (the five cells on one side) maps to the
/// index of its wall-canonical form, and the pair of indices addresses a 364 × 364
/// table. That table is 130 KB where a direct one would be 1 MB, so it stays in the
/// level-2 cache on the hot path of every move. Rows are `ROW` entries apart so that an
/// index is a shift and an or, masked into range without a bounds check.
///
/// The arrays live for the whole run in one allocation; the table is a pointer that a
/// board copies, so the hot loop holds it in a register.
#[derive(Clone, Copy)]
pub struct PatternTable(&'static PatternData);

struct PatternData {
    /// Left half-key to its id times `ROW`, then right half-key to its id.
    halves: [u32; 2 << HALF_BITS],
    entries: [u8; ENTRIES],
}

/// Distance between the rows of `PatternTable::entries`: `HALVES` rounded up to a power
/// of two.
const ROW: usize = HALVES.next_power_of_two();
/// Slots of `PatternTable::entries`, a power of two above every row and column.
const ENTRIES: usize = (HALVES * ROW).next_power_of_two();

/// Index of every half-key's canonical form, and one representative half per index.
/// `near_first` orders the cells from the centre outwards.
fn half_ids(near_first: [u32; 5]) -> (Box<[u32; 1 << HALF_BITS]>, Vec<u32>) {
    let mut reps: Vec<u32> = Vec::with_capacity(HALVES);
    let mut ids = Box::new([0u32; 1 << HALF_BITS]);
    for half in 0..1u32 << HALF_BITS {
        let mut canon = 0;
        let mut walled = false;
        for &s in &near_first {
            let cell = (half >> (2 * s)) & 3;
            walled |= cell == WALL;
            canon |= if walled { WALL } else { cell } << (2 * s);
        }
        let id = match reps.iter().position(|&r| r == canon) {
            Some(i) => i,
            None => {
                reps.push(canon);
                reps.len() - 1
            }
        };
        ids[half as usize] = id as u32;
    }
    debug_assert_eq!(reps.len(), HALVES);
    (ids, reps)
}

impl PatternTable {
    /// The table for a rule, built on first use.
    pub fn get(rule: Rule) -> PatternTable {
        static TABLES: [OnceLock<PatternTable>; 4] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        let i = Rule::ALL.iter().position(|&r| r == rule).unwrap_or(0);
        *TABLES[i].get_or_init(|| Self::build(rule))
    }

    fn build(rule: Rule) -> PatternTable {
        // Slots 4..0 are offsets -1..-5, slots 0..4 of the high half are +1..+5.
        let mut data = Box::new(PatternData {
            halves: [0; 2 << HALF_BITS],
            entries: [0; ENTRIES],
        });
        let (left, left_reps) = half_ids([4, 3, 2, 1, 0]);
        let (right, right_reps) = half_ids([0, 1, 2, 3, 4]);
        let (left_ids, right_ids) = data.halves.split_at_mut(1 << HALF_BITS);
        for (slot, &id) in left_ids.iter_mut().zip(left.iter()) {
            *slot = id * ROW as u32;
        }
        right_ids.copy_from_slice(&right[..]);
        let mut black = Classifier {
            rule: FiveRule::of(rule, Color::Black),
            memo: vec![UNKNOWN; KEY_SPACE],
        };
        let mut white = Classifier {
            rule: FiveRule::of(rule, Color::White),
            memo: vec![UNKNOWN; KEY_SPACE],
        };
        for (l, &lr) in left_reps.iter().enumerate() {
            for (r, &rr) in right_reps.iter().enumerate() {
                let key = lr | rr << HALF_BITS;
                let b = black.classify(key) as u8;
                let w = white.classify(swap_colors(key)) as u8;
                data.entries[l * ROW + r] = b | w << 4;
            }
        }
        PatternTable(Box::leak(data))
    }

    /// Both colours' patterns for a key, packed (black low nibble, white high nibble).
    #[inline(always)]
    pub fn lookup(&self, key: u32) -> u8 {
        const HALF_MASK: usize = (1 << HALF_BITS) - 1;
        let halves = &self.0.halves;
        let l = halves[key as usize & HALF_MASK];
        let r = halves[(1 << HALF_BITS) + ((key >> HALF_BITS) as usize & HALF_MASK)];
        self.0.entries[(l | r) as usize & (ENTRIES - 1)]
    }
}

/// Folds four line patterns (a nibble each) into a shape, one table per colour role.
pub struct ShapeTable {
    /// `[renju black?][packed patterns]`
    entries: [Box<[u8; SHAPE_SPACE]>; 2],
}

impl ShapeTable {
    pub fn get() -> &'static ShapeTable {
        static TABLE: OnceLock<ShapeTable> = OnceLock::new();
        TABLE.get_or_init(|| ShapeTable {
            entries: [build_shape_table(false), build_shape_table(true)],
        })
    }

    /// `packed` holds the four patterns as nibbles; `renju_black` marks black under renju.
    #[inline]
    pub fn lookup(&self, renju_black: bool, packed: u16) -> Shape {
        Shape::from_u8(self.entries[renju_black as usize][packed as usize])
    }
}

/// Four nibbles of line patterns.
pub const SHAPE_SPACE: usize = 1 << 16;

fn build_shape_table(renju_black: bool) -> Box<[u8; SHAPE_SPACE]> {
    let v: Vec<u8> = (0..SHAPE_SPACE as u32)
        .map(|packed| {
            let mut n = [0u32; 12];
            for d in 0..4 {
                let v = (packed >> (4 * d)) & 15;
                n[(v as usize).min(11)] += 1;
            }
            shape_of(&n, renju_black) as u8
        })
        .collect();
    v.into_boxed_slice()
        .try_into()
        .expect("SHAPE_SPACE entries")
}

/// The shape of a cell from the number of directions showing each pattern.
fn shape_of(n: &[u32; 12], renju_black: bool) -> Shape {
    let count = |p: Pattern| n[p as usize];
    if count(Pattern::Five) > 0 {
        return Shape::Five;
    }
    let fours = count(Pattern::B4) + count(Pattern::F4) + 2 * count(Pattern::DoubleFour);
    let threes = count(Pattern::F3);
    if renju_black && (count(Pattern::Overline) > 0 || fours >= 2 || threes >= 2) {
        return Shape::MaybeForbidden;
    }
    if count(Pattern::F4) > 0 || fours >= 2 {
        return Shape::Flex4;
    }
    let minor = count(Pattern::B3) + count(Pattern::F2);
    if fours == 1 {
        return if threes > 0 {
            Shape::Block4Flex3
        } else if minor > 0 {
            Shape::Block4Plus
        } else {
            Shape::Block4
        };
    }
    if threes >= 2 {
        return Shape::Flex3x2;
    }
    if threes == 1 {
        return if minor > 0 {
            Shape::Flex3Plus
        } else {
            Shape::Flex3
        };
    }
    let b3 = count(Pattern::B3);
    let f2 = count(Pattern::F2);
    if b3 > 0 && b3 + f2 >= 2 {
        Shape::Block3Plus
    } else if f2 >= 2 {
        Shape::Flex2x2
    } else if b3 > 0 {
        Shape::Block3
    } else if f2 > 0 {
        Shape::Flex2
    } else {
        Shape::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Builds a key from a picture of the ten neighbours, centre marked `*`:
    /// `x` own, `o` opponent, `#` wall, `.` empty.
    fn key(picture: &str) -> u32 {
        let cells: Vec<char> = picture.chars().collect();
        assert_eq!(cells.len(), 11);
        assert_eq!(cells[5], '*');
        let mut line = [0u8; 11];
        for (i, c) in cells.iter().enumerate() {
            line[i] = match c {
                'x' | '*' => OWN,
                'o' => OPP,
                '#' => WALL as u8,
                _ => 0,
            };
        }
        line_to_key(&line)
    }

    fn black(rule: Rule, picture: &str) -> Pattern {
        Pattern::from_u8(PatternTable::get(rule).lookup(key(picture)) & 0xF)
    }

    #[test]
    fn fives_follow_the_rule() {
        assert_eq!(black(Rule::Freestyle, "...xx*xx..."), Pattern::Five);
        assert_eq!(black(Rule::Freestyle, "..xxx*xx..."), Pattern::Five);
        assert_eq!(black(Rule::Standard, "..xxx*xx..."), Pattern::Overline);
        assert_eq!(black(Rule::Renju, "..xxx*xx..."), Pattern::Overline);
        assert_eq!(black(Rule::Caro, "..oxx*xxo.."), Pattern::Overline);
        assert_eq!(black(Rule::Caro, "...xx*xxo.."), Pattern::Five);
        assert_eq!(black(Rule::Caro, ".oxxx*xxo.."), Pattern::Five);
    }

    #[test]
    fn white_sees_swapped_colours() {
        let k = key("..xxx*xx...");
        let t = PatternTable::get(Rule::Renju);
        // Renju white needs five or more, black exactly five; with the colours swapped the
        // same picture is white's overline, which wins for white.
        assert_eq!(
            Pattern::from_u8(t.lookup(swap_colors(k)) >> 4),
            Pattern::Five
        );
        assert_eq!(Pattern::from_u8(t.lookup(k) & 0xF), Pattern::Overline);
    }

    #[test]
    fn fours_and_threes() {
        let r = Rule::Freestyle;
        assert_eq!(black(r, "....x*xx..."), Pattern::F4);
        assert_eq!(black(r, "...ox*xx..."), Pattern::B4);
        assert_eq!(black(r, "...x.*xx..."), Pattern::B4);
        assert_eq!(black(r, "..x.x*x.x.."), Pattern::DoubleFour);
        assert_eq!(black(r, ".....*xx..."), Pattern::F3);
        assert_eq!(black(r, "....o*xx..."), Pattern::B3);
        assert_eq!(black(r, ".....*.x..."), Pattern::F2);
        assert_eq!(black(r, "....o*....."), Pattern::B1);
        assert_eq!(black(r, "...o.*..o.."), Pattern::Dead);
        // A straight four whose one end would make six is only a four under exact five.
        assert_eq!(black(Rule::Standard, "x.xxx*....."), Pattern::B4);
        assert_eq!(black(Rule::Freestyle, "x.xxx*....."), Pattern::F4);
    }

    #[test]
    fn walls_block_like_stones() {
        assert_eq!(black(Rule::Freestyle, "####x*xx..."), Pattern::B4);
        assert_eq!(black(Rule::Freestyle, "..#.x*x.o.."), Pattern::B3);
        // Cells behind a wall never matter.
        let t = PatternTable::get(Rule::Freestyle);
        assert_eq!(t.lookup(key("x.#.x*x.o..")), t.lookup(key("..#.x*x.o..")));
        assert_eq!(t.lookup(key("..#.x*x.#xo")), t.lookup(key("..#.x*x.###")));
    }

    /// The board skips the look-ups of cells five away from a freestyle move; this is
    /// what makes that exact.
    #[test]
    fn freestyle_ignores_cells_five_away() {
        let t = PatternTable::get(Rule::Freestyle);
        let far = 3 | 3 << (2 * slot(5));
        for key in 0..KEY_SPACE as u32 {
            let near = key & !far;
            for code in [EMPTY, 1, 2, WALL] {
                let probe = near | code | code << (2 * slot(5));
                assert_eq!(t.lookup(probe), t.lookup(key), "key {key:#x}");
            }
        }
        // Under the other rules they matter.
        for rule in [Rule::Standard, Rule::Renju, Rule::Caro] {
            let t = PatternTable::get(rule);
            assert!((0..KEY_SPACE as u32).any(|key| t.lookup(key) != t.lookup(key & !far)));
        }
    }

    #[test]
    fn shapes_summarise_directions() {
        let pack = |ps: [Pattern; 4]| {
            ps.iter()
                .enumerate()
                .fold(0u16, |a, (d, &p)| a | (p as u16) << (4 * d))
        };
        let t = ShapeTable::get();
        use Pattern::*;
        assert_eq!(t.lookup(false, pack([F3, F3, Dead, Dead])), Shape::Flex3x2);
        assert_eq!(
            t.lookup(true, pack([F3, F3, Dead, Dead])),
            Shape::MaybeForbidden
        );
        assert_eq!(t.lookup(false, pack([B4, B4, Dead, Dead])), Shape::Flex4);
        assert_eq!(
            t.lookup(false, pack([B4, F3, Dead, Dead])),
            Shape::Block4Flex3
        );
        assert_eq!(
            t.lookup(true, pack([B4, F3, Dead, Dead])),
            Shape::Block4Flex3
        );
        assert_eq!(
            t.lookup(true, pack([Overline, Dead, Dead, Dead])),
            Shape::MaybeForbidden
        );
        assert_eq!(
            t.lookup(true, pack([Five, Overline, Dead, Dead])),
            Shape::Five
        );
    }
}
