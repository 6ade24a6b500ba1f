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
    /// `bench [depth]`.
    Bench {
        depth: Option<u32>,
    },
}

const COMMANDS: &[&str] = &[
    "uci",
    "debug",
    "isready",
    "setoption",
    "register",
    "ucinewgame",
    "position",
    "go",
    "stop",
    "ponderhit",
    "quit",
    "d",
    "eval",
    "bench",
];

const GO_KEYWORDS: &[&str] = &[
    "searchmoves",
    "ponder",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "perft",
];

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
        "bench" => Command::Bench {
            depth: args.first().map(|d| number(d, "bench depth")).transpose()?,
        },
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

fn parse_go(args: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut i = 0;
    let value = |i: usize, what: &str| -> Result<&str, String> {
        args.get(i + 1)
            .copied()
            .ok_or_else(|| format!("go {what}: missing value"))
    };
    while i < args.len() {
        let token = args[i];
        match token {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while let Some(&m) = args.get(i + 1) {
                    if GO_KEYWORDS.contains(&m) {
                        break;
                    }
                    go.searchmoves.push(m.to_string());
                    i += 1;
                }
                if go.searchmoves.is_empty() {
                    return Err("go searchmoves: no moves given".to_string());
                }
            }
            "wtime" | "btime" | "winc" | "binc" | "movetime" => {
                let v = millis(value(i, token)?, token)?;
                let slot = match token {
                    "wtime" => &mut go.wtime,
                    "btime" => &mut go.btime,
                    "winc" => &mut go.winc,
                    "binc" => &mut go.binc,
                    _ => &mut go.movetime,
                };
                *slot = Some(v);
                i += 1;
            }
            "movestogo" => {
                go.movestogo = Some(number(value(i, token)?, token)?);
                i += 1;
            }
            "depth" => {
                go.depth = Some(number(value(i, token)?, token)?);
                i += 1;
            }
            "nodes" => {
                go.nodes = Some(number(value(i, token)?, token)?);
                i += 1;
            }
            "mate" => {
                go.mate = Some(number(value(i, token)?, token)?);
                i += 1;
            }
            "perft" => {
                go.perft = Some(number(value(i, token)?, token)?);
                i += 1;
            }
            // Unknown tokens are skipped, as the specification asks.
            _ => {}
        }
        i += 1;
    }
    Ok(go)
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
        assert!(parse("go depth").is_err());
        assert!(parse("go depth x").is_err());
        assert!(parse("go nodes -3").is_err());
        assert!(parse("go searchmoves").is_err());
        let Command::Go(go) = ok("go perft 3") else {
            panic!()
        };
        assert_eq!(go.perft, Some(3));
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
            3 => prop::sample::select(super::COMMANDS).prop_map(str::to_string),
            2 => prop::sample::select(super::GO_KEYWORDS).prop_map(str::to_string),
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
            if let Err(message) = super::parse(&tokens.join(" ")) {
                prop_assert!(!message.is_empty());
            }
        }
    }
}
