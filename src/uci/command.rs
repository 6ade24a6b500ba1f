//! The UCI command parser: one input line in, one `Command` or a precise error out.
//! Pure (no I/O, no engine state), so every malformed line can be unit-tested.

/// What a `go` command asked for, as written (moves unresolved, times in milliseconds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    /// `go perft N` (Stockfish's extension): count leaf nodes instead of searching.
    pub perft: Option<u32>,
    /// What was wrong with the line: each bad keyword is reported and left out, and the
    /// search runs on what remains, since a GUI waits for the `bestmove` of every `go`.
    pub errors: Vec<String>,
}

/// A parsed input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    Register,
    UciNewGame,
    /// `fen` is None for `startpos`.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Quit,
    /// `d`: show the board, FEN and key.
    Display,
    /// `eval`: the evaluation broken into terms.
    Eval,
    /// `bench [depth] [threads] [hash]`, as `cutoff bench` takes them.
    Bench {
        depth: Option<i64>,
        threads: Option<i64>,
        hash_mb: Option<i64>,
    },
}

#[path = "words.rs"]
mod words;

pub use words::{
    BENCH_DEPTH, BENCH_HASH_MB, BENCH_THREADS, BENCH_USAGE, MAX_TOOL_THREADS, PERFT_DEPTH,
};
use words::{COMMANDS, GO_KEYWORDS};

/// Parses one line. `Ok(None)` for a blank line.
///
/// As the UCI specification asks, unknown tokens before a command are skipped
/// (`joho debug on` is `debug on`); a line with no known command is an error.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    if tokens.is_empty() {
        return Ok(None);
    }
    let Some(start) = tokens.iter().position(|t| COMMANDS.contains(t)) else {
        return Err(format!("unknown command '{}'", line.trim()));
    };
    let args = &tokens[start + 1..];
    let command = match tokens[start] {
        "uci" => Command::Uci,
        "debug" => Command::Debug(match args.first() {
            Some(&"on") | None => true,
            Some(&"off") => false,
            Some(other) => return Err(format!("debug expects 'on' or 'off', not '{other}'")),
        }),
        "isready" => Command::IsReady,
        "setoption" => parse_setoption(args)?,
        "register" => Command::Register,
        "ucinewgame" => Command::UciNewGame,
        "position" => parse_position(args)?,
        "go" => Command::Go(parse_go(args)?),
        "stop" => Command::Stop,
        "ponderhit" => Command::PonderHit,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "eval" => Command::Eval,
        "bench" => parse_bench(args)?,
        _ => unreachable!("COMMANDS and this match list the same words"),
    };
    Ok(Some(command))
}

fn number<T: std::str::FromStr>(token: &str, what: &str) -> Result<T, String> {
    token
        .parse()
        .map_err(|_| format!("{what} expects a non-negative number, not '{token}'"))
}

/// Milliseconds; some GUIs send a negative remaining time when a clock ran over, which
/// means "no time left".
fn millis(token: &str, what: &str) -> Result<u64, String> {
    match token.parse::<i64>() {
        Ok(v) => Ok(v.max(0) as u64),
        Err(_) => Err(format!(
            "{what} expects a number of milliseconds, not '{token}'"
        )),
    }
}

fn parse_setoption(args: &[&str]) -> Result<Command, String> {
    let Some(name_at) = args.iter().position(|&t| t == "name") else {
        return Err("setoption expects 'name <id> [value <x>]'".to_string());
    };
    let rest = &args[name_at + 1..];
    let value_at = rest.iter().position(|&t| t == "value");
    let name = rest[..value_at.unwrap_or(rest.len())].join(" ");
    if name.is_empty() {
        return Err("setoption: missing option name".to_string());
    }
    let value = value_at.map(|v| rest[v + 1..].join(" "));
    Ok(Command::SetOption { name, value })
}

fn parse_position(args: &[&str]) -> Result<Command, String> {
    let moves_at = args.iter().position(|&t| t == "moves");
    let setup = &args[..moves_at.unwrap_or(args.len())];
    let moves = moves_at.map_or_else(Vec::new, |m| {
        args[m + 1..].iter().map(|s| s.to_string()).collect()
    });
    let fen = match setup.iter().position(|&t| t == "startpos" || t == "fen") {
        Some(i) if setup[i] == "startpos" => None,
        Some(i) => {
            let fields = &setup[i + 1..];
            if fields.is_empty() {
                return Err("position fen: missing FEN".to_string());
            }
            Some(fields.join(" "))
        }
        None => return Err("position expects 'startpos' or 'fen <FEN>'".to_string()),
    };
    Ok(Command::Position { fen, moves })
}

/// `bench [depth] [threads] [hash]`: each argument in the range `cutoff bench` allows.
fn parse_bench(args: &[&str]) -> Result<Command, String> {
    let ranges = [
        ("depth", BENCH_DEPTH),
        ("threads", BENCH_THREADS),
        ("hash", BENCH_HASH_MB),
    ];
    if args.len() > ranges.len() {
        return Err(format!(
            "bench takes at most three arguments: {BENCH_USAGE}"
        ));
    }
    let mut values = [None; 3];
    for ((token, (what, range)), value) in args.iter().zip(ranges).zip(&mut values) {
        let n: i64 = number(token, &format!("bench {what}"))?;
        if !range.contains(&n) {
            return Err(format!(
                "bench {what} must be in {}..={}, not {n} ({BENCH_USAGE})",
                range.start(),
                range.end()
            ));
        }
        *value = Some(n);
    }
    let [depth, threads, hash_mb] = values;
    Ok(Command::Bench {
        depth,
        threads,
        hash_mb,
    })
}

/// Parses the words after `go`. Only `perft` with a bad depth refuses the line (it asks
/// for no search); any other bad or missing value is recorded in `errors` and left out.
fn parse_go(args: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut i = 0;
    while i < args.len() {
        let token = args[i];
        // The value after a keyword; a missing one (the line ends, or another keyword
        // follows) consumes nothing.
        let value = match args.get(i + 1) {
            Some(v) if !GO_KEYWORDS.contains(v) => Ok(*v),
            _ => Err(format!("go {token}: missing value")),
        };
        let consumed = usize::from(value.is_ok());
        let parsed = match token {
            "infinite" => {
                go.infinite = true;
                Ok(0)
            }
            "ponder" => {
                go.ponder = true;
                Ok(0)
            }
            "searchmoves" => {
                let before = go.searchmoves.len();
                let moves = args[i + 1..]
                    .iter()
                    .take_while(|m| !GO_KEYWORDS.contains(m));
                go.searchmoves.extend(moves.map(|m| m.to_string()));
                // The words this keyword took; a repeated `searchmoves` adds to the list.
                let taken = go.searchmoves.len() - before;
                if go.searchmoves.is_empty() {
                    Err("go searchmoves: no moves given".to_string())
                } else {
                    Ok(taken)
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" => {
                let slot = match token {
                    "wtime" => &mut go.wtime,
                    "btime" => &mut go.btime,
                    "winc" => &mut go.winc,
                    "binc" => &mut go.binc,
                    _ => &mut go.movetime,
                };
                value.and_then(|v| millis(v, token)).map(|v| {
                    *slot = Some(v);
                    consumed
                })
            }
            "movestogo" => set(&mut go.movestogo, value, token),
            "depth" => set(&mut go.depth, value, token),
            "nodes" => set(&mut go.nodes, value, token),
            "mate" => set(&mut go.mate, value, token),
            "perft" => {
                let depth: i64 = value.and_then(|v| number(v, token))?;
                if !PERFT_DEPTH.contains(&depth) {
                    return Err(format!(
                        "go perft: depth must be in {}..={}, not {depth}",
                        PERFT_DEPTH.start(),
                        PERFT_DEPTH.end()
                    ));
                }
                go.perft = Some(depth as u32);
                Ok(1)
            }
            // Unknown tokens are skipped, as the specification asks.
            _ => Ok(0),
        };
        match parsed {
            Ok(n) => i += n,
            Err(e) => {
                go.errors.push(format!("{e}; ignored"));
                i += consumed;
            }
        }
        i += 1;
    }
    Ok(go)
}

/// Parses a keyword's number into its slot; how many tokens it took.
fn set<T: std::str::FromStr>(
    slot: &mut Option<T>,
    value: Result<&str, String>,
    what: &str,
) -> Result<usize, String> {
    *slot = Some(value.and_then(|v| number(v, what))?);
    Ok(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Command {
        parse(line).unwrap().unwrap()
    }

    #[test]
    fn simple_commands() {
        assert_eq!(ok("uci"), Command::Uci);
        assert_eq!(ok("  isready  "), Command::IsReady);
        assert_eq!(ok("debug off"), Command::Debug(false));
        assert_eq!(ok("joho debug on"), Command::Debug(true));
        assert_eq!(parse("").unwrap(), None);
        assert!(parse("xyzzy").is_err());
        assert!(parse("debug maybe").is_err());
    }

    #[test]
    fn setoption_names_with_spaces() {
        assert_eq!(
            ok("setoption name Move Overhead value 30"),
            Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            ok("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert!(parse("setoption Hash 16").is_err());
        assert!(parse("setoption name").is_err());
    }

    #[test]
    fn positions() {
        assert_eq!(
            ok("position startpos moves e2e4 e7e5"),
            Command::Position {
                fen: None,
                moves: vec!["e2e4".into(), "e7e5".into()]
            }
        );
        assert_eq!(
            ok("position fen 8/8/8/8/8/8/8/K6k w - - 0 1"),
            Command::Position {
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()),
                moves: vec![]
            }
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position moves e2e4").is_err());
    }

    #[test]
    fn go_parameters() {
        let Command::Go(go) = ok("go wtime 1000 btime -5 winc 10 binc 10 movestogo 5 foo depth 3")
        else {
            panic!()
        };
        assert_eq!(go.wtime, Some(1000));
        assert_eq!(go.btime, Some(0));
        assert_eq!(go.movestogo, Some(5));
        assert_eq!(go.depth, Some(3));
        let Command::Go(go) = ok("go searchmoves e2e4 d2d4 infinite") else {
            panic!()
        };
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        assert!(go.infinite);
        // A second `searchmoves` adds to the list and leaves the next limit in force (it
        // used to skip as many words as the whole list held, `depth 3` with them).
        let Command::Go(go) = ok("go searchmoves e2e4 searchmoves d2d4 depth 3") else {
            panic!()
        };
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(go.depth, Some(3));
        // A bad value is reported and left out; the rest of the line still counts.
        let errors = |line: &str| match ok(line) {
            Command::Go(go) => go.errors,
            other => panic!("{other:?}"),
        };
        assert_eq!(errors("go depth"), ["go depth: missing value; ignored"]);
        assert_eq!(
            errors("go depth x"),
            ["depth expects a non-negative number, not 'x'; ignored"]
        );
        assert_eq!(
            errors("go nodes -3 depth 2"),
            ["nodes expects a non-negative number, not '-3'; ignored"]
        );
        assert_eq!(
            errors("go searchmoves depth 2"),
            ["go searchmoves: no moves given; ignored"]
        );
        let Command::Go(go) = ok("go depth movetime 50 wtime") else {
            panic!()
        };
        assert_eq!((go.depth, go.movetime, go.wtime), (None, Some(50), None));
        assert_eq!(go.errors.len(), 2, "{:?}", go.errors);
        assert!(parse("go perft").is_err());
        assert!(parse("go perft x").is_err());
        assert!(parse("go perft 21").is_err());
        let Command::Go(go) = ok("go perft 3") else {
            panic!()
        };
        assert_eq!(go.perft, Some(3));
    }

    #[test]
    fn bench_takes_the_arguments_of_cutoff_bench() {
        assert_eq!(
            ok("bench"),
            Command::Bench {
                depth: None,
                threads: None,
                hash_mb: None
            }
        );
        assert_eq!(
            ok("bench 5 2 32"),
            Command::Bench {
                depth: Some(5),
                threads: Some(2),
                hash_mb: Some(32)
            }
        );
        for bad in [
            "bench 0",
            "bench 65",
            "bench x",
            "bench 5 0",
            "bench 5 1 0",
            "bench 1 1 1 1",
        ] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}

/// Property tests (proptest): lines made of the protocol's own words, numbers at and
/// beyond the edges of their types, and arbitrary text never make the parser panic,
/// and every refusal says why.
#[cfg(test)]
mod fuzz {
    use proptest::prelude::*;

    /// Words the parser gives meaning to besides the commands and `go` keywords.
    const WORDS: &[&str] = &[
        "on",
        "off",
        "name",
        "value",
        "later",
        "code",
        "startpos",
        "fen",
        "moves",
        "Hash",
        "Threads",
        "MultiPV",
        "Move",
        "Overhead",
        "Clear",
        "UCI_Chess960",
        "UCI_ShowWDL",
        "true",
        "false",
        "e2e4",
        "e7e8q",
        "e1h1",
        "0000",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",
        "w",
        "b",
        "KQkq",
        "HAha",
        "-",
        "e3",
        "0",
        "1",
        "-1",
        "+",
        "\t",
        "\u{0}",
        "é",
    ];

    fn token() -> impl Strategy<Value = String> {
        prop_oneof![
            3 => prop::sample::select(super::words::COMMANDS).prop_map(str::to_string),
            2 => prop::sample::select(super::words::GO_KEYWORDS).prop_map(str::to_string),
            3 => prop::sample::select(WORDS).prop_map(str::to_string),
            1 => any::<i64>().prop_map(|n| n.to_string()),
            1 => any::<u64>().prop_map(|n| format!("{n}9")),
            1 => any::<String>(),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]
        #[test]
        fn no_line_makes_the_parser_panic(tokens in prop::collection::vec(token(), 0..16)) {
            match super::parse(&tokens.join(" ")) {
                Err(message) => prop_assert!(!message.is_empty()),
                Ok(Some(super::Command::Go(go))) => {
                    prop_assert!(go.errors.iter().all(|m| !m.is_empty()));
                }
                Ok(_) => {}
            }
        }
    }
}
