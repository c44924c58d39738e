//! Runs the real binary's `arena` subcommand against fake brains
//! (`protocol-tests/fakes/fake_brain.py`): broken engines must each be adjudicated with
//! the right reason and never hang the arena; full matches must produce the statistics,
//! the SPRT stop and the game records, which `tune` must read.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Far above what any of these matches needs; only a hang gets near it.
const HANG_LIMIT: Duration = Duration::from_secs(180);

fn fake(mode_and_args: &str) -> String {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/protocol-tests/fakes/fake_brain.py"
    );
    format!("cmd=python3 {script} {mode_and_args}")
}

fn shared(path: &str) -> String {
    format!("{}/../shared/{path}", env!("CARGO_MANIFEST_DIR"))
}

struct Run {
    status: i32,
    stdout: String,
    stderr: String,
}

/// Starts `pbrain-tengen arena ARGS` with its output and errors piped.
fn start_arena(args: &[String]) -> Child {
    start("arena", args)
}

/// Starts `pbrain-tengen SUBCOMMAND ARGS` with its output and errors piped.
fn start(subcommand: &str, args: &[String]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_pbrain-tengen"))
        .arg(subcommand)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pbrain-tengen")
}

/// Reads `from` to its end on a thread of its own, so that neither pipe of the arena
/// fills while the test waits on the other.
fn read_all(mut from: impl Read + Send + 'static) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut s = String::new();
        from.read_to_string(&mut s).unwrap();
        s
    })
}

/// Runs `pbrain-tengen arena ARGS`, killing it (and failing) if it takes longer than
/// `HANG_LIMIT`.
fn arena(args: &[String]) -> Run {
    tool("arena", args)
}

/// Runs `pbrain-tengen SUBCOMMAND ARGS` as `arena` runs the arena.
fn tool(subcommand: &str, args: &[String]) -> Run {
    let mut child = start(subcommand, args);
    let out = read_all(child.stdout.take().unwrap());
    let err = read_all(child.stderr.take().unwrap());
    let Some(status) = wait(&mut child) else {
        panic!("{subcommand} hung; output so far:\n{}", out.join().unwrap());
    };
    Run {
        status: status.code().unwrap_or(-1),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

/// Waits for the arena to exit; kills it and returns `None` after `HANG_LIMIT`.
fn wait(child: &mut Child) -> Option<ExitStatus> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some(status);
        }
        if start.elapsed() > HANG_LIMIT {
            child.kill().unwrap();
            child.wait().unwrap();
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs the arena, requires exit status 0, and returns stdout with the whole output
/// (stdout and stderr) for failure messages.
fn arena_ok(args: &[String]) -> (String, String) {
    let run = arena(args);
    let text = format!("{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.status, 0, "{text}");
    (run.stdout, text)
}

fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// A progress line: `[n/N] BLACK vs WHITE: RESULT {REASON} ...`.
struct GameLine {
    black: String,
    white: String,
    result: String,
    reason: String,
}

fn games(stdout: &str) -> Vec<GameLine> {
    stdout
        .lines()
        .filter(|l| l.starts_with('['))
        .map(|l| {
            let rest = &l[l.find("] ").unwrap() + 2..];
            let (black, rest) = rest.split_once(" vs ").unwrap();
            let (white, rest) = rest.split_once(": ").unwrap();
            let (result, rest) = rest.split_once(" {").unwrap();
            let reason = &rest[..rest.find("} ").unwrap()];
            GameLine {
                black: black.into(),
                white: white.into(),
                result: result.into(),
                reason: reason.into(),
            }
        })
        .collect()
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-arena-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn broken_engines_are_adjudicated_without_hanging() {
    // (name, fake arguments, extra keys, what its lost games must say)
    let broken: [(&str, &str, &str, &str); 10] = [
        (
            "Slow",
            "slow --sleep 30",
            "",
            "Slow (COLOR) lost on time: no move within 1000 ms",
        ),
        (
            "Silent",
            "silent",
            "",
            "Silent (COLOR) lost on time: no move within 1000 ms",
        ),
        (
            "Crash",
            "crash",
            "",
            "Crash (COLOR) crashed: exited (exit status: 3)",
        ),
        (
            "Garbage",
            "garbage",
            "",
            "Garbage (COLOR) sent malformed move \"hello there\"",
        ),
        (
            "Trailing",
            "trailing",
            "",
            "Trailing (COLOR) sent malformed move \"",
        ),
        (
            "Occupied",
            "occupied --at 2",
            "",
            "Occupied (COLOR) played ",
        ),
        (
            "Offboard",
            "offboard",
            "",
            "Offboard (COLOR) played 99,99 off the board",
        ),
        (
            "NoStart",
            "nostart",
            "",
            "NoStart (COLOR) failed to start: answered START with \"ERROR size not supported\"",
        ),
        ("Chatty", "chatty", "", ""),
        // Answers 0.6 s into a 0.1 s turn: late, but inside its 3 s tolerance.
        ("Late", "late --sleep 0.6", "tolerance=3 tc=0/0.1", ""),
    ];
    let out = temp_dir("broken");
    let mut list = args(&[
        "--gauntlet",
        "--games",
        "2",
        "--each",
        "tc=0/0.5",
        "tolerance=0.5",
        "--out",
        out.to_str().unwrap(),
        "--log",
        "--engine",
        &fake("good --seed 7"),
        "name=Good",
    ]);
    for (name, fake_args, extra, _) in &broken {
        list.push("--engine".into());
        list.push(fake(fake_args));
        list.push(format!("name={name}"));
        list.extend(extra.split_whitespace().map(String::from));
    }
    let started = Instant::now();
    let (stdout, text) = arena_ok(&list);
    let elapsed = started.elapsed();
    let played = games(&stdout);
    assert_eq!(played.len(), 2 * broken.len(), "{text}");
    for (name, _, _, expected) in &broken {
        let mine: Vec<&GameLine> = played
            .iter()
            .filter(|g| g.black == *name || g.white == *name)
            .collect();
        assert_eq!(mine.len(), 2, "{name}: {text}");
        for game in mine {
            let color = if game.black == *name {
                "black"
            } else {
                "white"
            };
            let lost = if color == "black" { "0-1" } else { "1-0" };
            if expected.is_empty() {
                let normal = game.reason.contains("makes five") || game.reason.starts_with("draw");
                assert!(normal, "{name} vs Good must end normally: {}", game.reason);
            } else {
                let expected = expected.replace("COLOR", color);
                assert_eq!(game.result, lost, "{name}: {}", game.reason);
                assert!(
                    game.reason.starts_with(&expected),
                    "{name}: {:?} vs {expected:?}",
                    game.reason
                );
            }
        }
    }
    // Killed engines are started again for their second game; the others are reused
    // (one worker plays every game, so a second process means a restart).
    for name in ["Slow", "Silent", "Crash"] {
        assert!(
            stdout.contains(&format!("Restarted {name}:")),
            "{name}: {text}"
        );
    }
    for name in ["Good", "Garbage", "Chatty", "Late"] {
        assert!(
            !stdout.contains(&format!("Restarted {name}:")),
            "{name}: {text}"
        );
    }
    // The summary counts the faults per engine.
    let row = |name: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no summary row for {name}: {text}"))
            .to_string()
    };
    assert!(row("Crash").ends_with("crash 2"), "{}", row("Crash"));
    assert!(row("Slow").ends_with("timeout 2"), "{}", row("Slow"));
    assert!(row("Chatty").ends_with(" -"), "{}", row("Chatty"));
    // Two silent or slow engines cost two turn limits plus tolerance each; everything
    // else is quick. A hang would have been stopped by `arena` far later.
    assert!(elapsed < Duration::from_secs(120), "took {elapsed:?}");

    // Records: SGF and PSQ for every game, and the I/O log.
    for n in 1..=2 * broken.len() {
        let sgf = std::fs::read_to_string(out.join(format!("game-{n:04}.sgf"))).unwrap();
        assert!(sgf.starts_with("(;FF[4]GM[4]"), "{sgf}");
        let psq = std::fs::read_to_string(out.join(format!("game-{n:04}.psq"))).unwrap();
        assert!(
            psq.starts_with("Piskvorky 15x15, 11:11, 0\n") && psq.ends_with("\n-1\n"),
            "{psq}"
        );
    }
    let log = std::fs::read_to_string(out.join("game-0001.log")).unwrap();
    for expected in [
        "< ABOUT",
        "< START 15",
        "> OK",
        "< INFO timeout_turn 500",
        "< INFO rule 0",
        "< BEGIN",
    ] {
        assert!(log.contains(expected), "{expected}: {log}");
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// Once the test has closed `child`'s output: the child exits within `HANG_LIMIT`, with
/// status 0 and no panic on the closed pipe.
fn assert_exits_quietly(child: &mut Child) {
    let err = read_all(child.stderr.take().unwrap());
    let status = wait(child).expect("went on after its output closed");
    let stderr = err.join().unwrap();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.code(), Some(0), "{stderr}");
}

/// A reader that stops reading (`arena … | head`) ends the match quietly: no panic on
/// the closed pipe, exit status 0, well before the games asked for are played.
#[test]
fn a_closed_output_stops_the_match_quietly() {
    use std::io::{BufRead, BufReader};
    let mut child = start_arena(&args(&[
        "--games",
        "2000",
        "--engine",
        &fake("good --seed 5"),
        "name=A",
        "--engine",
        &fake("good --seed 6"),
        "name=B",
    ]));
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("[1/") {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "no game line");
    }
    drop(stdout);
    assert_exits_quietly(&mut child);
}

/// `tune` fits the evaluation to the records a match leaves, and a reader that stops
/// after its first line (`tune … | head -1`) does not make it panic: the fit goes on,
/// as its tables may be bound for `--write`, and it exits with status 0.
#[test]
fn tune_reads_match_records_and_survives_a_closed_output() {
    use std::io::{BufRead, BufReader};
    let out = temp_dir("tune");
    let dir = out.to_str().unwrap();
    let (_, text) = arena_ok(&args(&[
        "--games",
        "12",
        "--concurrency",
        "2",
        "--engine",
        &fake("good --seed 7"),
        "name=A",
        "--engine",
        &fake("good --seed 8"),
        "name=B",
        "--out",
        dir,
    ]));
    let mut child = start("tune", &args(&[dir, "--iterations", "30"]));
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(line.starts_with("12 games, "), "{line}\n{text}");
    drop(stdout);
    assert_exits_quietly(&mut child);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn forbidden_move_loses_under_renju() {
    // Black to move after this opening; 7,7 makes two open threes (5,7 6,7 7,7 across,
    // 7,5 7,6 7,7 down).
    let dir = temp_dir("forbidden");
    std::fs::create_dir_all(&dir).unwrap();
    let opening = dir.join("opening.txt");
    std::fs::write(&opening, "f8a1g8o1h6a15h7o15\n").unwrap();
    let (stdout, text) = arena_ok(&args(&[
        "--rule",
        "renju",
        "--openings",
        opening.to_str().unwrap(),
        "--each",
        "tc=0/2",
        "--engine",
        &fake("good --first 7,7"),
        "name=Fixed",
        "--engine",
        &fake("good --first 7,7"),
        "name=Other",
    ]));
    let played = games(&stdout);
    assert_eq!(played.len(), 2, "{text}");
    for game in &played {
        assert_eq!(game.result, "0-1", "{text}");
        assert_eq!(
            game.reason,
            format!("{} (black) played the forbidden point 7,7", game.black)
        );
    }
    assert!(stdout.contains("Game endings: forbidden 2"), "{text}");
    // Black loses every game here, so the first engine's score splits by colour.
    assert!(
        stdout.contains("Fixed as black: 0 - 1 - 0  [0.000] 1; as white: 1 - 0 - 0  [1.000] 1"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn full_match_reports_statistics() {
    let (stdout, text) = arena_ok(&args(&[
        "--rule",
        "4",
        "--openings",
        &shared("openings/renju26_offset.txt"),
        "--random",
        "--symmetry",
        "--seed",
        "11",
        "--games",
        "12",
        "--concurrency",
        "2",
        "--sprt",
        "0,5",
        "--each",
        "tc=10/1+0.1",
        "--engine",
        &fake("good --seed 1"),
        "name=A",
        "--engine",
        &fake("chatty --seed 2"),
        "name=B",
    ]));
    let played = games(&stdout);
    assert_eq!(played.len(), 12, "{text}");
    // Random movers only lose by five or by a forbidden move; nothing else may happen.
    for game in &played {
        assert!(
            game.reason.contains("makes five")
                || game.reason.contains("forbidden point")
                || game.reason.starts_with("draw"),
            "{}",
            game.reason
        );
    }
    for line in stdout.lines().filter(|l| l.starts_with('[')) {
        assert!(
            line.contains(" | LLR ") && line.ends_with("[-2.94, 2.94]"),
            "{line}"
        );
        assert!(line.contains(", opening "), "{line}");
    }
    let wins = played
        .iter()
        .filter(|g| (g.black == "A" && g.result == "1-0") || (g.white == "A" && g.result == "0-1"))
        .count();
    let draws = played.iter().filter(|g| g.result == "1/2-1/2").count();
    let losses = 12 - wins - draws;
    assert!(
        stdout.contains(&format!("Score of A vs B: {wins} - {losses} - {draws}  [")),
        "{text}"
    );
    // A's results with each colour: its wins, losses and draws among the games it played
    // as black, then among those it played as white.
    let by_colour = |black: bool| {
        let mine: Vec<&GameLine> = played
            .iter()
            .filter(|g| (g.black == "A") == black)
            .collect();
        let won = if black { "1-0" } else { "0-1" };
        let wins = mine.iter().filter(|g| g.result == won).count();
        let draws = mine.iter().filter(|g| g.result == "1/2-1/2").count();
        format!("{wins} - {} - {draws}  [", mine.len() - wins - draws)
    };
    let line = stdout
        .lines()
        .find(|l| l.starts_with("A as black: "))
        .unwrap_or_default();
    assert!(
        line.starts_with(&format!("A as black: {}", by_colour(true)))
            && line.contains(&format!("; as white: {}", by_colour(false)))
            && line.ends_with(" 6"),
        "{text}"
    );
    for expected in [
        "Elo difference: ",
        "(95%), LOS: ",
        "draw ratio: ",
        "Game pairs by A's points (0, 1/2, 1, 3/2, 2): [",
        "From the 6 pairs: score ",
        "SPRT (pentanomial, logistic Elo) elo0=0 elo1=5 alpha=0.05 beta=0.05: LLR ",
        "Games longer than 100 stones: ",
        "ms/move",
    ] {
        assert!(stdout.contains(expected), "{expected}: {text}");
    }
}

#[test]
fn sprt_stops_at_the_upper_bound() {
    // Every game is won by the first engine (the other answers off the board), so every
    // pair is worth 2 points. With elo1 = 100 the LLR first reaches ln(0.95/0.05) after
    // 12 pairs (scripts/stats-reference.py's llr_logistic gives 2.83 after 11, 3.09
    // after 12), so the match stops after 24 of the 1000 games.
    let (stdout, text) = arena_ok(&args(&[
        "--games",
        "1000",
        "--sprt",
        "0,100",
        "--each",
        "tc=0/2",
        "--engine",
        &fake("good"),
        "name=Strong",
        "--engine",
        &fake("offboard"),
        "name=Weak",
    ]));
    assert_eq!(games(&stdout).len(), 24, "{text}");
    assert!(stdout.contains("Finished 24 of 1000 games."), "{text}");
    assert!(stdout.contains(": H1 accepted"), "{text}");
    assert!(
        stdout.contains("Game pairs by Strong's points (0, 1/2, 1, 3/2, 2): [0, 0, 0, 0, 12]"),
        "{text}"
    );
    assert!(
        stdout.contains("From the 12 pairs: score 1.000 (95%: 1.000 to 1.000), Elo +inf"),
        "{text}"
    );
}

#[test]
fn rectangular_boards_use_rectstart() {
    let out = temp_dir("rect");
    let (stdout, text) = arena_ok(&args(&[
        "--size",
        "12x9",
        "--games",
        "2",
        "--each",
        "tc=0/2",
        "--out",
        out.to_str().unwrap(),
        "--log",
        "--engine",
        &fake("good --seed 3"),
        "name=A",
        "--engine",
        &fake("good --seed 4"),
        "name=B",
    ]));
    assert_eq!(games(&stdout).len(), 2, "{text}");
    let log = std::fs::read_to_string(out.join("game-0001.log")).unwrap();
    assert!(
        log.contains("A < RECTSTART 12,9") && log.contains("B < RECTSTART 12,9"),
        "{log}"
    );
    let sgf = std::fs::read_to_string(out.join("game-0002.sgf")).unwrap();
    assert!(sgf.contains("SZ[12:9]"), "{sgf}");
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn command_line_errors_and_help() {
    let run = arena(&args(&["--engine", "cmd=a"]));
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("at least two --engine"),
        "{}",
        run.stderr
    );
    let run = arena(&args(&["--help"]));
    assert_eq!(run.status, 0);
    assert!(run.stdout.contains("--sprt ELO0,ELO1[,ALPHA,BETA]"));
    // A program that cannot be started is an error, not a string of lost games.
    let run = arena(&args(&[
        "--engine",
        "cmd=/nonexistent/brain",
        "--engine",
        "cmd=/nonexistent/brain",
    ]));
    assert_eq!(run.status, 1, "{}", run.stdout);
    assert!(run.stderr.contains("cannot start engine"), "{}", run.stderr);
}

/// The text after the first line of `text` that starts with `prefix`.
fn after<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no line {prefix:?} in:\n{text}"))
}

/// The numbers at the start of a `w - l - d  [score] games` or `[a, b, …]` text.
fn counts(text: &str, how_many: usize) -> Vec<u32> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .take(how_many)
        .map(|s| s.parse().unwrap())
        .collect()
}

#[test]
fn pool_sums_runs_from_their_records() {
    let dirs = [temp_dir("pool-1"), temp_dir("pool-2")];
    let names: Vec<&str> = dirs.iter().map(|d| d.to_str().unwrap()).collect();
    let mut sums = [vec![0; 3], vec![0; 3], vec![0; 5]];
    for (i, dir) in names.iter().enumerate() {
        let (stdout, _) = arena_ok(&args(&[
            "--games",
            "8",
            "--concurrency",
            "2",
            "--engine",
            &fake(&format!("good --seed {}", 20 + i)),
            "name=A",
            "--engine",
            &fake("good --seed 30"),
            "name=B",
            "--out",
            dir,
        ]));
        let run = [
            counts(after(&stdout, "Score of A vs B: "), 3),
            counts(after(&stdout, "A as black: "), 3),
            counts(
                after(&stdout, "Game pairs by A's points (0, 1/2, 1, 3/2, 2): "),
                5,
            ),
        ];
        for (sum, run) in sums.iter_mut().zip(run) {
            for (s, r) in sum.iter_mut().zip(run) {
                *s += r;
            }
        }
    }
    let run = tool("pool", &args(&names));
    let text = format!("{}\n{}", run.stdout, run.stderr);
    assert_eq!(run.status, 0, "{text}");
    assert!(
        run.stdout.starts_with("Pooled 2 runs: 16 games\n"),
        "{text}"
    );
    assert_eq!(
        counts(after(&run.stdout, "Score of A vs B: "), 3),
        sums[0],
        "{text}"
    );
    assert_eq!(
        counts(after(&run.stdout, "A as black: "), 3),
        sums[1],
        "{text}"
    );
    let pairs = after(
        &run.stdout,
        "Game pairs by A's points (0, 1/2, 1, 3/2, 2): ",
    );
    assert_eq!(counts(pairs, 5), sums[2], "{text}");
    for dir in &names {
        assert!(
            after(&run.stdout, &format!("  {dir}: ")).ends_with("] 8"),
            "{text}"
        );
    }
    for line in [
        "From the 16 games: score ",
        "From the 8 pairs: score ",
        "From the 2 runs: score ",
    ] {
        assert!(run.stdout.contains(line), "{line}: {text}");
    }

    // A directory without records is an error; a missing directory too; so is no
    // directory at all, as a bad command line.
    let empty = temp_dir("pool-empty");
    std::fs::create_dir_all(&empty).unwrap();
    let run = tool("pool", &args(&[names[0], empty.to_str().unwrap()]));
    assert_eq!(run.status, 1);
    assert!(run.stderr.contains("no SGF records in"), "{}", run.stderr);
    let run = tool("pool", &args(&["/nonexistent/run"]));
    assert_eq!(run.status, 1);
    let again = format!("{}/.", names[0]);
    let run = tool("pool", &args(&[names[0], names[1], again.as_str()]));
    assert_eq!(run.status, 2, "a run named twice would count twice");
    assert!(run.stderr.contains("are the same run"), "{}", run.stderr);
    let run = tool("pool", &[]);
    assert_eq!(run.status, 2);
    assert!(
        run.stderr.contains("Usage: pbrain-tengen pool DIR"),
        "{}",
        run.stderr
    );
    for dir in dirs.iter().chain([&empty]) {
        let _ = std::fs::remove_dir_all(dir);
    }
}
