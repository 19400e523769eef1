//! Embeds the default evaluation parameters and networks named in `nets/defaults.txt`.
//!
//! Generates `$OUT_DIR/default_nets.rs` with one `(variant, file name, text)` entry
//! per `.eval` line of `nets/defaults.txt` and one `(variant, file name, bytes)` entry
//! per `.nnue` line; they are parsed and hash-checked at run time by `eval::params`
//! and `nnue`.

use std::env;
use std::fs;
use std::path::Path;

fn main() {
    let manifest = env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let nets = Path::new(&manifest).join("nets");
    let list = nets.join("defaults.txt");
    println!("cargo:rerun-if-changed={}", list.display());
    let text = fs::read_to_string(&list).expect("nets/defaults.txt");
    let mut out = String::from("/// (variant, file name, contents) of each embedded parameter file.\n");
    out.push_str("pub const DEFAULT_NETS: &[(&str, &str, &str)] = &[\n");
    let mut nnue = String::from("/// (variant, file name, bytes) of each embedded network.\n");
    nnue.push_str("pub const DEFAULT_NNUE: &[(&str, &str, &[u8])] = &[\n");
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split_whitespace();
        let (Some(variant), Some(file)) = (parts.next(), parts.next()) else {
            panic!("nets/defaults.txt: bad line '{line}'");
        };
        let path = nets.join(file);
        assert!(path.exists(), "nets/defaults.txt names missing file {file}");
        println!("cargo:rerun-if-changed={}", path.display());
        if file.ends_with(".nnue") {
            nnue.push_str(&format!(
                "    ({variant:?}, {file:?}, include_bytes!({:?})),\n",
                path.display().to_string()
            ));
            continue;
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
