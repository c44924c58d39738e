//! The one-move check positions GomocupJudge's `test_zip_rules.py` runs before a league
//! (see `shared/protocol.md` section 7), sent as that script sends them: a BOARD with
//! every stone marked relative to the side to move.

use crate::harness::{Brain, board_lines, pos, positions};

fn answer(size: usize, rule: u32, moves: &str) -> (usize, usize) {
    let mut brain = Brain::start();
    brain.send(&format!("START {size}"));
    brain.expect("OK");
    brain.send_all(&[
        "INFO timeout_turn 1000",
        "INFO timeout_match 100000",
        "INFO max_memory 367001600",
    ]);
    brain.send(&format!("INFO rule {rule}"));
    brain.send("INFO time_left 100000");
    let lines = board_lines(&positions(moves), "BOARD");
    brain.send_all(&lines.iter().map(String::as_str).collect::<Vec<_>>());
    brain.expect_move()
}

#[test]
fn every_rule_completes_an_open_four() {
    for rule in [0, 1, 4, 8] {
        for size in [15, 20] {
            let reply = answer(size, rule, "h8h9i8i9j8j9k8k9");
            assert!(
                reply == pos("g8") || reply == pos("l8"),
                "rule {rule} size {size}: {reply:?}"
            );
        }
    }
}

#[test]
fn standard_blocks_the_three_because_six_does_not_win() {
    let reply = answer(15, 1, "h8h9i8h10g8h11j13h12g14h14i15");
    assert!(reply == pos("f8") || reply == pos("j8"), "{reply:?}");
}

#[test]
fn renju_black_avoids_the_forbidden_point() {
    let reply = answer(15, 4, "h8h9i7i9h10i6i11i12");
    assert_ne!(reply, pos("g9"));
}

#[test]
fn caro_blocks_the_three_as_a_dead_five_does_not_win() {
    let reply = answer(15, 8, "h8f8g8f9i8f7j8l8");
    assert!(
        [pos("f5"), pos("f6"), pos("f10"), pos("f11")].contains(&reply),
        "{reply:?}"
    );
}
