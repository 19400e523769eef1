//! Reading a game from PGN for `sapper review`: the tag pairs and the main line's
//! moves of the first game of a file, and the game they describe.
//!
//! The movetext's comments (`{...}`, `; ...` to the end of the line), `%` escape
//! lines, numeric annotation glyphs (`$2`), variations (`(...)`, nested), move
//! numbers (`12.`, `12...`, `12.Nf3`) and suffix marks (`!`, `?!`) are skipped; the
//! game ends at its result (`1-0`, `0-1`, `1/2-1/2`, `*`) or at the next game's tags.
//! Moves are SAN (UCI is accepted too, as `analyze --moves` takes it). The `Variant`
//! tag picks the variant (lichess's names: `Atomic`, `King of the Hill`,
//! `Three-check`, `Standard`; absent: chess), the `FEN` tag the start position.

use crate::analyze::strip_move_number;
use sapper_rules::game::{AnyGame, Game};
use sapper_rules::variant::{Variant, VariantKind};
use sapper_rules::{with_game, with_variant};

/// The first game of a PGN text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// The tag pairs in their order, values unescaped.
    pub tags: Vec<(String, String)>,
    /// The main line's moves as written (SAN), move numbers and marks removed.
    pub moves: Vec<String>,
    /// The result token ending the movetext, if there was one.
    pub result: Option<String>,
}

impl PgnGame {
    /// The value of tag `name` (case-sensitive, as PGN's tag names are), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// The tokens that end a game's movetext.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The text of a PGN file's bytes: UTF-8 (lichess's and most tools' exports), or
/// else ISO 8859-1, the character set the PGN standard prescribes (section 4.1), each
/// byte its own code point. A UTF-8 byte-order mark is dropped.
pub fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.strip_prefix('\u{feff}').unwrap_or(text).to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Reads the first game of `text` (a leading byte-order mark is skipped).
///
/// # Errors
/// A message for a tag pair that does not close, or a text without any game.
pub fn read(text: &str) -> Result<PgnGame, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut game = PgnGame::default();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut in_movetext = false;
    let mut line_start = true;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let at_line_start = std::mem::replace(&mut line_start, false);
        match c {
            // An escape line (PGN 6): ignored.
            '%' if at_line_start => i = skip_line(&chars, i),
            '[' if in_movetext => break,
            '[' => {
                let (tag, next) = read_tag(&chars, i)?;
                game.tags.push(tag);
                i = next;
            }
            '{' => i = skip_comment(&chars, i),
            ';' => i = skip_line(&chars, i),
            '(' => {
                in_movetext = true;
                i = skip_variation(&chars, i);
            }
            // A stray closing parenthesis: nothing to skip.
            ')' => i += 1,
            '$' => {
                i += 1;
                while i < chars.len() && chars[i].is_ascii_digit() {
                    i += 1;
                }
            }
            _ => {
                in_movetext = true;
                let begin = i;
                while i < chars.len() && !chars[i].is_whitespace() && !"{}();[$".contains(chars[i]) {
                    i += 1;
                }
                let token: String = chars[begin..i].iter().collect();
                if RESULTS.contains(&token.as_str()) {
                    game.result = Some(token);
                    break;
                }
                let token = strip_move_number(&token).trim_start_matches('.');
                // A move number alone, or marks written apart from their move.
                if token.is_empty() || token.chars().all(|c| "!?".contains(c)) {
                    continue;
                }
                game.moves.push(token.trim_end_matches(['!', '?']).to_string());
            }
        }
    }
    if game.tags.is_empty() && game.moves.is_empty() && game.result.is_none() {
        return Err("no game in the PGN text".to_string());
    }
    Ok(game)
}

/// Reads `[Name "value"]` at `chars[i]`, returning it and the index after it.
fn read_tag(chars: &[char], mut i: usize) -> Result<((String, String), usize), String> {
    let open = i;
    i += 1;
    let mut name = String::new();
    while i < chars.len() && chars[i].is_whitespace() {
        i += 1;
    }
    while i < chars.len() && !chars[i].is_whitespace() && chars[i] != '"' && chars[i] != ']' {
        name.push(chars[i]);
        i += 1;
    }
    while i < chars.len() && chars[i].is_whitespace() {
        i += 1;
    }
    let mut value = String::new();
    if i < chars.len() && chars[i] == '"' {
        i += 1;
        loop {
            match chars.get(i) {
                None | Some('\n') => return Err(unclosed(chars, open)),
                Some('\\') if matches!(chars.get(i + 1), Some('"' | '\\')) => {
                    value.push(chars[i + 1]);
                    i += 2;
                }
                Some('"') => {
                    i += 1;
                    break;
                }
                Some(&c) => {
                    value.push(c);
                    i += 1;
                }
            }
        }
    }
    while i < chars.len() && chars[i].is_whitespace() && chars[i] != '\n' {
        i += 1;
    }
    if chars.get(i) != Some(&']') || name.is_empty() {
        return Err(unclosed(chars, open));
    }
    Ok(((name, value), i + 1))
}

/// The error for a malformed tag pair starting at `open`.
fn unclosed(chars: &[char], open: usize) -> String {
    let line: String = chars[open..].iter().take_while(|&&c| c != '\n').collect();
    format!("malformed PGN tag pair: {line}")
}

/// The index after the end of the line holding `chars[i]`.
fn skip_line(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() && chars[i] != '\n' {
        i += 1;
    }
    i
}

/// The index after the comment `{...}` opening at `chars[i]` (comments do not nest).
fn skip_comment(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() && chars[i] != '}' {
        i += 1;
    }
    i + 1
}

/// The index after the variation opening at `chars[i]`, nested variations and
/// comments (which may hold parentheses) included.
fn skip_variation(chars: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < chars.len() {
        match chars[i] {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            '{' => {
                i = skip_comment(chars, i);
                continue;
            }
            ';' => {
                i = skip_line(chars, i);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// The variant a `Variant` tag names: lichess's names (`Standard`, `Atomic`, `King
/// of the Hill`, `Three-check`, `From Position` for chess from a FEN), each variant's
/// [`Variant::PGN_VARIANT`] and `UCI_Variant` name, in any case; chess without a tag.
///
/// # Errors
/// A message naming the tag's value and the names understood.
pub fn variant_of(tag: Option<&str>) -> Result<VariantKind, String> {
    let Some(value) = tag.map(str::trim) else {
        return Ok(VariantKind::Chess);
    };
    let name = value.to_ascii_lowercase();
    if ["standard", "chess", "from position", ""].contains(&name.as_str()) {
        return Ok(VariantKind::Chess);
    }
    let names = |kind: VariantKind| -> Vec<String> {
        let pgn = with_variant!(kind, V => V::PGN_VARIANT);
        pgn.into_iter()
            .chain([kind.name()])
            .map(str::to_ascii_lowercase)
            .collect()
    };
    let loose = |s: &str| s.replace(['-', ' ', '_'], "");
    VariantKind::ALL
        .into_iter()
        .find(|&kind| names(kind).iter().any(|n| *n == name || loose(n) == loose(&name)))
        .ok_or_else(|| {
            let known: Vec<String> = VariantKind::ALL
                .into_iter()
                .map(|k| {
                    with_variant!(k, V => V::PGN_VARIANT)
                        .unwrap_or("Standard")
                        .to_string()
                })
                .collect();
            format!("unknown Variant tag \"{value}\" (known: {})", known.join(", "))
        })
}

/// The game `pgn` records: its variant (`variant`, or else the `Variant` tag), its
/// start position (the `FEN` tag, or the variant's start), its moves played. Returns
/// warnings about repaired FEN fields.
///
/// # Errors
/// A message for an unknown variant or one not reviewed yet ([`super::supported`]),
/// a bad FEN, or the first move that is not legal, with its move number.
pub fn game_of(pgn: &PgnGame, variant: Option<VariantKind>) -> Result<(AnyGame, Vec<String>), String> {
    let kind = match variant {
        Some(kind) => kind,
        None => variant_of(pgn.tag("Variant"))?,
    };
    super::supported(kind)?;
    let fen = pgn.tag("FEN").filter(|f| !f.trim().is_empty());
    let (mut game, warnings) = AnyGame::from_spec(kind, fen, &[]).map_err(|e| format!("FEN tag: {e}"))?;
    with_game!(&mut game, g, _V => play_all(g, &pgn.moves)).map_err(|e| {
        // A game with hidden mines replays only on its layout.
        let full = fen.is_some_and(|f| f.split_whitespace().nth(6).is_some_and(|m| m.contains('M')));
        if with_variant!(kind, V => V::MINES) && !full {
            format!("{e}; a {} game is replayed on its mine layout: give the start as a FEN tag in the full-information form (M for each hidden mine)", kind.name())
        } else {
            e
        }
    })?;
    Ok((game, warnings))
}

/// Plays `moves` in `game`, naming the first that fails by its move number.
fn play_all<V: Variant>(game: &mut Game<V>, moves: &[String]) -> Result<(), String> {
    for text in moves {
        let pos = game.position;
        if let Err(e) = game.play_typed(text) {
            let dots = match pos.side_to_move() {
                sapper_rules::types::Color::White => ".",
                sapper_rules::types::Color::Black => "...",
            };
            return Err(format!(
                "move {}{dots} {text}: {e} (position {})",
                pos.fullmove_number(),
                pos.to_fen()
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LICHESS: &str = r#"[Event "Rated Blitz game"]
[Site "https://lichess.org/abcdefgh"]
[White "a \"quoted\" name"]
[Variant "Atomic"]
[Result "1-0"]

1. e4 { [%eval 0.2] [%clk 0:03:00] } 1... e5?! $6 (1... d5 2. exd5 (2. e5) { a (comment) } ) 2.Nf3 Nc6!
; a rest-of-line comment
%an escape line
3. Bb5 a6 1-0

[Event "Second game"]

1. d4 *
"#;

    #[test]
    fn tags_and_the_main_line_are_read_and_the_rest_skipped() {
        let game = read(LICHESS).unwrap();
        assert_eq!(game.tag("White"), Some("a \"quoted\" name"));
        assert_eq!(game.tag("Variant"), Some("Atomic"));
        assert_eq!(game.tag("Black"), None);
        assert_eq!(game.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        assert_eq!(game.result.as_deref(), Some("1-0"));
    }

    #[test]
    fn a_game_without_a_result_ends_at_the_next_tags() {
        let game = read("1. e4 e5\n\n[Event \"next\"]\n1. d4 *").unwrap();
        assert_eq!(game.moves, ["e4", "e5"]);
        assert_eq!(game.result, None);
        assert!(read("").is_err());
        assert!(read("[Event \"open").is_err());
    }

    #[test]
    fn latin1_and_a_byte_order_mark_are_read() {
        // "Müller" in ISO 8859-1 (0xfc), then a UTF-8 file with a byte-order mark.
        let latin1 = b"[White \"M\xfcller\"]\n\n1. e4 *\n";
        let game = read(&decode(latin1)).unwrap();
        assert_eq!(game.tag("White"), Some("M\u{fc}ller"));
        assert_eq!(game.moves, ["e4"]);
        let bom = "\u{feff}[Event \"x\"]\n\n1. d4 d5 *\n";
        assert_eq!(decode(bom.as_bytes()), &bom[3..]);
        assert_eq!(read(bom).unwrap().moves, ["d4", "d5"]);
        assert_eq!(read(bom).unwrap().tag("Event"), Some("x"));
    }

    #[test]
    fn variant_tags_by_lichess_name_and_uci_name() {
        assert_eq!(variant_of(None), Ok(VariantKind::Chess));
        assert_eq!(variant_of(Some("Standard")), Ok(VariantKind::Chess));
        assert_eq!(variant_of(Some("From Position")), Ok(VariantKind::Chess));
        assert_eq!(variant_of(Some("Atomic")), Ok(VariantKind::Atomic));
        assert_eq!(
            variant_of(Some("King of the Hill")),
            Ok(VariantKind::KingOfTheHill)
        );
        assert_eq!(variant_of(Some("kingofthehill")), Ok(VariantKind::KingOfTheHill));
        assert_eq!(variant_of(Some("Three-check")), Ok(VariantKind::ThreeCheck));
        assert_eq!(variant_of(Some("Three-Check")), Ok(VariantKind::ThreeCheck));
        assert_eq!(variant_of(Some("3check")), Ok(VariantKind::ThreeCheck));
        assert_eq!(variant_of(Some("Minesweeper")), Ok(VariantKind::Minesweeper));
        let pgn = read("[Variant \"Minesweeper\"]\n1. e3 e8 *").unwrap();
        let err = game_of(&pgn, None).unwrap_err();
        assert!(
            err.contains("move 1. e3") && err.contains("full-information form"),
            "{err}"
        );
        let err = variant_of(Some("Crazyhouse")).unwrap_err();
        assert!(
            err.contains("Crazyhouse") && err.contains("King of the Hill"),
            "{err}"
        );
    }

    #[test]
    fn the_game_is_played_from_the_fen_tag_and_a_bad_move_is_named() {
        let pgn =
            read("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n\n30... Kd7 31. e4 *").unwrap();
        let (game, _) = game_of(&pgn, None).unwrap();
        assert_eq!(game.fen(), "8/3k4/8/8/4P3/8/8/4K3 b - - 0 31");
        let pgn = read("1. e4 e5 2. Ke3").unwrap();
        let err = game_of(&pgn, None).unwrap_err();
        assert!(err.starts_with("move 2. Ke3: illegal move"), "{err}");
        let pgn = read("[Variant \"Atomic\"]\n1. e4 d5 2. exd5").unwrap();
        assert_eq!(game_of(&pgn, None).unwrap().0.variant(), VariantKind::Atomic);
        // --variant overrides the tag.
        let pgn = read("[Variant \"Atomic\"]\n1. e4").unwrap();
        let (game, _) = game_of(&pgn, Some(VariantKind::KingOfTheHill)).unwrap();
        assert_eq!(game.variant(), VariantKind::KingOfTheHill);
    }
}
