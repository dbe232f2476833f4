//! Ranking, freshness and rebuilding of the search index.

use super::*;
use serde_json::json;

fn lesson(dir: &Path, name: &str, pos: u32, title: &str, text: &str) -> Origin {
    let v = json!({
        "course": {"slug": "c", "title": "C"},
        "lesson": {"slug": name, "title": title, "position": pos},
        "body": {"format": "markdown", "text": text},
    });
    let path = dir.join(format!("{name}.json"));
    std::fs::write(&path, v.to_string()).unwrap();
    Origin::File(path)
}

fn found(idx: &mut Index, origins: &[Origin], q: &str) -> Vec<usize> {
    idx.fill(origins, &mut |_, _| {});
    idx.search(origins, &Query::parse(q, false), 50)
        .hits
        .iter()
        .map(|h| h.lesson)
        .collect()
}

fn course(dir: &Path) -> Vec<Origin> {
    vec![
        lesson(
            dir,
            "quiz",
            1,
            "Quiz",
            "Which regression is stale? A stale regression test.",
        ),
        lesson(
            dir,
            "explain",
            2,
            "Stale regression tests",
            "Why a regression test goes stale, and what to do.",
        ),
        lesson(
            dir,
            "other",
            3,
            "Other",
            "Nothing to see here: regression only.",
        ),
        lesson(
            dir,
            "head",
            4,
            "Heads",
            "## A stale regression\n\nbody words",
        ),
    ]
}

#[test]
fn every_word_matches_in_any_order_and_the_title_ranks_first() {
    let dir = tempfile::tempdir().unwrap();
    let origins = course(dir.path());
    let mut idx = Index::in_memory();
    let a = found(&mut idx, &origins, "stale regression");
    let b = found(&mut idx, &origins, "regression stale");
    assert_eq!(a, b);
    // Title, then heading, then body; "other" lacks "stale".
    assert_eq!(a, vec![1, 3, 0]);
}

#[test]
fn phrases_match_only_themselves_and_prefixes_find_beginnings() {
    let dir = tempfile::tempdir().unwrap();
    let origins = course(dir.path());
    let mut idx = Index::in_memory();
    assert_eq!(found(&mut idx, &origins, "\"test goes stale\""), vec![1]);
    assert!(found(&mut idx, &origins, "\"stale goes\"").is_empty());
    assert!(found(&mut idx, &origins, "regr").is_empty());
    assert_eq!(found(&mut idx, &origins, "regr*").len(), 4);
    let typed = idx.search(&origins, &Query::parse("Nothi", true), 50);
    assert_eq!(typed.hits.len(), 1);
    assert_eq!(typed.hits[0].word, "Nothing");
}

#[test]
fn case_and_accents_are_folded_both_ways() {
    let dir = tempfile::tempdir().unwrap();
    let origins = vec![
        lesson(dir.path(), "a", 1, "Café", "La RÉGRESSION naïve"),
        lesson(dir.path(), "b", 2, "Plain", "cafe regression naive"),
    ];
    let mut idx = Index::in_memory();
    assert_eq!(found(&mut idx, &origins, "CAFE"), vec![0, 1]);
    assert_eq!(found(&mut idx, &origins, "régression naive"), vec![0, 1]);
    let hit = &idx
        .search(&origins, &Query::parse("regression", false), 5)
        .hits[0];
    let marked: Vec<&str> = hit.marks.iter().map(|&(s, e)| &hit.snippet[s..e]).collect();
    assert_eq!(marked, vec!["RÉGRESSION"]);
}

#[test]
fn ties_go_in_course_order() {
    let dir = tempfile::tempdir().unwrap();
    // The same text: the same score; the origins' order decides.
    let origins: Vec<Origin> = (0..5)
        .map(|i| lesson(dir.path(), &format!("l{i}"), i, "Same", "same words here"))
        .rev()
        .collect();
    let mut idx = Index::in_memory();
    assert_eq!(found(&mut idx, &origins, "words"), vec![0, 1, 2, 3, 4]);
}

#[test]
fn a_hit_names_its_block_and_marks_its_words() {
    let dir = tempfile::tempdir().unwrap();
    let origins = vec![lesson(
        dir.path(),
        "a",
        1,
        "T",
        "First paragraph.\n\nSecond one: the kv cache grows.\n\nThird.",
    )];
    let mut idx = Index::in_memory();
    idx.fill(&origins, &mut |_, _| {});
    let hit = idx
        .search(&origins, &Query::parse("grows kv", false), 5)
        .hits[0]
        .clone();
    // Header, then blocks: the second block is section 2.
    assert_eq!(hit.block, 2);
    assert_eq!(hit.word, "kv");
    let marked: Vec<&str> = hit.marks.iter().map(|&(s, e)| &hit.snippet[s..e]).collect();
    assert_eq!(marked, vec!["kv", "grows"]);
}

#[test]
fn a_lesson_rewritten_with_its_size_and_mtime_kept_is_found_by_its_new_text() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let o = vec![lesson(dir.path(), "a", 1, "T", "alpha words")];
    let path = o[0].path().unwrap().to_path_buf();
    let mut idx = Index::open(Some(cache.path()));
    assert_eq!(found(&mut idx, &o, "alpha"), vec![0]);
    let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
    lesson(dir.path(), "a", 1, "T", "gamma words");
    let f = std::fs::File::options().write(true).open(&path).unwrap();
    f.set_modified(mtime).unwrap();
    drop(f);
    let mut idx = Index::open(Some(cache.path()));
    // Not even the old hit is served from a changed file.
    assert!(
        idx.search(&o, &Query::parse("alpha", false), 5)
            .hits
            .is_empty()
    );
    assert_eq!(found(&mut idx, &o, "gamma"), vec![0]);
    assert!(found(&mut idx, &o, "alpha").is_empty());
}

#[test]
fn a_deleted_truncated_or_older_index_is_rebuilt_silently() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let o = course(dir.path());
    let file = cache.path().join("index.db");
    let build = || {
        let mut idx = Index::open(Some(cache.path()));
        found(&mut idx, &o, "stale regression")
    };
    let want = build();
    std::fs::remove_file(&file).unwrap();
    assert_eq!(build(), want);
    {
        let c = Connection::open(&file).unwrap();
        c.pragma_update(None, "journal_mode", "DELETE").unwrap();
    }
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let _ = std::fs::remove_file(cache.path().join("index.db-wal"));
    assert_eq!(build(), want);
    {
        let c = Connection::open(&file).unwrap();
        c.pragma_update(None, "user_version", VERSION - 1).unwrap();
    }
    assert_eq!(build(), want);
}

#[test]
fn the_index_and_listings_an_older_lectern_kept_leave_the_data_directory() {
    let data = tempfile::tempdir().unwrap();
    {
        // An older lectern's index: no application id, its tables only.
        let c = Connection::open(data.path().join("index.db")).unwrap();
        c.execute_batch(SCHEMA).unwrap();
    }
    let listings = data.path().join("listings");
    std::fs::create_dir(&listings).unwrap();
    std::fs::write(listings.join("0123456789abcdef.bin"), b"lectern2...").unwrap();
    std::fs::write(data.path().join("progress.db"), b"kept").unwrap();
    drop(Index::cached(Some(data.path())));
    assert!(!data.path().join("index.db").exists());
    assert!(!listings.exists());
    assert!(data.path().join("progress.db").exists());
}

#[test]
fn a_data_directory_of_the_learners_own_files_keeps_every_one() {
    let data = tempfile::tempdir().unwrap();
    let listings = data.path().join("listings");
    std::fs::create_dir_all(listings.join("2025")).unwrap();
    std::fs::write(listings.join("taxes.pdf"), b"%PDF-1.7").unwrap();
    std::fs::write(listings.join("0123456789abcdef.bin"), b"not a listing").unwrap();
    std::fs::write(listings.join("2025").join("a.bin"), b"lectern3").unwrap();
    {
        let c = Connection::open(data.path().join("index.db")).unwrap();
        c.execute_batch("CREATE TABLE invoice (n); INSERT INTO invoice VALUES (1);")
            .unwrap();
    }
    let before = std::fs::read(data.path().join("index.db")).unwrap();
    drop(Index::cached(Some(data.path())));
    assert_eq!(std::fs::read(data.path().join("index.db")).unwrap(), before);
    assert!(listings.join("taxes.pdf").exists());
    assert!(listings.join("0123456789abcdef.bin").exists());
    assert!(listings.join("2025").join("a.bin").exists());
    // Named as the cache: a foreign file of the index's name is never
    // opened to write, and search still works, in memory.
    let o = course(data.path());
    let mut idx = Index::open(Some(data.path()));
    assert!(!found(&mut idx, &o, "stale regression").is_empty());
    drop(idx);
    assert_eq!(std::fs::read(data.path().join("index.db")).unwrap(), before);
}

#[test]
fn a_search_checks_every_file_and_names_the_changed_ones() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let o = course(dir.path());
    let mut idx = Index::open(Some(cache.path()));
    idx.fill(&o, &mut |_, _| {});
    let q = Query::parse("stale regression", false);
    assert_eq!(idx.search_fresh(&o, &q, 5).unwrap().hits.len(), 3);
    // Rewritten with the same size and mtime: its ctime moved.
    let path = o[2].path().unwrap().to_path_buf();
    let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
    lesson(
        dir.path(),
        "other",
        3,
        "Other",
        "Nothing to see here: stale regression.",
    );
    let f = std::fs::File::options().write(true).open(&path).unwrap();
    f.set_modified(mtime).unwrap();
    drop(f);
    assert_eq!(idx.search_fresh(&o, &q, 5).unwrap_err(), vec![o[2].clone()]);
    idx.fill(&o, &mut |_, _| {});
    assert_eq!(idx.search_fresh(&o, &q, 5).unwrap().hits.len(), 4);
}

#[test]
fn a_folder_is_trusted_unchanged_only_long_after_its_last_change() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    for i in 0..SMALL_FOLDER {
        lesson(dir.path(), &format!("l{i:02}"), i as u32, "T", "words");
    }
    let mut idx = Index::open(Some(cache.path()));
    idx.courses(dir.path()).unwrap();
    // Listed within the clock's grain of its last change: not trusted.
    assert!(!idx.folder_unchanged(dir.path()));
    idx.conn()
        .execute("UPDATE folder SET seen_ns = seen_ns + 10 * ?1", [RACY_NS])
        .unwrap();
    assert!(idx.folder_unchanged(dir.path()));
    lesson(dir.path(), "new", 99, "T", "words");
    assert!(!idx.folder_unchanged(dir.path()));
}

#[test]
fn a_snippet_comes_from_prose_before_code() {
    let dir = tempfile::tempdir().unwrap();
    let text = "```json\n{\"check\": {\"question\": \"x\"}}\n```\n\nA check question comes last.";
    let o = vec![lesson(dir.path(), "a", 1, "T", text)];
    let mut idx = Index::in_memory();
    idx.fill(&o, &mut |_, _| {});
    let hit = &idx
        .search(&o, &Query::parse("check question", false), 5)
        .hits[0];
    assert_eq!(hit.snippet, "A check question comes last.");
    assert!(hit.score > 0.0);
}

#[test]
fn a_section_names_its_block_by_place_with_a_hero_or_without() {
    let dir = tempfile::tempdir().unwrap();
    let text = "# Head\n\nSome prose.\n\n```rust\nfn main() {}\n```\n\nMore prose.";
    let o = lesson(dir.path(), "a", 1, "T", text);
    let mut l = crate::loader::load_lesson(&o).unwrap();
    for hero in [false, true] {
        if hero {
            l.hero = Some(crate::model::Figure {
                label: None,
                title: Some("A hero".into()),
                caption: None,
                alt: None,
                body: crate::model::FigureBody::Unknown {
                    kind: "x".into(),
                    text: Vec::new(),
                },
            });
        }
        for (at, _) in text::sections(&l) {
            // What a scan of every block finds.
            let scanned = (0..l.blocks.len())
                .find(|&i| text::anchor_block(&l, i) == at)
                .map(|i| &l.blocks[i]);
            assert_eq!(
                format!("{:?}", text::block_at(&l, at)),
                format!("{scanned:?}"),
                "section {at}, hero {hero}"
            );
        }
    }
}

#[test]
fn two_letters_typed_find_the_words_they_begin() {
    // Answered from the prefix index (see SCHEMA): the same words as a
    // longer prefix would find.
    let dir = tempfile::tempdir().unwrap();
    let origins = course(dir.path());
    let mut idx = Index::open(Some(&dir.path().join("cache")));
    idx.fill(&origins, &mut |_, _| {});
    let typed = |idx: &mut Index, q: &str| {
        let r = idx.rank_only(&origins, &Query::parse(q, true), 50);
        let mut l: Vec<usize> = r.hits.iter().map(|h| h.0).collect();
        l.sort();
        l
    };
    assert_eq!(typed(&mut idx, "re"), [0, 1, 2, 3]);
    assert_eq!(typed(&mut idx, "st"), typed(&mut idx, "sta"));
    assert_eq!(typed(&mut idx, "st"), [0, 1, 3]);
    assert_eq!(typed(&mut idx, "bo"), [3]);
}
