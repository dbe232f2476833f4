//! `cargo bench`: load, layout at several widths, one frame, search.
//! Runs on the seed lesson when it is beside the checkout, else on the
//! largest built-in lesson, plus a generated 4 MB lesson for the "cost
//! follows the screen" budget, and a page of pictures drawn in half
//! blocks, kitty's placeholders and sixel (issue 27's key budget).

use criterion::{Criterion, criterion_group, criterion_main};
use lectern::layout;
use lectern::loader;
use lectern::state::{self, Action, Msg, Opened, State};
use lectern::theme::{Theme, ThemeKind};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::hint::black_box;

fn lesson_bytes() -> (String, Vec<u8>) {
    let seed = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/seeds/where-inference-time-goes.json"
    );
    if let Ok(b) = std::fs::read(seed) {
        return ("seed".into(), b);
    }
    let (name, text) = loader::BUILTIN.iter().max_by_key(|(_, t)| t.len()).unwrap();
    (name.to_string(), text.as_bytes().to_vec())
}

/// A lesson of about `target` bytes: many paragraphs and code blocks.
fn huge(target: usize) -> Vec<u8> {
    let mut blocks = Vec::new();
    let mut size = 0;
    let mut i = 0;
    while size < target {
        let p = format!("Paragraph {i} about throughput, latency and the cost of reading memory. ")
            .repeat(6);
        size += p.len() + 200;
        blocks.push(serde_json::json!({"t": "p", "runs": [{"text": p}]}));
        if i % 10 == 0 {
            blocks.push(serde_json::json!({"t": "h2", "id": format!("h{i}"), "runs": [{"text": format!("Section {i}")}]}));
            blocks.push(serde_json::json!({"t": "code", "lang": "rust", "text": "fn main() {\n    println!(\"hi\");\n}"}));
        }
        i += 1;
    }
    serde_json::to_vec(&serde_json::json!({
        "course": {"slug": "big", "title": "Big"},
        "lesson": {"slug": "huge", "title": "Huge", "position": 1},
        "reader": {"schema": 1, "blocks": blocks},
    }))
    .unwrap()
}

fn state_for(bytes: &[u8], w: u16, h: u16) -> State {
    let lesson = loader::load_bytes("bench", bytes).unwrap().lesson;
    opened(lesson, w, h, state::pictures::Drawing::default())
}

/// A state with `lesson` open as the course's one lesson, laid out whole.
fn opened(
    lesson: lectern::model::Lesson,
    w: u16,
    h: u16,
    drawing: state::pictures::Drawing,
) -> State {
    let mut course = loader::builtin_course();
    course.lessons.truncate(1);
    let mut s = State::new(vec![course], w, h);
    s.prefs.drawing = drawing;
    // Given as the course's lesson (a picture's file is found from the
    // lesson's own).
    let origin = s.course().lessons[0].origin.clone();
    let _ = state::receive(
        &mut s,
        Msg::Loaded(Box::new(Opened {
            index: 0,
            origin,
            lesson: Ok(lesson),
            read: None,
        })),
    );
    // The whole page, as the runtime lays it out once the first screen
    // is drawn.
    let _ = state::receive(&mut s, Msg::Drawn);
    assert!(!s.reader.partial());
    s
}

fn benches(c: &mut Criterion) {
    let (name, bytes) = lesson_bytes();
    c.bench_function(&format!("load {name}"), |b| {
        b.iter(|| loader::load_bytes("bench", black_box(&bytes)).unwrap())
    });
    let lesson = loader::load_bytes("bench", &bytes).unwrap().lesson;
    for w in [40u16, 80, 120] {
        c.bench_function(&format!("layout {name} width {w}"), |b| {
            b.iter(|| layout::page(black_box(&lesson), w, &layout::Highlights::default()))
        });
    }
    c.bench_function(&format!("render {name} plain"), |b| {
        let opts = lectern::render::Options {
            width: 100,
            theme: None,
            answers: false,
        };
        b.iter(|| lectern::render::lesson(black_box(&lesson), &opts))
    });

    let theme = Theme::new(ThemeKind::Dark);
    let big = huge(4_000_000);
    for (label, bytes) in [(name.as_str(), &bytes), ("4MB", &big)] {
        let mut s = state_for(bytes, 100, 30);
        let mut term = Terminal::new(TestBackend::new(100, 30)).unwrap();
        c.bench_function(&format!("key+frame {label}: page down"), |b| {
            b.iter(|| {
                let _ = state::update(&mut s, Action::PageDown);
                let g = s.geometry();
                if s.reader.top >= s.reader.max_top(&g) {
                    let _ = state::update(&mut s, Action::Top);
                }
                term.draw(|f| lectern::ui::draw(f, &s, &theme)).unwrap();
            })
        });
    }
    // The cursor moving over a check's options: only that check is laid
    // out again.
    let mut s = state_for(&bytes, 100, 30);
    let _ = state::update(&mut s, Action::JumpToCheck);
    assert_eq!(
        s.reader.focus,
        state::Focus::Check,
        "the check has the keys"
    );
    let mut term = Terminal::new(TestBackend::new(100, 30)).unwrap();
    let mut down = true;
    // Down and up in turn, so the cursor stays on the options.
    let mut step = |s: &mut state::State| {
        down = !down;
        let a = if down {
            Action::LineDown
        } else {
            Action::LineUp
        };
        let _ = state::update(s, a);
    };
    c.bench_function(&format!("key {name}: cursor on a check"), |b| {
        b.iter(|| step(&mut s))
    });
    c.bench_function(&format!("key+frame {name}: cursor on a check"), |b| {
        b.iter(|| {
            step(&mut s);
            term.draw(|f| lectern::ui::draw(f, &s, &theme)).unwrap();
        })
    });
    let mut s = state_for(&big, 100, 30);
    let _ = state::update(&mut s, Action::SearchStart);
    for ch in "memory".chars() {
        let _ = state::update(&mut s, Action::Input(ch));
    }
    let _ = state::update(&mut s, Action::Open);
    let mut term = Terminal::new(TestBackend::new(100, 30)).unwrap();
    c.bench_function("key+frame 4MB: search next", |b| {
        b.iter(|| {
            let _ = state::update(&mut s, Action::SearchNext);
            term.draw(|f| lectern::ui::draw(f, &s, &theme)).unwrap();
        })
    });
    c.bench_function("search 4MB: type one more letter", |b| {
        b.iter(|| {
            let _ = state::update(&mut s, Action::SearchStart);
            let _ = state::update(&mut s, Action::Input('m'));
        })
    });
}

/// A lesson of `n` pictures (800x600 PNGs made here) between paragraphs,
/// every picture drawn as `drawing` says (decoded before the clock), at
/// 100x30.
fn pictures_state(dir: &std::path::Path, n: usize, drawing: state::pictures::Drawing) -> State {
    let mut body = String::from("# Pictures\n\n");
    for i in 0..n {
        let img = image::RgbImage::from_fn(800, 600, |x, y| {
            image::Rgb([(x * (i as u32 + 1) % 256) as u8, (y % 256) as u8, 90])
        });
        let path = dir.join(format!("p{i}.png"));
        if !path.exists() {
            img.save(&path).unwrap();
        }
        body.push_str("A paragraph of text between the pictures, long enough to wrap once or twice at a hundred columns.\n\n");
        body.push_str(&format!("![Picture {i}](p{i}.png)\n\n"));
    }
    let file = dir.join("01-pictures.md");
    std::fs::write(&file, body).unwrap();
    let lesson = loader::load(&loader::Origin::File(file)).unwrap().lesson;
    let mut s = opened(lesson, 100, 30, drawing);
    let places = s.reader.doc().unwrap().pictures().to_vec();
    for place in &places {
        let key = state::pictures::key_of(place, drawing);
        let drawn = lectern::effects::draw_picture(&key).map(std::sync::Arc::new);
        let _ = state::receive(&mut s, Msg::Picture(key, drawn));
    }
    s
}

/// A line down (back to the top at the end) and its frame, on a page of
/// pictures, with what the terminal runtime works out to write with it
/// (kitty's sends and deletes, sixel's pictures and the screen's clearing).
fn picture_keys(c: &mut Criterion) {
    use lectern::model::{Graphics, Protocol};
    use state::pictures::Drawing;
    let dir = tempfile::tempdir().unwrap();
    // What the first frame of a lesson of pictures pays for them: their
    // files found and their headers read while it loads.
    let _ = pictures_state(dir.path(), 12, Drawing::Cells);
    let with = loader::Origin::File(dir.path().join("01-pictures.md"));
    let text = std::fs::read_to_string(dir.path().join("01-pictures.md")).unwrap();
    let without_file = dir.path().join("02-words.md");
    std::fs::write(&without_file, text.replace("![", "[")).unwrap();
    let without = loader::Origin::File(without_file);
    for (label, origin) in [("with", &with), ("without", &without)] {
        c.bench_function(
            &format!("load a lesson of 12 pictures ({label} them)"),
            |b| b.iter(|| loader::load(black_box(origin)).unwrap()),
        );
    }
    let cell = (10, 20);
    let theme = Theme::new(ThemeKind::Dark);
    for (label, drawing) in [
        ("half blocks", Drawing::Cells),
        (
            "kitty",
            Drawing::Graphics(Graphics {
                protocol: Protocol::Kitty,
                cell,
            }),
        ),
        (
            "sixel",
            Drawing::Graphics(Graphics {
                protocol: Protocol::Sixel,
                cell,
            }),
        ),
    ] {
        let mut s = pictures_state(dir.path(), 12, drawing);
        let mut term = Terminal::new(TestBackend::new(100, 30)).unwrap();
        let mut screen = lectern::tui::graphics::Screen::new(false);
        let mut out = Vec::new();
        c.bench_function(&format!("key+frame pictures ({label}): line down"), |b| {
            b.iter(|| {
                let _ = state::update(&mut s, Action::LineDown);
                let g = s.geometry();
                if s.reader.top >= s.reader.max_top(&g) {
                    let _ = state::update(&mut s, Action::Top);
                }
                let mut shown = None;
                term.draw(|f| shown = Some(lectern::ui::draw_shown(f, &s, &theme)))
                    .unwrap();
                out.clear();
                screen.plan(&shown.unwrap(), &mut out);
                black_box(&out);
            })
        });
    }
}

/// Merging one look's chunk of another machine's log (500 answers over 50
/// lessons) into a store, as the reader does on its loop (issue 29).
fn sync(c: &mut Criterion) {
    use lectern::model::Change;
    use lectern::store::Store;
    let (theirs, ours) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut other = Store::in_memory();
    other.sync_to(theirs.path());
    let at = chrono::Utc::now();
    for i in 0..500u32 {
        let lesson = format!("l{}", i % 50);
        let when = at + chrono::Duration::minutes(i64::from(i));
        other.apply(&Change::option_attempt(
            "bench",
            &lesson,
            i % 3,
            i % 3 == 0,
            false,
            when,
        ));
    }
    let logs = ours.path().join("lectern");
    std::fs::create_dir_all(&logs).unwrap();
    for entry in std::fs::read_dir(theirs.path().join("lectern")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), logs.join(entry.file_name())).unwrap();
    }
    c.bench_function("sync: merge a look of 500 answers", |b| {
        b.iter_batched(
            || {
                let mut store = Store::in_memory();
                store.sync_to(ours.path());
                let look = store.sync_plan().unwrap().look();
                (store, look)
            },
            |(mut store, look)| store.sync_merge(&look).unwrap(),
            criterion::BatchSize::LargeInput,
        )
    });
}

criterion_group! {
    name = pipeline;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(2));
    targets = benches, picture_keys, sync
}
criterion_main!(pipeline);
