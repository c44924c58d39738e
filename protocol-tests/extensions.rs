//! Yixin-Board extensions and Swap2.

use crate::harness::{Brain, parse_move};
use crate::records::{self, field, number, points, points_of};
use std::collections::BTreeSet;

/// Parses `FORBID xxyy….` into points.
fn forbidden(line: &str) -> BTreeSet<(usize, usize)> {
    let groups = line
        .strip_prefix("FORBID ")
        .and_then(|rest| rest.strip_suffix('.'))
        .unwrap_or_else(|| panic!("not a FORBID line: {line:?}"));
    assert_eq!(groups.len() % 4, 0, "{line:?}");
    assert!(groups.bytes().all(|b| b.is_ascii_digit()), "{line:?}");
    (0..groups.len() / 4)
        .map(|i| {
            let x = groups[4 * i..4 * i + 2].parse().unwrap();
            let y = groups[4 * i + 2..4 * i + 4].parse().unwrap();
            (x, y)
        })
        .collect()
}

/// Black double three at 7,7 on an otherwise quiet board, black to move.
const DOUBLE_THREE: [&str; 10] = [
    "YXBOARD", "5,7,1", "6,7,1", "7,5,1", "7,6,1", "0,0,2", "14,0,2", "0,14,2", "14,14,2", "DONE",
];

#[test]
fn yxboard_sets_the_position_without_thinking() {
    let mut brain = Brain::started(15);
    brain.send_all(&["YXBOARD", "7,7,1", "8,8,2", "DONE"]);
    brain.expect_silence();
    assert_eq!(brain.probe_stones(15, 15), BTreeSet::from([(7, 7), (8, 8)]));
}

#[test]
fn yxshowforbid_lists_black_forbidden_points_under_renju() {
    let mut brain = Brain::started(15);
    brain.send("YXSHOWFORBID");
    assert_eq!(brain.reply(), "FORBID .");
    brain.send_all(&DOUBLE_THREE);
    brain.send("YXSHOWFORBID");
    assert_eq!(
        brain.reply(),
        "FORBID .",
        "freestyle has no forbidden points"
    );
    for rule in ["4", "2"] {
        brain.send(&format!("INFO rule {rule}"));
        brain.send("YXSHOWFORBID");
        let line = brain.reply();
        assert!(forbidden(&line).contains(&(7, 7)), "rule {rule}: {line}");
        brain.send("INFO rule 0");
    }
}

#[test]
fn renju_black_never_plays_a_forbidden_point() {
    // The double-three point is also where a one-ply choice would go (most stones near).
    let mut brain = Brain::started(15);
    brain.send("INFO rule 4");
    let mut lines = DOUBLE_THREE.to_vec();
    lines[0] = "BOARD";
    brain.send_all(&lines);
    let reply = brain.expect_move();
    assert_ne!(reply, (7, 7));
}

#[test]
fn yxshowforbid_agrees_with_the_shared_records() {
    let text = records::shared("renju_forbidden.jsonl");
    let mut brain = Brain::start();
    let mut size = 0;
    let mut checked = 0;
    for record in text.lines().filter(|l| !l.trim().is_empty()) {
        let record_size = number(record, "size");
        if record_size != size {
            size = record_size;
            brain.send(&format!("START {size}"));
            brain.expect("OK");
            brain.send("INFO rule 4");
        }
        let black = points(record, "black");
        let white = points(record, "white");
        let point = points_of(field(record, "point"))[0];
        let expected = field(record, "forbidden").starts_with("true");
        // YXBOARD marks stones relative to the side to move. The brain takes us for
        // white when we have one stone fewer than the opponent, and otherwise for the
        // colour of the first stone listed; black is listed first.
        let (black_field, white_field) = if black.len() + 1 == white.len() {
            (2, 1)
        } else {
            (1, 2)
        };
        let mut lines = vec!["YXBOARD".to_owned()];
        lines.extend(black.iter().map(|(x, y)| format!("{x},{y},{black_field}")));
        lines.extend(white.iter().map(|(x, y)| format!("{x},{y},{white_field}")));
        lines.push("DONE".to_owned());
        brain.send_all(&lines.iter().map(String::as_str).collect::<Vec<_>>());
        brain.send("YXSHOWFORBID");
        let line = brain.reply();
        let id = field(record, "id");
        assert_eq!(
            forbidden(&line).contains(&point),
            expected,
            "record {id}: {line}"
        );
        checked += 1;
    }
    assert!(checked >= 300, "only {checked} records");
}

#[test]
fn yxnbest_lists_moves_then_plays_the_best() {
    let mut brain = Brain::started(15);
    brain.send_all(&["YXBOARD", "7,7,2", "DONE", "YXNBEST 3"]);
    let (messages, reply) = brain.reply_with_messages();
    let best = parse_move(&reply).unwrap_or_else(|| panic!("{reply:?}"));
    let listed: Vec<&String> = messages
        .iter()
        .filter(|m| m.starts_with("MESSAGE nbest "))
        .collect();
    assert!((1..=3).contains(&listed.len()), "{messages:?}");
    assert!(
        listed[0].starts_with(&format!("MESSAGE nbest 1 {},{} ", best.0, best.1)),
        "{listed:?}"
    );
    assert_eq!(brain.probe_stones(15, 15), BTreeSet::from([(7, 7), best]));
}

#[test]
fn yxhashclear_is_silent() {
    let mut brain = Brain::started(15);
    brain.send("YXHASHCLEAR");
    brain.expect_silence();
    brain.send("BEGIN");
    brain.expect_move();
}

fn moves_of(line: &str) -> Vec<(usize, usize)> {
    line.split(' ')
        .map(|m| parse_move(m).unwrap_or_else(|| panic!("{line:?}")))
        .collect()
}

fn swap2_brain() -> Brain {
    let mut brain = Brain::started(15);
    brain.send("INFO rule 1");
    brain
}

#[test]
fn swap2board_without_stones_places_three() {
    let mut brain = swap2_brain();
    brain.send_all(&["SWAP2BOARD", "DONE"]);
    let moves = moves_of(&brain.reply());
    assert_eq!(moves.len(), 3);
    assert_eq!(moves.iter().collect::<BTreeSet<_>>().len(), 3);
    assert!(moves.iter().all(|&(x, y)| x < 15 && y < 15));
}

#[test]
fn swap2board_with_three_stones_swaps_or_places_one_or_two() {
    for opening in [
        ["7,7", "8,7", "9,9"],
        ["7,7", "7,8", "7,9"],
        ["7,7", "0,0", "8,8"],
    ] {
        let mut brain = swap2_brain();
        brain.send("SWAP2BOARD");
        brain.send_all(&opening);
        brain.send("DONE");
        let reply = brain.reply();
        if reply != "SWAP" {
            let moves = moves_of(&reply);
            assert!((1..=2).contains(&moves.len()), "{reply:?}");
            let taken: BTreeSet<_> = opening.iter().map(|m| parse_move(m).unwrap()).collect();
            assert!(
                moves
                    .iter()
                    .all(|m| !taken.contains(m) && m.0 < 15 && m.1 < 15),
                "{reply:?}"
            );
            assert!(moves.len() == 1 || moves[0] != moves[1]);
        }
    }
}

#[test]
fn swap2board_with_five_stones_swaps_or_places_one() {
    for opening in [
        ["7,7", "8,7", "9,9", "8,8", "8,6"],
        ["7,7", "0,0", "8,8", "0,14", "9,9"],
    ] {
        let mut brain = swap2_brain();
        brain.send("SWAP2BOARD");
        brain.send_all(&opening);
        brain.send("DONE");
        let reply = brain.reply();
        if reply != "SWAP" {
            let (x, y) = parse_move(&reply).unwrap_or_else(|| panic!("{reply:?}"));
            assert!(!opening.contains(&format!("{x},{y}").as_str()));
        }
    }
}

#[test]
fn bench_command_matches_the_bench_subcommand() {
    let mut brain = Brain::start();
    brain.send("BENCH 2");
    let (messages, signature) = brain.reply_with_messages();
    assert!(!messages.is_empty(), "one MESSAGE per bench position");
    let nodes = |line: &str| -> u64 {
        let rest = line
            .strip_prefix("Bench: ")
            .unwrap_or_else(|| panic!("{line:?}"));
        rest.split(' ').next().unwrap().parse().unwrap()
    };
    let mut tool = Brain::start_with_args(&["bench", "depth", "2"]);
    let lines = tool.remaining_lines();
    let tool_signature = lines.last().expect("bench output");
    assert_eq!(nodes(&signature), nodes(tool_signature));
    assert_eq!(messages.len() + 1, lines.len());
}
