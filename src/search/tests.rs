use super::*;
use crate::testdata::{records, renju_board};
use crate::types::{Color, Rule};

fn board(rule: Rule, black: &[(usize, usize)], white: &[(usize, usize)]) -> Board {
    let mut b = Board::new(15, 15, rule);
    for &(x, y) in black {
        b.place(Pos::new(x, y), Color::Black);
    }
    for &(x, y) in white {
        b.place(Pos::new(x, y), Color::White);
    }
    b
}

fn search(b: &Board, depth: u32) -> SearchResult {
    Searcher::new().bench_search(b, depth)
}

#[test]
fn solves_every_shared_vct_puzzle_without_the_root_solvers() {
    let mut failures = Vec::new();
    for r in records("renju_puzzles.jsonl")
        .iter()
        .filter(|r| r.get("type").as_str() == "vct")
    {
        let b = renju_board(r);
        let limits = Limits {
            threat_solvers: false,
            ..Limits::depth(14)
        };
        let stop = AtomicBool::new(false);
        let res = Searcher::new().think(&b, &limits, &stop, &mut |_| {});
        if res.score < WIN_THRESHOLD {
            failures.push(format!(
                "{}: {} {}",
                r.get("id").as_str(),
                res.best,
                score_to_string(res.score)
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn two_fives_against_are_reported_as_a_loss_and_one_is_blocked() {
    // Black's open four on row 7 (3..6): white to move faces fives at 2 and 7.
    let b = board(
        Rule::Freestyle,
        &[(3, 7), (4, 7), (5, 7), (6, 7)],
        &[(0, 0), (0, 2), (14, 14)],
    );
    let res = search(&b, 4);
    assert_eq!(res.score, loss_in(2), "{}", score_to_string(res.score));
    assert!(
        [Pos::new(2, 7), Pos::new(7, 7)].contains(&res.best),
        "{}",
        res.best
    );
}

#[test]
fn blocks_an_open_three_in_freestyle() {
    // Black has an open three on row 7; white to move has nothing, so it must block at
    // one of the ends (or lose to an open four).
    let b = board(
        Rule::Freestyle,
        &[(6, 7), (7, 7), (8, 7), (7, 3)],
        &[(6, 8), (8, 9), (4, 4)],
    );
    let res = search(&b, 6);
    assert!(
        [
            Pos::new(5, 7),
            Pos::new(9, 7),
            Pos::new(4, 7),
            Pos::new(10, 7)
        ]
        .contains(&res.best),
        "{}",
        res.best
    );
    assert!(res.score > -WIN_THRESHOLD);
}

#[test]
fn makes_an_open_four_from_an_open_three() {
    let b = board(
        Rule::Freestyle,
        &[(6, 7), (7, 7), (8, 7)],
        &[(6, 8), (8, 9), (0, 0)],
    );
    assert_eq!(b.side_to_move(), Color::Black);
    let res = search(&b, 4);
    assert!(
        [Pos::new(5, 7), Pos::new(9, 7)].contains(&res.best),
        "{}",
        res.best
    );
    assert!(res.score >= WIN_THRESHOLD);
}

#[test]
fn standard_six_is_no_threat() {
    // Black's x x x x . x: the gap makes six, which does not win under standard rules,
    // so white need not block it and black cannot win there.
    let b = board(
        Rule::Standard,
        &[(3, 7), (4, 7), (5, 7), (6, 7), (8, 7), (0, 0)],
        &[(2, 7), (10, 10), (11, 11), (12, 3), (3, 12)],
    );
    assert_eq!(b.side_to_move(), Color::White);
    let res = search(&b, 4);
    assert!(
        res.score > -WIN_THRESHOLD,
        "white is not lost: {}",
        score_to_string(res.score)
    );
}

#[test]
fn finds_a_double_three_win_in_freestyle_but_not_for_renju_black() {
    // Black to move: (7,7) makes two open threes (row 7 and column 7).
    let black = [(5, 7), (6, 7), (7, 5), (7, 6)];
    let white = [(0, 0), (14, 0), (0, 14), (14, 14)];
    let res = search(&board(Rule::Freestyle, &black, &white), 6);
    assert!(res.score >= WIN_THRESHOLD, "{}", score_to_string(res.score));
    let renju = board(Rule::Renju, &black, &white);
    assert!(renju.is_forbidden(Pos::new(7, 7)));
    let res = search(&renju, 4);
    assert_ne!(res.best, Pos::new(7, 7));
}

#[test]
fn bench_search_is_deterministic() {
    let b = board(
        Rule::Freestyle,
        &[(7, 7), (8, 8), (6, 8)],
        &[(8, 7), (6, 6)],
    );
    let a = search(&b, 6);
    let c = search(&b, 6);
    assert_eq!((a.best, a.score, a.nodes), (c.best, c.score, c.nodes));
}

/// The iteration reports count what the result counts: after a search that ends on its
/// depth, the last report's nodes are the result's, the root solvers' included.
#[test]
fn reports_count_the_nodes_the_result_counts() {
    let b = board(
        Rule::Renju,
        &[(7, 7), (8, 8), (6, 8), (9, 6)],
        &[(7, 8), (8, 7), (6, 6)],
    );
    let stop = AtomicBool::new(false);
    let mut last = 0;
    let res = Searcher::new().think(&b, &Limits::depth(7), &stop, &mut |info| {
        last = info.nodes;
    });
    assert_eq!(res.depth, 7);
    assert_eq!(last, res.nodes);
}

#[test]
fn scores_read_as_people_expect() {
    assert_eq!(score_to_string(win_in(1)), "win in 1");
    assert_eq!(score_to_string(win_in(3)), "win in 2");
    assert_eq!(score_to_string(loss_in(2)), "loss in 1");
    assert_eq!(score_to_string(-35), "-35");
    assert_eq!(score_to_string(12), "+12");
}

#[test]
fn time_target_stops_early_when_stable_and_late_when_falling() {
    let limits = Limits {
        soft: Duration::from_millis(1000),
        hard: Duration::from_millis(4000),
        max_depth: None,
        max_nodes: None,
        nbest: 1,
        threat_solvers: true,
    };
    assert_eq!(time_target(&limits, 0, false), Duration::from_millis(1000));
    assert!(time_target(&limits, 10, false) < Duration::from_millis(1000));
    let falling = time_target(&limits, 0, true);
    assert!(falling > Duration::from_millis(1000) && falling <= Duration::from_millis(4000));
    // Never past the hard limit.
    let tight = Limits {
        hard: Duration::from_millis(1100),
        ..limits
    };
    assert_eq!(time_target(&tight, 0, true), Duration::from_millis(1100));
    // Under a turn limit alone unused time is lost: a stable move does not stop early.
    let turn = Limits {
        soft: Duration::from_millis(940),
        hard: Duration::from_millis(940),
        ..limits
    };
    assert_eq!(time_target(&turn, 10, false), Duration::from_millis(940));
}

#[test]
fn a_stop_request_ends_the_search_with_a_legal_move() {
    let b = board(
        Rule::Freestyle,
        &[(7, 7), (8, 8), (6, 8)],
        &[(8, 7), (6, 6)],
    );
    let stop = AtomicBool::new(true);
    let limits = Limits {
        soft: Duration::from_secs(60),
        hard: Duration::from_secs(60),
        max_depth: None,
        max_nodes: None,
        nbest: 1,
        threat_solvers: true,
    };
    let r = Searcher::new().think(&b, &limits, &stop, &mut |_| {});
    assert!(b.is_empty(r.best));
}

#[test]
fn node_limit_holds_in_tactical_positions() {
    // Leaf VCFs add their nodes in batches; the limits must still be checked in time.
    const LIMIT: u64 = 20_000;
    for r in records("renju_puzzles.jsonl") {
        let b = renju_board(&r);
        let limits = Limits {
            soft: Duration::from_secs(3600),
            hard: Duration::from_secs(3600),
            max_depth: None,
            max_nodes: Some(LIMIT),
            nbest: 1,
            threat_solvers: false,
        };
        let stop = AtomicBool::new(false);
        let res = Searcher::new().think(&b, &limits, &stop, &mut |_| {});
        assert!(
            res.nodes <= LIMIT + CHECK_INTERVAL + LEAF_VCF_NODES,
            "{}: {} nodes",
            r.get("id").as_str(),
            res.nodes
        );
    }
}

#[test]
fn nbest_lists_distinct_moves_best_first() {
    let b = board(
        Rule::Freestyle,
        &[(7, 7), (8, 8), (6, 8)],
        &[(8, 7), (6, 6)],
    );
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nbest: 3,
        ..Limits::depth(4)
    };
    let r = Searcher::new().think(&b, &limits, &stop, &mut |_| {});
    assert_eq!(r.nbest.len(), 3);
    assert_eq!(r.nbest[0].0, r.best);
    let mut moves: Vec<Pos> = r.nbest.iter().map(|m| m.0).collect();
    moves.dedup();
    assert_eq!(moves.len(), 3);
    assert!(
        r.nbest.windows(2).all(|w| w[0].1 >= w[1].1 - 50),
        "{:?}",
        r.nbest
    );
}

#[test]
fn lazy_smp_threads_agree_on_forced_wins_and_play_legal_moves() {
    let mut searcher = Searcher::new();
    searcher.set_threads(3);
    let stop = AtomicBool::new(false);
    for r in records("renju_puzzles.jsonl")
        .iter()
        .filter(|r| r.get("type").as_str() == "vct")
    {
        let b = renju_board(r);
        searcher.clear();
        let res = searcher.think(&b, &Limits::depth(14), &stop, &mut |_| {});
        assert!(b.is_empty(res.best), "{}", r.get("id").as_str());
        assert!(!b.clone().is_forbidden_mut(res.best) || b.side_to_move() == Color::White);
        assert!(
            res.score >= WIN_THRESHOLD,
            "{}: {}",
            r.get("id").as_str(),
            score_to_string(res.score)
        );
    }
}

#[test]
fn vote_prefers_proven_wins_then_depth() {
    let o = |best: (usize, usize), score: i32, depth: u32| Outcome {
        best: Pos::new(best.0, best.1),
        score,
        depth,
        nodes: 0,
        pv: Vec::new(),
    };
    let main = o((1, 1), 50, 8);
    assert_eq!(vote(&main, &[o((2, 2), 90, 7)]).best, Pos::new(1, 1));
    assert_eq!(vote(&main, &[o((2, 2), -20, 9)]).best, Pos::new(2, 2));
    assert_eq!(
        vote(&main, &[o((2, 2), win_in(9), 6), o((3, 3), win_in(5), 4)]).best,
        Pos::new(3, 3)
    );
    assert_eq!(vote(&main, &[Outcome::default()]).best, Pos::new(1, 1));
}

/// A middle game from a self-play match (freestyle 15x15) where threat extensions
/// without a bound made the first iteration run for seconds: depth 1 took 6.9 million
/// nodes, far past a 300 ms turn. Whatever the search extends (singular moves, forced
/// blocks), a shallow iteration here must stay small.
#[test]
fn threat_extensions_stay_bounded_in_shallow_iterations() {
    let moves = [
        (7, 7),
        (8, 6),
        (7, 8),
        (7, 6),
        (6, 7),
        (5, 7),
        (9, 6),
        (5, 6),
        (8, 7),
        (6, 9),
        (10, 7),
        (9, 7),
        (10, 8),
        (10, 6),
        (8, 8),
        (9, 8),
        (4, 6),
        (5, 5),
        (5, 4),
        (10, 10),
        (5, 8),
        (4, 8),
        (11, 8),
        (8, 5),
        (9, 10),
        (8, 11),
        (10, 11),
        (8, 9),
        (12, 9),
        (13, 10),
        (11, 10),
        (13, 8),
        (11, 9),
        (11, 11),
        (10, 9),
        (9, 9),
        (12, 7),
        (13, 6),
        (11, 7),
        (11, 6),
        (13, 7),
        (14, 7),
        (12, 6),
        (12, 5),
        (12, 10),
        (12, 8),
        (14, 9),
        (13, 9),
        (13, 11),
        (14, 12),
        (11, 5),
        (10, 4),
        (6, 5),
        (11, 4),
        (10, 3),
        (5, 9),
        (7, 9),
        (8, 4),
        (7, 4),
        (5, 3),
        (7, 5),
        (8, 3),
        (8, 2),
    ];
    let mut b = Board::new(15, 15, Rule::Freestyle);
    for (x, y) in moves {
        b.play(Pos::new(x, y));
    }
    for depth in 1..=3 {
        let r = search(&b, depth);
        assert!(r.nodes < 200_000, "depth {depth}: {} nodes", r.nodes);
        assert!(b.is_empty(r.best));
    }
}

/// A forced block under a match clock searches a tenth of the soft limit (hard at three
/// times that, also where the clock's hard limit is barely above its soft one); with a
/// turn limit alone, or a fixed depth, the budget stays whole.
#[test]
fn a_forced_move_banks_match_time_only() {
    let ms = Duration::from_millis;
    let clock = Limits {
        soft: ms(2_000),
        hard: ms(6_000),
        ..Limits::depth(60)
    };
    let forced = forced_budget(&clock);
    assert_eq!((forced.soft, forced.hard), (ms(200), ms(600)));
    let tight = forced_budget(&Limits {
        soft: ms(2_000),
        hard: ms(2_100),
        ..clock.clone()
    });
    assert_eq!((tight.soft, tight.hard), (ms(200), ms(600)));
    let turn = Limits {
        soft: ms(940),
        hard: ms(940),
        ..clock.clone()
    };
    let unchanged = forced_budget(&turn);
    assert_eq!((unchanged.soft, unchanged.hard), (ms(940), ms(940)));
    let fixed = forced_budget(&Limits::depth(8));
    assert_eq!(
        (fixed.soft, fixed.hard, fixed.max_depth),
        (Duration::MAX, Duration::MAX, Some(8))
    );
}
