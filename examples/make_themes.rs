//! Regenerates `assets/themes/*.json`: the two syntect themes lectern uses,
//! so it can load just the one it needs instead of every default theme.
//!
//!     cargo run --example make_themes

fn main() {
    let themes = syntect::highlighting::ThemeSet::load_defaults();
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/themes");
    std::fs::create_dir_all(&out).unwrap();
    for (name, file) in [
        ("base16-ocean.dark", "dark.json"),
        ("InspiredGitHub", "light.json"),
    ] {
        let json = serde_json::to_string(&themes.themes[name]).unwrap();
        std::fs::write(out.join(file), json).unwrap();
    }
    println!("wrote {}", out.display());
}
