//! The reviewed game as an annotated PGN, in the form lichess exports and
//! python-chess reads (`chess.pgn.GameNode.eval()`, `.nags`, `.variations`):
//!
//! * after every move a comment `{ [%eval 0.35] }`: White's evaluation of the
//!   position after the move, in pawns with two decimals, or `#N` / `#-N` when White
//!   mates / is mated in N moves (`#0`: the side to move is mated);
//! * on a marked move its glyph as a numeric annotation (`$6` ?!, `$2` ?, `$4` ??),
//!   lichess's sentence in the comment (`Blunder. Nf3 was best.`) and the better line
//!   as a variation `( ... )` after it;
//! * the input's tags, with an `Annotator` tag naming Sapper and the search limit,
//!   and a comment before the first move with each side's accuracy.

use super::pgn::PgnGame;
use super::Review;
use crate::analyze::limits_text;
use crate::search::score::mate_moves_from;
use sapper_rules::types::Color;
use sapper_rules::variant::Variant;
use sapper_rules::with_variant;

/// Lines of movetext are wrapped before this many characters (PGN export format);
/// a longer unit (a comment or variation) gets a line of its own.
const LINE: usize = 79;

/// The better line after a marked move is cut after this many plies: beyond them a
/// line says more about the search's horizon than about the position.
const VARIATION_PLIES: usize = 10;

/// White's view of the side to move's `score` (side to move `side`) as a
/// `[%eval ...]` value: pawns with two decimals (`0.35`, `-1.20`), or `#N` / `#-N`
/// for a mate in N moves for / against White, `#0` for a position whose side to
/// move is mated (python-chess reads it so).
pub fn eval_text(score: i32, side: Color) -> String {
    let flip = side == Color::Black;
    match mate_moves_from(score, flip) {
        Some(n) => format!("#{n}"),
        None => {
            let white = if flip { -score } else { score };
            format!("{:.2}", f64::from(white) / 100.0)
        }
    }
}

/// The annotated PGN of `review`, the review of `pgn`'s game.
pub fn annotated(pgn: &PgnGame, review: &Review) -> String {
    let mut out = String::new();
    let annotator = format!(
        "Sapper {} review, {}",
        env!("CARGO_PKG_VERSION"),
        limits_text(&review.limits)
    );
    let result = pgn
        .result
        .clone()
        .or_else(|| pgn.tag("Result").map(str::to_string))
        .unwrap_or_else(|| "*".to_string());
    let mut tags: Vec<(String, String)> = pgn
        .tags
        .iter()
        .filter(|(name, _)| name != "Annotator")
        .cloned()
        .collect();
    let pgn_variant = with_variant!(review.variant, V => V::PGN_VARIANT);
    // The variant as reviewed (`--variant` may have named it) by its PGN name,
    // lichess's, which other tools read (an input's `3check` or `kingofthehill` is
    // Sapper's name, not theirs); chess keeps a tag that names chess.
    match (tags.iter_mut().find(|(n, _)| n == "Variant"), pgn_variant) {
        (Some(tag), Some(name)) => tag.1 = name.to_string(),
        (Some(tag), None) if super::pgn::variant_of(Some(&tag.1)) != Ok(review.variant) => {
            tag.1 = "Standard".to_string()
        }
        (None, Some(name)) => tags.push(("Variant".to_string(), name.to_string())),
        _ => {}
    }
    tags.push(("Annotator".to_string(), annotator));
    for (name, value) in &tags {
        let value = value.replace('\\', "\\\\").replace('"', "\\\"");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    }
    out.push('\n');

    // The summary is long: its words are units, so that it wraps too.
    let summary = comment(&summary(review));
    let mut units: Vec<String> = summary.split(' ').map(str::to_string).collect();
    for m in &review.moves {
        let mut unit = format!("{} {}", m.number_text(), m.san);
        if let Some(advice) = m.advice {
            unit.push_str(&format!(" ${}", advice.judgement.nag()));
        }
        units.push(unit);
        let after = &review.positions[m.ply + 1];
        let mut text = format!("[%eval {}]", eval_text(after.score, after.side));
        if let Some(advice) = m.advice {
            text.push_str(&format!(" {}.", advice.text()));
            if m.best.is_some() && m.best != m.played {
                text.push_str(&format!(" {} was best.", m.best_san));
            }
        }
        if let Some(mine) = m.mine {
            text.push_str(&format!(" {}.", super::table::mine_text(mine)));
        }
        units.push(comment(&text));
        if m.advice.is_some() && m.best.is_some() && m.best != m.played && !m.pv_san.is_empty() {
            units.push("(".to_string());
            units.extend(variation(&m.pv_san, VARIATION_PLIES));
            units.push(")".to_string());
        }
    }
    units.push(result);
    out.push_str(&wrap(&units));
    out.push('\n');
    out
}

/// The first `plies` moves of a line in SAN with move numbers (`12. Nf3 Nc6 13. O-O`),
/// one unit per move, its number with it (`12. Nf3`).
fn variation(line: &str, plies: usize) -> Vec<String> {
    let mut units: Vec<String> = Vec::new();
    let mut number: Option<&str> = None;
    for word in line.split_whitespace() {
        if units.len() == plies {
            break;
        }
        if word.ends_with('.') {
            number = Some(word);
        } else {
            units.push(number.take().map_or(word.to_string(), |n| format!("{n} {word}")));
        }
    }
    units
}

/// `{ text }`, with any `}` (which would end the comment) replaced.
fn comment(text: &str) -> String {
    format!("{{ {} }}", text.replace('}', ")"))
}

/// The comment before the first move: the limit, each side's accuracy and marks.
fn summary(review: &Review) -> String {
    let side = |color: Color, name: &str| {
        let accuracy =
            review.accuracy[color.index()].map_or("no moves".to_string(), |a| format!("accuracy {a:.0}%"));
        format!("{name} {accuracy}, {}", review.marks_text(color))
    };
    format!(
        "Sapper review, {}: {}; {}.",
        limits_text(&review.limits),
        side(Color::White, "White"),
        side(Color::Black, "Black")
    )
}

/// Joins `units` with spaces into lines shorter than [`LINE`] where they fit.
fn wrap(units: &[String]) -> String {
    let mut out = String::new();
    let mut width = 0;
    for unit in units {
        let len = unit.chars().count();
        if width > 0 && width + 1 + len > LINE {
            out.push('\n');
            width = 0;
        } else if width > 0 {
            out.push(' ');
            width += 1;
        }
        out.push_str(unit);
        width += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{mate_in, mated_in};

    #[test]
    fn evals_in_pawns_and_mates_in_moves() {
        let (w, b) = (Color::White, Color::Black);
        assert_eq!(eval_text(35, w), "0.35");
        assert_eq!(eval_text(120, b), "-1.20");
        assert_eq!(eval_text(0, b), "0.00");
        assert_eq!(eval_text(mate_in(3), w), "#2");
        // Black to move mates in 1: White is mated in 1.
        assert_eq!(eval_text(mate_in(1), b), "#-1");
        assert_eq!(eval_text(mated_in(2), w), "#-1");
        assert_eq!(eval_text(mated_in(4), b), "#2");
        // The side to move is mated, whichever it is.
        assert_eq!(eval_text(mated_in(0), b), "#0");
        assert_eq!(eval_text(mated_in(0), w), "#0");
    }

    #[test]
    fn units_are_wrapped_whole() {
        let units: Vec<String> = (0..30).map(|i| format!("{i}. e4")).collect();
        let text = wrap(&units);
        assert!(text.lines().all(|l| l.len() <= LINE), "{text}");
        assert_eq!(text.replace('\n', " "), units.join(" "));
        assert_eq!(comment("a } b"), "{ a ) b }");
        assert_eq!(variation("5... Nf6 6. e5 Ne4 7. d3", 2), ["5... Nf6", "6. e5"]);
        assert_eq!(variation("5. Nf3 Nf6 6. e5", 2), ["5. Nf3", "Nf6"]);
        assert_eq!(variation("5. Nf3", 10), ["5. Nf3"]);
    }
}
