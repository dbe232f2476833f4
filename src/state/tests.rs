//! Keys in, state out: actions (and real key events through the key
//! table) fed through `update`, with loading done here the way the
//! runtime does it, and assertions on the state and the effects.

use super::*;
use crate::app::{Incoming, Script, Session, TestHost};
use crate::effects::Runner;
use crate::keymap;
use crate::loader::{self, Origin};
use crate::model::{Anchor, Change, LessonKey, LessonStatus};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::Path;

/// A paragraph long enough to wrap over several lines at 40 columns.
fn filler(section: usize, p: usize) -> String {
    let mut s = format!("Paragraph {p} of section {section}. ");
    if p == 0 {
        s.push_str("A zebra crosses here. ");
    }
    s.push_str(
        "Reading goes on line after line so that the page is taller than the \
         screen and there is something to scroll through.",
    );
    s
}

fn check() -> Value {
    json!({
        "question": [{"text": "Which option is right?"}],
        "options": [
            {"text": [{"text": "Alpha"}], "correct": true, "tempting": null},
            {"text": [{"text": "Beta"}], "correct": false,
             "tempting": [{"text": "Beta tempts because it sounds sure."}]},
            {"text": [{"text": "Gamma"}], "correct": false,
             "tempting": [{"text": "Gamma tempts because it came first."}]}
        ],
        // Display order: Gamma (2), Alpha (0), Beta (1).
        "order": [2, 0, 1],
        "why": [{"text": "Alpha is right by construction."}]
    })
}

/// A lesson of the `demo` course with three sections of `paras`
/// paragraphs each, and optionally a check question.
fn lesson(slug: &str, title: &str, position: u32, module: u32, paras: usize, chk: bool) -> Value {
    let mut blocks = Vec::new();
    for h in 0..3 {
        blocks.push(json!({"t": "h2", "id": format!("s{h}"),
                           "runs": [{"text": format!("Section {h} of {title}")}]}));
        for p in 0..paras {
            blocks.push(json!({"t": "p", "runs": [{"text": filler(h, p)}]}));
        }
    }
    let mut v = json!({
        "course": {"slug": "demo", "title": "Demo course"},
        "lesson": {"slug": slug, "title": title, "position": position, "of": 3,
                   "minutes": position + 1},
        "body": {"format": "markdown", "text": "unused"},
        "reader": {
            "schema": 1,
            "title": title,
            "courseTitle": "Demo course",
            "module": {"index": module, "slug": format!("m{module}"),
                       "title": format!("Module {module} title")},
            "blocks": blocks
        }
    });
    if chk {
        v["reader"]["check"] = check();
    }
    v
}

fn write(dir: &Path, name: &str, v: &Value) {
    std::fs::write(dir.join(name), serde_json::to_string_pretty(v).unwrap()).unwrap();
}

/// A course folder whose file names do not sort in course order:
/// `a-third.json` is position 3, `b-first.json` 1, `c-second.json` 2.
fn demo_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "a-third.json",
        &lesson("third", "Third", 3, 2, 2, true),
    );
    write(
        dir.path(),
        "b-first.json",
        &lesson("first", "First", 1, 1, 4, true),
    );
    write(
        dir.path(),
        "c-second.json",
        &lesson("second", "Second", 2, 1, 1, false),
    );
    dir
}

/// The state driven through the runtime's own loop (see
/// [`crate::app::Session`]) on a `TestBackend`, its events scripted.
struct H {
    session: Session<TestHost>,
    _dirs: Vec<tempfile::TempDir>,
    /// Saved progress the store hands over when lessons open, by slug.
    saved: HashMap<String, crate::model::LessonProgress>,
}

impl std::ops::Deref for H {
    type Target = Session<TestHost>;
    fn deref(&self) -> &Session<TestHost> {
        &self.session
    }
}

impl std::ops::DerefMut for H {
    fn deref_mut(&mut self) -> &mut Session<TestHost> {
        &mut self.session
    }
}

fn key(course: &str, lesson: &str) -> LessonKey {
    LessonKey {
        course: course.into(),
        lesson: lesson.into(),
    }
}

impl H {
    fn course(dir: tempfile::TempDir, width: u16, height: u16) -> H {
        let lib = loader::open_paths(&[dir.path().to_path_buf()]).unwrap();
        assert_eq!(lib.courses.len(), 1);
        let mut h = H::with(lib.courses, width, height);
        h._dirs.push(dir);
        h
    }

    fn demo(width: u16, height: u16) -> H {
        let mut h = H::course(demo_dir(), width, height);
        h.open(0);
        h
    }

    fn builtin(width: u16, height: u16) -> H {
        H::with(vec![loader::builtin_course()], width, height)
    }

    fn with(courses: Vec<crate::model::Course>, width: u16, height: u16) -> H {
        let s = State::new(courses, width, height);
        let theme = crate::theme::Theme::new(crate::theme::ThemeKind::Dark);
        let mut session = Session::new(s, Runner::inline(), TestHost::new(width, height), theme);
        session.seen = Some(Vec::new());
        H {
            session,
            _dirs: Vec::new(),
            saved: HashMap::new(),
        }
    }

    /// Opens lesson `index` as the runtime does at start-up.
    fn open(&mut self, index: usize) -> Vec<Effect> {
        let mut fx = Vec::new();
        open_lesson(&mut self.session.s, index, &mut fx);
        self.settle(fx)
    }

    /// What was saved reaches the state's progress, as the store's
    /// reading of it would.
    fn hand_over_saved(&mut self) {
        for (slug, p) in &self.saved {
            self.session
                .s
                .library
                .progress
                .entry(slug.clone())
                .or_insert_with(|| p.clone());
        }
    }

    /// Carries out the effects through the effect runner until nothing
    /// is left, then runs the loop (a frame, the held work); returns every
    /// effect asked for, in order.
    fn settle(&mut self, fx: Vec<Effect>) -> Vec<Effect> {
        self.run(fx, Vec::new())
    }

    /// `fx` carried out, then the loop over `events` until they are all
    /// handled; every effect asked for on the way, in order.
    fn run(&mut self, fx: Vec<Effect>, events: Vec<Incoming>) -> Vec<Effect> {
        self.hand_over_saved();
        let from = self.session.seen.as_ref().map_or(0, Vec::len);
        self.session.apply(fx);
        let mut script = Script(events.into());
        self.session
            .run(&mut script, false)
            .expect("a TestBackend draws");
        if self.session.s.quit {
            self.session.finish();
        }
        self.session
            .seen
            .as_ref()
            .map_or(Vec::new(), |seen| seen[from..].to_vec())
    }

    /// Opens lesson `index` as far as the runtime goes before drawing:
    /// loaded, its page laid out to the first screen only (unless it opens
    /// at a place further down). The effects of loading it.
    fn open_to_first_frame(
        &mut self,
        index: usize,
        progress: crate::model::LessonProgress,
    ) -> Vec<Effect> {
        let mut fx = Vec::new();
        open_lesson(&mut self.s, index, &mut fx);
        let Some(Effect::Load { origin, lesson }) = fx.pop() else {
            panic!("no load: {fx:?}")
        };
        let slug = self.s.course().lessons[lesson].slug.clone();
        self.s.library.progress.insert(slug, progress);
        let opened = Opened {
            index: lesson,
            lesson: loader::load_lesson(&origin),
            read: None,
            origin,
        };
        receive(&mut self.s, Msg::Loaded(Box::new(opened)))
    }

    fn act(&mut self, a: Action) -> Vec<Effect> {
        self.run(Vec::new(), vec![Incoming::Act(a)])
    }

    fn msg(&mut self, m: Msg) -> Vec<Effect> {
        let reply = crate::effects::Reply::Msg(m);
        self.run(Vec::new(), vec![Incoming::Reply(reply)])
    }

    /// Real keys, each an event of the loop. `\n` is Enter, `\x1b` Esc,
    /// `\t` Tab.
    fn keys(&mut self, keys: &str) -> Vec<Effect> {
        let key = |c| Incoming::Term(ratatui::crossterm::event::Event::Key(keymap::typed(c)));
        self.run(Vec::new(), keys.chars().map(key).collect())
    }

    fn doc(&self) -> &Doc {
        self.s.reader.doc().expect("a lesson is open")
    }

    fn title(&self) -> &str {
        &self.doc().lesson.meta.title
    }

    /// Text of the screen's page rows.
    fn visible(&self) -> Vec<String> {
        let d = self.doc();
        let rows = self.s.geometry().rows();
        (self.s.reader.top..self.s.reader.top + rows)
            .filter_map(|i| d.line(i).map(|l| l.text()))
            .collect()
    }

    fn line_index(&self, needle: &str) -> usize {
        let d = self.doc();
        (0..d.total())
            .find(|&i| d.line(i).is_some_and(|l| l.text().contains(needle)))
            .unwrap_or_else(|| panic!("no line contains {needle:?}"))
    }
}

fn file_name(origin: &Origin) -> String {
    origin
        .path()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn loads(fx: &[Effect]) -> Vec<String> {
    fx.iter()
        .filter_map(|e| match e {
            Effect::Load { origin, .. } => Some(file_name(origin)),
            _ => None,
        })
        .collect()
}

// ---- course order ------------------------------------------------------

#[test]
fn the_course_is_in_position_order_not_file_name_order() {
    let h = H::course(demo_dir(), 80, 24);
    let slugs: Vec<&str> =
        h.s.course()
            .lessons
            .iter()
            .map(|l| l.slug.as_str())
            .collect();
    assert_eq!(slugs, ["first", "second", "third"]);
}

#[test]
fn next_and_previous_lesson_follow_positions() {
    let mut h = H::demo(80, 24);
    assert_eq!(h.title(), "First");
    let fx = h.act(Action::NextLesson);
    assert_eq!(loads(&fx), ["c-second.json"]);
    assert!(fx.contains(&Effect::Write(Change::LastLesson {
        key: key("demo", "second")
    })));
    assert_eq!((h.s.reader.lesson, h.title()), (1, "Second"));
    assert_eq!(loads(&h.act(Action::NextLesson)), ["a-third.json"]);
    assert_eq!((h.s.reader.lesson, h.title()), (2, "Third"));

    // Past the end: a notice, nothing loaded, still on the last lesson.
    let fx = h.act(Action::NextLesson);
    assert!(loads(&fx).is_empty());
    assert_eq!(h.s.reader.lesson, 2);
    assert!(h.s.notice.as_deref().unwrap().contains("last lesson"));

    assert_eq!(loads(&h.keys("[")), ["c-second.json"]);
    assert_eq!(loads(&h.keys("[")), ["b-first.json"]);
    assert!(loads(&h.keys("[")).is_empty());
    assert!(h.s.notice.as_deref().unwrap().contains("first lesson"));
    assert_eq!(h.title(), "First");
}

#[test]
fn leaving_a_lesson_saves_its_position() {
    let mut h = H::demo(80, 12);
    h.act(Action::NextHeading);
    let anchor = h.s.reader.anchor();
    assert_ne!(anchor, Anchor::default());
    let fx = h.act(Action::NextLesson);
    assert_eq!(
        fx[0],
        Effect::Write(Change::Position {
            key: key("demo", "first"),
            anchor
        })
    );
    // The new lesson starts at its top.
    assert_eq!(h.s.reader.top, 0);
}

#[test]
fn a_saved_position_is_restored_on_open() {
    let mut h = H::course(demo_dir(), 60, 12);
    h.saved.insert(
        "first".into(),
        crate::model::LessonProgress {
            anchor: Some(Anchor { block: 5, line: 0 }),
            ..Default::default()
        },
    );
    h.open(0);
    let start = h.doc().page.blocks[5];
    assert_eq!(
        h.s.reader.top,
        start.min(h.s.reader.max_top(&h.s.geometry()))
    );
    assert_eq!(h.s.reader.anchor().block, 5);
}

#[test]
fn progress_read_after_the_first_frame_restores_place_and_answer() {
    // A named lesson is drawn before the store is read.
    let mut h = H::course(demo_dir(), 60, 12);
    h.open(0);
    assert_eq!(h.s.reader.top, 0);
    let mut progress = HashMap::new();
    progress.insert(
        "first".to_string(),
        crate::model::LessonProgress {
            anchor: Some(Anchor { block: 5, line: 0 }),
            attempts: 1,
            last_choice: Some(1),
            first_try_correct: Some(false),
            ..Default::default()
        },
    );
    progress.insert(
        "second".to_string(),
        crate::model::LessonProgress {
            read: true,
            ..Default::default()
        },
    );
    let fx = receive(&mut h.s, Msg::ProgressRead(progress));
    assert!(fx.is_empty(), "nothing to save: {fx:?}");
    assert_eq!(h.s.reader.anchor().block, 5);
    assert_eq!(h.s.reader.check().unwrap().chosen, Some(1));
    assert_eq!(h.s.reader.check().unwrap().attempts, 1);
    assert!(h.s.library.progress["second"].read);
}

#[test]
fn progress_read_keeps_a_lesson_read_this_session() {
    // The whole lesson fits: it is read as soon as it is drawn, before the
    // store's (older) progress arrives.
    let mut h = H::course(demo_dir(), 80, 60);
    h.open(1);
    assert!(h.s.library.progress["second"].read);
    receive(&mut h.s, Msg::ProgressRead(HashMap::new()));
    assert!(h.s.library.progress["second"].read);
}

#[test]
fn a_late_load_of_another_lesson_is_ignored() {
    let mut h = H::demo(80, 24);
    let other = loader::load(&h.s.course().lessons[2].origin)
        .unwrap()
        .lesson;
    h.msg(Msg::Loaded(Box::new(Opened {
        index: 2,
        origin: h.s.course().lessons[2].origin.clone(),
        lesson: Ok(other),
        read: None,
    })));
    assert_eq!((h.s.reader.lesson, h.title()), (0, "First"));
}

// ---- scrolling ---------------------------------------------------------

#[test]
fn lines_and_pages_scroll_and_clamp() {
    let mut h = H::demo(60, 12);
    let rows = h.s.geometry().rows();
    assert_eq!(rows, 10);
    assert!(
        h.s.reader.max_top(&h.s.geometry()) > 3 * rows,
        "the lesson is several pages long"
    );

    h.keys("k");
    assert_eq!(h.s.reader.top, 0, "no scrolling above the top");
    h.keys("jjj");
    assert_eq!(h.s.reader.top, 3);
    h.keys(" ");
    assert_eq!(
        h.s.reader.top,
        3 + rows - 1,
        "a page keeps one line of context"
    );
    h.keys("b");
    assert_eq!(h.s.reader.top, 3);

    for _ in 0..100 {
        h.act(Action::PageDown);
    }
    assert_eq!(
        h.s.reader.top,
        h.s.reader.max_top(&h.s.geometry()),
        "PageDown stops at the end"
    );
    assert_eq!(
        h.s.reader.max_top(&h.s.geometry()),
        h.s.reader.total() - rows
    );
    h.act(Action::LineDown);
    h.act(Action::Scroll(7));
    assert_eq!(h.s.reader.top, h.s.reader.max_top(&h.s.geometry()));
    h.act(Action::Scroll(-3));
    assert_eq!(h.s.reader.top, h.s.reader.max_top(&h.s.geometry()) - 3);
    h.keys("g");
    assert_eq!(h.s.reader.top, 0);
    h.act(Action::Scroll(-3));
    assert_eq!(h.s.reader.top, 0);
}

#[test]
fn bottom_shows_the_check_and_marks_the_lesson_read() {
    let mut h = H::demo(60, 12);
    assert!(!h.s.reader.marked_read);
    let fx = h.keys("G");
    assert_eq!(h.s.reader.top, h.s.reader.max_top(&h.s.geometry()));
    assert_eq!(
        h.s.screen(),
        Screen::Reading,
        "G scrolls; it does not answer"
    );
    let visible = h.visible().join("\n");
    assert!(visible.contains("Alpha"), "{visible}");
    assert!(visible.contains("Beta"), "{visible}");
    assert_eq!(
        fx,
        [Effect::Write(Change::Read {
            key: key("demo", "first")
        })]
    );
    assert!(h.s.library.progress["first"].read);
    // Only once per opening.
    h.keys("kG");
    assert!(h.keys("G").is_empty());
    assert_eq!(h.s.reader.read_percent(&h.s.geometry()), 100);
}

#[test]
fn the_check_title_is_on_screen_after_c() {
    let mut h = H::demo(60, 12);
    h.keys("c");
    assert_eq!(h.s.screen(), Screen::Check);
    assert_eq!(
        h.s.reader.check().unwrap().cursor,
        None,
        "nothing is selected yet"
    );
    let check_start = h.doc().check_start(0).unwrap();
    assert_eq!(
        h.s.reader.top,
        check_start.min(h.s.reader.max_top(&h.s.geometry()))
    );
    assert!(h.visible().join("\n").contains(crate::layout::CHECK_TITLE));
    h.keys("\x1b");
    assert_eq!(h.s.screen(), Screen::Reading);
    assert_eq!(h.s.reader.check().unwrap().cursor, None);
}

#[test]
fn headings_jump_forward_and_back_then_to_the_check() {
    let mut h = H::demo(80, 10);
    let headings = h.doc().page.headings.clone();
    assert_eq!(headings.len(), 3);
    h.keys("}");
    assert_eq!(h.s.reader.top, headings[0]);
    assert!(h.visible()[0].starts_with("Section 0"));
    h.keys("}");
    assert_eq!(h.s.reader.top, headings[1]);
    h.keys("{");
    assert_eq!(h.s.reader.top, headings[0]);
    h.keys("{");
    assert_eq!(h.s.reader.top, 0);
    h.keys("}}}}");
    assert_eq!(
        h.s.reader.top,
        h.doc()
            .check_start(0)
            .unwrap()
            .min(h.s.reader.max_top(&h.s.geometry()))
    );
}

#[test]
fn resize_keeps_the_same_block_at_the_top() {
    let mut h = H::demo(90, 14);
    h.keys("}}");
    h.keys("jj");
    let before = h.s.reader.anchor();
    let top_text = h.visible()[0].clone();
    assert_eq!(before.line, 2);
    assert!(top_text.starts_with("Paragraph 0 of section 1") || before.line > 0);

    h.act(Action::Resize(40, 14));
    assert_eq!(h.s.reader.anchor().block, before.block);
    assert_eq!(h.doc().page.width, 38, "40 columns less a margin of 1");
    h.act(Action::Resize(30, 9));
    assert_eq!(h.s.reader.anchor().block, before.block);
    h.act(Action::Resize(90, 14));
    assert_eq!(
        h.s.reader.anchor(),
        before,
        "back to the first size, same place"
    );
    assert_eq!(h.visible()[0], top_text);

    // A heading at the top stays at the top.
    h.keys("}");
    let heading = h.s.reader.anchor();
    assert_eq!(heading.line, 0);
    h.act(Action::Resize(45, 20));
    assert_eq!(h.s.reader.anchor(), heading);
    assert!(h.visible()[0].starts_with("Section 2"));
}

#[test]
fn resize_near_the_end_stays_clamped() {
    let mut h = H::demo(40, 12);
    h.keys("G");
    h.act(Action::Resize(120, 40));
    assert!(h.s.reader.top <= h.s.reader.max_top(&h.s.geometry()));
    h.act(Action::Resize(25, 6));
    assert!(h.s.reader.top <= h.s.reader.max_top(&h.s.geometry()));
}

#[test]
fn a_tiny_terminal_is_too_small_but_keeps_working() {
    let mut h = H::demo(80, 24);
    h.act(Action::Resize(10, 3));
    assert!(h.s.size.too_small());
    h.keys("jj G g ]");
    assert_eq!(h.title(), "Second");
    h.act(Action::Resize(20, 8));
    assert!(!h.s.size.too_small());
    assert_eq!(h.s.geometry().rows(), 6);
}

// ---- search ------------------------------------------------------------

#[test]
fn search_finds_every_match_and_n_wraps_around() {
    let mut h = H::demo(60, 10);
    h.keys("/zeb");
    assert_eq!(h.s.screen(), Screen::Search);
    assert_eq!(h.s.reader.search.query, "zeb");
    assert_eq!(h.s.reader.search.hits.len(), 3, "one per section");
    h.keys("ra\n");
    assert_eq!(h.s.screen(), Screen::Reading);
    assert_eq!(h.s.reader.search.query, "zebra");
    let hit_lines: Vec<usize> = h.s.reader.search.hits.iter().map(|h| h.line).collect();
    assert_eq!(h.s.reader.search.current, Some(0));
    // The first match is on screen.
    assert!(
        h.s.reader.top <= hit_lines[0] && hit_lines[0] < h.s.reader.top + h.s.geometry().rows()
    );

    h.keys("n");
    assert_eq!(h.s.reader.search.current, Some(1));
    assert!(
        h.s.reader.top <= hit_lines[1] && hit_lines[1] < h.s.reader.top + h.s.geometry().rows()
    );
    h.keys("n");
    assert_eq!(h.s.reader.search.current, Some(2));
    h.keys("n");
    assert_eq!(
        h.s.reader.search.current,
        Some(0),
        "n wraps to the first match"
    );
    assert!(
        h.s.reader.top <= hit_lines[0] && hit_lines[0] < h.s.reader.top + h.s.geometry().rows()
    );
    h.keys("N");
    assert_eq!(
        h.s.reader.search.current,
        Some(2),
        "N wraps to the last match"
    );
    assert!(
        h.s.reader.top <= hit_lines[2] && hit_lines[2] < h.s.reader.top + h.s.geometry().rows()
    );

    // Esc in reading mode clears the search.
    h.keys("\x1b");
    assert!(!h.s.reader.search.active());
    assert!(h.s.reader.search.hits.is_empty());
}

#[test]
fn search_is_smart_case_and_reports_no_match() {
    let mut h = H::demo(60, 10);
    h.keys("/Zebra\n");
    assert!(h.s.reader.search.hits.is_empty());
    assert_eq!(h.s.notice.as_deref(), Some("Pattern not found: Zebra"));
    // A search that found nothing is dropped, and the page stays put.
    assert!(!h.s.reader.search.active());
    h.keys("n");
    assert!(h.s.notice.as_deref().unwrap().starts_with("No search yet"));
    h.keys("/SECTION");
    assert!(h.s.reader.search.hits.is_empty());
    h.keys("\x1b");
    assert_eq!(h.s.screen(), Screen::Reading);
    assert!(
        !h.s.reader.search.active(),
        "Esc in the prompt clears the search"
    );
    h.act(Action::SearchNext);
    assert!(h.s.notice.as_deref().unwrap().starts_with("No search yet"));
}

#[test]
fn typing_in_the_prompt_is_not_a_command() {
    let mut h = H::demo(60, 10);
    h.keys("/q");
    assert!(!h.s.quit);
    h.keys("\x7f\x7fj");
    assert_eq!(h.s.reader.search.query, "j");
    assert_eq!(h.s.reader.top, 0);
}

#[test]
fn search_matches_follow_a_resize() {
    let mut h = H::demo(80, 10);
    h.keys("/zebra\n");
    h.act(Action::Resize(30, 10));
    assert_eq!(h.s.reader.search.hits.len(), 3);
    for &reader::Match {
        line,
        start: s,
        end: e,
    } in &h.s.reader.search.hits
    {
        let text = h.doc().line(line).unwrap().text();
        assert_eq!(&text[s..e], "zebra");
    }
}

#[test]
fn a_new_lesson_starts_without_the_old_search() {
    let mut h = H::demo(80, 10);
    h.keys("/zebra\n]");
    assert_eq!(h.title(), "Second");
    assert!(!h.s.reader.search.active());
}

// ---- overlays and modes ------------------------------------------------

#[test]
fn help_opens_and_esc_returns_to_the_mode_before() {
    let mut h = H::demo(80, 24);
    h.keys("?");
    assert_eq!(h.s.screen(), Screen::Help);
    h.keys("j");
    assert_eq!(h.s.reader.top, 0, "keys of the page do nothing under help");
    h.keys("\x1b");
    assert_eq!(h.s.screen(), Screen::Reading);

    h.keys("c?");
    assert_eq!(h.s.screen(), Screen::Help);
    h.keys("\x1b");
    assert_eq!(h.s.screen(), Screen::Check);
    h.keys("q");
    assert!(h.s.quit);
}

#[test]
fn quit_saves_the_position() {
    let mut h = H::demo(80, 10);
    h.keys("}");
    let anchor = h.s.reader.anchor();
    let fx = h.keys("q");
    assert!(h.s.quit);
    assert_eq!(
        fx[0],
        Effect::Write(Change::Position {
            key: key("demo", "first"),
            anchor
        })
    );
    // The place as text too: the words on top.
    let [_, Effect::Write(Change::Place { target, .. })] = &fx[..] else {
        panic!("a place as text: {fx:?}");
    };
    assert_eq!(target.exact, "Section 0 of First");
}

#[test]
fn the_contents_overlay_opens_a_lesson() {
    let mut h = H::demo(80, 24);
    h.keys("\t");
    assert_eq!(h.s.screen(), Screen::Contents);
    assert!(h.s.contents.open);
    assert!(!h.s.geometry().toc_side, "80 columns: an overlay");
    assert_eq!(h.s.contents.cursor, 0);
    // Past the open lesson's three headings, then the other lessons.
    h.keys("jjjjjjjj");
    assert_eq!(h.s.contents.cursor, 2, "clamped to the last lesson");
    h.keys("k");
    let fx = h.keys("\n");
    assert_eq!(loads(&fx), ["c-second.json"]);
    assert_eq!(h.s.screen(), Screen::Reading);
    assert!(!h.s.contents.open, "the overlay closes");
    assert_eq!(h.title(), "Second");
}

#[test]
fn the_contents_stay_beside_a_wide_page() {
    let mut h = H::demo(140, 30);
    let full = h.s.geometry().text_width;
    h.keys("\t");
    let g = h.s.geometry();
    assert!(g.toc_side);
    assert_eq!(g.page_x, TOC_WIDTH + 2);
    assert!(g.text_width < full || full == MAX_TEXT_WIDTH);
    assert_eq!(h.doc().page.width, g.text_width);
    h.keys("jjjj\n");
    assert_eq!(h.title(), "Second");
    assert!(h.s.contents.open, "beside the page the contents stay");
    assert_eq!(h.s.screen(), Screen::Reading);
    h.keys("\t");
    assert_eq!(h.s.screen(), Screen::Contents);
    h.keys("\t");
    assert!(!h.s.contents.open);
}

#[test]
fn the_contents_list_every_module() {
    let h = H::builtin(80, 24);
    let rows = super::contents_rows(h.s.course());
    let modules = rows
        .iter()
        .filter(|r| matches!(r, super::TocRow::Module(_)))
        .count();
    assert_eq!(modules, 4);
    assert_eq!(rows.len(), 4 + h.s.course().lessons.len());
}

/// `s` from the contents overlay, then Esc: the overlay should not be left
/// on screen over a page in reading mode.
#[test]
fn course_search_from_the_contents_overlay_closes_it() {
    let mut h = H::demo(80, 24);
    h.keys("\ts\x1b");
    assert_eq!(h.s.screen(), Screen::Reading);
    assert!(!h.s.contents.open, "overlay left open in reading mode");
}

// ---- the check question ------------------------------------------------

#[test]
fn answering_records_the_file_order_index() {
    let mut h = H::demo(60, 16);
    // Display position 1 is Gamma, option 2 in the file: wrong.
    let fx = h.keys("c1");
    let attempts: Vec<&Effect> = fx
        .iter()
        .filter(|e| matches!(e, Effect::Write(Change::Attempt { .. })))
        .collect();
    assert_eq!(
        attempts,
        [&Effect::Write(Change::Attempt {
            key: key("demo", "first"),
            check: String::new(),
            option: 2,
            answer: None,
            correct: false,
            review: false,
            revealed: false,
            drill: false,
            at: None,
        })]
    );
    // Answered: the focus is back on the page, digits are counts.
    assert_eq!(h.s.screen(), Screen::Reading);
    assert_eq!(h.s.reader.check().unwrap().chosen, Some(2));
    assert_eq!(h.s.reader.check().unwrap().cursor, None);
    assert_eq!(h.s.reader.check().unwrap().first_try, Some(false));
    assert!(h.s.notice.as_deref().unwrap().contains("Not quite"));
    let check = h.doc().checks[0]
        .layout
        .lines
        .iter()
        .map(|l| l.text())
        .collect::<Vec<_>>();
    let check = check.join("\n");
    assert!(check.contains("Wrong: your answer"), "{check}");
    assert!(check.contains("Gamma tempts"), "{check}");
    assert!(!check.contains("Beta tempts"), "{check}");
    // Once answered, the explanation is shown (mdbook-quiz's rule).
    assert!(check.contains("Alpha is right"), "{check}");
    // The check is on screen.
    let visible = h.visible().join("\n");
    assert!(visible.contains("Why it tempts"), "{visible}");

    let p = &h.s.library.progress["first"];
    assert_eq!(
        (p.attempts, p.first_try_correct, p.last_choice),
        (1, Some(false), Some(2))
    );
}

#[test]
fn retry_keeps_the_first_try_as_the_score() {
    let mut h = H::demo(60, 16);
    h.keys("c3");
    assert_eq!(h.s.reader.check().unwrap().chosen, Some(1));
    h.keys("r");
    assert_eq!(h.s.reader.check().unwrap().chosen, None);
    assert_eq!(h.s.reader.check().unwrap().first_try, Some(false));
    assert_eq!(h.s.reader.check().unwrap().attempts, 1);
    assert!(h.s.notice.as_deref().unwrap().starts_with("Try again"));

    // Display position 2 is Alpha, option 0: right.
    let fx = h.keys("2");
    assert_eq!(
        fx,
        [Effect::Write(Change::Attempt {
            key: key("demo", "first"),
            check: String::new(),
            option: 0,
            answer: None,
            correct: true,
            review: false,
            revealed: false,
            drill: false,
            at: None,
        })]
    );
    assert_eq!(
        h.s.reader.check().unwrap().first_try,
        Some(false),
        "the first try still counts"
    );
    assert_eq!(h.s.reader.check().unwrap().attempts, 2);
    assert_eq!(h.s.library.progress["first"].first_try_correct, Some(false));
    assert_eq!(h.s.library.progress["first"].last_correct, Some(true));
    let check = h.doc().checks[0]
        .layout
        .lines
        .iter()
        .map(|l| l.text())
        .collect::<Vec<_>>();
    let check = check.join("\n");
    assert!(check.contains("Right: your answer"), "{check}");
    assert!(check.contains("Why: Alpha is right"), "{check}");
    assert!(check.contains("First try (your score): ✘ wrong · 2 attempts"));
}

#[test]
fn arrows_and_enter_answer_the_selected_option() {
    let mut h = H::demo(60, 16);
    h.keys("c");
    h.keys("jjjj");
    assert_eq!(
        h.s.reader.check().unwrap().cursor,
        Some(2),
        "clamped to the last option"
    );
    h.keys("k");
    let fx = h.keys("\n");
    assert!(matches!(
        fx[..],
        [Effect::Write(Change::Attempt {
            option: 0,
            correct: true,
            ..
        })]
    ));
}

#[test]
fn reveal_shows_every_explanation_without_recording() {
    let mut h = H::demo(60, 16);
    let fx = h.keys("a");
    assert!(
        fx.iter()
            .all(|e| !matches!(e, Effect::Write(Change::Attempt { .. })))
    );
    assert_eq!(h.s.screen(), Screen::Check);
    let check = h.doc().checks[0]
        .layout
        .lines
        .iter()
        .map(|l| l.text())
        .collect::<Vec<_>>();
    let check = check.join("\n");
    assert!(check.contains("The right answer"), "{check}");
    assert!(check.contains("Beta tempts") && check.contains("Gamma tempts"));
    assert_eq!(h.s.reader.check().unwrap().first_try, None);
}

#[test]
fn an_option_that_does_not_exist_is_refused() {
    let mut h = H::demo(60, 16);
    let fx = h.keys("c7");
    assert!(
        !fx.iter()
            .any(|e| matches!(e, Effect::Write(Change::Attempt { .. })))
    );
    assert_eq!(
        h.s.notice.as_deref(),
        Some("There is no option 7: choose 1 to 3.")
    );
    assert_eq!(h.s.reader.check().unwrap().attempts, 0);
}

#[test]
fn a_lesson_without_a_check_says_so() {
    let mut h = H::demo(60, 16);
    h.keys("]");
    assert_eq!(h.title(), "Second");
    // A digit on the page is a count, never an answer.
    assert!(h.keys("1").is_empty());
    assert_eq!(h.s.reader.count, Some(1));
    h.keys("c");
    assert_eq!(h.s.screen(), Screen::Reading);
    assert_eq!(h.s.reader.count, None);
    assert!(h.act(Action::Answer(0)).is_empty());
    assert_eq!(
        h.s.notice.as_deref(),
        Some("This lesson has no check question.")
    );
}

#[test]
fn an_earlier_answer_is_shown_when_the_lesson_opens() {
    let mut h = H::course(demo_dir(), 60, 16);
    h.saved.insert(
        "first".into(),
        crate::model::LessonProgress {
            attempts: 1,
            first_try_correct: Some(false),
            last_choice: Some(1),
            last_correct: Some(false),
            ..Default::default()
        },
    );
    h.open(0);
    assert_eq!(h.s.reader.check().unwrap().chosen, Some(1));
    assert_eq!(h.s.reader.check().unwrap().first_try, Some(false));
    h.keys("c");
    let text = h.visible().join("\n");
    assert!(text.contains("Wrong: your answer"), "{text}");
    assert!(text.contains("Beta tempts"), "{text}");
}

#[test]
fn leaving_the_check_for_another_lesson_leaves_quiz_mode() {
    let mut h = H::demo(60, 16);
    h.keys("1]");
    assert_eq!(h.title(), "Second");
    assert_eq!(h.s.screen(), Screen::Reading);
    assert!(
        h.doc()
            .states()
            .iter()
            .all(|c| *c == crate::model::CheckState::default())
    );
}

#[test]
fn a_click_selects_and_a_second_click_answers() {
    let mut h = H::demo(60, 30);
    h.keys("c");
    let beta = h.line_index("3. Beta");
    let row = (beta - h.s.reader.top) as u16;
    let fx = h.act(Action::PageClick(row));
    assert!(fx.is_empty(), "a first click only selects: {fx:?}");
    assert_eq!(h.s.screen(), Screen::Check);
    assert_eq!(h.s.reader.check().unwrap().cursor, Some(2));
    let fx = h.act(Action::PageClick(row));
    assert!(matches!(
        fx[..],
        [Effect::Write(Change::Attempt {
            option: 1,
            correct: false,
            ..
        })]
    ));
}

// ---- broken lessons ----------------------------------------------------

#[test]
fn a_broken_lesson_is_listed_last_and_says_why() {
    let dir = demo_dir();
    std::fs::write(dir.path().join("0-broken.json"), "{\"course\": {\"slug\": ").unwrap();
    let mut h = H::course(dir, 80, 24);
    h.open(0);
    let lessons = &h.s.course().lessons;
    assert_eq!(lessons.len(), 4);
    assert_eq!(lessons[3].slug, "0-broken");
    assert!(matches!(lessons[3].status, LessonStatus::Broken(_)));

    h.keys("]]");
    assert_eq!(h.title(), "Third");
    let fx = h.keys("]");
    assert!(loads(&fx).is_empty(), "nothing to load: it is known broken");
    assert_eq!(h.s.reader.lesson, 3);
    assert!(h.s.reader.doc().is_none());
    let why = h.s.reader.page.broken().unwrap().to_string();
    assert!(why.contains("0-broken.json:1:"), "{why}");
    assert!(why.contains("truncated JSON"), "{why}");
    // Keys still work, and [ goes back.
    h.keys("jG /x\x1b");
    assert_eq!(loads(&h.keys("[")), ["a-third.json"]);
    assert!(h.s.reader.page.broken().is_none());
    assert_eq!(h.title(), "Third");
}

#[test]
fn a_lesson_broken_when_opened_says_why() {
    let mut h = H::demo(80, 24);
    // The file breaks after the folder was scanned.
    let path = h.s.course().lessons[1].origin.path().unwrap().to_path_buf();
    std::fs::write(&path, "[]").unwrap();
    h.keys("]");
    assert!(h.s.reader.doc().is_none());
    assert!(!matches!(h.s.reader.page, crate::state::Page::Loading));
    let why = h.s.reader.page.broken().unwrap().to_string();
    assert!(why.contains("expected a JSON object"), "{why}");
    h.keys("]");
    assert_eq!(h.title(), "Third");
    assert!(h.s.reader.page.broken().is_none());
}

#[test]
fn opening_a_broken_lesson_from_the_check_leaves_quiz_mode() {
    let dir = demo_dir();
    std::fs::write(dir.path().join("0-broken.json"), "nope").unwrap();
    let mut h = H::course(dir, 80, 24);
    h.open(2);
    h.keys("c");
    assert_eq!(h.s.screen(), Screen::Check);
    h.keys("]");
    assert!(h.s.reader.doc().is_none());
    assert_eq!(
        h.s.screen(),
        Screen::Reading,
        "quiz mode without a lesson or a check"
    );
}

// ---- the built-in course ----------------------------------------------

#[test]
fn the_builtin_course_opens_at_its_first_lesson() {
    let mut h = H::builtin(100, 30);
    h.open(0);
    assert_eq!(h.title(), "Getting started");
    assert_eq!(h.s.course().lessons.len(), loader::BUILTIN.len());
    assert!(h.visible()[0].contains("Getting started"));
    h.keys("]");
    assert_eq!(h.title(), "Moving around a page");
    h.keys("G");
    assert!(h.visible().join("\n").contains(crate::layout::CHECK_TITLE));
}

#[test]
fn every_builtin_lesson_opens_and_scrolls_to_its_end() {
    let mut h = H::builtin(70, 20);
    h.open(0);
    for i in 0..h.s.course().lessons.len() {
        assert_eq!(h.s.reader.lesson, i);
        assert!(
            h.s.reader.page.broken().is_none(),
            "{:?}",
            h.s.reader.page.broken()
        );
        h.keys("G");
        assert_eq!(h.s.reader.top, h.s.reader.max_top(&h.s.geometry()));
        h.keys("]");
    }
}

// ---- found while writing these tests (see the ignore reasons) ----------

/// Every search hit still covers the query's text.
fn hits_match(h: &H) -> Result<(), String> {
    let q = h.s.reader.search.query.to_lowercase();
    for &reader::Match {
        line,
        start: s,
        end: e,
    } in &h.s.reader.search.hits
    {
        let text = h.doc().line(line).map(|l| l.text()).unwrap_or_default();
        match text.get(s..e) {
            Some(t) if t.to_lowercase() == q => {}
            got => return Err(format!("hit {line}:{s}..{e} is {got:?} in {text:?}")),
        }
    }
    Ok(())
}

#[test]
fn search_hits_stay_on_their_text_while_reading() {
    let mut h = H::demo(50, 12);
    h.keys("/section\n");
    assert!(h.s.reader.search.hits.len() >= 3);
    hits_match(&h).unwrap();
    h.act(Action::Resize(33, 12));
    hits_match(&h).unwrap();
}

/// Answering re-lays out the check but not the search over it: hits on
/// check lines then point at other text (or inside a multi-byte `✘`).
#[test]
fn search_hits_follow_the_check_when_it_changes() {
    let mut h = H::demo(60, 30);
    h.keys("/beta\n");
    assert_eq!(h.s.reader.search.hits.len(), 1);
    h.keys("1");
    hits_match(&h).unwrap();
    h.keys("a");
    hits_match(&h).unwrap();
}

/// `}` past the last heading goes to the check; when the check is already
/// above the top of the screen it should not scroll back up.
#[test]
fn next_heading_never_scrolls_up() {
    let mut h = H::demo(40, 7);
    h.keys("G");
    let top = h.s.reader.top;
    assert!(
        top > h.doc().check_start(0).unwrap(),
        "the check is taller than the screen"
    );
    h.keys("}");
    assert!(
        h.s.reader.top >= top,
        "}} moved up from {top} to {}",
        h.s.reader.top
    );
}

/// Contents beside a wide page, then the terminal narrows: the contents
/// become an overlay over the page while the mode is still Reading.
#[test]
fn narrowing_with_the_contents_beside_does_not_leave_an_overlay() {
    let mut h = H::demo(140, 30);
    h.keys("\t\x1b");
    assert!(h.s.contents.open && h.s.screen() == Screen::Reading);
    h.act(Action::Resize(80, 30));
    assert!(
        !h.s.contents.open || h.s.screen() == Screen::Contents,
        "an overlay over the page in reading mode"
    );
}

/// A search of one lesson should not follow the reader into a broken one.
#[test]
fn a_broken_lesson_does_not_keep_the_old_search() {
    let dir = demo_dir();
    std::fs::write(dir.path().join("0-broken.json"), "nope").unwrap();
    let mut h = H::course(dir, 80, 24);
    h.open(2);
    h.keys("/third\n");
    assert!(h.s.reader.search.active());
    h.keys("]");
    assert!(h.s.reader.doc().is_none());
    assert!(
        !h.s.reader.search.active(),
        "footer still shows [/third: …]"
    );
}

// ---- spaced review inside the reader -----------------------------------

/// Cards of the open course, as the store would find them due.
fn cards(h: &H, lessons: Vec<&str>) -> crate::model::DueCards {
    let course = &h.s.course().slug;
    crate::model::DueCards {
        cards: lessons
            .into_iter()
            .map(|l| (course.clone(), l.to_string(), None))
            .collect(),
        ..Default::default()
    }
}

fn review_pos_of(h: &H, index: usize) -> usize {
    let r = h.s.review.as_ref().unwrap();
    r.order.iter().position(|&i| i == index).unwrap()
}

#[test]
fn a_review_records_review_attempts_by_file_index() {
    let mut h = H::demo(60, 20);
    let fx = h.keys("R");
    assert!(
        matches!(&fx[..], [Effect::LoadDue { open }] if open.len() == 1),
        "{fx:?}"
    );
    h.msg(Msg::ReviewReady(cards(&h, vec!["third", "first"]), 7));
    assert_eq!(h.s.screen(), Screen::Review);
    assert_eq!(h.title(), "Third");
    let order = h.s.review.as_ref().unwrap().order.clone();
    assert!(crate::model::Check::is_permutation(&order, 3));

    // The right answer (file option 0) wherever the shuffle put it.
    let pos = review_pos_of(&h, 0);
    let fx = h.keys(&(pos + 1).to_string());
    assert_eq!(
        fx,
        [Effect::Write(Change::Attempt {
            key: key("demo", "third"),
            check: String::new(),
            option: 0,
            answer: None,
            correct: true,
            review: true,
            revealed: false,
            drill: false,
            at: None,
        })]
    );
    // Right: a digit now says how it felt (4 easy), never a second
    // answer; FSRS gets the rating, and the next card comes.
    let fx = h.keys("4");
    assert!(
        !fx.iter()
            .any(|e| matches!(e, Effect::Write(Change::Attempt { .. }))),
        "{fx:?}"
    );
    assert!(fx.contains(&Effect::Write(Change::Rate {
        key: key("demo", "third"),
        check: String::new(),
        rating: 4,
    })));
    assert_eq!(h.title(), "First");
    assert_eq!(h.s.screen(), Screen::Review);
    let pos = review_pos_of(&h, 1);
    let fx = h.keys(&(pos + 1).to_string());
    assert!(matches!(
        fx[..],
        [Effect::Write(Change::Attempt {
            option: 1,
            correct: false,
            review: true,
            ..
        })]
    ));
    h.keys("\n");
    let r = h.s.review.as_ref().unwrap();
    assert!(r.done());
    assert_eq!((r.right, r.wrong), (1, 1));
    h.keys("\x1b");
    assert_eq!(h.s.screen(), Screen::Reading);
    assert!(h.s.review.is_none());
}

#[test]
fn enter_answers_the_selected_card_option_then_moves_on() {
    let mut h = H::demo(60, 20);
    h.msg(Msg::ReviewReady(cards(&h, vec!["first"]), 3));
    h.keys("jjj");
    assert_eq!(h.s.review.as_ref().unwrap().card.cursor, Some(2));
    let index = h.s.review.as_ref().unwrap().order[2];
    let fx = h.keys("\n");
    assert!(matches!(
        &fx[..],
        [Effect::Write(Change::Attempt { option, review: true, .. })] if *option as usize == index
    ));
    h.keys("\n");
    assert!(h.s.review.as_ref().unwrap().done());
}

#[test]
fn rereading_a_card_and_coming_back() {
    let mut h = H::demo(60, 20);
    h.msg(Msg::ReviewReady(cards(&h, vec!["third", "first"]), 5));
    let fx = h.keys("o");
    // Opened at the card's check, before answering: a peek, kept.
    assert_eq!(h.s.screen(), Screen::Check);
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Write(Change::Reveal { .. }))),
        "{fx:?}"
    );
    assert_eq!(h.title(), "Third");
    h.keys("jj[");
    assert_eq!(h.title(), "Second");
    h.keys("R");
    assert_eq!(h.s.screen(), Screen::Review);
    assert_eq!(h.title(), "Third", "back to the card");
    assert!(!h.s.review.as_ref().unwrap().rereading);
}

#[test]
fn nothing_due_is_an_empty_review() {
    let mut h = H::demo(60, 20);
    h.msg(Msg::ReviewReady(cards(&h, Vec::new()), 1));
    assert_eq!(h.s.screen(), Screen::Review);
    assert!(h.s.review.as_ref().unwrap().queue.is_empty());
    assert!(h.keys("1\n").is_empty());
    h.keys("\x1b");
    assert_eq!(h.s.screen(), Screen::Reading);
}

/// A due lesson that has since become unreadable: Enter moves past it.
#[test]
fn a_broken_card_can_be_skipped() {
    let dir = demo_dir();
    std::fs::write(dir.path().join("0-broken.json"), "nope").unwrap();
    let mut h = H::course(dir, 60, 20);
    h.open(0);
    h.msg(Msg::ReviewReady(cards(&h, vec!["first", "0-broken"]), 9));
    h.keys("1\n");
    assert!(h.s.reader.doc().is_none(), "the broken card is shown");
    h.keys("\n");
    assert!(
        h.s.review.as_ref().unwrap().done(),
        "stuck on the broken card"
    );
}

#[test]
fn a_broken_first_card_can_be_skipped() {
    let dir = demo_dir();
    std::fs::write(dir.path().join("0-broken.json"), "nope").unwrap();
    let mut h = H::course(dir, 60, 20);
    h.open(0);
    h.msg(Msg::ReviewReady(cards(&h, vec!["0-broken", "first"]), 9));
    assert!(h.s.reader.doc().is_none());
    h.keys("\n");
    assert_eq!(h.title(), "First");
    assert_eq!(h.s.review.as_ref().unwrap().pos, 1);
}

#[test]
fn a_refreshed_folder_keeps_the_open_lesson_by_slug() {
    let mut h = H::demo(60, 20);
    h.open(1);
    assert_eq!(h.s.lesson_key().unwrap().lesson, "second");
    let dir = h.s.course().root.clone().unwrap();
    // A new first lesson appears in the folder while the reader is open.
    write(&dir, "d-zero.json", &lesson("zero", "Zero", 0, 1, 1, true));
    let fresh = loader::scan_dir(&dir).unwrap();
    let fx = receive(&mut h.s, Msg::CourseRefreshed(dir, fresh));
    assert!(fx.is_empty());
    assert_eq!(h.s.course().lessons.len(), 4);
    assert_eq!(
        h.s.lesson_key().unwrap().lesson,
        "second",
        "same lesson, new index"
    );
    assert_eq!(h.s.reader.lesson, 2);
}

#[test]
fn a_refreshed_folder_without_the_open_lesson_opens_the_one_in_its_place() {
    let mut h = H::demo(60, 20);
    h.open(1);
    let dir = h.s.course().root.clone().unwrap();
    std::fs::remove_file(dir.join("c-second.json")).unwrap();
    let fresh = loader::scan_dir(&dir).unwrap();
    let fx = receive(&mut h.s, Msg::CourseRefreshed(dir, fresh));
    assert!(
        fx.iter()
            .any(|e| matches!(e, Effect::Load { lesson: 1, .. })),
        "{fx:?}"
    );
    h.settle(fx);
    assert_eq!(h.s.course().lessons.len(), 2);
    assert_eq!(h.s.lesson_key().unwrap().lesson, "third");
    assert_eq!(h.title(), "Third");
}

#[test]
fn a_lesson_opens_laid_out_to_its_first_screen_then_whole() {
    let mut h = H::course(demo_dir(), 60, 16);
    let fx = h.open_to_first_frame(0, Default::default());
    assert!(h.s.reader.partial());
    let rows = h.s.geometry().rows();
    let first = h.doc().page.lines.clone();
    assert!(first.len() > rows, "the first screen is filled");
    // A page cut short is not a page read to its end.
    assert!(
        !fx.iter()
            .any(|e| matches!(e, Effect::Write(Change::Read { .. }))),
        "{fx:?}"
    );
    assert!(
        h.doc()
            .checks
            .first()
            .map_or(&[][..], |c| &c.layout.lines[..])
            .is_empty()
    );

    assert!(h.s.reader.finish_layout());
    assert!(!h.s.reader.partial());
    let whole = &h.doc().page.lines;
    assert!(whole.len() > first.len());
    assert_eq!(
        whole.range(0..first.len()).collect::<Vec<_>>(),
        first.iter().collect::<Vec<_>>(),
        "the same lines, then more"
    );
    assert!(
        !h.doc()
            .checks
            .first()
            .map_or(&[][..], |c| &c.layout.lines[..])
            .is_empty()
    );
    assert!(!h.s.reader.finish_layout(), "nothing left to do");
}

#[test]
fn a_lesson_opened_at_a_saved_place_is_laid_out_whole() {
    let mut h = H::demo(60, 16);
    h.keys("GG");
    let deep = h.s.reader.anchor();
    assert!(h.s.reader.top > 0);
    h.saved.insert(
        "first".into(),
        crate::model::LessonProgress {
            anchor: Some(deep),
            ..Default::default()
        },
    );
    let mut fx = Vec::new();
    open_lesson(&mut h.s, 1, &mut fx);
    h.settle(fx);
    let saved = h.saved["first"].clone();
    h.open_to_first_frame(0, saved);
    assert!(!h.s.reader.partial());
    assert_eq!(h.s.reader.anchor(), deep);
}

#[test]
fn highlighting_that_arrives_first_completes_the_page_and_its_check() {
    let mut h = H::course(demo_dir(), 60, 16);
    h.open_to_first_frame(0, Default::default());
    assert!(h.s.reader.partial());
    let slug = h.doc().lesson.meta.slug.clone();
    let _ = receive(&mut h.s, Msg::Highlighted(slug, Default::default()));
    assert!(!h.s.reader.partial());
    assert!(
        !h.doc()
            .checks
            .first()
            .map_or(&[][..], |c| &c.layout.lines[..])
            .is_empty()
    );
}

#[test]
fn a_lesson_opened_alone_takes_its_place_in_its_course() {
    let dir = demo_dir();
    let file = dir.path().join("c-second.json");
    let origin = Origin::File(file.clone());
    let lesson = loader::load_lesson(&origin).unwrap();
    let alone = crate::model::Course {
        slug: lesson.meta.course_slug.clone(),
        title: lesson.meta.course_title.clone(),
        root: None,
        lessons: vec![crate::model::LessonEntry {
            origin: origin.clone(),
            slug: lesson.meta.slug.clone(),
            title: lesson.meta.title.clone(),
            position: lesson.meta.position,
            minutes: lesson.meta.minutes,
            module: None,
            status: LessonStatus::Ok,
        }],
    };
    let mut h = H::with(vec![alone], 60, 16);
    h.s.library.view = CourseView::Alone;
    h.open(0);
    assert_eq!(h.title(), "Second");
    let lib = loader::open_paths(&[file]).unwrap();
    let _ = receive(&mut h.s, Msg::CourseRead(lib.courses, lib.start));
    assert!(h.s.library.is_full());
    assert_eq!(h.s.course().lessons.len(), 3);
    assert_eq!(h.s.reader.lesson, 1, "second in reading order");
    assert_eq!(h.title(), "Second", "the open lesson stays open");
    h.keys("]");
    assert_eq!(h.title(), "Third");
    drop(dir);
}

#[test]
fn an_outline_gives_way_to_its_course() {
    let dir = demo_dir();
    let lib = loader::open_paths(&[dir.path().to_path_buf()]).unwrap();
    let whole = lib.courses[0].clone();
    let mut outline = whole.clone();
    outline.lessons = vec![whole.lessons[1].clone()];
    let mut h = H::with(vec![outline.clone()], 60, 16);
    h.s.library.view = CourseView::Outline { place: 1 };
    h.open(0);
    assert_eq!(h.title(), "Second");
    let root = whole.root.clone().unwrap();
    let _ = h.msg(Msg::CourseRefreshed(root.clone(), vec![whole]));
    assert!(h.s.library.is_full());
    assert_eq!((h.s.reader.lesson, h.s.contents.cursor), (1, 1));
    assert_eq!(h.title(), "Second");

    // Its lesson gone by the time the course is read: the one in its place.
    let mut h = H::with(vec![outline], 60, 16);
    h.s.library.view = CourseView::Outline { place: 1 };
    h.open(0);
    std::fs::remove_file(dir.path().join("c-second.json")).unwrap();
    let fresh = loader::open_paths(&[dir.path().to_path_buf()])
        .unwrap()
        .courses;
    let _ = h.msg(Msg::CourseRefreshed(root, fresh));
    assert_eq!(h.title(), "Third");
}

// ---- leaving screens -----------------------------------------------------

/// Every screen reached by its key, from the page of a two-course
/// library, as (keys to get there, the screen).
fn screen_paths() -> Vec<(&'static str, Screen)> {
    vec![
        ("", Screen::Reading),
        ("c", Screen::Check),
        ("\t", Screen::Contents),
        ("/", Screen::Search),
        ("s", Screen::CourseSearch),
        ("?", Screen::Help),
        ("S", Screen::Stats),
        ("C", Screen::Courses),
    ]
}

fn two_courses() -> H {
    let a = demo_dir();
    let b = demo_dir();
    let lib = loader::open_paths(&[a.path().to_path_buf(), b.path().to_path_buf()]).unwrap();
    let mut courses = lib.courses;
    courses[1].slug = "demo-two".into();
    let mut h = H::with(courses, 80, 24);
    h._dirs = vec![a, b];
    h.open(0);
    h
}

#[test]
fn every_screen_is_reached_by_its_key_and_left_with_esc() {
    for (keys, screen) in screen_paths() {
        let mut h = two_courses();
        h.keys(keys);
        assert_eq!(h.s.screen(), screen, "after {keys:?}");
        h.keys("\x1b");
        assert_eq!(h.s.screen(), Screen::Reading, "Esc on {screen:?}");
        assert!(!h.s.quit);
    }
    // Review: a session with a card, ended by Esc.
    let mut h = two_courses();
    h.msg(Msg::ReviewReady(cards(&h, vec!["first"]), 1));
    assert_eq!(h.s.screen(), Screen::Review);
    h.keys("\x1b");
    assert_eq!(h.s.screen(), Screen::Reading);
}

#[test]
fn q_closes_an_overlay_as_in_less_help_and_quits_from_the_page() {
    for (keys, screen) in screen_paths() {
        if screen.is_prompt() || matches!(screen, Screen::Reading | Screen::Check) {
            continue;
        }
        let mut h = two_courses();
        h.keys(keys);
        h.keys("q");
        assert!(!h.s.quit, "q on {screen:?} quit");
        assert_eq!(h.s.screen(), Screen::Reading, "q on {screen:?}");
    }
    let mut h = two_courses();
    h.keys("q");
    assert!(h.s.quit, "q on the page quits");
    let mut h = two_courses();
    h.keys("cq");
    assert!(h.s.quit, "q on the check quits");
}

#[test]
fn ctrl_c_quits_from_every_screen() {
    let ctrl_c = ratatui::crossterm::event::KeyEvent::new(
        ratatui::crossterm::event::KeyCode::Char('c'),
        ratatui::crossterm::event::KeyModifiers::CONTROL,
    );
    for (keys, screen) in screen_paths() {
        let mut h = two_courses();
        h.keys(keys);
        let a = keymap::lookup(h.s.screen(), &ctrl_c).expect("Ctrl-C is bound");
        h.act(a);
        assert!(h.s.quit, "Ctrl-C on {screen:?}");
    }
}

mod checks;
mod study;
mod synced;
