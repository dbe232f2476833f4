//! Another machine's changes, merged while the reader is open, through
//! the runner's own loop: the page shows them where it stands.

use super::*;
use crate::store::Store;

/// Another device that answered the first lesson's check (option 1 in
/// the file, Beta: wrong), its log in a sync folder.
fn answered_elsewhere() -> tempfile::TempDir {
    let sync = tempfile::tempdir().unwrap();
    let mut other = Store::in_memory();
    other.sync_to(sync.path());
    other.apply(&Change::Attempt {
        key: key("demo", "first"),
        check: String::new(),
        option: 1,
        answer: None,
        correct: false,
        review: false,
        revealed: false,
        drill: false,
        at: None,
    });
    sync
}

#[test]
fn another_machines_answer_reaches_the_open_page_which_stays_where_it_is() {
    let mut h = H::demo(60, 16);
    h.act(Action::LineDown);
    h.act(Action::LineDown);
    let top = h.s.reader.top;
    assert_eq!(h.s.reader.state(0).unwrap().chosen, None);
    let sync = answered_elsewhere();
    h.runner.start_sync(Some(sync.path()));
    h.settle(Vec::new());
    let said = h.s.notice.clone().unwrap_or_default();
    assert!(
        said.starts_with("Merged from") && said.ends_with("1 answer."),
        "{said}"
    );
    assert_eq!(h.s.reader.state(0).unwrap().chosen, Some(1));
    assert_eq!(h.s.reader.state(0).unwrap().first_try, Some(false));
    assert_eq!(h.s.library.progress["first"].checks[""].attempts, 1);
    assert_eq!(h.s.reader.top, top, "the page stays");
    // Merged once: the same look again brings nothing.
    h.runner.start_sync(Some(sync.path()));
    h.s.notice = None;
    h.settle(Vec::new());
    assert_eq!(h.s.notice, None);
}

#[test]
fn news_of_another_course_reads_nothing_and_notes_are_read_whole_again() {
    let mut h = H::demo(60, 16);
    let news = crate::model::SyncNews {
        said: "Merged from laptop: 1 note or mark.".into(),
        courses: vec!["elsewhere".into()],
        notes: true,
    };
    let fx = receive(&mut h.session.s, Msg::Synced(news));
    assert_eq!(fx, [Effect::LoadNotes]);
    assert_eq!(
        h.s.notice.as_deref(),
        Some("Merged from laptop: 1 note or mark.")
    );
}
