//! The bench: a fixed set of positions searched to a fixed depth on one thread from a
//! cleared table. Its node count is the search's signature: a change that alters the
//! search changes it, a refactor does not. `bench board` measures the board itself.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::board::Board;
use crate::console::show;
use crate::search::{BENCH_TT_BYTES, Limits, Searcher, score_to_string};
use crate::types::{Color, Pos, Rule};

/// Depth every bench position is searched to.
pub const BENCH_DEPTH: u32 = 8;

/// A bench position: rule, board size and the moves played alternately from black.
struct BenchPosition {
    name: &'static str,
    rule: Rule,
    size: usize,
    moves: &'static [(usize, usize)],
}

// Middle games come from Tengen's own depth-4 self-play from a three-stone opening; the
// renju VCF and VCT positions are puzzles from the shared test data (P005, P009).
const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        name: "freestyle-15 opening",
        rule: Rule::Freestyle,
        size: 15,
        moves: &[(7, 7), (8, 6), (8, 8)],
    },
    BenchPosition {
        name: "freestyle-15 middle game",
        rule: Rule::Freestyle,
        size: 15,
        moves: &[
            (7, 7),
            (8, 6),
            (8, 8),
            (9, 9),
            (9, 7),
            (10, 7),
            (7, 9),
            (10, 6),
            (7, 6),
            (7, 8),
            (10, 8),
            (9, 6),
        ],
    },
    BenchPosition {
        name: "freestyle-20 middle game",
        rule: Rule::Freestyle,
        size: 20,
        moves: &[
            (10, 10),
            (11, 9),
            (11, 11),
            (12, 10),
            (10, 8),
            (12, 12),
            (10, 11),
            (10, 9),
            (12, 9),
            (9, 12),
            (11, 12),
            (9, 10),
            (9, 9),
            (8, 11),
        ],
    },
    BenchPosition {
        name: "standard-15 middle game",
        rule: Rule::Standard,
        size: 15,
        moves: &[
            (7, 7),
            (8, 6),
            (8, 8),
            (9, 9),
            (9, 7),
            (10, 7),
            (7, 9),
            (10, 6),
            (7, 6),
            (7, 8),
        ],
    },
    BenchPosition {
        name: "renju-15 middle game",
        rule: Rule::Renju,
        size: 15,
        moves: &[
            (7, 7),
            (8, 6),
            (8, 8),
            (9, 7),
            (7, 5),
            (7, 4),
            (6, 6),
            (5, 5),
            (5, 7),
            (4, 8),
            (4, 7),
            (6, 7),
            (8, 4),
            (9, 3),
            (5, 8),
            (6, 9),
            (5, 10),
            (5, 9),
        ],
    },
    BenchPosition {
        name: "renju-15 VCF (P005)",
        rule: Rule::Renju,
        size: 15,
        moves: &[
            (7, 7),
            (7, 6),
            (9, 7),
            (11, 7),
            (10, 7),
            (9, 8),
            (8, 8),
            (10, 9),
            (11, 8),
            (8, 10),
            (8, 9),
            (11, 10),
        ],
    },
    BenchPosition {
        name: "renju-15 VCT (P009)",
        rule: Rule::Renju,
        size: 15,
        moves: &[
            (7, 7),
            (8, 5),
            (7, 9),
            (8, 6),
            (9, 9),
            (7, 8),
            (6, 10),
            (8, 9),
            (8, 10),
            (7, 10),
        ],
    },
    BenchPosition {
        name: "caro-15 middle game",
        rule: Rule::Caro,
        size: 15,
        moves: &[
            (7, 7),
            (8, 6),
            (8, 8),
            (9, 9),
            (9, 7),
            (10, 7),
            (7, 9),
            (10, 6),
            (7, 6),
            (7, 8),
        ],
    },
];

/// A renju middle game with eight forbidden points (record F0228 of the shared
/// forbidden-point data): black stones, then white stones.
const FORBIDDEN_BENCH: [&[(usize, usize)]; 2] = [
    &[
        (1, 9),
        (2, 7),
        (2, 8),
        (3, 8),
        (3, 9),
        (4, 11),
        (4, 12),
        (5, 12),
        (6, 10),
        (7, 7),
    ],
    &[
        (0, 6),
        (0, 7),
        (2, 2),
        (4, 14),
        (6, 14),
        (7, 2),
        (11, 2),
        (11, 14),
        (14, 0),
        (14, 14),
    ],
];

fn forbidden_bench_board() -> Board {
    let mut b = Board::new(15, 15, Rule::Renju);
    for (color, stones) in [Color::Black, Color::White]
        .into_iter()
        .zip(FORBIDDEN_BENCH)
    {
        for &(x, y) in stones {
            b.place(Pos::new(x, y), color);
        }
    }
    b
}

fn setup(p: &BenchPosition) -> Board {
    let mut b = Board::new(p.size, p.size, p.rule);
    for &(x, y) in p.moves {
        b.play(Pos::new(x, y));
    }
    b
}

/// Searches every bench position; returns the report lines and the total node count.
pub fn run_search(depth: u32) -> (Vec<String>, u64) {
    let mut searcher = Searcher::new();
    let mut lines = Vec::new();
    let mut total = 0;
    // Only the searches are timed: building the rule tables and clearing the table
    // before each position are not search speed.
    let mut searching = Duration::ZERO;
    for p in POSITIONS {
        let board = setup(p);
        let r = searcher.bench_search(&board, depth);
        total += r.nodes;
        searching += r.elapsed;
        lines.push(format!(
            "{:<32} best {:>5}  score {:>10}  depth {:>2}  nodes {:>10}",
            p.name,
            r.best.to_string(),
            score_to_string(r.score),
            r.depth,
            r.nodes
        ));
    }
    let secs = searching.as_secs_f64().max(1e-9);
    lines.push(format!(
        "Bench: {total} nodes {} nps",
        (total as f64 / secs) as u64
    ));
    (lines, total)
}

/// Board speed: make+undo pairs per second on 15×15 middle games, and the time to list
/// every forbidden point of the renju bench position.
pub fn run_board() -> Vec<String> {
    let mut rng = fastrand::Rng::with_seed(7);
    let games: Vec<Vec<Pos>> = (0..1000)
        .map(|_| {
            let mut seq = Vec::new();
            while seq.len() < 40 {
                let p = Pos::new(rng.usize(3..12), rng.usize(3..12));
                if !seq.contains(&p) {
                    seq.push(p);
                }
            }
            seq
        })
        .collect();
    let mut board = Board::new(15, 15, Rule::Freestyle);
    let mut pairs = 0u64;
    let start = Instant::now();
    for _ in 0..20 {
        for g in &games {
            for &p in g {
                board.play(p);
            }
            for _ in g {
                board.undo();
            }
            pairs += g.len() as u64;
        }
    }
    let rate = pairs as f64 / start.elapsed().as_secs_f64();

    let renju = forbidden_bench_board();
    let rounds = 2000;
    let start = Instant::now();
    let mut found = 0;
    for _ in 0..rounds {
        found = std::hint::black_box(renju.forbidden_points()).len();
    }
    let per_list = start.elapsed().as_secs_f64() / rounds as f64;
    vec![
        format!(
            "make+undo: {pairs} pairs, {:.2} million pairs/s (15x15, 40-stone games)",
            rate / 1e6
        ),
        format!(
            "forbidden points: {found} found in {:.1} us per full-board listing ({} stones, renju 15x15)",
            per_list * 1e6,
            renju.stone_count()
        ),
    ]
}

/// Node rate with `threads` search threads: every bench position searched for
/// `millis` milliseconds from a cleared table. Returns report lines and total nodes
/// per second.
pub fn run_threads(threads: usize, millis: u64) -> (Vec<String>, f64) {
    let mut searcher = Searcher::new();
    searcher.set_threads(threads);
    searcher.resize_table(BENCH_TT_BYTES);
    let stop = AtomicBool::new(false);
    let budget = Duration::from_millis(millis);
    let limits = Limits {
        soft: budget,
        hard: budget,
        max_depth: None,
        max_nodes: None,
        nbest: 1,
        threat_solvers: true,
    };
    let mut lines = Vec::new();
    let (mut nodes, mut secs) = (0u64, 0f64);
    for p in POSITIONS {
        searcher.clear();
        let start = Instant::now();
        let r = searcher.think(&setup(p), &limits, &stop, &mut |_| {});
        let took = start.elapsed().as_secs_f64();
        nodes += r.nodes;
        secs += took;
        lines.push(format!(
            "{:<32} depth {:>2}  nodes {:>10}  {:>8.0} nps",
            p.name,
            r.depth,
            r.nodes,
            r.nodes as f64 / took.max(1e-9)
        ));
    }
    let nps = nodes as f64 / secs.max(1e-9);
    lines.push(format!("Threads: {threads} {nodes} nodes {nps:.0} nps"));
    (lines, nps)
}

/// `pbrain-tengen bench [board | depth N | threads N [MILLIS]]`.
pub fn run(args: &[String]) -> anyhow::Result<()> {
    let lines = match args.first().map(String::as_str) {
        Some("board") => run_board(),
        Some("threads") => {
            let threads = args.get(1).map(|d| d.parse()).transpose()?.unwrap_or(1);
            let millis = args.get(2).map(|d| d.parse()).transpose()?.unwrap_or(1000);
            run_threads(threads, millis).0
        }
        Some("depth") => {
            let depth = args
                .get(1)
                .map(|d| d.parse())
                .transpose()?
                .unwrap_or(BENCH_DEPTH);
            run_search(depth).0
        }
        None => run_search(BENCH_DEPTH).0,
        Some(other) => anyhow::bail!(
            "unknown bench mode {other:?}: use `bench`, `bench board`, `bench depth N` or `bench threads N [MILLIS]`"
        ),
    };
    for line in lines {
        if !show(&format!("{line}\n")) {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_legal_and_undecided() {
        for p in POSITIONS {
            let b = setup(p);
            assert!(b.winner().is_none(), "{}", p.name);
            assert!(b.is_consistent(), "{}", p.name);
        }
        assert_eq!(forbidden_bench_board().forbidden_points().len(), 8);
    }

    #[test]
    fn bench_signature_is_repeatable() {
        assert_eq!(run_search(4).1, run_search(4).1);
    }
}
