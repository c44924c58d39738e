//! The life of a brain process: INFO handling, stopping, ending, and reuse across games.

use crate::harness::{Brain, board_lines, parse_move};
use std::collections::BTreeSet;
use std::time::Duration;

/// Long enough that a search given this much time is still running when stopped.
const LONG_THINK: &[&str] = &[
    "INFO timeout_turn 1000000",
    "INFO timeout_match 0",
    "INFO time_left 2147483647",
];

#[test]
fn info_never_gets_a_reply() {
    let mut brain = Brain::start();
    brain.send("START 15");
    brain.expect("OK");
    brain.send_all(&[
        "INFO timeout_turn 5000",
        "INFO timeout_match 180000",
        "INFO max_memory 367001600",
        "INFO max_memory 0",
        "INFO time_left 180000",
        "INFO time_left -500",
        "INFO time_left 2147483647",
        "INFO game_type 1",
        "INFO rule 0",
        "INFO rule 1",
        "INFO rule 2",
        "INFO rule 4",
        "INFO rule 8",
        "INFO evaluate 7,7",
        "INFO folder C:\\some folder\\data",
        "INFO thread_num 1",
        "INFO max_depth 10",
        "INFO max_node 100000",
        "INFO hash_size 1024",
        "INFO pondering 0",
        "INFO caution_factor 2",
        "INFO unknown_key some value",
    ]);
    brain.expect_silence();
}

#[test]
fn bad_info_is_reported_once_after_the_next_command_and_play_goes_on() {
    let mut brain = Brain::started(15);
    brain.send_all(&[
        "INFO timeout_turn soon",
        "INFO rule 99",
        "INFO max_memory 1",
        "INFO thread_num 0",
    ]);
    brain.send("BEGIN");
    let error = brain.expect_line_prefix("ERROR ");
    for key in ["timeout_turn", "rule", "thread_num", "max_memory"] {
        assert!(error.contains(key), "{error:?} should mention {key}");
    }
    let reply = brain.expect_move();
    brain.expect_silence();
    // The bad values changed nothing: the rule is still freestyle (no forbidden points).
    brain.send("YXSHOWFORBID");
    brain.expect("FORBID .");
    assert_eq!(brain.probe_stones(15, 15), BTreeSet::from([reply]));
}

#[test]
fn crlf_lf_lower_case_and_spaces_are_accepted() {
    let mut brain = Brain::start();
    brain.send_raw(b"start 15\n");
    brain.expect("OK");
    brain.send_raw(b"  info   timeout_turn   200  \r\n");
    brain.send_raw(b"turn 7 , 7\n");
    let first = brain.expect_move();
    brain.send_raw(b"Board\r\n7,7,2\r\n 8, 8 ,1\r\n9,9,2\r\ndone\r\n");
    let second = brain.expect_move();
    assert!(![(7, 7), (8, 8), (9, 9)].contains(&second));
    brain.send_raw(b"TAKEBACK 9,9\r\n");
    brain.expect("OK");
    let _ = first;
}

#[test]
fn timeout_turn_zero_answers_at_once() {
    let mut brain = Brain::start();
    brain.send("START 20");
    brain.expect("OK");
    brain.send_all(&["INFO timeout_turn 0", "INFO timeout_match 0", "BEGIN"]);
    let first = brain.expect_move();
    brain.send("TURN 0,0");
    let second = brain.expect_move();
    assert_ne!(first, second);
}

#[test]
fn negative_time_left_answers_at_once() {
    let mut brain = Brain::started(15);
    brain.send_all(&[
        "INFO timeout_turn 1000000",
        "INFO timeout_match 180000",
        "INFO time_left -3000",
        "BEGIN",
    ]);
    brain.expect_move();
}

#[test]
fn yxstop_during_a_long_think_returns_a_move() {
    let mut brain = Brain::started(15);
    brain.send_all(LONG_THINK);
    brain.send("BEGIN");
    std::thread::sleep(Duration::from_millis(300));
    brain.send("YXSTOP");
    let reply = brain.expect_move();
    // The brain is still in the game: the same stone is on the board.
    assert_eq!(brain.probe_stones(15, 15), BTreeSet::from([reply]));
}

#[test]
fn stop_right_after_the_think_command_is_not_lost() {
    let mut brain = Brain::started(15);
    brain.send_all(LONG_THINK);
    brain.send_all(&["BOARD", "7,7,2", "DONE", "STOP"]);
    brain.expect_move();
}

#[test]
fn timeout_turn_zero_during_a_long_think_stops_it() {
    let mut brain = Brain::started(15);
    brain.send_all(LONG_THINK);
    brain.send("BEGIN");
    std::thread::sleep(Duration::from_millis(300));
    brain.send("INFO timeout_turn 0");
    brain.expect_move();
}

#[test]
fn end_during_a_long_think_exits_without_a_move() {
    let mut brain = Brain::started(15);
    brain.send_all(LONG_THINK);
    brain.send("BEGIN");
    std::thread::sleep(Duration::from_millis(300));
    brain.send("END");
    let status = brain.wait_exit(Duration::from_secs(10));
    assert!(status.is_some(), "the brain did not exit after END");
    let after: Vec<String> = brain.remaining_lines();
    assert!(
        after.iter().all(|line| line.starts_with("MESSAGE ")),
        "only progress written before END may remain: {after:?}"
    );
    assert!(after.iter().all(|line| parse_move(line).is_none()));
}

#[test]
fn end_when_idle_exits_silently() {
    let mut brain = Brain::started(15);
    brain.send("END");
    assert!(brain.wait_exit(Duration::from_secs(10)).is_some());
    assert!(brain.remaining_lines().is_empty());
}

#[test]
fn end_of_input_answers_what_was_sent_and_exits() {
    let mut brain = Brain::start();
    brain.send_all(&["START 15", "INFO timeout_turn 100", "BEGIN"]);
    brain.close_stdin();
    brain.expect("OK");
    brain.expect_move();
    assert!(brain.wait_exit(Duration::from_secs(10)).is_some());
}

#[test]
fn start_after_a_game_resets_everything() {
    // c-gomoku-cli keeps the process and simply sends START again.
    let mut brain = Brain::started(15);
    let moves = [(7, 7), (8, 8), (7, 8), (8, 7)];
    let lines = board_lines(&moves, "BOARD");
    brain.send_all(&lines.iter().map(String::as_str).collect::<Vec<_>>());
    brain.expect_move();
    brain.send("START 15");
    brain.expect("OK");
    // BEGIN is only accepted on an empty board.
    brain.send("BEGIN");
    let reply = brain.expect_move();
    assert_eq!(brain.probe_stones(15, 15), BTreeSet::from([reply]));
    // A different size works just as well.
    brain.send("START 20");
    brain.expect("OK");
    brain.send("TURN 19,19");
    brain.expect_move();
}

#[test]
fn restart_clears_the_board_and_keeps_the_size() {
    let mut brain = Brain::started(20);
    brain.send("TURN 19,19");
    brain.expect_move();
    brain.send("RESTART");
    brain.expect("OK");
    brain.send("BEGIN");
    let reply = brain.expect_move();
    brain.send("TURN 19,19");
    let second = brain.expect_move();
    assert_eq!(
        brain.probe_stones(20, 20),
        BTreeSet::from([reply, (19, 19), second])
    );
}
