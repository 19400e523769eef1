//! `sapper review --svg FILE`: the game's evaluation graph, as lichess draws its
//! advantage chart: White's winning chances ([`super::lichess::winning_chances`],
//! from -1 at the bottom to +1 at the top) after each move, White's side shaded
//! light and Black's dark, marked moves as dots in lichess's colours. Plain SVG 1.1
//! without scripts, as [`crate::analyze::svg`]'s diagrams.

use super::lichess::{winning_chances, Judgement};
use super::Review;
use std::fmt::Write;

/// The plot's size and margins, pixels.
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 200.0;
const LEFT: f64 = 36.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 40.0;

/// lichess's colours of the marks.
fn colour(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Inaccuracy => "#56b4e9",
        Judgement::Mistake => "#e69f00",
        Judgement::Blunder => "#db3031",
    }
}

/// The graph of `review`.
pub fn graph(review: &Review) -> String {
    let (w, h) = (WIDTH + LEFT + RIGHT, HEIGHT + TOP + BOTTOM);
    let plies = review.positions.len().saturating_sub(1).max(1);
    let x = |i: usize| LEFT + WIDTH * i as f64 / plies as f64;
    let y = |chances: f64| TOP + HEIGHT * (1.0 - chances) / 2.0;
    let points: Vec<(f64, f64)> = review
        .positions
        .iter()
        .enumerate()
        .map(|(i, p)| (x(i), y(winning_chances(p.white()))))
        .collect();
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">"##
    );
    let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    // Black's side is dark; White's area is drawn over it from the curve down.
    let _ = writeln!(
        s,
        r##"<rect x="{LEFT}" y="{TOP}" width="{WIDTH}" height="{HEIGHT}" fill="#404040"/>"##
    );
    let mut area = format!("{LEFT:.1},{:.1}", TOP + HEIGHT);
    for (px, py) in &points {
        let _ = write!(area, " {px:.1},{py:.1}");
    }
    let last_x = points.last().map_or(LEFT, |p| p.0);
    let _ = write!(area, " {last_x:.1},{:.1}", TOP + HEIGHT);
    let _ = writeln!(
        s,
        r##"<polygon class="white-area" points="{area}" fill="#f0f0f0"/>"##
    );
    let line: Vec<String> = points.iter().map(|(px, py)| format!("{px:.1},{py:.1}")).collect();
    let _ = writeln!(
        s,
        r##"<polyline class="eval" points="{}" fill="none" stroke="#d59120" stroke-width="2"/>"##,
        line.join(" ")
    );
    let _ = writeln!(
        s,
        r##"<line x1="{LEFT}" y1="{0:.1}" x2="{1:.1}" y2="{0:.1}" stroke="#888888" stroke-dasharray="4,3"/>"##,
        y(0.0),
        LEFT + WIDTH
    );
    for m in &review.moves {
        if let Some(advice) = m.advice {
            let (px, py) = points[m.ply + 1];
            let _ = writeln!(
                s,
                r##"<circle class="{}" cx="{px:.1}" cy="{py:.1}" r="4" fill="{}" stroke="#000000" stroke-width="0.5"><title>{}{} {} ({})</title></circle>"##,
                advice.judgement.name(),
                colour(advice.judgement),
                m.fullmove,
                if m.mover == sapper_rules::types::Color::White {
                    "."
                } else {
                    "..."
                },
                m.san,
                advice.judgement.name()
            );
        }
    }
    for (label, chances) in [("+1", 1.0), ("0", 0.0), ("-1", -1.0)] {
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{:.1}" text-anchor="end">{label}</text>"##,
            LEFT - 4.0,
            y(chances) + 4.0
        );
    }
    // Move numbers along the bottom, at most about twenty of them, each below the
    // position its move is played from.
    let step = (review.moves.len() / 20).max(1) * 2;
    for m in review.moves.iter().step_by(step) {
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"##,
            x(m.ply),
            TOP + HEIGHT + 14.0,
            m.fullmove
        );
    }
    let _ = writeln!(
        s,
        r##"<text class="caption" x="{LEFT}" y="{:.1}">White's winning chances after each move (lichess's curve); dots: inaccuracy, mistake, blunder.</text>"##,
        h - 8.0
    );
    s.push_str("</svg>\n");
    s
}
