//! The review as text for a person: a header, one line per move (number, move,
//! White's evaluation before and after it, the best move, the class) and each
//! side's accuracy and marks.

use super::Review;
use crate::analyze::limits_text;
use sapper_rules::types::Color;
use std::fmt::Write;

/// The whole report, lines ending in `\n`.
pub fn report(review: &Review) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Variant: {}", review.variant.name());
    if !review.standard_start {
        let _ = writeln!(s, "FEN:     {}", review.start_fen);
    }
    let _ = writeln!(s, "Limit:   {} per position", limits_text(&review.limits));
    let _ = writeln!(
        s,
        "Scores:  pawns from White's point of view; #n: White mates in n moves, #-n: White is mated in n"
    );
    let _ = writeln!(
        s,
        "{:>7}  {:<9} {:>7} {:>7}  {:<9} {:<11} {:>5}",
        "move", "played", "before", "after", "best", "class", "acc"
    );
    for m in &review.moves {
        let number = m.number_text();
        let best = if m.best == m.played {
            "="
        } else {
            m.best_san.as_str()
        };
        let class = m.advice.map_or("", |a| a.judgement.name());
        let _ = writeln!(
            s,
            "{number:>7}  {:<9} {:>7} {:>7}  {best:<9} {class:<11} {:>4.0}%{}",
            m.san,
            review.white_text(m.ply),
            review.white_text(m.ply + 1),
            m.accuracy,
            m.mine
                .map_or(String::new(), |mine| format!("  {}", mine_text(mine)))
        );
    }
    if let Some(mines) = start_mines(review) {
        let _ = writeln!(s, "Mines at the start: {}", mines.join(", "));
    }
    for (color, name) in [(Color::White, "White"), (Color::Black, "Black")] {
        let accuracy = review.accuracy[color.index()].map_or("-".to_string(), |a| format!("{a:.1}%"));
        let _ = writeln!(s, "{name}: accuracy {accuracy}, {}", review.marks_text(color));
    }
    let _ = writeln!(
        s,
        "{} positions, {} nodes in {:.2}s (best \"=\": the move played)",
        review.positions.len(),
        review.nodes,
        review.elapsed.as_secs_f64()
    );
    s
}

/// A move's mine gamble in words: `mine 12%: hit`, `mine 30%: none`.
pub fn mine_text((chance, hit): (f64, bool)) -> String {
    format!(
        "mine {:.0}%: {}",
        chance * 100.0,
        if hit { "hit" } else { "none" }
    )
}

/// The squares the game's start FEN mines (`M` or `*` in its minefield field), if
/// the variant has mines and the FEN says where they are.
pub fn start_mines(review: &Review) -> Option<Vec<String>> {
    let field = review.start_fen.split_whitespace().nth(6)?;
    let mut squares = Vec::new();
    for (row, rank) in field.split('/').zip((4..=7).rev()) {
        for (file, c) in row.chars().enumerate() {
            if c == 'M' || c == '*' {
                squares.push(format!("{}{rank}", (b'a' + file as u8) as char));
            }
        }
    }
    (!squares.is_empty()).then_some(squares)
}

/// `1 blunder`, `2 blunders`, `3 inaccuracies`.
pub(crate) fn plural(n: usize, noun: &str) -> String {
    match (n, noun.strip_suffix('y')) {
        (1, _) => format!("1 {noun}"),
        (_, Some(stem)) => format!("{n} {stem}ies"),
        (_, None) => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn marks_are_counted_in_words() {
        assert_eq!(super::plural(1, "mistake"), "1 mistake");
        assert_eq!(super::plural(0, "blunder"), "0 blunders");
        assert_eq!(super::plural(2, "inaccuracy"), "2 inaccuracies");
    }
}
