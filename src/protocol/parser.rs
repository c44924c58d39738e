//! Text to [`Command`]: the one place that knows the protocol's spelling.
//!
//! Lines arrive with their line ending already removed. Command words are matched
//! without regard to case and surrounding spaces are ignored, so `turn 7, 7 ` is
//! `TURN 7,7`. The multi-line commands (`BOARD`, `YXBOARD`, `SWAP2BOARD`) are collected
//! here up to their `DONE`, so the controller only ever sees whole commands. A block
//! interrupted by a command word other than `DONE` (such as `END`) is reported as invalid and the line is parsed as the command it is,
//! so a manager that forgets `DONE` cannot make the brain swallow the rest of the game.

use super::command::{Command, Coord, Info};
use crate::engine::Field;
use crate::types::Rule;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    Board,
    YxBoard,
    Swap2Board,
}

impl BlockKind {
    fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2Board => "SWAP2BOARD",
        }
    }
}

struct Block {
    kind: BlockKind,
    cells: Vec<(Coord, Field)>,
    moves: Vec<Coord>,
    /// The first bad line; the block is still read up to `DONE`, then rejected whole.
    error: Option<String>,
}

/// A line parser that remembers whether it is inside a multi-line block.
#[derive(Default)]
pub struct Parser {
    block: Option<Block>,
}

impl Parser {
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Whether a `BOARD`-like block is open, waiting for `DONE`.
    pub fn in_block(&self) -> bool {
        self.block.is_some()
    }

    /// Feeds one line (without its line ending) and returns the commands it completes:
    /// none (an empty line, or a line inside a block), one, or two (a block cut short by
    /// a command, then that command).
    pub fn feed(&mut self, line: &str) -> Vec<Command> {
        let line = line.trim_start_matches('\u{feff}').trim();
        if line.is_empty() {
            return Vec::new();
        }
        let Some(block) = self.block.as_mut() else {
            return self.command(line).into_iter().collect();
        };
        if line.eq_ignore_ascii_case("DONE") {
            let block = self.block.take().expect("a block is open");
            return vec![finish(block)];
        }
        if looks_like_command(line) {
            let block = self.block.take().expect("a block is open");
            let cut = Command::Invalid(format!("{} ended without DONE", block.kind.name()));
            return std::iter::once(cut).chain(self.command(line)).collect();
        }
        if block.error.is_none() {
            let parsed = match block.kind {
                BlockKind::Board | BlockKind::YxBoard => {
                    parse_cell(line).map(|cell| block.cells.push(cell))
                }
                BlockKind::Swap2Board => parse_coord(line).map(|coord| block.moves.push(coord)),
            };
            if let Err(reason) = parsed {
                block.error = Some(format!("{} line '{line}': {reason}", block.kind.name()));
            }
        }
        Vec::new()
    }

    /// Parses a line outside any block; a block opener returns nothing yet.
    fn command(&mut self, line: &str) -> Option<Command> {
        let (word, args) = match line.split_once(|c: char| c.is_ascii_whitespace()) {
            Some((word, args)) => (word, args.trim()),
            None => (line, ""),
        };
        let word = word.to_ascii_uppercase();
        let name = word.as_str();
        let block_kind = match name {
            "BOARD" => Some(BlockKind::Board),
            "YXBOARD" => Some(BlockKind::YxBoard),
            "SWAP2BOARD" => Some(BlockKind::Swap2Board),
            _ => None,
        };
        if let Some(kind) = block_kind {
            // Even with a stray argument the block is read to its DONE, so its stone
            // lines are not taken for commands; it is then refused as a whole.
            self.block = Some(Block {
                kind,
                cells: Vec::new(),
                moves: Vec::new(),
                error: no_args(args)
                    .err()
                    .map(|reason| format!("{name}: {reason}")),
            });
            return None;
        }
        let result = match name {
            "START" => parse_int(args).map(|n| Command::Start {
                width: n,
                height: n,
            }),
            "RECTSTART" => {
                parse_coord(args).map(|(width, height)| Command::Start { width, height })
            }
            "TURN" => parse_coord(args).map(Command::Turn),
            "TAKEBACK" => parse_coord(args).map(Command::Takeback),
            "PLAY" => parse_coord(args).map(Command::Play),
            "YXNBEST" => parse_int(args).and_then(|n| match usize::try_from(n) {
                Ok(n) if n >= 1 => Ok(Command::NBest(n)),
                _ => Err(format!("'{n}' is not a positive count")),
            }),
            "INFO" => Ok(Command::Info(parse_info(args))),
            "RESTART" => no_args(args).map(|()| Command::Restart),
            "BEGIN" => no_args(args).map(|()| Command::Begin),
            "END" => no_args(args).map(|()| Command::End),
            "ABOUT" => no_args(args).map(|()| Command::About),
            "YXSTOP" | "STOP" => no_args(args).map(|()| Command::Stop),
            "YXSHOWFORBID" => no_args(args).map(|()| Command::ShowForbid),
            "YXHASHCLEAR" => no_args(args).map(|()| Command::HashClear),
            "BENCH" if args.is_empty() => Ok(Command::Bench(None)),
            "BENCH" => parse_int(args).and_then(|d| match u32::try_from(d) {
                Ok(depth) if depth >= 1 => Ok(Command::Bench(Some(depth))),
                _ => Err(format!("'{d}' is not a positive depth")),
            }),
            "DONE" => Err("DONE without BOARD, YXBOARD or SWAP2BOARD".to_owned()),
            _ => Ok(Command::Unknown(line.to_owned())),
        };
        Some(result.unwrap_or_else(|reason| Command::Invalid(format!("{name}: {reason}"))))
    }
}

/// Whether a line inside a block is a command word rather than a (perhaps broken) stone
/// line: it starts with a letter and its first word has no comma.
fn looks_like_command(line: &str) -> bool {
    let first_word = line
        .split(|c: char| c.is_ascii_whitespace())
        .next()
        .unwrap_or("");
    line.starts_with(|c: char| c.is_ascii_alphabetic()) && !first_word.contains(',')
}

fn finish(block: Block) -> Command {
    if let Some(error) = block.error {
        return Command::Invalid(error);
    }
    match block.kind {
        BlockKind::Board => Command::Board {
            think: true,
            cells: block.cells,
        },
        BlockKind::YxBoard => Command::Board {
            think: false,
            cells: block.cells,
        },
        BlockKind::Swap2Board => Command::Swap2Board(block.moves),
    }
}

fn no_args(args: &str) -> Result<(), String> {
    if args.is_empty() {
        Ok(())
    } else {
        Err(format!("unexpected argument '{args}'"))
    }
}

fn parse_int(text: &str) -> Result<i32, String> {
    let text = text.trim();
    text.parse()
        .map_err(|_| format!("'{text}' is not an integer"))
}

/// `x,y`, with spaces allowed around either number.
fn parse_coord(text: &str) -> Result<Coord, String> {
    match text.split(',').collect::<Vec<_>>()[..] {
        [x, y] => Ok((parse_int(x)?, parse_int(y)?)),
        _ => Err(format!("'{text}' is not of the form x,y")),
    }
}

/// A `BOARD` line: `x,y,f` with f = 1 (own stone), 2 (opponent's) or 3 (blocked).
fn parse_cell(text: &str) -> Result<(Coord, Field), String> {
    match text.split(',').collect::<Vec<_>>()[..] {
        [x, y, f] => {
            let cell = match parse_int(f)? {
                1 => Field::Own,
                2 => Field::Opponent,
                3 => Field::Blocked,
                other => return Err(format!("field {other} is not 1, 2 or 3")),
            };
            Ok(((parse_int(x)?, parse_int(y)?), cell))
        }
        _ => Err("not of the form x,y,f".to_owned()),
    }
}

fn parse_info(args: &str) -> Info {
    let (key, value) = match args.split_once(|c: char| c.is_ascii_whitespace()) {
        Some((key, value)) => (key.to_ascii_lowercase(), value.trim()),
        None => (args.to_ascii_lowercase(), ""),
    };
    let invalid = |what: &str| Info::Invalid(format!("INFO {key}: '{value}' is not {what}"));
    let number = || value.parse::<i64>().ok();
    let natural = || value.parse::<u64>().ok();
    match key.as_str() {
        "" => Info::Invalid("INFO without a key".to_owned()),
        "timeout_turn" => natural().map_or_else(|| invalid("a time in ms"), Info::TimeoutTurn),
        "timeout_match" => natural().map_or_else(|| invalid("a time in ms"), Info::TimeoutMatch),
        "time_left" => number().map_or_else(|| invalid("a time in ms"), Info::TimeLeft),
        "max_memory" => natural().map_or_else(|| invalid("a size in bytes"), Info::MaxMemory),
        "game_type" => number().map_or_else(|| invalid("a game type"), Info::GameType),
        "rule" => number()
            .and_then(Rule::from_protocol)
            .map_or_else(|| invalid("a known rule"), Info::Rule),
        "thread_num" => match natural() {
            Some(n @ 1..=MAX_THREADS) => Info::ThreadNum(n as usize),
            _ => invalid(&format!("a thread count from 1 to {MAX_THREADS}")),
        },
        // 0 means "no limit" for both, as it does for the official limits; -1 is how
        // some GUIs spell "no limit" for the node count.
        "max_depth" => match natural() {
            Some(0) => Info::MaxDepth(None),
            Some(depth) => u32::try_from(depth)
                .map_or_else(|_| invalid("a depth"), |d| Info::MaxDepth(Some(d))),
            None => invalid("a depth"),
        },
        "max_node" => match number() {
            Some(0 | -1) => Info::MaxNode(None),
            Some(nodes) if nodes > 0 => Info::MaxNode(Some(nodes as u64)),
            _ => invalid("a node count"),
        },
        "hash_size" => natural().map_or_else(|| invalid("a size in KiB"), Info::HashSize),
        _ => Info::Ignored,
    }
}

/// The most search threads the brain accepts.
pub const MAX_THREADS: u64 = 256;

#[cfg(test)]
mod tests {
    use super::*;

    fn one(line: &str) -> Command {
        let mut parser = Parser::new();
        let mut commands = parser.feed(line);
        assert_eq!(commands.len(), 1, "{line:?} gave {commands:?}");
        assert!(!parser.in_block());
        commands.remove(0)
    }

    fn feed_all(lines: &[&str]) -> Vec<Command> {
        let mut parser = Parser::new();
        lines.iter().flat_map(|line| parser.feed(line)).collect()
    }

    fn is_invalid(command: &Command) -> bool {
        matches!(command, Command::Invalid(_))
    }

    #[test]
    fn simple_commands() {
        assert_eq!(
            one("START 15"),
            Command::Start {
                width: 15,
                height: 15
            }
        );
        assert_eq!(
            one("RECTSTART 20,15"),
            Command::Start {
                width: 20,
                height: 15
            }
        );
        assert_eq!(one("RESTART"), Command::Restart);
        assert_eq!(one("BEGIN"), Command::Begin);
        assert_eq!(one("TURN 10,11"), Command::Turn((10, 11)));
        assert_eq!(one("TAKEBACK 3,4"), Command::Takeback((3, 4)));
        assert_eq!(one("PLAY 0,14"), Command::Play((0, 14)));
        assert_eq!(one("END"), Command::End);
        assert_eq!(one("ABOUT"), Command::About);
        assert_eq!(one("YXSTOP"), Command::Stop);
        assert_eq!(one("STOP"), Command::Stop);
        assert_eq!(one("YXSHOWFORBID"), Command::ShowForbid);
        assert_eq!(one("YXHASHCLEAR"), Command::HashClear);
        assert_eq!(one("YXNBEST 3"), Command::NBest(3));
        assert_eq!(one("BENCH"), Command::Bench(None));
        assert_eq!(one("bench 4"), Command::Bench(Some(4)));
    }

    #[test]
    fn case_and_spaces_do_not_matter() {
        assert_eq!(
            one("  start   20 "),
            Command::Start {
                width: 20,
                height: 20
            }
        );
        assert_eq!(one("turn 7, 8"), Command::Turn((7, 8)));
        assert_eq!(one("Turn\t7 ,8\t"), Command::Turn((7, 8)));
        assert_eq!(one("\u{feff}about"), Command::About);
        assert_eq!(one("yxStop"), Command::Stop);
    }

    #[test]
    fn empty_lines_are_ignored() {
        let mut parser = Parser::new();
        assert!(parser.feed("").is_empty());
        assert!(parser.feed("   \t ").is_empty());
    }

    #[test]
    fn negative_and_large_coordinates_reach_the_controller() {
        // Off-board points are the controller's business; the parser keeps the numbers.
        assert_eq!(one("TURN -1,40"), Command::Turn((-1, 40)));
    }

    #[test]
    fn malformed_arguments_are_invalid_commands() {
        for line in [
            "START",
            "START x",
            "START 15 15",
            "RECTSTART 20",
            "TURN 7",
            "TURN 7,8,9",
            "TURN a,b",
            "TURN 7;8",
            "TURN 99999999999,1",
            "TAKEBACK",
            "PLAY 1.5,2",
            "BEGIN now",
            "RESTART 15",
            "ABOUT me",
            "YXNBEST 0",
            "YXNBEST -2",
            "YXNBEST many",
            "BENCH 0",
            "BENCH deep",
            "DONE",
        ] {
            assert!(is_invalid(&one(line)), "{line}");
        }
    }

    #[test]
    fn unknown_commands_keep_their_text() {
        assert_eq!(one("FOO bar"), Command::Unknown("FOO bar".to_owned()));
        assert_eq!(one("7,7"), Command::Unknown("7,7".to_owned()));
    }

    #[test]
    fn board_block_collects_until_done() {
        let commands = feed_all(&["BOARD", "7,7,1", " 8,8 , 2", "", "9,9,3", "done"]);
        assert_eq!(
            commands,
            [Command::Board {
                think: true,
                cells: vec![
                    ((7, 7), Field::Own),
                    ((8, 8), Field::Opponent),
                    ((9, 9), Field::Blocked)
                ],
            }]
        );
        assert_eq!(
            feed_all(&["yxboard", "DONE"]),
            [Command::Board {
                think: false,
                cells: vec![]
            }]
        );
    }

    #[test]
    fn swap2board_collects_moves() {
        assert_eq!(
            feed_all(&["SWAP2BOARD", "7,7", "8,7", "9,9", "DONE"]),
            [Command::Swap2Board(vec![(7, 7), (8, 7), (9, 9)])]
        );
        assert_eq!(
            feed_all(&["SWAP2BOARD", "DONE"]),
            [Command::Swap2Board(vec![])]
        );
    }

    #[test]
    fn a_bad_line_rejects_the_whole_block_at_done() {
        for bad in ["7,7,4", "7,7", "x,7,1", "7,7,1,1"] {
            let commands = feed_all(&["BOARD", "1,1,1", bad, "2,2,2", "DONE"]);
            assert_eq!(commands.len(), 1);
            assert!(is_invalid(&commands[0]), "{bad}: {commands:?}");
        }
        let commands = feed_all(&["SWAP2BOARD", "7,7,1", "DONE"]);
        assert!(is_invalid(&commands[0]));
    }

    #[test]
    fn a_command_inside_a_block_cuts_it_short() {
        let commands = feed_all(&["BOARD", "7,7,1", "END"]);
        assert_eq!(commands.len(), 2);
        assert!(is_invalid(&commands[0]));
        assert_eq!(commands[1], Command::End);

        let mut parser = Parser::new();
        assert!(parser.feed("BOARD").is_empty());
        assert!(parser.in_block());
        assert_eq!(parser.feed("BOARD").len(), 1, "the first block is cut");
        assert!(parser.in_block(), "the second block is open");
        assert_eq!(
            parser.feed("DONE"),
            [Command::Board {
                think: true,
                cells: vec![]
            }]
        );
    }

    #[test]
    fn block_commands_take_no_arguments() {
        let commands = feed_all(&["BOARD 1", "7,7,1", "DONE"]);
        assert_eq!(commands.len(), 1);
        assert!(is_invalid(&commands[0]));
    }

    #[test]
    fn think_commands() {
        let thinking = ["BEGIN", "TURN 1,1", "YXNBEST 2"];
        for line in thinking {
            assert!(one(line).thinks(), "{line}");
        }
        for line in [
            "START 15",
            "INFO timeout_turn 5",
            "TAKEBACK 1,1",
            "PLAY 1,1",
            "YXSTOP",
            "ABOUT",
        ] {
            assert!(!one(line).thinks(), "{line}");
        }
        assert!(feed_all(&["BOARD", "DONE"])[0].thinks());
        assert!(feed_all(&["SWAP2BOARD", "DONE"])[0].thinks());
        assert!(!feed_all(&["YXBOARD", "DONE"])[0].thinks());
    }

    fn info(line: &str) -> Info {
        match one(line) {
            Command::Info(info) => info,
            other => panic!("{line} gave {other:?}"),
        }
    }

    #[test]
    fn official_info_keys() {
        assert_eq!(info("INFO timeout_turn 5000"), Info::TimeoutTurn(5000));
        assert_eq!(info("INFO timeout_turn 0"), Info::TimeoutTurn(0));
        assert_eq!(
            info("INFO timeout_match 180000"),
            Info::TimeoutMatch(180000)
        );
        assert_eq!(info("INFO time_left -250"), Info::TimeLeft(-250));
        assert_eq!(
            info("INFO time_left 2147483647"),
            Info::TimeLeft(2147483647)
        );
        assert_eq!(
            info("INFO max_memory 367001600"),
            Info::MaxMemory(367001600)
        );
        assert_eq!(
            info("INFO max_memory 8589934592"),
            Info::MaxMemory(8589934592)
        );
        assert_eq!(info("INFO game_type 1"), Info::GameType(1));
        assert_eq!(info("INFO rule 0"), Info::Rule(Rule::Freestyle));
        assert_eq!(info("INFO rule 1"), Info::Rule(Rule::Standard));
        assert_eq!(info("INFO rule 4"), Info::Rule(Rule::Renju));
        assert_eq!(info("INFO rule 8"), Info::Rule(Rule::Caro));
        assert_eq!(info("INFO evaluate 7,7"), Info::Ignored);
        assert_eq!(info("INFO folder C:\\Program Files\\x"), Info::Ignored);
    }

    #[test]
    fn extension_info_keys() {
        assert_eq!(
            info("INFO rule 2"),
            Info::Rule(Rule::Renju),
            "Yixin-Board's renju"
        );
        assert_eq!(info("INFO thread_num 2"), Info::ThreadNum(2));
        assert_eq!(info("INFO max_depth 12"), Info::MaxDepth(Some(12)));
        assert_eq!(info("INFO max_depth 0"), Info::MaxDepth(None));
        assert_eq!(info("INFO max_node 100000"), Info::MaxNode(Some(100000)));
        assert_eq!(info("INFO max_node -1"), Info::MaxNode(None));
        assert_eq!(info("INFO hash_size 65536"), Info::HashSize(65536));
        assert_eq!(info("INFO pondering 1"), Info::Ignored);
        assert_eq!(info("INFO SOMETHING_NEW 1"), Info::Ignored);
    }

    #[test]
    fn info_keys_ignore_case() {
        assert_eq!(info("info TIMEOUT_TURN 100"), Info::TimeoutTurn(100));
        assert_eq!(info("INFO  Rule   4 "), Info::Rule(Rule::Renju));
    }

    #[test]
    fn bad_info_values_are_invalid() {
        for line in [
            "INFO",
            "INFO timeout_turn",
            "INFO timeout_turn -5",
            "INFO timeout_turn fast",
            "INFO timeout_match 1.5",
            "INFO time_left x",
            "INFO max_memory -1",
            "INFO rule 16",
            "INFO rule -1",
            "INFO thread_num 0",
            "INFO thread_num 100000",
            "INFO max_depth -3",
            "INFO max_node -7",
            "INFO hash_size big",
        ] {
            assert!(matches!(info(line), Info::Invalid(_)), "{line}");
        }
    }
}
