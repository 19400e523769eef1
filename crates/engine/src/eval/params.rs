//! Evaluation parameters: the weights of the linear evaluation, kept as data.
//!
//! The evaluation is linear in a flat weight vector: every term adds
//! `coefficient * weight`, with a middlegame and an endgame weight blended by the game
//! phase. The vector is cut into named blocks ([`SCHEMA`]); [`idx`] holds each block's
//! offset, so evaluation code writes `idx::PAWN_PASSED + rank`.
//!
//! A parameter file (`nets/<variant>-<hash>.eval`) is plain text: `#` starts a
//! comment, a header line `sapper-eval 3 <variant>` comes first, then for every block
//! a line `<block>_mg` followed by its middlegame integers and a line `<block>_eg`
//! followed by its endgame integers (values may wrap over lines). Piece-square tables
//! (64 values) list rank 8 first, a-file first, from White's point of view, so they
//! read like a board diagram. Every block of [`SCHEMA`] must appear exactly once per
//! half with exactly its number of values, each an integer within +-100000. Units are
//! centipawns (per unit of the term's coefficient). The hash in the file name is
//! FNV-1a (32 bits) of the whole text, comments included; loaders check it. A block
//! that only some variants' evaluations read (their `VariantEval::EVAL_BLOCKS`) may be
//! left out of the other variants' files, and reads as zeros there
//! (`VariantKindEval::may_omit_block`).

// build.rs compiles this file too, to check the embedded files: it provides these
// three names only (a new import needs a stand-in in build.rs's `library`).
use super::nnue::Network;
use super::variant::{VariantKind, VariantKindEval};
use std::fmt;
use std::sync::Arc;

/// The file format version in the header line.
pub const FORMAT_VERSION: u32 = 3;

/// One named block of the weight vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Name in files (`<name>_mg`, `<name>_eg`).
    pub name: &'static str,
    /// Offset of the first weight in the flat vector.
    pub offset: usize,
    /// Number of weights per half.
    pub len: usize,
    /// A 64-square table written as a board (rank 8 first) and indexed a1 = 0.
    pub board: bool,
}

macro_rules! schema {
    ($( $id:ident $name:literal $len:literal $board:literal; )*) => {
        /// Offset of each block in the flat weight vector (see [`SCHEMA`]).
        pub mod idx {
            schema!(@offsets 0usize; $($id $len;)*);
        }
        /// Every block of the weight vector, in file order.
        pub const SCHEMA: &[Block] = &[
            $(Block { name: $name, offset: idx::$id, len: $len, board: $board },)*
        ];
        /// Number of weights per half (middlegame, endgame).
        pub const N_PARAMS: usize = 0 $(+ $len)*;
    };
    (@offsets $acc:expr; $id:ident $len:literal; $($rest:tt)*) => {
        #[allow(missing_docs)]
        pub const $id: usize = $acc;
        schema!(@offsets $acc + $len; $($rest)*);
    };
    (@offsets $acc:expr;) => {};
}

// Block layout. The six piece-square tables and the four mobility tables must stay
// consecutive and in role order: code indexes them as `PST_PAWN + 64 * role` and
// `MOBILITY_KNIGHT + ...`.
schema! {
    // Piece values by role, pawn..king (the king's is unused).
    MATERIAL "material" 6 false;
    // Piece-square tables, White's point of view, a1 = 0 (10-rank boards squeeze their
    // ranks onto 8).
    PST_PAWN "pst_pawn" 64 true;
    PST_KNIGHT "pst_knight" 64 true;
    PST_BISHOP "pst_bishop" 64 true;
    PST_ROOK "pst_rook" 64 true;
    PST_QUEEN "pst_queen" 64 true;
    PST_KING "pst_king" 64 true;
    // Both bishops.
    BISHOP_PAIR "bishop_pair" 1 false;
    // The side to move.
    TEMPO "tempo" 1 false;
    // Per pawn with another own pawn in front of it on its file.
    PAWN_DOUBLED "pawn_doubled" 1 false;
    // Per pawn without own pawns on the neighbouring files.
    PAWN_ISOLATED "pawn_isolated" 1 false;
    // Per pawn defended by an own pawn.
    PAWN_SUPPORTED "pawn_supported" 1 false;
    // Per passed pawn, by relative rank (0 = own back rank).
    PAWN_PASSED "pawn_passed" 8 false;
    // Mobility tables by number of squares attacked that hold no own piece and are
    // not attacked by enemy pawns.
    MOBILITY_KNIGHT "mobility_knight" 9 false;
    MOBILITY_BISHOP "mobility_bishop" 14 false;
    MOBILITY_ROOK "mobility_rook" 15 false;
    MOBILITY_QUEEN "mobility_queen" 28 false;
    // Own pawns in front of the king on its and the neighbouring files: one rank
    // ahead, two ranks ahead.
    KING_SHIELD "king_shield" 2 false;
    // Enemy attacks on the king zone, by attack units (bucketed, 0..15).
    KING_DANGER "king_danger" 16 false;
    // Rooks on a file without own pawns: [semi-open (enemy pawns), open].
    ROOK_FILE "rook_file" 2 false;
    // Enemy pieces attacked: [knight..queen by a pawn, rook or queen by a minor].
    THREATS "threats" 2 false;
    // Atomic: enemy pieces next to the enemy king that we can capture (the blast takes
    // the king): [for the side to move, for the other side].
    ATOMIC_KING_BLAST "atomic_king_blast" 2 false;
    // Atomic: the best capture's net blast value (what the blast takes minus what it
    // costs, fixed piece values) in buckets of 100: [0..7 side to move, 8..15 other].
    ATOMIC_BLAST_GAIN "atomic_blast_gain" 16 false;
    // Atomic: own pieces next to the own king (a capture there explodes the king), by
    // role pawn..queen.
    ATOMIC_KING_NEIGHBOURS "atomic_king_neighbours" 5 false;
    // Atomic: kings touching (neither can be checked or blown up), for the side
    // behind in material.
    ATOMIC_KINGS_TOUCH "atomic_kings_touch" 1 false;
    // King of the hill: for each of the four hill squares, the king's weighted step
    // distance to it (index = steps, 7 = seven or more or no path; so the block's
    // coefficients add up to 4 per side). A step onto a square the enemy attacks
    // costs one more, onto one attacked twice or by a pawn two more, onto a square an
    // own piece must leave one more; an own blocked pawn cannot be crossed.
    HILL_DISTANCE "hill_distance" 8 false;
    // King of the hill: the race, for the side to move: the other king's distance
    // minus ours, +4, clamped to 0..8.
    HILL_RACE "hill_race" 9 false;
    // King of the hill: hill squares attacked.
    HILL_CONTROL "hill_control" 1 false;
    // King of the hill: [own pieces on hill squares, enemy pieces on hill squares the
    // enemy defends].
    HILL_BLOCKERS "hill_blockers" 2 false;
    // King of the hill: hill squares behind an own pawn that no enemy pawn attacks
    // (space the king can later use; Multi-Variant Stockfish's "safe center").
    HILL_SAFE "hill_safe" 1 false;
    // Minesweeper: per knight..queen that must still cross the fog, times the public
    // mine density in percent.
    MINE_RISK "mine_risk" 4 false;
    // Three-check: per side, by the checks it has left: [three, two, one]. A bonus
    // that grows as a side nears its third check (`ThreeCheck::EVAL_BLOCKS`: optional
    // in other variants' files).
    THREE_CHECK "three_check" 3 false;
    // Atomic: how hard the attacked king is to defend, per side against the other
    // king. [0..3]: two threats or more, three or more, of capturing a piece next to
    // that king (so the blast takes it), [0..1] with the attacker to move, [2..3] with
    // the defender to move (one threat can be parried, several rarely: the term grows
    // faster than the count, which ATOMIC_KING_BLAST weighs linearly). [4..11]: king
    // danger in buckets of min(2 * attacked zone squares / (safe king squares + 1), 7),
    // after Fairy-Stockfish's atomic explosion-threat term (evaluate.cpp, 2023), whose
    // bonus is quadratic in the same ratio (optional in other variants' files: `Atomic::EVAL_BLOCKS`).
    ATOMIC_THREATS "atomic_threats" 12 false;
    // Chess, king of the hill, three-check, atomic and minesweeper: king danger from the attack on the king (attackers,
    // weak squares, safe and unsafe checks; `eval::king`), in buckets of
    // `eval::king::DANGER_STEP` (optional in other variants' files).
    KING_ATTACK "king_attack" 16 false;
    // Chess, king of the hill, three-check, atomic and minesweeper (`eval::classical`, optional in other variants'
    // files), after Stockfish's classical evaluation. Weak or strongly protected non-pawn enemy pieces attacked
    // by a knight or bishop, by victim role pawn..king.
    THREAT_BY_MINOR "threat_by_minor" 6 false;
    // Weak enemy pieces attacked by a rook, by victim role.
    THREAT_BY_ROOK "threat_by_rook" 6 false;
    // [by the king, hanging, defended by the queen only, restricted squares, safe
    // pawn pushes that attack, knight or slider hits on the queen]
    // (`eval::classical::more`).
    THREATS_MORE "threats_more" 6 false;
    // Passed pawns on relative ranks 3..6, by rank: [0..8] the enemy king's distance
    // to the square in front (capped at 5), [8..16] the own king's.
    PASSED_KING "passed_king" 16 false;
    // Passed pawns by relative rank: [0..8] the whole way to promotion empty and
    // unattacked, [8..16] only the square in front.
    PASSED_PATH "passed_path" 16 false;
    // Pawns with an own pawn beside them, by relative rank.
    PAWN_PHALANX "pawn_phalanx" 8 false;
    // Backward pawns: no own pawn beside or behind on a neighbouring file, the stop
    // square held by an enemy pawn.
    PAWN_BACKWARD "pawn_backward" 1 false;
    // Outposts, piece placement, king-pawn distance, space
    // (`eval::classical::piece`).
    PIECE_TERMS "piece_terms" 12 false;
    // Atomic (optional in other variants' files: `Atomic::EVAL_BLOCKS`): [0..1] the
    // pieces every winning capture's blast gains, summed (Multi-Variant Stockfish's
    // `ThreatByBlast`), for the side to move and for the other side; [2] enemy
    // pieces next to the own king.
    ATOMIC_MORE "atomic_more" 3 false;
    // Atomic (optional in other variants' files: `Atomic::EVAL_BLOCKS`): material
    // imbalance, one weight per pair of piece kinds (`eval::imbalance`: [0..20) our
    // kinds together, [20..35) ours against theirs).
    IMBALANCE "imbalance" 35 false;
}

/// The block that holds weight `index`.
pub fn block_of(index: usize) -> &'static Block {
    SCHEMA
        .iter()
        .find(|b| index >= b.offset && index < b.offset + b.len)
        .unwrap_or_else(|| panic!("weight index {index} out of range"))
}

/// The evaluation's weights: `weights()[i] = [mg, eg]` in centipawns. The weights
/// are fixed once made (a new set is a new `EvalParams`), so that their packed copy
/// ([`EvalParams::packed`]) always agrees with them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// The variant the file was written for.
    pub variant: VariantKind,
    /// Short content hash (FNV-1a, 32 bits, hex) of the file text.
    pub hash: String,
    /// The flat weight vector, `[mg, eg]` per weight, laid out as [`SCHEMA`].
    weights: Box<[[i32; 2]; N_PARAMS]>,
    /// The same weights packed for the search's scorer: [`pack`].
    packed: Box<[i64; N_PARAMS]>,
    /// The network that replaces the linear evaluation where the board fits it
    /// (8x8), `None` for the hand-written evaluation alone (see [`crate::eval::nnue`]).
    pub nnue: Option<Arc<Network>>,
}

/// Why a parameter file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamsError {
    /// The first line is not `sapper-eval 3 <variant>`.
    BadHeader(String),
    /// The file is for another variant.
    WrongVariant { expected: VariantKind, found: String },
    /// A name that is not `<block>_mg` or `<block>_eg` for a block of [`SCHEMA`].
    UnknownParameter(String),
    /// A parameter given twice.
    Duplicate(String),
    /// A parameter missing from the file.
    Missing(String),
    /// A parameter with the wrong number of values.
    WrongLength {
        name: String,
        expected: usize,
        found: usize,
    },
    /// A value that is not an integer within +-100000.
    BadValue(String),
    /// The file name's hash does not match its content.
    HashMismatch { expected: String, found: String },
}

impl fmt::Display for ParamsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamsError::BadHeader(l) => {
                write!(
                    f,
                    "expected header 'sapper-eval {FORMAT_VERSION} <variant>', found '{l}'"
                )
            }
            ParamsError::WrongVariant { expected, found } => {
                write!(f, "parameters are for '{found}', not '{expected}'")
            }
            ParamsError::UnknownParameter(n) => write!(f, "unknown parameter '{n}'"),
            ParamsError::Duplicate(n) => write!(f, "parameter '{n}' given twice"),
            ParamsError::Missing(n) => write!(f, "parameter '{n}' missing"),
            ParamsError::WrongLength {
                name,
                expected,
                found,
            } => write!(f, "parameter '{name}' needs {expected} values, found {found}"),
            ParamsError::BadValue(v) => write!(f, "bad value '{v}'"),
            ParamsError::HashMismatch { expected, found } => {
                write!(f, "content hash {found} does not match the name's {expected}")
            }
        }
    }
}

impl std::error::Error for ParamsError {}

/// FNV-1a over the bytes, as 8 hex digits: the hash in parameter file names.
pub fn content_hash(text: &str) -> String {
    content_hash_bytes(text.as_bytes())
}

/// FNV-1a over raw bytes, as 8 hex digits (the hash in `.nnue` file names).
pub fn content_hash_bytes(bytes: &[u8]) -> String {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    format!("{h:08x}")
}

/// Position in a file's list of a board block's value `i` (rank 8 first) for table
/// index `sq` (a1 = 0); the mapping is its own inverse.
#[inline]
fn board_order(i: usize) -> usize {
    (7 - i / 8) * 8 + i % 8
}

/// The hash a file name carries: `chess-1a2b3c4d.eval` (or `.nnue`) gives `1a2b3c4d`;
/// `None` when the name has no 8-hex-digit hash after its last `-`.
pub fn hash_in_name(name: &str) -> Option<&str> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = base
        .strip_suffix(".eval")
        .or_else(|| base.strip_suffix(".nnue"))
        .unwrap_or(base);
    let (_, hash) = stem.rsplit_once('-')?;
    (hash.len() == 8 && hash.bytes().all(|b| b.is_ascii_hexdigit())).then_some(hash)
}

/// A weight's two halves in one integer, `eg * 2^32 + mg` (Stockfish's `Score`,
/// on 64 bits): sums of `coef * packed` in wrapping `i64` arithmetic carry both
/// halves' sums exactly while each fits in an `i32` ([`unpack`] splits them), so
/// the evaluation adds each term with one multiplication instead of two.
#[inline(always)]
pub fn pack([mg, eg]: [i32; 2]) -> i64 {
    ((eg as i64) << 32).wrapping_add(mg as i64)
}

/// The `[mg, eg]` halves of a sum of packed weights ([`pack`]).
#[inline(always)]
pub fn unpack(sum: i64) -> [i32; 2] {
    let mg = sum as i32;
    [mg, (sum.wrapping_sub(mg as i64) >> 32) as i32]
}

impl EvalParams {
    /// All weights zero (the hash is that of the resulting file text).
    pub fn zero(variant: VariantKind) -> EvalParams {
        Self::from_weights(variant, Box::new([[0; 2]; N_PARAMS]))
    }

    /// Parameters with the given weights; the hash is that of [`EvalParams::to_text`].
    pub fn from_weights(variant: VariantKind, weights: Box<[[i32; 2]; N_PARAMS]>) -> EvalParams {
        let mut p = EvalParams {
            nnue: None,
            variant,
            hash: String::new(),
            packed: Self::pack_all(&weights),
            weights,
        };
        p.hash = content_hash(&p.to_text());
        p
    }

    fn pack_all(weights: &[[i32; 2]; N_PARAMS]) -> Box<[i64; N_PARAMS]> {
        let mut packed = Box::new([0; N_PARAMS]);
        for (p, &w) in packed.iter_mut().zip(weights.iter()) {
            *p = pack(w);
        }
        packed
    }

    /// The flat weight vector, `[mg, eg]` per weight in centipawns, laid out as
    /// [`SCHEMA`].
    #[inline(always)]
    pub fn weights(&self) -> &[[i32; 2]; N_PARAMS] {
        &self.weights
    }

    /// The weights packed ([`pack`]), for [`crate::eval::Scorer`].
    #[inline(always)]
    pub fn packed(&self) -> &[i64; N_PARAMS] {
        &self.packed
    }

    /// The `[mg, eg]` weights of the block named `name`.
    pub fn block(&self, name: &str) -> Option<&[[i32; 2]]> {
        SCHEMA
            .iter()
            .find(|b| b.name == name)
            .map(|b| &self.weights[b.offset..b.offset + b.len])
    }

    /// Parses a parameter file for `variant`.
    ///
    /// # Errors
    /// A [`ParamsError`] naming the first problem.
    pub fn parse(text: &str, variant: VariantKind) -> Result<EvalParams, ParamsError> {
        let mut lines = content_lines(text);
        let header = lines.next().unwrap_or("");
        let found = match split_header(header) {
            Some((version, found)) if version == FORMAT_VERSION.to_string() => found,
            _ => return Err(ParamsError::BadHeader(header.to_string())),
        };
        if found != variant.name() {
            return Err(ParamsError::WrongVariant {
                expected: variant,
                found: found.to_string(),
            });
        }
        // values[2 * block + half]
        let mut values: Vec<Option<Vec<i32>>> = vec![None; 2 * SCHEMA.len()];
        let mut current: Option<usize> = None;
        for token in lines.flat_map(|l| l.split_whitespace()) {
            if token.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                let slot = token
                    .strip_suffix("_mg")
                    .map(|b| (b, 0))
                    .or_else(|| token.strip_suffix("_eg").map(|b| (b, 1)))
                    .and_then(|(b, half)| SCHEMA.iter().position(|s| s.name == b).map(|i| 2 * i + half))
                    .ok_or_else(|| ParamsError::UnknownParameter(token.to_string()))?;
                if values[slot].is_some() {
                    return Err(ParamsError::Duplicate(token.to_string()));
                }
                values[slot] = Some(Vec::new());
                current = Some(slot);
            } else {
                let v: i32 = token
                    .parse()
                    .ok()
                    .filter(|v: &i32| v.abs() <= 100_000)
                    .ok_or_else(|| ParamsError::BadValue(token.to_string()))?;
                match current.and_then(|i| values[i].as_mut()) {
                    Some(list) => list.push(v),
                    None => return Err(ParamsError::BadValue(token.to_string())),
                }
            }
        }
        let mut weights = Box::new([[0; 2]; N_PARAMS]);
        for (i, block) in SCHEMA.iter().enumerate() {
            for half in 0..2 {
                let name = format!("{}_{}", block.name, ["mg", "eg"][half]);
                let optional = variant.may_omit_block(block.name);
                let list = match values[2 * i + half].take() {
                    Some(list) => list,
                    None if optional => vec![0; block.len],
                    None => return Err(ParamsError::Missing(name)),
                };
                if list.len() != block.len {
                    return Err(ParamsError::WrongLength {
                        name,
                        expected: block.len,
                        found: list.len(),
                    });
                }
                for (j, &v) in list.iter().enumerate() {
                    let k = if block.board { board_order(j) } else { j };
                    weights[block.offset + k][half] = v;
                }
            }
        }
        Ok(EvalParams {
            nnue: None,
            variant,
            hash: content_hash(text),
            packed: Self::pack_all(&weights),
            weights,
        })
    }

    /// Parses a file whose name may carry its content hash (`chess-1a2b3c4d.eval`)
    /// and checks that hash.
    ///
    /// # Errors
    /// As [`EvalParams::parse`], plus [`ParamsError::HashMismatch`].
    pub fn parse_named(name: &str, text: &str, variant: VariantKind) -> Result<EvalParams, ParamsError> {
        let params = Self::parse(text, variant)?;
        if let Some(hash) = hash_in_name(name) {
            if !hash.eq_ignore_ascii_case(&params.hash) {
                return Err(ParamsError::HashMismatch {
                    expected: hash.to_string(),
                    found: params.hash,
                });
            }
        }
        Ok(params)
    }

    /// Writes the parameters in the file format (the inverse of [`EvalParams::parse`]).
    pub fn to_text(&self) -> String {
        self.to_text_with_comment("")
    }

    /// As [`EvalParams::to_text`], with `comment` written as `#` lines after the header.
    pub fn to_text_with_comment(&self, comment: &str) -> String {
        let mut out = format!("sapper-eval {FORMAT_VERSION} {}\n", self.variant.name());
        for line in comment.lines() {
            out.push_str(&format!("# {line}\n").replace("# \n", "#\n"));
        }
        for block in SCHEMA {
            // Another variant's block, unread here: left out while it is all zeros,
            // as the files written before it was added leave it out (`build.rs`
            // tells the optional blocks by such files).
            let span = &self.weights[block.offset..block.offset + block.len];
            if self.variant.may_omit_block(block.name) && span.iter().all(|w| *w == [0, 0]) {
                continue;
            }
            for (half, suffix) in ["mg", "eg"].iter().enumerate() {
                out.push_str(&format!("{}_{suffix}\n", block.name));
                let values: Vec<i32> = (0..block.len)
                    .map(|j| {
                        let k = if block.board { board_order(j) } else { j };
                        self.weights[block.offset + k][half]
                    })
                    .collect();
                for row in values.chunks(if block.board { 8 } else { 10 }) {
                    let line: Vec<String> = row.iter().map(|v| format!("{v:5}")).collect();
                    out.push_str(&format!("  {}\n", line.join(" ")));
                }
            }
        }
        out
    }

    /// The file name these parameters get: `<variant>-<hash>.eval` (hash of `text`).
    pub fn file_name(variant: VariantKind, text: &str) -> String {
        format!("{}-{}.eval", variant.name(), content_hash(text))
    }
}

/// Reads and checks a parameter file for `variant` (the `EvalFile` option): the
/// header must name `variant`, every block must be complete, and when the file name
/// carries a hash (`atomic-1a2b3c4d.eval`) the content must match it.
///
/// # Errors
/// A message naming the file and the problem.
pub fn load_params_file(
    path: impl AsRef<std::path::Path>,
    variant: VariantKind,
) -> Result<EvalParams, String> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    EvalParams::parse_named(&path.to_string_lossy(), &text, variant)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The variant a parameter file's header names, if it is well formed (of any format
/// version, so that a loader can name the variant of an outdated file).
pub fn variant_of_text(text: &str) -> Option<VariantKind> {
    content_lines(text)
        .next()
        .and_then(split_header)
        .and_then(|(_, variant)| variant.parse().ok())
}

/// The lines of a parameter file with comments and blank lines removed, trimmed.
fn content_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
}

/// The format version and variant name of a header line `sapper-eval <version>
/// <variant>`; `None` when the line has another shape.
fn split_header(header: &str) -> Option<(&str, &str)> {
    match header.split_whitespace().collect::<Vec<_>>()[..] {
        ["sapper-eval", version, variant] => Some((version, variant)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_are_contiguous_and_ordered() {
        let mut next = 0;
        for b in SCHEMA {
            assert_eq!(b.offset, next, "{}", b.name);
            assert!(!b.board || b.len == 64);
            next += b.len;
        }
        assert_eq!(next, N_PARAMS);
        assert_eq!(idx::PST_KNIGHT, idx::PST_PAWN + 64);
        assert_eq!(idx::PST_KING, idx::PST_PAWN + 5 * 64);
        assert_eq!(idx::MOBILITY_BISHOP, idx::MOBILITY_KNIGHT + 9);
        assert_eq!(idx::MOBILITY_QUEEN, idx::MOBILITY_ROOK + 15);
    }

    #[test]
    fn another_variants_zero_block_is_left_out_and_a_set_one_kept() {
        let chess = EvalParams::zero(VariantKind::Chess);
        let text = chess.to_text();
        assert!(text.contains("king_attack_mg"), "chess's own block");
        assert!(!text.contains("three_check_mg") && !text.contains("atomic_threats_mg"));
        let atomic = EvalParams::zero(VariantKind::Atomic);
        assert!(atomic.to_text().contains("atomic_threats_mg"));
        assert!(atomic.to_text().contains("king_attack_mg"), "atomic reads it too");
        assert!(!atomic.to_text().contains("three_check_mg"));
        // A weight set there is written, so a file read back loses nothing.
        let mut weights = atomic.weights.clone();
        weights[idx::THREE_CHECK + 1] = [0, -5];
        let atomic = EvalParams::from_weights(VariantKind::Atomic, weights);
        let text = atomic.to_text();
        assert!(text.contains("three_check_eg"));
        let back = EvalParams::parse(&text, VariantKind::Atomic).unwrap();
        assert_eq!(back.weights, atomic.weights);
    }

    #[test]
    fn packed_sums_give_both_halves_exactly() {
        // Mixed signs; both halves' running sums leave the i32 range on the way
        // (the packed sum wraps) and end inside it.
        let terms: [([i32; 2], i32); 5] = [
            ([-300, 1_200_000], 2_000),
            ([7, -45], -3),
            ([2_500_000, -2], 1_000),
            ([-1, -1], 17),
            ([250_000, 200_000], -12_000),
        ];
        let (mut packed, mut sums, mut left_range) = (0i64, [0i64; 2], [false; 2]);
        for (w, c) in terms {
            packed = packed.wrapping_add((c as i64).wrapping_mul(pack(w)));
            for half in 0..2 {
                sums[half] += c as i64 * w[half] as i64;
                left_range[half] |= i32::try_from(sums[half]).is_err();
            }
        }
        assert_eq!(left_range, [true, true]);
        let exact = sums.map(|v| i32::try_from(v).expect("ends in range"));
        assert_eq!(unpack(packed), exact);
        assert_eq!(unpack(pack([-5, 9])), [-5, 9]);
    }

    #[test]
    fn hash_in_name_needs_eight_hex_digits() {
        assert_eq!(hash_in_name("nets/chess-1a2b3c4d.eval"), Some("1a2b3c4d"));
        assert_eq!(hash_in_name("/tmp/my-file.eval"), None);
        assert_eq!(hash_in_name("plain.eval"), None);
    }
}
