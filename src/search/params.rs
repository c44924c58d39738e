//! Every tunable constant of the search, in one place.

/// Deepest iteration of iterative deepening.
pub const MAX_DEPTH: i32 = 60;
/// Deepest ply a search line may reach (extensions included).
pub const MAX_PLY: usize = 128;

/// First half-width of the aspiration window.
pub const ASPIRATION_DELTA: i32 = 40;
/// Depth from which aspiration windows are used.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;

/// Reverse futility pruning: maximal depth and margin per ply.
pub const RFP_MAX_DEPTH: i32 = 4;
pub const RFP_MARGIN: i32 = 90;

/// Razoring: near the leaves, a node whose static value is this far below alpha takes
/// the value of a horizon node.
pub const RAZOR_MAX_DEPTH: i32 = 2;
pub const RAZOR_BASE: i32 = 150;
pub const RAZOR_PER_DEPTH: i32 = 100;

/// Late move reductions: minimal depth, moves searched in full first.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_FULL_MOVES: usize = 2;
/// A quiet move's reduction is `LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR`
/// plies, in hundredths.
pub const LMR_BASE: i32 = 40;
pub const LMR_DIVISOR: i32 = 140;

/// Internal iterative reduction: from this depth, PV and cut nodes without a table move
/// are searched a ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Fail-high reduction: at a cut node whose static value is this far above beta (base
/// plus per ply), moves that make no four are searched a ply shallower.
pub const FAIL_HIGH_BASE: i32 = 0;
pub const FAIL_HIGH_PER_DEPTH: i32 = 20;

/// Singular extension: from this depth, a table move whose entry is at most this many
/// plies shallower is tested against its stored value less this margin per ply.
pub const SE_MIN_DEPTH: i32 = 7;
pub const SE_TT_DEPTH_SLACK: i32 = 3;
pub const SE_MARGIN_PER_DEPTH: i32 = 2;

/// Move count pruning: at a node of depth d, moves beyond `MOVE_COUNT_BASE +
/// d^MOVE_COUNT_EXPONENT` (twice as many when the side to move is improving) are
/// skipped once a non-losing move is known.
pub const MOVE_COUNT_BASE: usize = 3;
pub const MOVE_COUNT_EXPONENT: f64 = 1.32;
/// Below this depth, moves that make no shape for either side are skipped.
pub const TRIVIAL_PRUNE_DEPTH: i32 = 4;

/// Futility pruning: near the leaves, quiet moves are skipped where the static value is
/// this far below alpha (base plus per ply of depth).
pub const FUTILITY_MAX_DEPTH: i32 = 3;
pub const FUTILITY_BASE: i32 = 80;
pub const FUTILITY_PER_DEPTH: i32 = 100;

/// Attacking moves a leaf VCF may spend. Nearly every horizon node tries one and few
/// find a win, so a small budget buys depth: at 60 most of the search's nodes were
/// failed leaf VCFs.
pub const LEAF_VCF_NODES: u64 = 20;
/// Fours a leaf VCF may play.
pub const LEAF_VCF_FOURS: u32 = 8;
/// Attacking moves the root VCF may spend before the main search.
pub const ROOT_VCF_NODES: u64 = 200_000;
/// The root VCF may use at most this fraction (1/n) of the hard time limit.
pub const ROOT_VCF_TIME_SHARE: u32 = 5;
/// Fours the root VCF may play.
pub const ROOT_VCF_FOURS: u32 = 100;
/// Nodes the root VCT may spend, the share (1/n) of the hard time limit it may use, and
/// the attacking moves it may play.
pub const ROOT_VCT_NODES: u64 = 100_000;
pub const ROOT_VCT_TIME_SHARE: u32 = 10;
pub const ROOT_VCT_THREATS: u32 = 20;

/// History scores stay within ±`HISTORY_MAX`; a cut adds 16 × depth² (at most the
/// bound) to the cut move and takes as much from the quiet moves tried before it.
pub const HISTORY_MAX: i32 = 1 << 18;

/// Nodes between checks of the clock and the stop flag.
pub const CHECK_INTERVAL: u64 = 1024;

/// Time use where the soft limit is below the hard one: after this many iterations with
/// the same best move, stop at this share of the soft limit; when the score falls by
/// more than this, go on to this share.
pub const TIME_STABLE_ITERATIONS: u32 = 4;
pub const TIME_STABLE_PERCENT: u32 = 80;
pub const TIME_FALLING_SCORE: i32 = 40;
pub const TIME_FALLING_PERCENT: u32 = 160;
/// When the soft limit is below the hard one (a match clock), a new iteration starts only
/// if this many times the last one's time still fits before the hard limit; the move that
/// leads an unfinished iteration is played, so 1 suffices. When the two are equal every
/// iteration may start.
pub const NEXT_ITERATION_FACTOR: u32 = 1;

/// A forced move under a match clock: the share (1/n) of the soft limit its search may
/// use, and its hard limit as a multiple of that.
pub const FORCED_SOFT_DIVISOR: u32 = 10;
pub const HARD_OVER_FORCED_SOFT: u32 = 3;

/// Lazy SMP helpers' depth skipping, by helper: (block size, phase). A helper skips
/// depth d when ((d + phase) / size) is odd.
pub const HELPER_SKIP: [(i32, i32); 6] = [(1, 1), (2, 0), (2, 1), (1, 0), (3, 1), (3, 2)];
/// Share of the parent's static value, negated, mixed into a horizon node's static
/// value, in 1/16ths. Chosen by games, not derived: against Rapfi at 0.25 s a quarter
/// scored above none, an eighth and a half, while at 1 s it is level with none. Only
/// the horizon return blends: razoring's value blended too scored lower.
pub const HORIZON_PARENT_16THS: i32 = 4;
