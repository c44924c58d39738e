//! Bad input: every refused command gets exactly one `ERROR` (or `UNKNOWN`) line, and
//! the game is exactly as it was; the stones are checked after each one.

use crate::harness::{Brain, board_lines};
use std::collections::BTreeSet;

/// A brain in the middle of a 15×15 game: three stones from a BOARD and its reply.
fn mid_game() -> (Brain, BTreeSet<(usize, usize)>) {
    let mut brain = Brain::started(15);
    let opening = [(7, 7), (8, 8), (6, 8)];
    let lines = board_lines(&opening, "BOARD");
    brain.send_all(&lines.iter().map(String::as_str).collect::<Vec<_>>());
    let reply = brain.expect_move();
    let mut stones: BTreeSet<_> = opening.into_iter().collect();
    stones.insert(reply);
    (brain, stones)
}

/// Sends `lines` mid-game and checks for one line starting with `prefix`, then that the
/// stones are unchanged and the game goes on.
fn refused(lines: &[&str], prefix: &str) {
    let (mut brain, stones) = mid_game();
    brain.send_all(lines);
    let reply = brain.expect_one(prefix);
    assert!(reply.len() > prefix.len(), "the reply says why: {reply:?}");
    let (x, y) = stones.iter().next().copied().unwrap();
    // Still the same game: its stones are still occupied...
    brain.send(&format!("TURN {x},{y}"));
    brain.expect_one("ERROR");
    // ...and exactly these stones are on the board.
    assert_eq!(brain.probe_stones(15, 15), stones, "after {lines:?}");
}

#[test]
fn turn_off_the_board() {
    refused(&["TURN 15,3"], "ERROR");
    refused(&["TURN 3,15"], "ERROR");
    refused(&["TURN -1,3"], "ERROR");
}

#[test]
fn turn_on_a_stone() {
    refused(&["TURN 7,7"], "ERROR");
}

#[test]
fn turn_with_malformed_numbers() {
    for line in [
        "TURN 7",
        "TURN a,b",
        "TURN 7,7,7",
        "TURN 99999999999,1",
        "TURN",
        "TURN 1.5,2",
    ] {
        refused(&[line], "ERROR");
    }
}

#[test]
fn start_with_an_unsupported_size() {
    for line in [
        "START 4",
        "START 33",
        "START 0",
        "START -15",
        "START x",
        "START",
        "RECTSTART 20",
        "RECTSTART 4,20",
        "RECTSTART 20,33",
    ] {
        refused(&[line], "ERROR");
    }
}

#[test]
fn board_with_impossible_stone_counts() {
    refused(&["BOARD", "1,1,1", "2,2,1", "DONE"], "ERROR");
    refused(&["BOARD", "1,1,2", "2,2,2", "3,3,2", "DONE"], "ERROR");
    refused(&["BOARD", "1,1,1", "DONE"], "ERROR");
}

#[test]
fn board_with_bad_lines() {
    refused(&["BOARD", "1,1,1", "1,1,2", "DONE"], "ERROR");
    refused(&["BOARD", "15,0,1", "1,1,2", "DONE"], "ERROR");
    refused(&["BOARD", "1,1,4", "2,2,2", "DONE"], "ERROR");
    refused(&["BOARD", "1;1;1", "DONE"], "ERROR");
    refused(&["BOARD", "1,1", "DONE"], "ERROR");
    refused(&["BOARD 5", "DONE"], "ERROR");
}

#[test]
fn begin_on_a_board_with_stones() {
    refused(&["BEGIN"], "ERROR");
}

#[test]
fn takeback_of_an_empty_point() {
    refused(&["TAKEBACK 0,0"], "ERROR");
    refused(&["TAKEBACK 15,15"], "ERROR");
    refused(&["TAKEBACK 3"], "ERROR");
}

#[test]
fn play_on_a_stone() {
    refused(&["PLAY 7,7"], "ERROR");
    refused(&["PLAY 20,20"], "ERROR");
}

#[test]
fn extensions_with_bad_arguments() {
    refused(&["YXNBEST 0"], "ERROR");
    refused(&["YXNBEST lots"], "ERROR");
    refused(&["YXBOARD", "1,1,1", "16,1,2", "DONE"], "ERROR");
    refused(&["SWAP2BOARD", "7,7", "8,8", "DONE"], "ERROR");
    refused(&["SWAP2BOARD", "7,7", "8,8", "7,7", "DONE"], "ERROR");
    refused(&["SWAP2BOARD", "7,7,1", "8,8", "9,9", "DONE"], "ERROR");
    refused(&["DONE"], "ERROR");
}

#[test]
fn unknown_commands() {
    refused(&["FOO"], "UNKNOWN");
    refused(&["FOO 1,2"], "UNKNOWN");
    refused(&["7,7"], "UNKNOWN");
    refused(&["TURN7,7"], "UNKNOWN");
}

#[test]
fn empty_lines_get_no_reply() {
    let (mut brain, stones) = mid_game();
    brain.send("");
    brain.send("   ");
    brain.send_raw(b"\r\n\n\t\r\n");
    brain.expect_silence();
    assert_eq!(brain.probe_stones(15, 15), stones);
}

#[test]
fn commands_before_start() {
    let mut brain = Brain::start();
    for lines in [
        &["TURN 7,7"][..],
        &["BEGIN"],
        &["BOARD", "7,7,1", "DONE"],
        &["YXBOARD", "DONE"],
        &["SWAP2BOARD", "DONE"],
        &["TAKEBACK 7,7"],
        &["PLAY 7,7"],
        &["RESTART"],
        &["YXSHOWFORBID"],
        &["YXNBEST 2"],
    ] {
        brain.send_all(lines);
        brain.expect_one("ERROR");
    }
    brain.send("START 15");
    brain.expect("OK");
    brain.send("INFO timeout_turn 200");
    brain.send("BEGIN");
    let reply = brain.expect_move();
    assert_eq!(brain.probe_stones(15, 15), BTreeSet::from([reply]));
}

#[test]
fn a_block_cut_short_by_a_command_is_refused_and_the_command_runs() {
    let (mut brain, stones) = mid_game();
    brain.send_all(&["BOARD", "1,1,1", "ABOUT"]);
    brain.expect_line_prefix("ERROR");
    brain.expect_line_prefix("name=");
    assert_eq!(brain.probe_stones(15, 15), stones);
}
