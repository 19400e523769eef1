//! Embeds the default evaluation parameters and networks named in `nets/defaults.txt`,
//! after checking them, so that a bad file fails the build instead of the first
//! search that needs it.
//!
//! Generates `$OUT_DIR/default_nets.rs` with one `(variant, file name, text)` entry
//! per `.eval` line of `nets/defaults.txt` and one `(variant, file name, bytes)` entry
//! per `.nnue` line. Each `.eval` file is parsed here by the library's own parser
//! (`src/eval/params.rs`, compiled into this build script; [`library`] gives it the
//! three names it imports), which checks the header, every block and value, the
//! variant the line names and the content hash in the file name. A `.nnue` file's
//! weights are checked when it is first loaded (`nnue::Network::parse_named`, which
//! needs the board types); here its magic and the hash in its name.

use std::env;
use std::fs;
use std::path::Path;

/// What `src/eval/params.rs` imports from the library, reduced to what parsing
/// needs: a variant is its name (the build script checks it against the line of
/// `nets/defaults.txt`; the list of variants lives in the library), and a network
/// is never attached to parameters here.
mod library {
    /// Stand-ins for `sapper_rules::variant`.
    pub mod variant {
        use std::fmt;
        use std::sync::OnceLock;

        /// The blocks each embedded parameter file gives, by variant name: what
        /// `VariantKindEval::may_omit_block` knows here (set by `main` before parsing).
        pub static GIVEN: OnceLock<Vec<(String, Vec<String>)>> = OnceLock::new();

        /// A variant, known here by its name only.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct VariantKind(pub &'static str);

        impl VariantKind {
            /// The `UCI_Variant` name.
            pub const fn name(self) -> &'static str {
                self.0
            }
        }

        /// Stand-in for the library's trait of the same name.
        pub trait VariantKindEval {
            /// Whether `self`'s file may leave out block `name`.
            fn may_omit_block(self, name: &str) -> bool;
        }

        impl VariantKindEval for VariantKind {
            /// Whether `self`'s file may leave out block `name`. The library's
            /// rule reads the variants' `VariantEval::EVAL_BLOCKS`, which the build script
            /// cannot see; here it is derived from the embedded files themselves:
            /// a file may leave out a block that another variant's file gives (a
            /// block of some variants only). Looser than the library's rule (it
            /// cannot tell a variant's own block from another's): the library loads
            /// the embedded files with its own rule, and
            /// `crates/engine/tests/variants.rs` does so for every variant.
            fn may_omit_block(self, name: &str) -> bool {
                let given = GIVEN.get().expect("GIVEN is set before parsing");
                given
                    .iter()
                    .filter(|(v, _)| v != self.0)
                    .any(|(_, blocks)| blocks.iter().any(|b| b == name))
            }
        }

        impl fmt::Display for VariantKind {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.0)
            }
        }

        impl std::str::FromStr for VariantKind {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                Ok(VariantKind(Box::leak(s.to_string().into_boxed_str())))
            }
        }
    }

    /// Stand-ins for `crate::eval::nnue`.
    pub mod nnue {
        /// Never built here.
        #[derive(Debug, PartialEq, Eq)]
        pub struct Network;
    }
}

use library::{nnue, variant};

#[allow(dead_code)]
#[path = "src/eval/params.rs"]
mod params;

/// The first bytes of every network file (`nnue::MAGIC`).
const NNUE_MAGIC: &[u8] = b"SAPPERNN";

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    // The parameter files and networks live at the workspace's root, `nets/`.
    let nets = Path::new(&manifest).join("../../nets");
    let list = nets.join("defaults.txt");
    println!("cargo:rerun-if-changed={}", list.display());
    println!("cargo:rerun-if-changed=src/eval/params.rs");
    let text = fs::read_to_string(&list).expect("nets/defaults.txt");
    let lines: Vec<(&str, &str)> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut parts = line.split_whitespace();
            match (parts.next(), parts.next()) {
                (Some(variant), Some(file)) => (variant, file),
                _ => panic!("nets/defaults.txt: bad line '{line}'"),
            }
        })
        .collect();
    let given = lines
        .iter()
        .filter(|(_, file)| file.ends_with(".eval"))
        .map(|&(variant, file)| {
            let text = fs::read_to_string(nets.join(file)).unwrap_or_else(|e| panic!("nets/{file}: {e}"));
            (variant.to_string(), block_names(&text))
        })
        .collect();
    variant::GIVEN.set(given).expect("GIVEN is set once");
    let mut out = String::from("/// (variant, file name, contents) of each embedded parameter file.\n");
    out.push_str("pub const DEFAULT_NETS: &[(&str, &str, &str)] = &[\n");
    let mut nnue = String::from("/// (variant, file name, bytes) of each embedded network.\n");
    nnue.push_str("pub const DEFAULT_NNUE: &[(&str, &str, &[u8])] = &[\n");
    for &(variant, file) in &lines {
        let path = nets.join(file);
        assert!(path.exists(), "nets/defaults.txt names missing file {file}");
        println!("cargo:rerun-if-changed={}", path.display());
        let variant_name: &'static str = Box::leak(variant.to_string().into_boxed_str());
        if file.ends_with(".nnue") {
            let bytes = fs::read(&path).unwrap_or_else(|e| panic!("nets/{file}: {e}"));
            assert!(
                bytes.starts_with(NNUE_MAGIC),
                "nets/{file}: not a SAPPERNN network"
            );
            let hash = params::content_hash_bytes(&bytes);
            if let Some(named) = params::hash_in_name(file) {
                assert!(
                    named.eq_ignore_ascii_case(&hash),
                    "nets/{file}: content hash {hash} does not match the name's {named}"
                );
            }
            nnue.push_str(&format!(
                "    ({variant:?}, {file:?}, include_bytes!({:?})),\n",
                path.display().to_string()
            ));
            continue;
        }
        let contents = fs::read_to_string(&path).unwrap_or_else(|e| panic!("nets/{file}: {e}"));
        if let Err(e) = params::EvalParams::parse_named(file, &contents, variant::VariantKind(variant_name)) {
            panic!("nets/defaults.txt names a bad parameter file: nets/{file}: {e}");
        }
        out.push_str(&format!(
            "    ({variant:?}, {file:?}, include_str!({:?})),\n",
            path.display().to_string()
        ));
    }
    out.push_str("];\n");
    nnue.push_str("];\n");
    out.push_str(&nnue);
    let dest = Path::new(&env::var("OUT_DIR").expect("OUT_DIR")).join("default_nets.rs");
    fs::write(dest, out).expect("write default_nets.rs");
}

/// The blocks a parameter file gives: the names of its `<block>_mg` and
/// `<block>_eg` lines, comments skipped.
fn block_names(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .flat_map(str::split_whitespace)
        .filter_map(|t| t.strip_suffix("_mg").or_else(|| t.strip_suffix("_eg")))
        .map(str::to_string)
        .collect()
}
