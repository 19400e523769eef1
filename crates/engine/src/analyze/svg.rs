//! `sapper analyze --svg FILE`: the analysed position as an SVG diagram, White at
//! the bottom, with the best move as an arrow and, in minesweeper, each fogged
//! square's mine probability as a heat map (exact inference on the public position,
//! docs/rules.md minesweeper 15). Plain SVG 1.1, no scripts or external files, so it
//! shows in a browser, a README or an image viewer.

use crate::variant::EngineVariant;
use sapper_rules::geometry::Geometry;
use sapper_rules::moves::Move;
use sapper_rules::position::Position;
use sapper_rules::types::{Color, Role, Square};
use sapper_rules::variant::minesweeper::{zone_index, Minesweeper};
use sapper_rules::variant::Variant;
use std::any::Any;
use std::fmt::Write;

/// Side of a square, pixels.
const SQUARE: u32 = 48;
/// Room for the coordinates around the board, pixels.
const MARGIN: u32 = 20;
/// Room for the caption below the board, pixels (two lines).
const CAPTION: u32 = 36;
/// lichess's board colours.
const LIGHT: &str = "#f0d9b5";
const DARK: &str = "#b58863";

/// The diagram of `pos` with `best` drawn as an arrow (none when `Move::NONE`).
pub fn diagram<V: EngineVariant>(pos: &Position<V>, best: Move) -> String {
    let ranks = u32::from(V::G::RANKS);
    let (width, height) = (8 * SQUARE + 2 * MARGIN, ranks * SQUARE + 2 * MARGIN + CAPTION);
    // Texts on the squares go on top of the arrow, which would hide them otherwise
    // (an arrow's head covers its target square's probability).
    let mut labels = String::new();
    let mut s = String::new();
    let _ = writeln!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"##
    );
    s.push_str(
        r##"<defs><marker id="head" markerWidth="4" markerHeight="4" refX="2" refY="2" orient="auto"><path d="M0,0 L4,2 L0,4 z" fill="#15781b"/></marker></defs>"##,
    );
    s.push('\n');
    let _ = writeln!(s, r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##);
    // Minesweeper's probabilities (inference reads only the public minefield).
    let inference = (pos as &dyn Any)
        .downcast_ref::<Position<Minesweeper>>()
        .map(Position::mine_inference);
    for rank in 0..V::G::RANKS {
        for file in 0..8u8 {
            let sq = Square::new(file, rank);
            let (x, y) = corner::<V>(sq);
            let colour = if (file + rank) % 2 == 0 { DARK } else { LIGHT };
            let _ = writeln!(
                s,
                r##"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{colour}"/>"##
            );
            let marker = V::square_marker(pos, sq);
            if let (Some(inf), Some(i), '?') = (&inference, zone_index(sq), marker) {
                let p = inf.probability(i);
                let _ = writeln!(
                    s,
                    r##"<rect class="mine-p" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="#d00000" fill-opacity="{:.2}"/>"##,
                    0.1 + 0.8 * p
                );
                if pos.piece_at(sq).is_none() {
                    let _ = writeln!(
                        labels,
                        r##"<text x="{}" y="{}" font-size="13" text-anchor="middle" fill="#000">{:.0}%</text>"##,
                        x + SQUARE / 2,
                        y + SQUARE / 2 + 5,
                        100.0 * p
                    );
                }
            } else if pos.piece_at(sq).is_none() && marker != ' ' {
                let fill = if marker == '*' { "#d00000" } else { "#333333" };
                let _ = writeln!(
                    labels,
                    r##"<text x="{}" y="{}" font-size="20" text-anchor="middle" fill="{fill}">{marker}</text>"##,
                    x + SQUARE / 2,
                    y + SQUARE / 2 + 7
                );
            }
            if let Some(piece) = pos.piece_at(sq) {
                let (fill, stroke) = match piece.color {
                    Color::White => ("#ffffff", "#000000"),
                    Color::Black => ("#000000", "#000000"),
                };
                let _ = writeln!(
                    s,
                    r##"<text class="piece" x="{}" y="{}" font-size="40" text-anchor="middle" fill="{fill}" stroke="{stroke}" stroke-width="1">{}</text>"##,
                    x + SQUARE / 2,
                    y + SQUARE - 9,
                    glyph(piece.role)
                );
            }
        }
    }
    for file in 0..8u8 {
        let (x, _) = corner::<V>(Square::new(file, 0));
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" font-size="12" text-anchor="middle">{}</text>"##,
            x + SQUARE / 2,
            height - CAPTION - 5,
            (b'a' + file) as char
        );
    }
    for rank in 0..V::G::RANKS {
        let (_, y) = corner::<V>(Square::new(0, rank));
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" font-size="12" text-anchor="middle">{}</text>"##,
            MARGIN / 2,
            y + SQUARE / 2 + 4,
            rank + 1
        );
    }
    if best.is_some() {
        let centre = |sq: Square| {
            let (x, y) = corner::<V>(sq);
            (x + SQUARE / 2, y + SQUARE / 2)
        };
        let (x1, y1) = centre(best.from());
        let (x2, y2) = centre(best.to());
        if best.from() == best.to() {
            // A sapper action: the pawn stays; ring it.
            let _ = writeln!(
                s,
                r##"<circle class="best" cx="{x1}" cy="{y1}" r="21" fill="none" stroke="#15781b" stroke-width="5" stroke-opacity="0.8"/>"##
            );
        } else {
            let _ = writeln!(
                s,
                r##"<line class="best" x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#15781b" stroke-width="9" stroke-opacity="0.8" marker-end="url(#head)"/>"##
            );
        }
    }
    s.push_str(&labels);
    for (line, text) in caption(pos, best, inference.is_some()).iter().enumerate() {
        let _ = writeln!(
            s,
            r##"<text class="caption" x="{MARGIN}" y="{}" font-size="13">{text}</text>"##,
            height - CAPTION + 14 + 16 * line as u32
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The lines under the board: whose move and the best move; what the red means.
fn caption<V: Variant>(pos: &Position<V>, best: Move, mines: bool) -> Vec<String> {
    let side = match pos.side_to_move() {
        Color::White => "White",
        Color::Black => "Black",
    };
    let mut first = format!("{side} to move");
    if best.is_some() {
        first.push_str(&format!(
            "; arrow: best move {}",
            sapper_rules::notation::san(pos, best)
        ));
    }
    first.push('.');
    let mut lines = vec![first];
    if mines {
        lines.push("Red: the chance of a mine under the fog.".to_string());
    }
    lines
}

/// The top-left corner of `sq` in the picture, White at the bottom.
fn corner<V: Variant>(sq: Square) -> (u32, u32) {
    let top_rank = u32::from(V::G::RANKS) - 1;
    (
        MARGIN + u32::from(sq.file()) * SQUARE,
        MARGIN + (top_rank - u32::from(sq.rank())) * SQUARE,
    )
}

/// The solid Unicode chess glyph of a role; the fill colours it for either side.
fn glyph(role: Role) -> char {
    match role {
        Role::King => '\u{265A}',
        Role::Queen => '\u{265B}',
        Role::Rook => '\u{265C}',
        Role::Bishop => '\u{265D}',
        Role::Knight => '\u{265E}',
        Role::Pawn => '\u{265F}',
    }
}
