//! `lectern lint` past each file's own problems: pictures that are not
//! there, and an mdBook's chapter files that mdBook never shows.

fn lint(path: &std::path::Path) -> String {
    let out = crate::common::lectern(&["lint"], path);
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// A picture that is there and reads (lint decodes what it finds).
fn picture(path: &std::path::Path) {
    image::RgbImage::new(2, 2).save(path).unwrap();
}

#[test]
fn a_missing_picture_of_a_markdown_lesson_is_named_at_its_place() {
    let dir = tempfile::tempdir().unwrap();
    picture(&dir.path().join("here.png"));
    let lesson = dir.path().join("notes.md");
    std::fs::write(
        &lesson,
        "# Notes\n\n![there](here.png)\n\nSee ![a plan](plans/floor.svg).\n",
    )
    .unwrap();
    let said = lint(&lesson);
    assert!(
        said.contains("notes.md:5:5: warning: image `plans/floor.svg` is missing"),
        "{said}"
    );
    assert!(!said.contains("here.png"), "{said}");
}

#[test]
fn a_book_names_its_files_mdbook_never_shows_and_their_missing_pictures() {
    let book = tempfile::tempdir().unwrap();
    let src = book.path().join("src");
    std::fs::create_dir_all(src.join("img")).unwrap();
    std::fs::write(book.path().join("book.toml"), "[book]\ntitle = \"B\"\n").unwrap();
    std::fs::write(src.join("SUMMARY.md"), "# Summary\n\n- [One](one.md)\n").unwrap();
    std::fs::write(
        src.join("one.md"),
        "# One\n\n{{#include part.md}}\n\n![seen](/img/seen.png) ![lost](img/lost.png)\n",
    )
    .unwrap();
    picture(&src.join("img/seen.png"));
    std::fs::write(src.join("part.md"), "Included, so shown.\n").unwrap();
    std::fs::write(src.join("orphan.md"), "# Never shown\n").unwrap();
    let said = lint(book.path());
    assert!(
        said.contains("orphan.md:1:1: warning: not in SUMMARY.md"),
        "{said}"
    );
    assert!(
        said.contains("one.md:5:24: warning: image `img/lost.png` is missing"),
        "{said}"
    );
    assert!(
        !said.contains("part.md:"),
        "an included file is shown: {said}"
    );
    assert!(!said.contains("seen.png"), "{said}");
}
