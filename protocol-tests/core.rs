//! The official commands, each with a well-formed request.

use crate::harness::{Brain, board_lines, parse_move};
use std::collections::BTreeSet;

#[test]
fn about_is_one_line_of_key_value_pairs() {
    let mut brain = Brain::start();
    brain.send("ABOUT");
    let about = brain.line();
    assert!(about.starts_with("name=\"Tengen\""), "{about}");
    for pair in about.split(", ") {
        let (key, value) = pair.split_once('=').expect("key=value");
        assert!(
            !key.is_empty() && key.bytes().all(|b| b.is_ascii_lowercase()),
            "{pair}"
        );
        assert!(
            value.len() >= 2 && value.starts_with('"') && value.ends_with('"'),
            "{pair}"
        );
    }
}

#[test]
fn start_accepts_every_size_from_5_to_32() {
    let mut brain = Brain::start();
    for size in [5, 6, 15, 19, 20, 32] {
        brain.send(&format!("START {size}"));
        brain.expect("OK");
    }
    for (w, h) in [(20, 15), (5, 32), (32, 5)] {
        brain.send(&format!("RECTSTART {w},{h}"));
        brain.expect("OK");
    }
}

#[test]
fn begin_opens_on_an_empty_board() {
    for size in [5, 15, 20] {
        let mut brain = Brain::started(size);
        brain.send("BEGIN");
        let (x, y) = brain.expect_move();
        assert!(x < size && y < size);
        assert_eq!(brain.probe_stones(size, size), BTreeSet::from([(x, y)]));
    }
}

#[test]
fn turn_adds_the_opponent_move_and_replies_with_a_free_point() {
    let mut brain = Brain::started(15);
    let mut taken = BTreeSet::new();
    for (x, y) in [(0, 0), (14, 14), (0, 14), (14, 0), (7, 0), (0, 7)] {
        assert!(
            !taken.contains(&(x, y)),
            "the brain already played {x},{y}; pick another"
        );
        brain.send(&format!("TURN {x},{y}"));
        taken.insert((x, y));
        let reply = brain.expect_move();
        assert!(reply.0 < 15 && reply.1 < 15, "{reply:?}");
        assert!(taken.insert(reply), "{reply:?} is taken");
    }
    assert_eq!(brain.probe_stones(15, 15), taken);
}

#[test]
fn messages_come_before_the_move_and_moves_have_nothing_after_them() {
    let mut brain = Brain::started(15);
    brain.send("BEGIN");
    let (messages, reply) = brain.reply_with_messages();
    assert!(parse_move(&reply).is_some(), "{reply:?}");
    assert!(
        !messages.is_empty(),
        "a search summary is printed before the move"
    );
    let summary = messages.last().unwrap();
    for word in ["depth ", "score ", "nodes ", "nps ", "time ", "pv"] {
        assert!(summary.contains(word), "{summary:?} lacks {word:?}");
    }
}

#[test]
fn board_works_first_and_in_the_middle_of_a_game() {
    let mut brain = Brain::started(15);
    let opening = [(7, 7), (8, 8), (6, 8)];
    brain.send_all(
        &board_lines(&opening, "BOARD")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let first = brain.expect_move();
    assert!(!opening.contains(&first));
    brain.send("TURN 1,1");
    let second = brain.expect_move();
    // A new position replaces the old one entirely.
    let replacement = [(3, 3), (4, 4)];
    brain.send_all(
        &board_lines(&replacement, "BOARD")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let third = brain.expect_move();
    assert!(!replacement.contains(&third));
    let mut expected: BTreeSet<_> = replacement.into_iter().collect();
    expected.insert(third);
    assert_eq!(
        brain.probe_stones(15, 15),
        expected,
        "after {first:?} and {second:?}"
    );
}

#[test]
fn board_side_to_move_comes_from_the_counts() {
    // Five own stones and six of the opponent's: we are white. Our only win is 6,2,
    // which makes six in a row: a win for white under renju, a forbidden overline for
    // black. A brain that took itself for black would not play it.
    let mut brain = Brain::started(15);
    brain.send("INFO rule 4");
    brain.send_all(&[
        "BOARD", "1,2,2", "2,2,1", "10,10,2", "3,2,1", "12,10,2", "4,2,1", "10,12,2", "5,2,1",
        "12,12,2", "7,2,1", "0,14,2", "DONE",
    ]);
    assert_eq!(brain.expect_move(), (6, 2));
}

#[test]
fn board_blocked_points_are_never_played() {
    let mut brain = Brain::started(5);
    // Everything blocked except (4,4) and (0,4): the move must be one of them.
    let mut lines = vec!["BOARD".to_owned()];
    for y in 0..5 {
        for x in 0..5 {
            if (x, y) != (4, 4) && (x, y) != (0, 4) {
                lines.push(format!("{x},{y},3"));
            }
        }
    }
    lines.push("DONE".to_owned());
    brain.send_all(&lines.iter().map(String::as_str).collect::<Vec<_>>());
    let reply = brain.expect_move();
    assert!(reply == (4, 4) || reply == (0, 4), "{reply:?}");
}

#[test]
fn takeback_removes_a_stone_and_answers_ok() {
    let mut brain = Brain::started(15);
    brain.send("TURN 7,7");
    let ours = brain.expect_move();
    brain.send(&format!("TAKEBACK {},{}", ours.0, ours.1));
    brain.expect("OK");
    brain.send("TAKEBACK 7,7");
    brain.expect("OK");
    assert!(brain.probe_stones(15, 15).is_empty());
}

#[test]
fn play_imposes_the_move_and_echoes_it() {
    let mut brain = Brain::started(15);
    brain.send("TURN 7,7");
    let ours = brain.expect_move();
    let forced = if ours == (3, 3) { (4, 4) } else { (3, 3) };
    brain.send("TURN 10,10");
    let _ = brain.expect_move();
    brain.send(&format!("PLAY {},{}", forced.0, forced.1));
    assert_eq!(brain.expect_move(), forced);
    assert!(brain.probe_stones(15, 15).contains(&forced));
}

#[test]
fn rectangular_boards_keep_moves_inside() {
    let mut brain = Brain::start();
    brain.send("RECTSTART 20,6");
    brain.expect("OK");
    brain.send("INFO timeout_turn 200");
    let mut taken = BTreeSet::new();
    for (x, y) in [(19, 5), (0, 0), (19, 0)] {
        brain.send(&format!("TURN {x},{y}"));
        taken.insert((x, y));
        let reply = brain.expect_move();
        assert!(reply.0 < 20 && reply.1 < 6, "{reply:?}");
        assert!(taken.insert(reply));
    }
}

#[test]
fn one_ply_baseline_makes_five_before_blocking_and_blocks_otherwise() {
    let send_board = |brain: &mut Brain, moves: &[(usize, usize)]| {
        let lines = board_lines(moves, "BOARD");
        brain.send_all(&lines.iter().map(String::as_str).collect::<Vec<_>>());
    };
    let mut brain = Brain::start_with_args(&["--one-ply"]);
    brain.send("START 15");
    brain.expect("OK");
    // Both sides have four in a row; the side to move (black) completes its own.
    let both = [
        (3, 3),
        (3, 9),
        (4, 3),
        (4, 9),
        (5, 3),
        (5, 9),
        (6, 3),
        (6, 9),
    ];
    send_board(&mut brain, &both);
    let mv = brain.expect_move();
    assert!(mv == (2, 3) || mv == (7, 3), "{mv:?}");
    // The same threes, then black's row stays a three while white's becomes a four
    // (blocked on one end): black blocks it.
    let blocked: Vec<_> = both[..6]
        .iter()
        .copied()
        .chain([(2, 9), (6, 9), (12, 12), (0, 14)])
        .collect();
    send_board(&mut brain, &blocked);
    assert_eq!(brain.expect_move(), (7, 9));
}
