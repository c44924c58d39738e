//! The bench: a fixed set of positions searched to a fixed depth on one thread from a
//! cleared table. Its node count is the search's signature: a change that alters the
//! search changes it, a refactor does not. `bench board` measures the board itself.

use std::time::Instant;

use crate::board::Board;
use crate::search::{Searcher, score_to_string};
use crate::types::{Pos, Rule};

/// Depth every bench position is searched to.
pub const BENCH_DEPTH: u32 = 10;

/// A bench position: rule, board size and the moves played alternately from black.
struct BenchPosition {
    name: &'static str,
    rule: Rule,
    size: usize,
    moves: &'static [(usize, usize)],
}

const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        name: "freestyle-15 opening",
        rule: Rule::Freestyle,
        size: 15,
        moves: &[(7, 7), (8, 7), (8, 10)],
    },
    BenchPosition {
        name: "freestyle-15 middle game",
        rule: Rule::Freestyle,
        size: 15,
        moves: &[
            (7, 7),
            (8, 8),
            (6, 8),
            (8, 6),
            (8, 7),
            (6, 7),
            (9, 6),
            (7, 9),
            (7, 8),
            (9, 8),
            (10, 9),
            (5, 9),
        ],
    },
    BenchPosition {
        name: "freestyle-20 opening",
        rule: Rule::Freestyle,
        size: 20,
        moves: &[(10, 10), (11, 9), (9, 11), (12, 12), (11, 11)],
    },
    BenchPosition {
        name: "freestyle-20 VCF",
        rule: Rule::Freestyle,
        size: 20,
        moves: &[
            (9, 9),
            (10, 10),
            (9, 10),
            (9, 11),
            (10, 9),
            (8, 9),
            (11, 8),
            (12, 7),
            (11, 10),
            (12, 11),
            (11, 9),
            (0, 0),
            (12, 9),
        ],
    },
    BenchPosition {
        name: "standard-15 opening",
        rule: Rule::Standard,
        size: 15,
        moves: &[(7, 7), (7, 8), (9, 7), (8, 6), (6, 8)],
    },
    BenchPosition {
        name: "renju-15 opening (Kagetsu)",
        rule: Rule::Renju,
        size: 15,
        moves: &[(7, 7), (7, 6), (8, 6)],
    },
    BenchPosition {
        name: "renju-15 forbidden points",
        rule: Rule::Renju,
        size: 15,
        moves: &[
            (7, 7),
            (6, 6),
            (8, 7),
            (9, 7),
            (7, 8),
            (7, 9),
            (8, 9),
            (6, 7),
            (6, 9),
            (9, 10),
            (5, 8),
            (4, 7),
            (8, 8),
            (8, 10),
            (9, 8),
            (10, 8),
            (6, 10),
            (5, 11),
        ],
    },
    BenchPosition {
        name: "caro-15 opening",
        rule: Rule::Caro,
        size: 15,
        moves: &[(7, 7), (8, 8), (8, 6), (6, 8)],
    },
];

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
    let start = Instant::now();
    for p in POSITIONS {
        let board = setup(p);
        let r = searcher.bench_search(&board, depth);
        total += r.nodes;
        lines.push(format!(
            "{:<32} best {:>5}  score {:>10}  depth {:>2}  nodes {:>10}",
            p.name,
            r.best.to_string(),
            score_to_string(r.score),
            r.depth,
            r.nodes
        ));
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
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

    let renju = setup(
        POSITIONS
            .iter()
            .find(|p| p.name.contains("forbidden"))
            .expect("renju bench position"),
    );
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

/// `pbrain-tengen bench [board | depth N]`.
pub fn run(args: &[String]) -> anyhow::Result<()> {
    match args.first().map(String::as_str) {
        Some("board") => {
            for line in run_board() {
                println!("{line}");
            }
        }
        Some("depth") => {
            let depth = args
                .get(1)
                .map(|d| d.parse())
                .transpose()?
                .unwrap_or(BENCH_DEPTH);
            for line in run_search(depth).0 {
                println!("{line}");
            }
        }
        None => {
            for line in run_search(BENCH_DEPTH).0 {
                println!("{line}");
            }
        }
        Some(other) => anyhow::bail!(
            "unknown bench mode {other:?}: use `bench`, `bench board` or `bench depth N`"
        ),
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
        let renju = setup(
            POSITIONS
                .iter()
                .find(|p| p.name.contains("forbidden"))
                .expect("renju position"),
        );
        assert!(!renju.forbidden_points().is_empty());
    }

    #[test]
    fn bench_signature_is_repeatable() {
        assert_eq!(run_search(4).1, run_search(4).1);
    }
}
