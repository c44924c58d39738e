use super::*;
use crate::testdata::records;
use crate::testutil::random_empty;

fn board_from(rule: Rule, size: usize, black: &[Pos], white: &[Pos]) -> Board {
    let mut b = Board::new(size, size, rule);
    for &p in black {
        b.place(p, Color::Black);
    }
    for &p in white {
        b.place(p, Color::White);
    }
    b
}

#[test]
fn forbidden_points_match_the_shared_rulings() {
    let recs = records("renju_forbidden.jsonl");
    assert_eq!(recs.len(), 329);
    let mut failures = Vec::new();
    for r in &recs {
        let b = board_from(
            Rule::Renju,
            r.get("size").as_i64() as usize,
            &r.get("black").as_points(),
            &r.get("white").as_points(),
        );
        let point = r.get("point").as_point();
        let expected = r.get("forbidden").as_bool();
        let listed = b.forbidden_points().contains(&point);
        if b.is_forbidden(point) != expected || listed != expected {
            failures.push(format!(
                "{} {} expected {expected} ({})",
                r.get("id").as_str(),
                point,
                r.get("kind").as_str()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of 329 wrong:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn forbidden_points_exist_only_under_renju() {
    let r = &records("renju_forbidden.jsonl")[0];
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro] {
        let b = board_from(
            rule,
            15,
            &r.get("black").as_points(),
            &r.get("white").as_points(),
        );
        assert!(b.forbidden_points().is_empty());
        assert!(!b.is_forbidden(r.get("point").as_point()));
    }
}

/// Plays random games to the end and back, checking the incremental state against a
/// full recomputation after every step.
#[test]
fn make_undo_stays_consistent_in_random_games() {
    let mut rng = fastrand::Rng::with_seed(20261129);
    for rule in Rule::ALL {
        for game in 0..60 {
            let (w, h) = match game % 4 {
                0 => (15, 15),
                1 => (20, 20),
                2 => (5 + rng.usize(0..28), 5 + rng.usize(0..28)),
                _ => (32, 7),
            };
            let mut b = Board::new(w, h, rule);
            let empty_hash = b.hash();
            let mut hashes = vec![b.hash()];
            let length = rng.usize(1..=w * h);
            for _ in 0..length {
                let p = random_empty(&b, &mut rng).expect("fewer stones than points");
                b.play(p);
                assert!(b.is_consistent(), "{rule} {w}x{h} after {p}\n{b:?}");
                hashes.push(b.hash());
            }
            while b.stone_count() > 0 {
                assert_eq!(hashes.pop(), Some(b.hash()));
                b.undo();
                if b.stone_count().is_multiple_of(7) {
                    assert!(b.is_consistent(), "{rule} {w}x{h} after undo\n{b:?}");
                }
            }
            assert!(b.is_consistent());
            assert_eq!(b.hash(), empty_hash);
        }
    }
}

#[test]
fn blocked_cells_act_as_walls() {
    let mut b = Board::new(15, 15, Rule::Freestyle);
    for x in 3..7 {
        b.place(Pos::new(x, 7), Color::Black);
    }
    assert!(b.is_winning_move(Pos::new(2, 7), Color::Black));
    b.block(Pos::new(2, 7));
    assert!(!b.is_empty(Pos::new(2, 7)));
    assert!(b.is_winning_move(Pos::new(7, 7), Color::Black));
    assert!(b.is_consistent());
}

/// Builds a single-row position from a picture: `x` black, `o` white, `.` empty.
fn row(rule: Rule, picture: &str) -> Board {
    let mut b = Board::new(picture.len().max(5), 5, rule);
    for (x, c) in picture.chars().enumerate() {
        match c {
            'x' => b.place(Pos::new(x, 2), Color::Black),
            'o' => b.place(Pos::new(x, 2), Color::White),
            _ => {}
        }
    }
    b
}

#[test]
fn winning_moves_follow_each_rule() {
    let at = |x| Pos::new(x, 2);
    // Four black stones and a fifth point that makes six.
    let b = row(Rule::Freestyle, ".xxxx.x...");
    assert!(b.is_winning_move(at(5), Color::Black));
    assert!(b.is_winning_move(at(0), Color::Black));
    for rule in [Rule::Standard, Rule::Renju] {
        let b = row(rule, ".xxxx.x...");
        assert!(
            !b.is_winning_move(at(5), Color::Black),
            "{rule}: six is no win"
        );
        assert!(b.is_winning_move(at(0), Color::Black));
    }
    // Renju white wins with six.
    let b = row(Rule::Renju, ".oooo.o...");
    assert!(b.is_winning_move(at(5), Color::White));
    let b = row(Rule::Standard, ".oooo.o...");
    assert!(!b.is_winning_move(at(5), Color::White));
    // Caro: a five blocked at both ends does not win; one open end does.
    let b = row(Rule::Caro, "oxxxx.o...");
    assert!(!b.is_winning_move(at(5), Color::Black));
    let b = row(Rule::Caro, "oxxxx.....");
    assert!(b.is_winning_move(at(5), Color::Black));
}

#[test]
fn renju_five_takes_precedence_over_a_forbidden_shape() {
    // (7,7) completes a horizontal five and a vertical six at once.
    let mut b = Board::new(15, 15, Rule::Renju);
    for x in [3, 4, 5, 6] {
        b.place(Pos::new(x, 7), Color::Black);
    }
    for y in [2, 3, 4, 5, 6] {
        b.place(Pos::new(7, y), Color::Black);
    }
    let p = Pos::new(7, 7);
    assert!(!b.is_forbidden(p));
    assert!(b.is_winning_move(p, Color::Black));
    // Without the five the same point is an overline, and forbidden.
    let mut c = Board::new(15, 15, Rule::Renju);
    for y in [2, 3, 4, 5, 6] {
        c.place(Pos::new(7, y), Color::Black);
    }
    assert!(c.is_forbidden(p));
    assert!(!c.is_winning_move(p, Color::Black));
    assert!(c.forbidden_points().contains(&p));
}

#[test]
fn winner_reports_the_last_stone_only() {
    let mut b = row(Rule::Freestyle, "xxxx.......");
    assert_eq!(b.winner(), None);
    b.place(Pos::new(4, 2), Color::Black);
    assert_eq!(b.winner(), Some(Color::Black));
    b.undo();
    assert_eq!(b.winner(), None);
}

/// The counts the evaluation's threat table reads: a point joining two twos makes a
/// double three (forbidden for black under renju, so not counted as one) while the
/// twos' ends make single open threes, and a point joining a closed three and a two
/// makes a four and a three at once.
#[test]
fn threat_counts_find_double_threes_and_four_threes() {
    let p = |x, y| Pos::new(x, y);
    let twos = [p(5, 7), p(6, 7), p(7, 5), p(7, 6)];
    for rule in [Rule::Freestyle, Rule::Renju] {
        let counted = rule != Rule::Renju;
        let b = board_from(rule, 15, &twos, &[p(0, 0)]);
        assert_eq!(b.shape(p(7, 7), Color::Black) == Shape::Flex3x2, counted);
        assert_eq!(b.count_flex3x2(Color::Black) > 0, counted, "{rule}");
        assert_eq!(b.shape(p(4, 7), Color::Black), Shape::Flex3);
        assert_eq!(b.threat_class(Color::Black) & 5, 4 | counted as usize);
        assert_eq!(b.threat_class(Color::Black) / 8, 0, "no four yet");
        let w = board_from(rule, 15, &[p(0, 0)], &twos);
        assert!(w.count_flex3x2(Color::White) > 0, "{rule}");
        assert_eq!(w.threat_class(Color::White) & 5, 5);

        let three_and_two = [p(4, 7), p(5, 7), p(6, 7), p(7, 5), p(7, 6)];
        let b = board_from(rule, 15, &three_and_two, &[p(3, 7)]);
        assert_eq!(b.shape(p(7, 7), Color::Black), Shape::Block4Flex3);
        assert!(b.count_block4_flex3(Color::Black) > 0);
        assert!(b.threat_class(Color::Black) / 8 >= 3, "a four-three");
        assert_eq!(b.threat_class(Color::White), 0);
    }
}

/// `threat_class` says what the empty cells' shapes say, counted afresh, through random
/// games under every rule.
#[test]
fn threat_class_matches_the_cells() {
    let mut rng = fastrand::Rng::with_seed(20261201);
    for rule in Rule::ALL {
        for _ in 0..20 {
            let mut b = Board::new(15, 15, rule);
            for _ in 0..rng.usize(1..120) {
                b.play(random_empty(&b, &mut rng).expect("fewer stones than points"));
                for color in [Color::Black, Color::White] {
                    let has = |shapes: &[Shape]| {
                        b.points()
                            .any(|p| b.is_empty(p) && shapes.contains(&b.shape(p, color)))
                    };
                    let plus = has(&[Shape::Block4Plus]) as usize;
                    let four_three = has(&[Shape::Block4Flex3]) as usize;
                    let fours = if has(&[Shape::Block4, Shape::Block4Plus, Shape::Block4Flex3]) {
                        1 + plus + 2 * four_three
                    } else {
                        0
                    };
                    let expected = (8 * fours)
                        | has(&[Shape::Flex3x2]) as usize
                        | (has(&[Shape::Flex3Plus]) as usize) << 1
                        | (has(&[Shape::Flex3]) as usize) << 2;
                    assert_eq!(b.threat_class(color), expected, "{rule} {color:?}\n{b:?}");
                    assert!(expected < THREAT_CLASSES);
                }
            }
        }
    }
}

/// Random games under every rule, twelve each of 20 to 160 stones drawn from `seed`:
/// every third position goes to `check` with its empty points.
fn random_positions(seed: u64, mut check: impl FnMut(&mut Board, &[Pos])) {
    let mut rng = fastrand::Rng::with_seed(seed);
    for rule in Rule::ALL {
        for _ in 0..12 {
            let mut b = Board::new(15, 15, rule);
            for step in 0..rng.usize(20..160) {
                if b.winner().is_some() {
                    break;
                }
                let Some(p) = random_empty(&b, &mut rng) else {
                    break;
                };
                b.play(p);
                if step % 3 == 0 {
                    let empties: Vec<Pos> = b.points().filter(|&p| b.is_empty(p)).collect();
                    check(&mut b, &empties);
                }
            }
        }
    }
}

/// `stops_flex4` answers what placing the stone and counting the opponent's open-four
/// points says, through random games under every rule, for every empty point and colour.
#[test]
fn stops_flex4_matches_placing_the_stone() {
    let mut defences = 0;
    random_positions(20261206, |b, empties| {
        let rule = b.rule();
        for &p in empties {
            for color in [Color::Black, Color::White] {
                let them = color.opp();
                let before = b.count_flex4(them);
                b.place(p, color);
                let stops = b.count_flex4(them) == 0;
                b.undo();
                defences += (stops && before > 0) as u32;
                assert_eq!(
                    b.stops_flex4(p, color),
                    stops,
                    "{rule} {p} {color:?}\n{b:?}"
                );
            }
        }
    });
    assert!(defences > 100, "{defences} defences met");
}

/// `lone_five_point` names the five point that placing the four leaves, and only where
/// it leaves exactly one, through random games under every rule, for every point where
/// either colour without a five point makes a four (as in the VCF, where the attacker
/// with a five point has already won); and a white four makes no point a possible
/// forbidden point of black's, so the VCF may take a block that was none as legal.
#[test]
fn lone_five_point_matches_placing_the_four() {
    let (mut lone, mut more) = (0, 0);
    random_positions(20261207, |b, empties| {
        let rule = b.rule();
        for &p in empties {
            for color in [Color::Black, Color::White] {
                let Some(dir) = (0..4).find(|&d| b.pattern(p, color, d).four_count() > 0) else {
                    continue;
                };
                if b.count_fives(color) > 0 {
                    continue;
                }
                let may_be_forbidden: Vec<Pos> = empties
                    .iter()
                    .copied()
                    .filter(|&q| b.shape(q, Color::Black) == Shape::MaybeForbidden)
                    .collect();
                b.place(p, color);
                let fives: Vec<Pos> = empties
                    .iter()
                    .copied()
                    .filter(|&q| q != p && b.shape(q, color) == Shape::Five)
                    .collect();
                // A white stone only takes from black's lines: no new possible
                // forbidden point, so a block that was none stays legal.
                if color == Color::White {
                    for &q in empties.iter().filter(|&&q| q != p) {
                        assert!(
                            b.shape(q, Color::Black) != Shape::MaybeForbidden
                                || may_be_forbidden.contains(&q),
                            "{rule} {p} {q}\n{b:?}"
                        );
                    }
                }
                b.undo();
                let expected = (fives.len() == 1).then(|| fives[0]);
                lone += expected.is_some() as u32;
                more += (fives.len() > 1) as u32;
                assert_eq!(
                    b.lone_five_point(p, color, dir),
                    expected,
                    "{rule} {p} {color:?}\n{b:?}"
                );
            }
        }
    });
    assert!(
        lone > 1000 && more > 100,
        "{lone} lone five points, {more} fours with more"
    );
}

/// Under renju a white stone can give black an open four where black had none: at a
/// double four, forbidden, it blocks the second four and leaves a straight four.
#[test]
fn stops_flex4_sees_an_open_four_a_block_brings_back() {
    let at = |pts: &[(usize, usize)]| pts.iter().map(|&(x, y)| Pos::new(x, y)).collect::<Vec<_>>();
    let black = at(&[(1, 7), (2, 7), (3, 7), (4, 8), (4, 9), (4, 11)]);
    let mut b = board_from(Rule::Renju, 15, &black, &at(&[(4, 12)]));
    let (q, p) = (Pos::new(4, 7), Pos::new(4, 10));
    assert_eq!(b.count_flex4(Color::Black), 0);
    assert_eq!(b.shape(q, Color::Black), Shape::MaybeForbidden);
    assert!(!b.stops_flex4(p, Color::White));
    b.place(p, Color::White);
    assert_eq!(b.shape(q, Color::Black), Shape::Flex4);
    assert_eq!(b.count_flex4(Color::Black), 1);
}
