//! The whole process stays under `INFO max_memory`: peak resident size, read from the
//! kernel while the brain plays with two threads, never exceeds the limit.

use crate::harness::Brain;

/// Peak resident set size of a process in bytes (`VmHWM`), where the kernel tells.
fn peak_rss(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Plays `moves` turns against the brain under `limit` bytes with two threads and
/// returns its peak resident size.
fn play_under_limit(limit: u64, moves: usize) -> Option<u64> {
    let mut brain = Brain::start();
    brain.send("START 15");
    brain.expect("OK");
    brain.send_all(&[
        &format!("INFO max_memory {limit}"),
        "INFO thread_num 2",
        "INFO timeout_turn 300",
        "INFO timeout_match 0",
        "INFO rule 0",
    ]);
    let mut taken = std::collections::BTreeSet::new();
    let mut ours = brain_move(&mut brain, "BEGIN");
    taken.insert(ours);
    for _ in 0..moves {
        // The opponent plays next to the brain's last stone, on the first free point.
        let (x, y) = ours;
        let reply = [
            (1i32, 0i32),
            (0, 1),
            (-1, 0),
            (0, -1),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ]
        .iter()
        .map(|&(dx, dy)| (x as i32 + dx, y as i32 + dy))
        .filter(|&(a, b)| (0..15).contains(&a) && (0..15).contains(&b))
        .map(|(a, b)| (a as usize, b as usize))
        .find(|p| !taken.contains(p))?;
        taken.insert(reply);
        ours = brain_move(&mut brain, &format!("TURN {},{}", reply.0, reply.1));
        if !taken.insert(ours) {
            panic!("the brain played an occupied point {ours:?}");
        }
    }
    let peak = peak_rss(brain.pid());
    brain.send("END");
    peak
}

fn brain_move(brain: &mut Brain, command: &str) -> (usize, usize) {
    brain.send(command);
    brain.expect_move()
}

#[test]
fn peak_memory_stays_under_64_and_350_mib_with_two_threads() {
    if !Brain::is_native() || peak_rss(std::process::id()).is_none() {
        return;
    }
    for mib in [64u64, 350] {
        let limit = mib << 20;
        let peak = play_under_limit(limit, 12).expect("a game to play");
        assert!(
            peak <= limit,
            "peak resident size {peak} bytes over the {mib} MiB limit"
        );
        // The table is really sized from the limit: the larger limit uses much more.
        if mib == 350 {
            assert!(
                peak > 200 << 20,
                "350 MiB limit but only {peak} bytes resident"
            );
        }
    }
}
