//! Pictures in the page (issue 27): drawn in half blocks where they stand,
//! their words in their place until then and wherever they cannot be;
//! `images = "off"`; render and lint; the hostile set (a bomb's header, a
//! truncated file, a recursive and a huge SVG, a path out of the book,
//! thousands of pictures in one lesson). Every picture here is made by
//! the test itself.

use crate::common::{self, Reader};
use lectern::layout::{self, Highlights};
use lectern::loader::{self, Origin};
use lectern::model::{Block, Drawn, ImageFile, Lesson, PictureKey};
use lectern::state::Effect;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::style::Color;
use std::path::Path;
use std::sync::Arc;

/// A picture `w`x`h`: its top half red, its bottom half blue.
fn two_colours(path: &Path, w: u32, h: u32) {
    let img = image::RgbImage::from_fn(w, h, |_, y| {
        if y < h / 2 {
            image::Rgb([255, 0, 0])
        } else {
            image::Rgb([0, 0, 255])
        }
    });
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    img.save(path).unwrap();
}

/// A course folder of one markdown lesson, `body` its text.
struct Course {
    _tmp: tempfile::TempDir,
    dir: std::path::PathBuf,
}

impl Course {
    fn path(&self) -> &Path {
        &self.dir
    }
}

fn course(body: &str) -> Course {
    let tmp = tempfile::tempdir().unwrap();
    // Named, so the screen's course title is the same in every run.
    let dir = tmp.path().join("pictures");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("01-pictures.md"), body).unwrap();
    Course { _tmp: tmp, dir }
}

fn lesson(path: &Path) -> Lesson {
    loader::load(&Origin::File(path.to_path_buf()))
        .unwrap_or_else(|d| panic!("{d}"))
        .lesson
}

fn page_text(lesson: &Lesson, pictures: bool) -> Vec<String> {
    let mut code = Highlights::default();
    code.pictures = pictures;
    let page = layout::page(lesson, 60, &code);
    page.lines.iter().map(|l| l.text()).collect()
}

/// The screen as text, and the colours of each cell.
fn screen(r: &Reader) -> (String, Vec<Vec<(Color, Color)>>) {
    let mut t = Terminal::new(TestBackend::new(r.s.size.width, r.s.size.height)).unwrap();
    let theme = lectern::theme::Theme::new(lectern::theme::ThemeKind::Dark);
    t.draw(|f| lectern::ui::draw(f, &r.s, &theme)).unwrap();
    let buf = t.backend().buffer();
    let colours = (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| (buf[(x, y)].fg, buf[(x, y)].bg))
                .collect()
        })
        .collect();
    (t.backend().to_string(), colours)
}

const BODY: &str = "# Pictures\n\nAbove.\n\n![A red band over a blue one](img/bands.png \"Two bands\")\n\nBelow.\n\n1\n\n2\n\n3\n\n4\n\n5\n\n6\n\n7\n";

#[test]
fn a_picture_is_drawn_in_half_blocks_where_it_stands() {
    let dir = course(BODY);
    // 160x64 pixels: 20 columns, 4 rows (cells twice as tall as wide).
    two_colours(&dir.path().join("img/bands.png"), 160, 64);
    let mut r = Reader::folder(dir.path(), 60, 16);
    r.open(0);
    let (text, colours) = screen(&r);
    insta::assert_snapshot!(text);
    let row = text.lines().position(|l| l.contains('▀')).expect("drawn");
    let col = text
        .lines()
        .nth(row)
        .unwrap()
        .chars()
        .position(|c| c == '▀')
        .unwrap();
    let rows: Vec<&str> = text.lines().filter(|l| l.contains('▀')).collect();
    assert_eq!(rows.len(), 4, "{text}");
    assert!(rows.iter().all(|r| r.matches('▀').count() == 20), "{text}");
    // The top rows red on red, the bottom ones blue on blue.
    assert_eq!(
        colours[row][col],
        (Color::Rgb(255, 0, 0), Color::Rgb(255, 0, 0))
    );
    assert_eq!(
        colours[row + 3][col],
        (Color::Rgb(0, 0, 255), Color::Rgb(0, 0, 255))
    );
    // Scrolled by a line, its top row goes and the rest move up with the page.
    r.keys("j");
    let (moved, colours) = screen(&r);
    let now = moved.lines().position(|l| l.contains('▀')).unwrap();
    assert_eq!(now, row - 1, "{moved}");
    assert_eq!(colours[now][col].0, Color::Rgb(255, 0, 0));
}

/// With kitty's protocol each cell of the picture is a placeholder whose
/// colour names the picture and whose marks name its row and column: cut
/// by the top of the screen, the first row shown says it is the picture's
/// second, so the terminal draws that part, never the top squeezed in.
#[test]
fn kitty_placeholders_name_their_row_when_the_picture_is_cut() {
    use lectern::graphics::kitty;
    use lectern::model::{Graphics, Protocol};
    use lectern::state::pictures::Drawing;
    let dir = course(BODY);
    two_colours(&dir.path().join("img/bands.png"), 160, 64);
    let mut r = Reader::folder(dir.path(), 60, 16);
    r.s.prefs.drawing = Drawing::Graphics(Graphics {
        protocol: Protocol::Kitty,
        cell: (10, 20),
    });
    r.open(0);
    let placeholders = |r: &Reader| -> Vec<(u16, String, Color)> {
        let mut t = Terminal::new(TestBackend::new(60, 16)).unwrap();
        let theme = lectern::theme::Theme::new(lectern::theme::ThemeKind::Dark);
        t.draw(|f| lectern::ui::draw(f, &r.s, &theme)).unwrap();
        let buf = t.backend().buffer().clone();
        (0..16)
            .flat_map(|y| (0..60).map(move |x| (x, y)))
            .filter(|&(x, y)| buf[(x, y)].symbol().starts_with(kitty::PLACEHOLDER))
            .map(|(x, y)| (y, buf[(x, y)].symbol().to_string(), buf[(x, y)].fg))
            .collect()
    };
    let whole = placeholders(&r);
    assert_eq!(whole.len(), 20 * 4);
    let top = whole[0].0;
    assert_eq!(whole[0].1, kitty::cell(0, 0).unwrap());
    assert!(
        whole.iter().all(|p| p.2 == whole[0].2),
        "one colour: the picture's id"
    );
    // Scrolled until its first row is above the page (row 0 is the header).
    for _ in 0..top {
        r.keys("j");
    }
    let cut = placeholders(&r);
    assert_eq!(cut.len(), 20 * 3, "three rows left");
    assert_eq!(cut[0].1, kitty::cell(1, 0).unwrap(), "its second row first");
    assert_eq!(cut[0].0, 1, "at the page's top");
}

#[test]
fn until_it_is_drawn_its_rows_hold_its_words_and_its_caption_is_under_it() {
    let dir = course(BODY);
    two_colours(&dir.path().join("img/bands.png"), 160, 64);
    let l = lesson(&dir.path().join("01-pictures.md"));
    let lines = page_text(&l, true);
    let first = lines
        .iter()
        .position(|l| l.contains("picture: A red"))
        .unwrap();
    // Four rows kept, the caption after them.
    assert!(
        lines[first..first + 4].iter().all(|l| l.starts_with('▏')),
        "{lines:#?}"
    );
    assert_eq!(lines[first + 4], "Two bands");
    // Without room: one line of its words and its file.
    let off = page_text(&l, false);
    let at = off.iter().position(|l| l.contains("[image:")).unwrap();
    let said = off[at..].join(" ");
    assert!(
        said.starts_with("[image: A red band over a blue one] <"),
        "{said}"
    );
    assert!(said.contains("bands.png>"), "{said}");
}

#[test]
fn html_img_and_a_lesson_image_block_are_pictures_too() {
    let dir = course("<img alt=\"Bands\" src=\"img/bands.png\" style=\"width: 50%;\" />\n");
    two_colours(&dir.path().join("img/bands.png"), 160, 64);
    let mut json = common::fixture_value();
    json["reader"] = serde_json::json!({"schema": 1, "blocks": [
        {"t": "image", "src": "img/bands.png", "alt": "Bands", "caption": "Two bands", "width": 80}
    ]});
    let other = tempfile::tempdir().unwrap();
    two_colours(&other.path().join("img/bands.png"), 160, 64);
    let json_file = other.path().join("l.json");
    std::fs::write(&json_file, json.to_string()).unwrap();
    let md_file = dir.path().join("01-pictures.md");
    for (file, cols) in [(&md_file, 30), (&json_file, 10)] {
        let l = lesson(file);
        let Some(Block::Image(image)) = l.blocks.first() else {
            panic!("{file:?}: {:?}", l.blocks)
        };
        assert!(matches!(
            image.file,
            ImageFile::Local {
                pixels: Some((160, 64)),
                ..
            }
        ));
        let mut code = Highlights::default();
        code.pictures = true;
        let page = layout::page(&l, 60, &code);
        assert_eq!(page.pictures.len(), 1, "{file:?}");
        assert_eq!(page.pictures[0].cols, cols, "{file:?}: 50% of 60, or 80 px");
    }
    // A lesson's image block that cannot be shown: lint names its block.
    json["reader"]["blocks"][0]["src"] = "img/gone.png".into();
    std::fs::write(&json_file, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    let out = common::lectern(&["lint"], &json_file);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("warning: image `img/gone.png` is missing (at reader.blocks[0])"),
        "{said}"
    );
}

#[test]
fn only_pictures_near_the_screen_are_decoded_of_thousands() {
    let mut body = String::from("# Many\n\n");
    for i in 0..3000 {
        body.push_str(&format!("![picture {i}](img/bands.png)\n\ntext {i}\n\n"));
    }
    let dir = course(&body);
    two_colours(&dir.path().join("img/bands.png"), 16, 16);
    let mut r = Reader::folder(dir.path(), 60, 20);
    r.open(0);
    let asked = |r: &Reader| {
        r.effects()
            .iter()
            .filter(|e| matches!(e, Effect::DrawPicture(_)))
            .count()
    };
    // Only those within a screen of the screen (and every one the same file
    // at the same size: one drawing).
    assert!(asked(&r) <= 2, "{}", asked(&r));
    r.keys("G");
    assert!(asked(&r) <= 4, "{}", asked(&r));
}

#[test]
fn hostile_pictures_are_their_words_and_a_located_warning() {
    let dir = course(
        "# Hostile\n\n![bomb](bomb.png)\n\n![cut](cut.png)\n\n![loop](loop.svg)\n\n\
         ![huge](huge.svg)\n\n![secret](../secret.png)\n\n<img src=\"gone.png\" alt=\"gone\">\n",
    );
    let d = dir.path();
    // A PNG whose header says 100,000 x 100,000 pixels.
    let mut bomb = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bomb.extend(100_000u32.to_be_bytes());
    bomb.extend(100_000u32.to_be_bytes());
    bomb.extend([8, 2, 0, 0, 0]);
    let crc = crc32(&bomb[12..]);
    bomb.extend(crc.to_be_bytes());
    // A few bytes of data, and the end: what follows a header.
    bomb.extend(b"\0\0\0\0IDAT");
    bomb.extend(crc32(b"IDAT").to_be_bytes());
    bomb.extend(b"\0\0\0\0IEND");
    bomb.extend(crc32(b"IEND").to_be_bytes());
    std::fs::write(d.join("bomb.png"), &bomb).unwrap();
    two_colours(&d.join("whole.png"), 64, 64);
    let whole = std::fs::read(d.join("whole.png")).unwrap();
    std::fs::write(d.join("cut.png"), &whole[..whole.len() / 2]).unwrap();
    let looped = r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="100" height="100"><g id="a"><use xlink:href="#a"/><use xlink:href="#b"/></g><g id="b"><use xlink:href="#a"/></g></svg>"##;
    std::fs::write(d.join("loop.svg"), looped).unwrap();
    let mut huge =
        String::from(r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">"#);
    while huge.len() < 5 << 20 {
        huge.push_str(r#"<rect width="1" height="1"/>"#);
    }
    huge.push_str("</svg>");
    std::fs::write(d.join("huge.svg"), huge).unwrap();
    // A few hundred bytes of nested <use>s that expand to a billion.
    let mut laughs = String::from(
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="9" height="9"><defs><rect id="l0" width="1" height="1"/>"#,
    );
    for l in 1..=9 {
        laughs.push_str(&format!("<g id=\"l{l}\">"));
        for _ in 0..10 {
            laughs.push_str(&format!("<use xlink:href=\"#l{}\"/>", l - 1));
        }
        laughs.push_str("</g>");
    }
    laughs.push_str("</defs><use xlink:href=\"#l9\"/></svg>");
    std::fs::write(d.join("laughs.svg"), laughs).unwrap();
    // Thousands of blurred layers: quick at a few cells, many seconds at a
    // graphic's pixels.
    let mut slow = String::from(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="160"><filter id="f"><feGaussianBlur stdDeviation="30"/></filter>"#,
    );
    for _ in 0..3000 {
        slow.push_str(r#"<rect width="400" height="160" fill="red" filter="url(#f)"/>"#);
    }
    slow.push_str("</svg>");
    std::fs::write(d.join("slow.svg"), slow).unwrap();
    std::fs::write(d.parent().unwrap().join("secret.png"), &whole).unwrap();

    // Lint: each located, with why.
    let out = common::lectern(&["lint"], &d.join("01-pictures.md"));
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    for (line, why) in [
        (
            3,
            "image `bomb.png` cannot be shown: too large: 100000x100000",
        ),
        (5, "image `cut.png` cannot be shown: cannot decode it"),
        (13, "image `gone.png` is missing"),
    ] {
        assert!(
            said.contains(&format!("01-pictures.md:{line}:1: warning: {why}")),
            "{said}"
        );
    }

    // The page: the path out of the book refused, the rest asked for and
    // failing to words; nothing panics, every key still answers.
    let l = lesson(&d.join("01-pictures.md"));
    let files: Vec<&ImageFile> = l
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Image(i) => Some(&i.file),
            _ => None,
        })
        .collect();
    assert!(matches!(files[4], ImageFile::Refused(why) if why.contains("outside the book")));
    // The bomb's size is not believed: no room is made for it.
    assert!(matches!(files[0], ImageFile::Local { pixels: None, .. }));
    for name in ["bomb.png", "cut.png", "loop.svg", "huge.svg", "laughs.svg"] {
        let key = PictureKey {
            path: Arc::new(d.canonicalize().unwrap().join(name)),
            cols: 10,
            rows: 5,
            graphics: None,
        };
        let drawn: Result<Drawn, String> = lectern::effects::draw_picture(&key);
        match name {
            // usvg breaks the cycle: drawn (as nothing), never a hang.
            "loop.svg" => assert!(drawn.is_ok(), "{drawn:?}"),
            "laughs.svg" => assert!(
                drawn.as_ref().is_err_and(|e| e.contains("<use>s expanded")),
                "{drawn:?}"
            ),
            _ => assert!(drawn.is_err(), "{name}"),
        }
    }
    // Past the time to draw it (resvg's work stopped between layers): its
    // words, or, where its few cells were quick enough, half blocks with
    // no graphic.
    let sixel = lectern::model::Graphics {
        protocol: lectern::model::Protocol::Sixel,
        cell: (20, 40),
    };
    let key = PictureKey {
        path: Arc::new(d.canonicalize().unwrap().join("slow.svg")),
        cols: 100,
        rows: 20,
        graphics: Some(sixel),
    };
    match lectern::effects::draw_picture(&key) {
        Err(why) => assert!(why.contains("to draw"), "{why}"),
        Ok(drawn) => assert!(drawn.graphic.is_none() && drawn.pixels.len() == 100 * 40),
    }
    let mut r = Reader::folder(d, 60, 20);
    r.open(0);
    r.keys("jjG");
    let (text, _) = screen(&r);
    assert!(text.contains("[image: secret]"), "{text}");
}

/// The Rust Book's figures (graphviz tables labelled in `Times,serif`)
/// keep every text: run on a checkout of rust-lang/book with
/// `LECTERN_RUST_BOOK=PATH cargo test --test it -- --ignored rust_book`
/// (its files are not ours to keep here).
#[test]
#[ignore = "needs a checkout of rust-lang/book in LECTERN_RUST_BOOK"]
fn the_rust_books_figures_keep_every_text() {
    let book = std::env::var("LECTERN_RUST_BOOK").expect("LECTERN_RUST_BOOK");
    let img = Path::new(&book).join("src/img");
    let mut seen = 0;
    for entry in std::fs::read_dir(&img).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "svg") {
            continue;
        }
        let (drawn, texts) = lectern::effects::svg_texts_drawn(&path).unwrap();
        assert!(texts > 0, "{}", path.display());
        eprintln!("{}: {drawn} of {texts} texts drawn", path.display());
        assert_eq!(drawn, texts, "{}: texts lost", path.display());
        seen += 1;
    }
    assert!(seen >= 10, "{seen} figures");
}

/// PNG's chunk check (CRC-32), for the crafted header.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

// ---- the real binary in a pseudo-terminal -----------------------------

use crate::common::pty::{Opts, Term};

#[test]
fn the_binary_draws_a_picture_and_images_off_gives_its_words() {
    let dir = course(BODY);
    two_colours(&dir.path().join("img/bands.png"), 160, 64);
    let data = tempfile::tempdir().unwrap();
    let file = dir.path().join("01-pictures.md");
    let t = Term::lectern(&[file.as_path()], &Opts::new(data.path(), 60, 20));
    t.wait_for("q quit");
    // Decoded in the background: the half blocks follow the first frame.
    t.wait_until("the picture drawn", |s| s.matches('▀').count() == 80);
    assert!(t.contents().contains("Two bands"));
    t.press("q");

    let flag = [Path::new("--images"), Path::new("off"), file.as_path()];
    let t = Term::lectern(&flag, &Opts::new(data.path(), 60, 20));
    t.wait_for("q quit");
    t.wait_for("[image: A red band over a blue one]");
    t.wait_settled();
    assert!(!t.contents().contains('▀'), "{}", t.contents());
    assert!(!t.contents().contains("picture: "), "no room kept");
    t.press("q");
}

#[test]
fn o_opens_the_picture_on_screen_and_says_when_there_is_none() {
    let dir = course(BODY);
    two_colours(&dir.path().join("img/bands.png"), 160, 64);
    let mut r = Reader::folder(dir.path(), 60, 16);
    r.open(0);
    r.keys("O");
    let opened = r.effects().iter().rev().find_map(|e| match e {
        Effect::OpenPicture(p) => Some(p.clone()),
        _ => None,
    });
    assert!(opened.is_some_and(|p| p.ends_with("img/bands.png")));
    // Scrolled past it: nothing to open, and the footer says so.
    r.keys("G");
    let before = r.effects().len();
    r.keys("O");
    assert!(
        !r.effects()[before..]
            .iter()
            .any(|e| matches!(e, Effect::OpenPicture(_)))
    );
    assert!(
        r.s.notice
            .as_deref()
            .is_some_and(|n| n.contains("No picture on screen"))
    );
}
