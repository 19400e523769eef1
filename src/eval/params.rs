//! Evaluation parameters: the numbers of the hand-crafted evaluation, kept as data.
//!
//! A parameter file (`nets/<variant>-<hash>.eval`) is plain text: `#` starts a
//! comment, a header line `sapper-eval 1 <variant>` comes first, then each
//! parameter's name followed by its integers (they may wrap over lines). Piece-square
//! tables list rank 8 first, a-file first, from White's point of view, so they read
//! like a board diagram. Every parameter of [`SCHEMA`] must appear exactly once with
//! exactly its number of values. Units are centipawns.

use crate::variant::VariantKind;
use std::fmt;

/// Name and length of every parameter, in file order.
pub const SCHEMA: &[(&str, usize)] = &[
    ("material_mg", 6),
    ("material_eg", 6),
    ("pst_pawn_mg", 64),
    ("pst_pawn_eg", 64),
    ("pst_knight_mg", 64),
    ("pst_knight_eg", 64),
    ("pst_bishop_mg", 64),
    ("pst_bishop_eg", 64),
    ("pst_rook_mg", 64),
    ("pst_rook_eg", 64),
    ("pst_queen_mg", 64),
    ("pst_queen_eg", 64),
    ("pst_king_mg", 64),
    ("pst_king_eg", 64),
    ("bishop_pair", 2),
    ("tempo", 1),
    ("atomic_blast_threat", 2),
    ("hill_distance_mg", 8),
    ("hill_distance_eg", 8),
    ("mine_risk", 2),
];

/// Parsed evaluation parameters (centipawns). Piece-square tables are indexed by
/// square from White's side (a1 = 0); Black's are mirrored vertically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// The variant the file was written for.
    pub variant: VariantKind,
    /// Short content hash (FNV-1a, 32 bits, hex) of the file text.
    pub hash: String,
    /// Piece values by role (pawn..king), middlegame.
    pub material_mg: [i32; 6],
    /// Piece values by role, endgame.
    pub material_eg: [i32; 6],
    /// Piece-square tables by role, middlegame, a1 = 0.
    pub pst_mg: [[i32; 64]; 6],
    /// Piece-square tables by role, endgame, a1 = 0.
    pub pst_eg: [[i32; 64]; 6],
    /// Bonus for holding both bishops (mg, eg).
    pub bishop_pair: [i32; 2],
    /// Bonus for the side to move.
    pub tempo: i32,
    /// Atomic: per enemy piece next to our king that we can capture (the blast would
    /// take the king) (mg, eg). The enemy's threats count against us.
    pub atomic_blast_threat: [i32; 2],
    /// King of the hill: bonus by the king's distance (0..7 king steps) to the nearest
    /// hill square not held by its own pieces, middlegame.
    pub hill_distance_mg: [i32; 8],
    /// The same, endgame (weighs more as the pieces that could stop the king go).
    pub hill_distance_eg: [i32; 8],
    /// Minesweeper: percent of the expected loss counted for pieces that must still
    /// cross the fog (mg, eg); the expected loss is the mine density times their value.
    pub mine_risk: [i32; 2],
}

/// Why a parameter file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamsError {
    /// The first line is not `sapper-eval 1 <variant>`.
    BadHeader(String),
    /// The file is for another variant.
    WrongVariant { expected: VariantKind, found: String },
    /// A name that is not in [`SCHEMA`].
    UnknownParameter(String),
    /// A parameter given twice.
    Duplicate(String),
    /// A parameter missing from the file.
    Missing(&'static str),
    /// A parameter with the wrong number of values.
    WrongLength {
        name: &'static str,
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
                write!(f, "expected header 'sapper-eval 1 <variant>', found '{l}'")
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
    let mut h: u32 = 0x811c_9dc5;
    for b in text.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    format!("{h:08x}")
}

impl EvalParams {
    /// Parses a parameter file for `variant`.
    ///
    /// # Errors
    /// A [`ParamsError`] naming the first problem.
    pub fn parse(text: &str, variant: VariantKind) -> Result<EvalParams, ParamsError> {
        let mut lines = text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter(|l| !l.is_empty());
        let header = lines.next().unwrap_or("");
        let parts: Vec<&str> = header.split_whitespace().collect();
        if parts.len() != 3 || parts[0] != "sapper-eval" || parts[1] != "1" {
            return Err(ParamsError::BadHeader(header.to_string()));
        }
        if parts[2] != variant.name() {
            return Err(ParamsError::WrongVariant {
                expected: variant,
                found: parts[2].to_string(),
            });
        }
        let mut values: Vec<Option<Vec<i32>>> = vec![None; SCHEMA.len()];
        let mut current: Option<usize> = None;
        for token in lines.flat_map(|l| l.split_whitespace()) {
            if token.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                let idx = SCHEMA
                    .iter()
                    .position(|(n, _)| *n == token)
                    .ok_or_else(|| ParamsError::UnknownParameter(token.to_string()))?;
                if values[idx].is_some() {
                    return Err(ParamsError::Duplicate(token.to_string()));
                }
                values[idx] = Some(Vec::new());
                current = Some(idx);
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
        let mut flat = Vec::with_capacity(SCHEMA.len());
        for (i, &(name, len)) in SCHEMA.iter().enumerate() {
            let list = values[i].take().ok_or(ParamsError::Missing(name))?;
            if list.len() != len {
                return Err(ParamsError::WrongLength {
                    name,
                    expected: len,
                    found: list.len(),
                });
            }
            flat.push(list);
        }
        Ok(Self::from_lists(variant, content_hash(text), &flat))
    }

    /// Parses a file whose name carries its content hash (`chess-1a2b3c4d.eval`) and
    /// checks that hash.
    ///
    /// # Errors
    /// As [`EvalParams::parse`], plus [`ParamsError::HashMismatch`].
    pub fn parse_named(name: &str, text: &str, variant: VariantKind) -> Result<EvalParams, ParamsError> {
        let params = Self::parse(text, variant)?;
        let stem = name.rsplit('/').next().unwrap_or(name).trim_end_matches(".eval");
        if let Some((_, hash)) = stem.rsplit_once('-') {
            if hash != params.hash {
                return Err(ParamsError::HashMismatch {
                    expected: hash.to_string(),
                    found: params.hash,
                });
            }
        }
        Ok(params)
    }

    fn from_lists(variant: VariantKind, hash: String, lists: &[Vec<i32>]) -> EvalParams {
        let arr6 = |v: &[i32]| -> [i32; 6] { std::array::from_fn(|i| v[i]) };
        let arr8 = |v: &[i32]| -> [i32; 8] { std::array::from_fn(|i| v[i]) };
        let arr2 = |v: &[i32]| -> [i32; 2] { [v[0], v[1]] };
        // Files list rank 8 first; tables are indexed a1 = 0.
        let pst = |v: &[i32]| -> [i32; 64] { std::array::from_fn(|sq| v[(7 - sq / 8) * 8 + sq % 8]) };
        let mut pst_mg = [[0; 64]; 6];
        let mut pst_eg = [[0; 64]; 6];
        for role in 0..6 {
            pst_mg[role] = pst(&lists[2 + 2 * role]);
            pst_eg[role] = pst(&lists[3 + 2 * role]);
        }
        EvalParams {
            variant,
            hash,
            material_mg: arr6(&lists[0]),
            material_eg: arr6(&lists[1]),
            pst_mg,
            pst_eg,
            bishop_pair: arr2(&lists[14]),
            tempo: lists[15][0],
            atomic_blast_threat: arr2(&lists[16]),
            hill_distance_mg: arr8(&lists[17]),
            hill_distance_eg: arr8(&lists[18]),
            mine_risk: arr2(&lists[19]),
        }
    }

    /// Writes the parameters in the file format (the inverse of [`EvalParams::parse`],
    /// used by the tuner).
    pub fn to_text(&self) -> String {
        let mut out = format!("sapper-eval 1 {}\n", self.variant.name());
        let mut put = |name: &str, values: &[i32], width: usize| {
            out.push_str(name);
            out.push('\n');
            for row in values.chunks(width) {
                let line: Vec<String> = row.iter().map(|v| format!("{v:5}")).collect();
                out.push_str(&format!("  {}\n", line.join(" ")));
            }
        };
        let board = |t: &[i32; 64]| -> Vec<i32> { (0..64).map(|i| t[(7 - i / 8) * 8 + i % 8]).collect() };
        put("material_mg", &self.material_mg, 6);
        put("material_eg", &self.material_eg, 6);
        for (role, name) in ["pawn", "knight", "bishop", "rook", "queen", "king"]
            .iter()
            .enumerate()
        {
            put(&format!("pst_{name}_mg"), &board(&self.pst_mg[role]), 8);
            put(&format!("pst_{name}_eg"), &board(&self.pst_eg[role]), 8);
        }
        put("bishop_pair", &self.bishop_pair, 2);
        put("tempo", &[self.tempo], 1);
        put("atomic_blast_threat", &self.atomic_blast_threat, 2);
        put("hill_distance_mg", &self.hill_distance_mg, 8);
        put("hill_distance_eg", &self.hill_distance_eg, 8);
        put("mine_risk", &self.mine_risk, 2);
        out
    }
}
