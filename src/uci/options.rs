//! The UCI options: their declarations, case-insensitive lookup and range checks.

use cutoff_engine::params::{TUNABLES, TUNING};
use cutoff_engine::search::{SearchOptions, SyzygyOptions};
use cutoff_engine::skill::{ELO_MAX, ELO_MIN, TOP_LEVEL};

/// The kind and range of an option, as declared to the GUI.
#[derive(Clone, Copy)]
pub enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Button,
    /// Free text; the GUI shows `default` for "unset" (Stockfish's `<empty>`).
    String {
        default: &'static str,
    },
}

/// `EvalFile`'s name for the network compiled into the engine.
pub const EMBEDDED_NETWORK: &str = "<embedded>";

/// The largest `Hash` offered, in MB: 32 TiB on 64-bit targets (x86-64 gives a process
/// 128 TiB of address space; Stockfish offers the same), and on 32-bit ones the 2 GiB a
/// single allocation can have. Both fit the 32-bit integers GUIs keep spin values in.
/// A size the machine cannot allocate is refused when set, and the old table kept.
const MAX_HASH_MB: i64 = if usize::BITS >= 64 { 1 << 25 } else { 2047 };

/// `Hash`'s default, in MB: the table a session starts with.
pub const DEFAULT_HASH_MB: usize = 16;

/// The search's defaults, which the options below declare.
const SEARCH: SearchOptions = SearchOptions::DEFAULT;
const SYZYGY: SyzygyOptions = SyzygyOptions::DEFAULT;

/// The most search threads offered: as many as the largest machines have cores.
const MAX_THREADS: i64 = 1024;

#[derive(Clone, Copy)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: Kind,
}

pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "Hash",
        kind: Kind::Spin {
            default: DEFAULT_HASH_MB as i64,
            min: 1,
            max: MAX_HASH_MB,
        },
    },
    OptionSpec {
        name: "Threads",
        kind: Kind::Spin {
            default: SEARCH.threads as i64,
            min: 1,
            max: MAX_THREADS,
        },
    },
    OptionSpec {
        name: "MultiPV",
        kind: Kind::Spin {
            default: SEARCH.multipv as i64,
            min: 1,
            max: 256,
        },
    },
    OptionSpec {
        name: "Move Overhead",
        kind: Kind::Spin {
            default: SEARCH.move_overhead.as_millis() as i64,
            min: 0,
            max: 5000,
        },
    },
    OptionSpec {
        name: "Ponder",
        kind: Kind::Check { default: false },
    },
    OptionSpec {
        name: "UCI_Chess960",
        kind: Kind::Check { default: false },
    },
    OptionSpec {
        name: "UCI_ShowWDL",
        kind: Kind::Check { default: false },
    },
    OptionSpec {
        name: "Skill Level",
        kind: Kind::Spin {
            default: TOP_LEVEL,
            min: 0,
            max: TOP_LEVEL,
        },
    },
    OptionSpec {
        name: "UCI_LimitStrength",
        kind: Kind::Check { default: false },
    },
    OptionSpec {
        name: "UCI_Elo",
        kind: Kind::Spin {
            default: ELO_MAX,
            min: ELO_MIN,
            max: ELO_MAX,
        },
    },
    OptionSpec {
        name: "Clear Hash",
        kind: Kind::Button,
    },
    OptionSpec {
        name: "SyzygyPath",
        kind: Kind::String { default: "<empty>" },
    },
    OptionSpec {
        name: "SyzygyProbeDepth",
        kind: Kind::Spin {
            default: SYZYGY.probe_depth as i64,
            min: 1,
            max: 100,
        },
    },
    OptionSpec {
        name: "Syzygy50MoveRule",
        kind: Kind::Check {
            default: SYZYGY.rule50,
        },
    },
    OptionSpec {
        name: "SyzygyProbeLimit",
        kind: Kind::Spin {
            default: SYZYGY.probe_limit as i64,
            min: 0,
            max: 7,
        },
    },
    OptionSpec {
        name: "UseNNUE",
        kind: Kind::Check { default: true },
    },
    OptionSpec {
        name: "EvalFile",
        kind: Kind::String {
            default: EMBEDDED_NETWORK,
        },
    },
];

/// Every option: [`OPTIONS`], then in a tuning build one spin per search constant, named
/// as in `engine::params` (the names an SPSA tuner sets).
pub fn all() -> impl Iterator<Item = OptionSpec> {
    let tunables = TUNABLES.iter().filter(|_| TUNING).map(|t| OptionSpec {
        name: t.name,
        kind: Kind::Spin {
            default: t.default.into(),
            min: t.min.into(),
            max: t.max.into(),
        },
    });
    OPTIONS.iter().copied().chain(tunables)
}

/// A checked option value.
#[derive(Debug, PartialEq, Eq)]
pub enum Value {
    Spin(i64),
    Check(bool),
    Button,
    String(String),
}

impl OptionSpec {
    /// The `option …` line sent in reply to `uci`.
    pub fn declaration(&self) -> String {
        match self.kind {
            Kind::Spin { default, min, max } => {
                format!(
                    "option name {} type spin default {default} min {min} max {max}",
                    self.name
                )
            }
            Kind::Check { default } => {
                format!("option name {} type check default {default}", self.name)
            }
            Kind::Button => format!("option name {} type button", self.name),
            Kind::String { default } => {
                format!("option name {} type string default {default}", self.name)
            }
        }
    }
}

/// Finds the option (names are case-insensitive) and checks the value against its kind
/// and range. Returns the option's canonical name and the value.
pub fn check(name: &str, value: Option<&str>) -> Result<(&'static str, Value), String> {
    let spec = all()
        .find(|o| o.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| format!("no such option '{name}'"))?;
    let value = match spec.kind {
        Kind::Spin { min, max, .. } => {
            let text = value.ok_or_else(|| format!("option '{}' needs a value", spec.name))?;
            let v: i64 = text
                .trim()
                .parse()
                .map_err(|_| format!("option '{}' expects an integer, not '{text}'", spec.name))?;
            if !(min..=max).contains(&v) {
                return Err(format!(
                    "option '{}' must be within {min}..{max}, not {v}",
                    spec.name
                ));
            }
            Value::Spin(v)
        }
        Kind::Check { .. } => match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
            Some("true") => Value::Check(true),
            Some("false") => Value::Check(false),
            _ => {
                return Err(format!(
                    "option '{}' expects 'true' or 'false', not '{}'",
                    spec.name,
                    value.unwrap_or("")
                ));
            }
        },
        Kind::Button => Value::Button,
        // No value is the empty string: `setoption name SyzygyPath value` clears it.
        Kind::String { .. } => Value::String(value.unwrap_or("").trim().to_string()),
    };
    Ok((spec.name, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_is_case_insensitive_and_checked() {
        assert_eq!(check("hash", Some("64")), Ok(("Hash", Value::Spin(64))));
        assert_eq!(
            check("MOVE OVERHEAD", Some("0")),
            Ok(("Move Overhead", Value::Spin(0)))
        );
        assert_eq!(
            check("ponder", Some("TRUE")),
            Ok(("Ponder", Value::Check(true)))
        );
        assert_eq!(check("clear hash", None), Ok(("Clear Hash", Value::Button)));
        assert_eq!(
            check("syzygypath", Some(" /tb/345:/tb/6 ")),
            Ok(("SyzygyPath", Value::String("/tb/345:/tb/6".to_string())))
        );
        assert_eq!(
            check("SyzygyPath", None),
            Ok(("SyzygyPath", Value::String(String::new())))
        );
        assert!(check("SyzygyProbeLimit", Some("8")).is_err());
        assert!(check("Hash", Some("0")).is_err());
        assert!(check("Hash", Some(&(MAX_HASH_MB + 1).to_string())).is_err());
        assert!(check("Threads", Some("1024")).is_ok());
        assert!(check("Threads", Some("1025")).is_err());
        assert!(check("Hash", Some("lots")).is_err());
        assert!(check("Hash", None).is_err());
        assert!(check("Ponder", Some("yes")).is_err());
        assert!(check("Contempt", Some("10")).is_err());
    }
}
