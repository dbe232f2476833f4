//! Embeds the lessons of `content/` so the binary carries its own course,
//! and the syntaxes `src/highlight.rs` loads: the one set of
//! `build/syntaxes.rs`, cut by `build/bundles.rs` into its syntaxes, each
//! with its closure, and an index of them.

use std::fmt::Write;
use std::path::Path;

#[path = "build/bundles.rs"]
mod bundles;
#[path = "build/syntaxes.rs"]
mod syntaxes;

fn main() {
    builtin_lessons();
    syntax_bundles();
}

/// `syntaxes.bin`: the stub, then each syntax, dumped one after the other
/// (uncompressed: their contexts are, and the set compressed once more
/// loaded in 19 ms, not 1.5, for 9% fewer bytes); `syntax_index.rs`: the
/// index the runtime finds them by; `set.bin`: the whole set, which only
/// the tests embed (to check that a closure highlights as the whole set).
fn syntax_bundles() {
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).to_path_buf();
    let merged = syntaxes::merged();
    syntect::dumps::dump_to_uncompressed_file(&merged.set, out.join("set.bin"))
        .expect("the syntax set is written");
    let scratch = out.join("syntax.scratch");
    let split = bundles::split(&merged.set, &scratch);
    let _ = std::fs::remove_file(scratch);
    let mut blob = split.stub.clone();
    let mut index = format!(
        "/// How many of the first syntaxes are syntect's own.\n\
         pub(super) const SYNTECT_COUNT: usize = {};\n\
         /// Where the stub and each syntax lie in `syntaxes.bin`.\n\
         const STUB: (usize, usize) = (0, {});\n\
         const DUMPS: [(usize, usize); {}] = [\n",
        merged.syntect_count,
        blob.len(),
        split.syntaxes.len()
    );
    for s in &split.syntaxes {
        writeln!(index, "    ({}, {}),", blob.len(), blob.len() + s.len()).unwrap();
        blob.extend_from_slice(s);
    }
    writeln!(
        index,
        "];\n/// The closures of the syntaxes.\n\
         const CLOSURES: [&[u16]; {}] = [",
        split.closures.len()
    )
    .unwrap();
    for c in &split.closures {
        writeln!(index, "    &{c:?},").unwrap();
    }
    writeln!(
        index,
        "];\n/// Every syntax of the set, in its order.\n\
         pub(super) static SYNTAXES: [Syntax; {}] = [",
        split.entries.len()
    )
    .unwrap();
    for (i, e) in split.entries.iter().enumerate() {
        writeln!(
            index,
            "    Syntax {{ name: {:?}, extensions: &{:?}, first_line: {:?}, closure: {}, at: {i} }},",
            e.name, e.file_extensions, e.first_line_match, e.closure,
        )
        .unwrap();
    }
    index.push_str("];\n");
    std::fs::write(out.join("syntaxes.bin"), blob).expect("the syntaxes are written");
    std::fs::write(out.join("syntax_index.rs"), index).expect("the index is written");
}

fn builtin_lessons() {
    // Read at run time, not baked in with env!(): a compiled build script
    // can be reused for a checkout in another folder.
    let root = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let dir = Path::new(&root).join("content");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    // `lectern` with no arguments must always have something to show.
    assert!(
        !files.is_empty(),
        "no lessons in {}: the built-in course is missing",
        dir.display()
    );
    let mut out = String::from(
        "/// (file name, contents) of each built-in lesson.\npub static BUILTIN: &[(&str, &str)] = &[\n",
    );
    for f in &files {
        println!("cargo:rerun-if-changed={}", f.display());
        let name = f.file_name().unwrap().to_string_lossy();
        writeln!(
            out,
            "    ({name:?}, include_str!({:?})),",
            f.display().to_string()
        )
        .unwrap();
    }
    out.push_str("];\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap()).join("builtin_lessons.rs");
    std::fs::write(dest, out).unwrap();
}
