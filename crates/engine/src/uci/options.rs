//! The UCI options, each declared together with the code that applies it, as in
//! Stockfish (`engine.cpp` adds every option with its `on_change` handler;
//! `ucioption.cpp` holds the option type, its `uci` line and the checks `setoption`
//! runs before the handler).
//!
//! An option is built by one of the constructors [`Opt::spin`], [`Opt::check`],
//! [`Opt::string`], [`Opt::combo`] and [`Opt::button`], which all take the handler:
//! an option that `uci` lists but `setoption` silently ignores cannot be written.
//! The handler gets a value already checked against the option's type (an integer
//! in range, `true`/`false`, one of the combo's values), so it only applies it.
//!
//! Options keep no current value: the engine holds the state they set, and `uci`
//! prints the defaults (UCI.md).

use super::Uci;
use crate::engine::MineKnowledge;
use crate::skill;
use sapper_rules::variant::VariantKind;
use std::fmt;
use std::str::FromStr;

/// What a handler returns: a line to report as `info string`, or an error (printed
/// after `setoption: `; the handler must leave the engine's state unchanged then).
pub(super) type Applied = Result<Option<String>, String>;

/// One UCI option: its name (matched case-insensitively by `setoption`, UCI.md), its
/// type and default, and the handler that applies a new value. Small and `Copy`, so
/// that `setoption` can take it out of the table and hand the front end to its
/// handler mutably.
#[derive(Clone, Copy)]
pub(super) struct Opt {
    name: &'static str,
    kind: Kind,
}

/// An option's UCI type, its bounds, and its handler typed to match.
#[derive(Clone, Copy)]
enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
        apply: fn(&mut Uci, i64) -> Applied,
    },
    Check {
        default: bool,
        apply: fn(&mut Uci, bool) -> Applied,
    },
    Str {
        default: &'static str,
        apply: fn(&mut Uci, &str) -> Applied,
    },
    Combo {
        default: &'static str,
        vars: &'static [&'static str],
        apply: fn(&mut Uci, &str) -> Applied,
    },
    Button {
        apply: fn(&mut Uci) -> Applied,
    },
    /// A search parameter under the `spsa` feature: listed as a spin option, applied
    /// by [`Param::set`](crate::search::params::Param::set), which checks the range
    /// itself. It keeps that function's error text, which tuning scripts may match.
    #[cfg(feature = "spsa")]
    Tunable(&'static crate::search::params::Param),
}

impl Opt {
    /// An integer option (`type spin`) taking values in `min..=max`; `apply` gets a
    /// value in that range.
    pub(super) const fn spin(
        name: &'static str,
        default: i64,
        min: i64,
        max: i64,
        apply: fn(&mut Uci, i64) -> Applied,
    ) -> Opt {
        Opt {
            name,
            kind: Kind::Spin {
                default,
                min,
                max,
                apply,
            },
        }
    }

    /// A boolean option (`type check`); `setoption` accepts `true` and `false` in any
    /// case.
    pub(super) const fn check(
        name: &'static str,
        default: bool,
        apply: fn(&mut Uci, bool) -> Applied,
    ) -> Opt {
        Opt {
            name,
            kind: Kind::Check { default, apply },
        }
    }

    /// A free-text option (`type string`); `apply` gets the value as written, empty
    /// when `setoption` gives none.
    pub(super) const fn string(
        name: &'static str,
        default: &'static str,
        apply: fn(&mut Uci, &str) -> Applied,
    ) -> Opt {
        Opt {
            name,
            kind: Kind::Str { default, apply },
        }
    }

    /// A choice among `vars` (`type combo`); `apply` gets one of them, matched
    /// exactly (UCI.md).
    pub(super) const fn combo(
        name: &'static str,
        default: &'static str,
        vars: &'static [&'static str],
        apply: fn(&mut Uci, &str) -> Applied,
    ) -> Opt {
        Opt {
            name,
            kind: Kind::Combo { default, vars, apply },
        }
    }

    /// An action without a value (`type button`); a value given anyway is ignored.
    pub(super) const fn button(name: &'static str, apply: fn(&mut Uci) -> Applied) -> Opt {
        Opt {
            name,
            kind: Kind::Button { apply },
        }
    }

    /// A search parameter as the spin option of the same name (`spsa` feature).
    #[cfg(feature = "spsa")]
    fn tunable(param: &'static crate::search::params::Param) -> Opt {
        Opt {
            name: param.name,
            kind: Kind::Tunable(param),
        }
    }

    /// Checks `value` against the option's type, then applies it. A value that does
    /// not fit is an error naming what was expected, and no handler runs.
    pub(super) fn set(&self, uci: &mut Uci, value: &str) -> Applied {
        let name = self.name;
        match self.kind {
            Kind::Button { apply } => apply(uci),
            Kind::Spin { min, max, apply, .. } => {
                let v = value
                    .parse::<i64>()
                    .ok()
                    .filter(|v| (min..=max).contains(v))
                    .ok_or_else(|| format!("{name} needs an integer from {min} to {max}, got '{value}'"))?;
                apply(uci, v)
            }
            Kind::Check { apply, .. } => {
                let on = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => return Err(format!("{name} needs true or false, got '{value}'")),
                };
                apply(uci, on)
            }
            Kind::Str { apply, .. } => apply(uci, value),
            Kind::Combo { vars, apply, .. } => {
                if !vars.contains(&value) {
                    return Err(format!(
                        "{name} must be one of: {}; got '{value}'",
                        vars.join(", ")
                    ));
                }
                apply(uci, value)
            }
            #[cfg(feature = "spsa")]
            Kind::Tunable(p) => {
                let v = value
                    .trim()
                    .parse::<i32>()
                    .map_err(|_| format!("{} needs an integer", p.name))?;
                p.set(v).map(|()| None)
            }
        }
    }
}

/// The option's line in the answer to `uci`: `option name <name> type <type> ...`.
impl fmt::Display for Opt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match self.kind {
            Kind::Spin {
                default, min, max, ..
            } => write!(f, "spin default {default} min {min} max {max}"),
            Kind::Check { default, .. } => write!(f, "check default {default}"),
            Kind::Str { default, .. } => write!(f, "string default {default}"),
            Kind::Combo { default, vars, .. } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            Kind::Button { .. } => write!(f, "button"),
            #[cfg(feature = "spsa")]
            Kind::Tunable(p) => write!(f, "spin default {} min {} max {}", p.default, p.min, p.max),
        }
    }
}

/// Every option, in the order `uci` lists them: [`OPTIONS`], then, under the `spsa`
/// feature, the search parameters ([`crate::search::params::ALL`]).
pub(super) fn all() -> impl Iterator<Item = Opt> {
    let options = OPTIONS.iter().copied();
    #[cfg(feature = "spsa")]
    let options = options.chain(crate::search::params::ALL.iter().map(Opt::tunable));
    options
}

/// The option `setoption` means by `name`, compared case-insensitively (UCI.md).
pub(super) fn find(name: &str) -> Option<Opt> {
    all().find(|o| o.name.eq_ignore_ascii_case(name))
}

/// The `UCI_Variant` values, in the order UCI.md lists them.
const VARIANT_NAMES: [&str; VariantKind::ALL.len()] = {
    let mut names = [""; VariantKind::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = VariantKind::ALL[i].name();
        i += 1;
    }
    names
};

/// Largest `Hash` value, MiB. A wasm32 module addresses at most 4 GiB (and a
/// larger size would overflow its 32-bit `usize`), so the browser build stops at 2 GiB.
const MAX_HASH_MIB: i64 = if cfg!(target_arch = "wasm32") {
    2048
} else {
    65_536
};

/// Largest `Threads` value: wasm32 (the browser build) has one thread.
const MAX_THREADS: i64 = if cfg!(target_arch = "wasm32") { 1 } else { 1024 };

/// The options of every build, in the order `uci` lists them.
const OPTIONS: &[Opt] = &[
    Opt::spin("Hash", 16, 1, MAX_HASH_MIB, |uci, v| {
        uci.engine
            .set_hash(v as usize)
            .map(|()| None)
            .map_err(|e| format!("Hash: {e}"))
    }),
    Opt::button("Clear Hash", |uci| {
        uci.engine.clear_hash();
        Ok(None)
    }),
    Opt::spin("Threads", 1, 1, MAX_THREADS, |uci, v| {
        uci.engine.set_threads(v as usize);
        Ok(None)
    }),
    Opt::spin("MultiPV", 1, 1, 500, |uci, v| {
        uci.engine.set_multipv(v as usize);
        Ok(None)
    }),
    // Ponder only tells the engine that `go ponder` may come (UCI).
    Opt::check("Ponder", false, |_, _| Ok(None)),
    Opt::spin("Move Overhead", 10, 0, 5000, |uci, v| {
        uci.engine.set_move_overhead(v as u64);
        Ok(None)
    }),
    Opt::spin(
        "Skill Level",
        skill::MAX_LEVEL as i64,
        0,
        skill::MAX_LEVEL as i64,
        |uci, v| {
            uci.engine.set_skill_level(v as u8);
            Ok(None)
        },
    ),
    Opt::check("UCI_LimitStrength", false, |uci, on| {
        uci.engine.set_limit_strength(on);
        Ok(None)
    }),
    Opt::spin(
        "UCI_Elo",
        skill::ELO_MAX as i64,
        skill::ELO_MIN as i64,
        skill::ELO_MAX as i64,
        |uci, v| {
            uci.engine.set_elo(v as u32);
            Ok(None)
        },
    ),
    Opt::check("UCI_ShowWDL", false, |uci, on| {
        uci.show_wdl = on;
        Ok(None)
    }),
    // Off by default: GUIs and match tools expect the same move from the same
    // search (docs/uci.md); the play page turns it on.
    Opt::check("Opening Variety", false, |uci, on| {
        uci.engine.set_variety(on);
        Ok(None)
    }),
    Opt::check("UCI_AnalyseMode", false, |uci, on| {
        uci.engine.set_analyse_mode(on);
        Ok(None)
    }),
    Opt::string("SyzygyPath", "<empty>", |_, path| Ok(syzygy_report(path))),
    Opt::check("Use NNUE", true, |uci, on| {
        uci.engine.set_use_nnue(on);
        Ok(None)
    }),
    Opt::string("EvalFile", "<embedded>", |uci, path| {
        uci.engine
            .set_eval_file(path)
            .map_err(|e| format!("EvalFile: {e}; parameters unchanged"))
    }),
    Opt::combo("Mine Knowledge", "public", &MineKnowledge::NAMES, |uci, name| {
        let k = MineKnowledge::from_name(name)
            .ok_or_else(|| format!("Mine Knowledge: unknown value '{name}'"))?;
        uci.engine.set_mine_knowledge(k);
        Ok(None)
    }),
    Opt::combo("UCI_Variant", "chess", &VARIANT_NAMES, |uci, name| {
        let variant = VariantKind::from_str(name).map_err(|e| e.to_string())?;
        uci.engine
            .set_variant(variant)
            .map(|()| None)
            .map_err(|e| e.to_string())
    }),
];

/// What `SyzygyPath` found: `None` for `<empty>`, else a line naming how many
/// Syzygy tablebase files (`.rtbw`/`.rtbz` for chess, `.atbw`/`.atbz` for atomic)
/// the directories hold (separated by `:`, or `;` on Windows, as in Stockfish).
/// Sapper does not probe them yet; GUIs and lichess-bot set the option by default,
/// so it must be accepted, and the line says plainly what it does.
fn syzygy_report(value: &str) -> Option<String> {
    let value = value.trim();
    if value.is_empty() || value == "<empty>" {
        return None;
    }
    let separator = if cfg!(windows) { ';' } else { ':' };
    let files = value
        .split(separator)
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flat_map(|entries| entries.filter_map(Result::ok))
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            [".rtbw", ".rtbz", ".atbw", ".atbz"]
                .iter()
                .any(|ext| name.ends_with(ext))
        })
        .count();
    Some(if files == 0 {
        format!("SyzygyPath: no tablebase files found in {value}")
    } else {
        format!("SyzygyPath: {files} tablebase files found in {value}; Sapper does not probe tablebases yet")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `setoption` finds options case-insensitively, so two names differing only in
    /// case would make the second unreachable; and a default outside its own range
    /// would be a value the engine lists but refuses.
    #[test]
    fn names_are_unique_and_defaults_are_valid() {
        let mut names = std::collections::HashSet::new();
        for opt in all() {
            assert!(names.insert(opt.name.to_ascii_lowercase()), "{} twice", opt.name);
            match opt.kind {
                Kind::Spin {
                    default, min, max, ..
                } => {
                    assert!(min <= default && default <= max, "{}", opt.name)
                }
                Kind::Combo { default, vars, .. } => assert!(vars.contains(&default), "{}", opt.name),
                _ => {}
            }
        }
    }

    #[test]
    fn lines_follow_the_uci_grammar() {
        let lines: Vec<String> = OPTIONS.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines[0],
            format!("option name Hash type spin default 16 min 1 max {MAX_HASH_MIB}")
        );
        assert_eq!(lines[1], "option name Clear Hash type button");
        assert!(lines.contains(&"option name Use NNUE type check default true".to_string()));
        assert!(lines.contains(&"option name SyzygyPath type string default <empty>".to_string()));
        assert!(lines.contains(
            &"option name Mine Knowledge type combo default public var public var full var ignore"
                .to_string()
        ));
    }
}
