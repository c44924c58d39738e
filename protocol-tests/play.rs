//! Runs the real binary's `play` command with scripted input, a line at a time, reading
//! its answer up to the next prompt: moves in both notations, refused moves, undo, hint,
//! restart, save and load (the files read back and played on), a lost game, renju's
//! forbidden points in the shared records' positions, watching, and the end of input.

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

mod records;

use records::{field, number, points, points_of};

/// Far above what any of these sessions needs; only a hang gets near it.
const HANG_LIMIT: Duration = Duration::from_secs(120);

/// One search thread and 50 ms a move keep the sessions light on a shared machine.
/// Fixed-depth search on one thread: Tengen's replies are the same on every run, so the
/// scripted games cannot drift with the machine's load.
const FAST: [&str; 5] = ["--depth", "3", "--threads", "1", "--no-color"];

struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    output: Receiver<Vec<u8>>,
    /// Everything printed so far, for failure messages.
    transcript: String,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-tengen"))
            .arg("play")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start pbrain-tengen play");
        let mut stdout = child.stdout.take().unwrap();
        let (send, output) = channel();
        std::thread::spawn(move || {
            let mut buf = [0; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 || send.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Session {
            stdin: child.stdin.take(),
            child,
            output,
            transcript: String::new(),
        }
    }

    /// The output up to and including the next prompt (`... > ` left open for input).
    fn until_prompt(&mut self) -> String {
        let start = Instant::now();
        let mut text = String::new();
        while !text.ends_with("> ") {
            let left = HANG_LIMIT.saturating_sub(start.elapsed());
            match self.output.recv_timeout(left) {
                Ok(bytes) => text.push_str(&String::from_utf8(bytes).unwrap()),
                Err(_) => panic!(
                    "no prompt; transcript:\n{}{text}\n(output ended or timed out)",
                    self.transcript
                ),
            }
        }
        self.transcript.push_str(&text);
        text
    }

    /// Sends one line and returns the answer up to the next prompt.
    fn say(&mut self, line: &str) -> String {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        let answer = self.until_prompt();
        assert!(
            answer.starts_with(&format!("{line}\n")),
            "the line is echoed after the prompt: {answer}"
        );
        answer
    }

    /// Closes stdin and returns the rest of the output and the exit status.
    fn end_of_input(self) -> (String, i32) {
        self.finish(None)
    }

    /// Sends `quit` and returns the rest of the output and the exit status.
    fn quit(self) -> (String, i32) {
        self.finish(Some("quit"))
    }

    fn finish(mut self, last: Option<&str>) -> (String, i32) {
        let mut stdin = self.stdin.take().unwrap();
        if let Some(line) = last {
            writeln!(stdin, "{line}").unwrap();
        }
        drop(stdin);
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > HANG_LIMIT {
                self.child.kill().unwrap();
                panic!(
                    "play did not exit at the end of input:\n{}",
                    self.transcript
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let rest: Vec<u8> = self.output.try_iter().flatten().collect();
        (
            String::from_utf8(rest).unwrap(),
            status.code().unwrap_or(-1),
        )
    }
}

/// The last board drawn in `text`, as rows of `X`, `O`, `x` and `.` indexed [y][x].
fn last_board(text: &str, size: usize) -> Vec<Vec<char>> {
    let mut rows = vec![Vec::new(); size];
    for line in text.lines() {
        for (y, row) in rows.iter_mut().enumerate() {
            let labels = format!("{:>2} {:>2} ", size - y, y);
            if line.starts_with(&labels) && line.len() == 6 + 3 * size + 5 {
                *row = (0..size)
                    .map(|x| line.as_bytes()[7 + 3 * x] as char)
                    .collect();
            }
        }
    }
    assert!(
        rows.iter().all(|row| row.len() == size),
        "no whole board in:\n{text}"
    );
    rows
}

fn count(board: &[Vec<char>], stone: char) -> usize {
    board.iter().flatten().filter(|&&c| c == stone).count()
}

fn temp_file(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tengen-play-{}-{name}", std::process::id()))
}

#[test]
fn a_scripted_game_in_both_notations() {
    let mut s = Session::start(&FAST);
    let intro = s.until_prompt();
    assert!(
        intro.contains("freestyle on 15x15, you play black"),
        "{intro}"
    );
    assert!(intro.contains("a  b  c  d  e  f  g  h  i  j  k  l  m  n  o"));
    assert!(intro.contains("0  1  2  3  4  5  6  7  8  9 10 11 12 13 14"));
    assert!(intro.ends_with("black (you) to move> "));
    assert_eq!(count(&last_board(&intro, 15), '.'), 225);

    let reply = s.say("H8");
    assert!(reply.contains("black (you) plays h8 (7,7)"), "{reply}");
    assert!(reply.contains("white (Tengen) plays "), "{reply}");
    assert!(
        reply.contains("eval ") && reply.contains("depth "),
        "{reply}"
    );
    let board = last_board(&reply, 15);
    assert_eq!(board[7][7], 'X');
    assert_eq!((count(&board, 'X'), count(&board, 'O')), (1, 1));
    let (white_x, white_y) = (0..225)
        .map(|i| (i % 15, i / 15))
        .find(|&(x, y)| board[y][x] == 'O')
        .unwrap();
    assert!(reply.contains("[O]"), "the last move is bracketed");

    // The protocol notation: x, then y from the top. One of two corners is free.
    let (corner, (cx, cy), corner_name) = if board[0][0] == '.' {
        ("0,0", (0, 0), "a15 (0,0)")
    } else {
        ("14,14", (14, 14), "o1 (14,14)")
    };
    let reply = s.say(corner);
    assert_eq!(last_board(&reply, 15)[cy][cx], 'X', "{reply}");
    assert!(reply.contains(&format!("black (you) plays {corner_name}")));

    for (line, answer) in [
        ("h8", "h8 (7,7) is already taken."),
        ("7 7", "is neither a move"),
        ("p8", "p8 is off the board (columns a to o, rows 1 to 15)"),
        (
            "3,15",
            "3,15 is off the board (x from 0 to 14, y from 0 to 14)",
        ),
        (
            "resign",
            "is neither a move (like h8 or 7,7) nor a command; type help",
        ),
        ("save", "save needs a file name"),
    ] {
        let reply = s.say(line);
        assert!(reply.contains(answer), "{line}: {reply}");
        assert!(
            reply.ends_with("black (you) to move> ") && !reply.contains("Tengen) plays"),
            "a refused line changes nothing: {reply}"
        );
    }

    let reply = s.say("hint");
    assert!(
        reply.starts_with("hint\nHint: ") && reply.contains(" eval ") && reply.contains("depth"),
        "{reply}"
    );
    assert!(!reply.contains("plays"), "a hint plays nothing: {reply}");
    let reply = s.say("HELP");
    for word in ["undo", "restart", "hint", "save FILE", "load FILE", "quit"] {
        assert!(reply.contains(word), "{reply}");
    }

    let reply = s.say("undo");
    assert!(
        reply.contains(&format!("Took back {corner_name} and ")),
        "{reply}"
    );
    let board = last_board(&reply, 15);
    assert_eq!((count(&board, 'X'), count(&board, 'O')), (1, 1), "{reply}");
    assert_eq!(board[cy][cx], '.');

    let psq = temp_file("game.psq");
    let sgf = temp_file("game.SGF");
    assert!(
        s.say(&format!("save {}", psq.display()))
            .contains("Saved 2 moves")
    );
    assert!(s.say(&format!("save {}", sgf.display())).contains("(SGF)"));
    let text = std::fs::read_to_string(&psq).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
    // PSQ counts from 1: black's h8 (7,7), then white's reply.
    let stone = |line: &str| -> (usize, usize) {
        let v: Vec<usize> = line.split(',').map(|n| n.parse().unwrap()).collect();
        assert_eq!(v.len(), 3, "{line}");
        (v[0] - 1, v[1] - 1)
    };
    assert_eq!(stone(lines[1]), (7, 7));
    assert_eq!(stone(lines[2]), (white_x, white_y));
    assert_eq!(&lines[3..], ["Human", "Tengen", "-1"]);
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert!(
        text.starts_with("(;FF[4]GM[4]CA[UTF-8]AP[Tengen play]SZ[15]RU[freestyle]"),
        "{text}"
    );
    assert!(text.contains("PB[Human]PW[Tengen]RE[Void]"), "{text}");
    let letter = |v: usize| char::from(b'a' + v as u8);
    let moves: Vec<&str> = text.split("\n;").skip(1).collect();
    assert_eq!(moves.len(), 2, "{text}");
    assert!(moves[0].starts_with("B[hh]"), "{text}");
    assert!(
        moves[1].starts_with(&format!("W[{}{}]", letter(white_x), letter(white_y))),
        "{text}"
    );

    let reply = s.say("restart");
    assert!(reply.contains("New game."), "{reply}");
    assert_eq!(count(&last_board(&reply, 15), '.'), 225);
    // Either file brings the saved position back, black (the person) to move.
    for file in [&psq, &sgf] {
        let reply = s.say(&format!("load {}", file.display()));
        assert!(
            reply.contains(&format!(
                "Loaded 2 moves from {}: freestyle on 15x15.",
                file.display()
            )),
            "{reply}"
        );
        assert_eq!(last_board(&reply, 15), board, "{reply}");
        assert!(reply.ends_with("black (you) to move> "), "{reply}");
    }
    std::fs::remove_file(psq).unwrap();
    std::fs::remove_file(&sgf).unwrap();
    let reply = s.say(&format!("load {}", sgf.display()));
    assert!(
        reply.contains(&format!("cannot read {}", sgf.display())),
        "{reply}"
    );
    assert!(
        !reply.contains("Loaded") && reply.ends_with("black (you) to move> "),
        "a failed load changes nothing: {reply}"
    );
    // With white to move in the record, Tengen (white) answers at once.
    let one = temp_file("one.psq");
    std::fs::write(&one, "Piskvorky 15x15, 11:11, 0\n8,8,0\n-1\n").unwrap();
    let reply = s.say(&format!("load {}", one.display()));
    std::fs::remove_file(&one).unwrap();
    assert!(reply.contains("white (Tengen) plays "), "{reply}");
    assert_eq!(count(&last_board(&reply, 15), 'O'), 1, "{reply}");
    assert!(reply.ends_with("black (you) to move> "), "{reply}");

    let (rest, status) = s.end_of_input();
    assert_eq!(status, 0, "{rest}");
}

#[test]
fn a_lost_game_is_over_until_undone() {
    let mut s = Session::start(&[&FAST[..], &["--size", "9"]].concat());
    let mut reply = s.until_prompt();
    // Black scatters stones on the edge and never defends: white makes five.
    let edge = [
        (0, 0),
        (8, 0),
        (0, 8),
        (8, 8),
        (4, 0),
        (0, 4),
        (8, 4),
        (4, 8),
    ];
    let mut moves = edge.iter();
    while !reply.ends_with("game over> ") {
        let board = last_board(&reply, 9);
        let &(x, y) = moves
            .find(|&&(x, y)| board[y][x] == '.')
            .expect("white wins before black runs out of edge points");
        reply = s.say(&format!("{x},{y}"));
    }
    assert!(
        reply.contains("White (Tengen) wins with five in a row."),
        "{reply}"
    );
    let board = last_board(&reply, 9);
    let stones = count(&board, 'X') + count(&board, 'O');
    assert!(s.say("e5").contains("The game is over"));
    assert!(s.say("hint").contains("The game is over"));
    let sgf = temp_file("lost.sgf");
    s.say(&format!("save {}", sgf.display()));
    let text = std::fs::read_to_string(&sgf).unwrap();
    // Loaded on a fresh board of another size, the game is over again, on its own board.
    let mut fresh = Session::start(&[&FAST[..], &["--load", &sgf.display().to_string()]].concat());
    let reply = fresh.until_prompt();
    std::fs::remove_file(&sgf).unwrap();
    assert!(reply.contains("freestyle on 9x9"), "{reply}");
    assert!(
        reply.contains("White (Tengen) wins with five in a row.") && reply.ends_with("game over> "),
        "{reply}"
    );
    assert_eq!(last_board(&reply, 9), last_board(&s.transcript, 9));
    assert_eq!(fresh.quit().1, 0);
    assert!(text.contains("RE[W+]"), "{text}");
    assert!(
        text.contains("C[White (Tengen) wins with five in a row]"),
        "{text}"
    );

    let reply = s.say("undo");
    assert!(reply.ends_with("black (you) to move> "), "{reply}");
    let board = last_board(&reply, 9);
    assert_eq!(count(&board, 'X') + count(&board, 'O'), stones - 2);
    let (rest, status) = s.quit();
    assert_eq!((rest.as_str(), status), ("quit\n", 0));
}

/// x, y as the protocol counts them.
type Point = (usize, usize);

/// The shared forbidden-point records' 15×15 positions with as many black stones as
/// white (black to move), each with its labelled points: (point, forbidden, kind).
type Labelled = (Vec<Point>, Vec<Point>, Vec<(Point, bool, String)>);

fn balanced_renju_positions() -> Vec<Labelled> {
    let mut positions: Vec<Labelled> = Vec::new();
    for record in records::shared("renju_forbidden.jsonl").lines() {
        let black = points(record, "black");
        let white = points(record, "white");
        if record.trim().is_empty() || number(record, "size") != 15 || black.len() != white.len() {
            continue;
        }
        // The kind is a string: the text up to its closing quote.
        let kind = field(record, "kind")[1..].split('"').next().unwrap();
        let label = (
            points_of(field(record, "point"))[0],
            field(record, "forbidden").starts_with("true"),
            kind.to_string(),
        );
        match positions
            .iter_mut()
            .find(|(b, w, _)| *b == black && *w == white)
        {
            Some((_, _, labels)) => labels.push(label),
            None => positions.push((black, white, vec![label])),
        }
    }
    positions
}

#[test]
fn loaded_renju_positions_show_and_refuse_the_shared_forbidden_points() {
    let mut s = Session::start(&[&FAST[..], &["--rule", "renju"]].concat());
    let reply = s.until_prompt();
    assert!(reply.contains("Black's forbidden points are marked x."));
    let positions = balanced_renju_positions();
    assert!(positions.len() >= 30, "{} positions", positions.len());
    let file = temp_file("renju.psq");
    let (mut forbidden, mut allowed) = (0, 0);
    for (black, white, labels) in &positions {
        // Saved as Piskvork would: the stones in turn from black, counted from 1.
        let mut text = String::from("Piskvorky 15x15, 11:11, 0\n");
        for ((bx, by), (wx, wy)) in black.iter().zip(white) {
            text += &format!("{},{},0\n{},{},0\n", bx + 1, by + 1, wx + 1, wy + 1);
        }
        text += "-1\n";
        std::fs::write(&file, text).unwrap();
        let reply = s.say(&format!("load {}", file.display()));
        assert!(
            reply.contains(&format!("Loaded {} moves from ", 2 * black.len()))
                && reply.contains(": renju on 15x15."),
            "{reply}"
        );
        assert!(reply.ends_with("black (you) to move> "), "{reply}");
        let shown = last_board(&reply, 15);
        for &((x, y), is_forbidden, ref kind) in labels {
            let mark = shown[y][x];
            assert_eq!(mark == 'x', is_forbidden, "{x},{y} ({kind}):\n{reply}");
            if !is_forbidden {
                allowed += 1;
                continue;
            }
            forbidden += 1;
            let name = format!("{}{}", char::from(b'a' + x as u8), 15 - y);
            let reply = s.say(&name.to_uppercase());
            let kind = match kind.as_str() {
                "double-three" => "a double three",
                "double-four" => "a double four",
                _ => "an overline (six or more in a row)",
            };
            let refusal =
                format!("{name} ({x},{y}) is forbidden for black under renju: it makes {kind}");
            assert!(reply.contains(&refusal), "{refusal}:\n{reply}");
            assert!(
                reply.ends_with("black (you) to move> ") && !reply.contains("plays"),
                "the refused move is not played: {reply}"
            );
        }
    }
    std::fs::remove_file(&file).unwrap();
    assert!(
        forbidden >= 30 && allowed >= 100,
        "{forbidden} forbidden, {allowed} allowed"
    );
    let (_, status) = s.end_of_input();
    assert_eq!(status, 0);
}

#[test]
fn watching_tengen_play_itself_to_the_end() {
    let mut s = Session::start(&[&FAST[..], &["--watch", "--pause", "0", "--size", "7"]].concat());
    let reply = s.until_prompt();
    assert!(reply.contains("Tengen plays both sides"), "{reply}");
    assert!(reply.contains("black plays ") && reply.contains("white plays "));
    assert!(reply.ends_with("game over> "), "{reply}");
    assert!(
        reply.contains("wins with five in a row.") || reply.contains("Draw: the board is full."),
        "{reply}"
    );
    assert!(s.say("undo").contains("with --watch there are none"));
    let (rest, status) = s.end_of_input();
    assert_eq!(status, 0, "{rest}");
}

#[test]
fn tengen_opens_when_the_person_plays_white() {
    let mut s = Session::start(&[&FAST[..], &["--color", "white", "--rule", "1"]].concat());
    let reply = s.until_prompt();
    assert!(
        reply.contains("standard on 15x15, you play white"),
        "{reply}"
    );
    assert!(reply.contains("black (Tengen) plays "), "{reply}");
    assert!(reply.ends_with("white (you) to move> "));
    assert!(s.say("undo").contains("Nothing to take back"));
    let (_, status) = s.end_of_input();
    assert_eq!(status, 0);
}

#[test]
fn bad_command_lines_exit_with_status_2() {
    let output = Command::new(env!("CARGO_BIN_EXE_pbrain-tengen"))
        .args(["play", "--rule", "go"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--rule go"));
}
