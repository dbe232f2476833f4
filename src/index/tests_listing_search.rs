//! A later search of a folder by its listing finds what a search of its
//! files finds, and trusts the listing no further than the files.

use super::*;
use serde_json::json;

const WORDS: [&str; 6] = ["stale", "regression", "cache", "buffer", "worker", "plain"];

/// A folder of lessons large enough to be listed, with its words spread
/// over titles, headings and bodies; listed, indexed, and its listing
/// old enough to be trusted.
fn listed_course() -> (tempfile::TempDir, tempfile::TempDir, Index, Vec<Course>) {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    for i in 0..SMALL_FOLDER * 2 {
        let w = |k: usize| WORDS[(i * k + k) % WORDS.len()];
        let v = json!({
            "course": {"slug": "c", "title": "C"},
            "lesson": {"slug": format!("l{i:02}"), "title": format!("{} {}", w(1), w(2)),
                       "position": i + 1},
            "body": {"format": "markdown",
                     "text": format!("## {} {}\n\n{} {} {}", w(3), w(4), w(5), w(6), w(7))},
        });
        std::fs::write(dir.path().join(format!("l{i:02}.json")), v.to_string()).unwrap();
    }
    let mut idx = Index::open(Some(cache.path()));
    let courses = idx.courses(dir.path()).unwrap();
    idx.fill(&origins(&courses), &mut |_, _| {});
    idx.conn()
        .execute("UPDATE folder SET seen_ns = seen_ns + 10 * ?1", [RACY_NS])
        .unwrap();
    assert!(idx.folder_unchanged(dir.path()));
    (dir, cache, idx, courses)
}

fn origins(courses: &[Course]) -> Vec<Origin> {
    courses
        .iter()
        .flat_map(|c| c.lessons.iter().map(|l| l.origin.clone()))
        .collect()
}

#[test]
fn a_listed_search_finds_what_a_search_of_the_files_finds() {
    let (dir, _cache, mut idx, courses) = listed_course();
    let origins = origins(&courses);
    for words in [
        "stale",
        "buffer worker",
        "\"cache buffer\"",
        "wor*",
        "nothing",
    ] {
        for limit in [1, 3, 50] {
            let q = Query::parse(words, false);
            let want = idx.search_fresh(&origins, &q, limit).unwrap();
            let listed = idx.search_listed(dir.path(), &q, limit).unwrap();
            let (got, shown) = listed.found.unwrap();
            assert_eq!(got, want, "{words} / {limit}");
            assert_eq!(shown.len(), got.hits.len());
            for (h, s) in got.hits.iter().zip(&shown) {
                let entry = &courses[0].lessons[h.lesson];
                assert_eq!(s.entry.title, entry.title);
                assert_eq!(s.entry.origin, entry.origin);
                assert_eq!(s.position, h.lesson + 1);
                assert_eq!(s.course_slug, "c");
            }
        }
    }
}

#[test]
fn a_listed_search_names_a_lesson_changed_in_place() {
    let (dir, _cache, mut idx, courses) = listed_course();
    let origins = origins(&courses);
    let path = origins[3].path().unwrap().to_path_buf();
    let mtime = std::fs::metadata(&path).unwrap().modified().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    // The same size and mtime: only the ctime (and the bytes) tell.
    std::fs::write(
        &path,
        text.replacen("plain", "zzzzz", 1)
            .replacen("stale", "zzzzz", 1),
    )
    .unwrap();
    let f = std::fs::File::options().write(true).open(&path).unwrap();
    f.set_modified(mtime).unwrap();
    drop(f);
    let q = Query::parse("zzzzz", false);
    let listed = idx.search_listed(dir.path(), &q, 5).unwrap();
    assert_eq!(listed.found.unwrap_err(), vec![origins[3].clone()]);
}

#[test]
fn a_changed_folder_is_not_searched_by_its_listing() {
    let (dir, _cache, mut idx, _) = listed_course();
    std::fs::write(dir.path().join("new.json"), "{}").unwrap();
    let q = Query::parse("stale", false);
    assert!(idx.search_listed(dir.path(), &q, 5).is_none());
}

#[test]
fn a_ranking_of_the_best_few_agrees_with_the_whole_ranking() {
    let (_dir, _cache, mut idx, courses) = listed_course();
    let origins = origins(&courses);
    let ids = idx.plan(&origins).ids;
    for words in ["stale", "buffer worker", "wor*", "cache"] {
        let q = Query::parse(words, false);
        let whole = idx.ranked_or_none(&q, &ids, usize::MAX);
        assert_eq!(whole.best.len(), whole.total, "{words}");
        for need in [1, 2, 5] {
            let few = idx.ranked_or_none(&q, &ids, need);
            assert_eq!(few.total, whole.total, "{words}");
            let n = need.min(whole.total);
            assert!(few.best.len() >= n, "{words}: {} < {n}", few.best.len());
            assert_eq!(few.best[..n], whole.best[..n], "{words} / {need}");
        }
        // Tiers in order: title, then heading, then body.
        let fields: Vec<_> = whole.best.iter().map(|b| b.1).collect();
        assert!(fields.is_sorted(), "{words}: {fields:?}");
    }
}

fn plan_file(idx: &Index, dir: &std::path::Path) -> std::path::PathBuf {
    text_plan_file::file_of(&idx.listing_file(dir).unwrap())
}

/// The 50 best hits of a listed search that found no file changed.
fn hits(idx: &mut Index, dir: &std::path::Path, q: &Query) -> Found {
    idx.search_listed(dir, q, 50).unwrap().found.unwrap().0
}

#[test]
fn a_kept_plan_is_used_while_the_index_holds_the_same_text_rows() {
    let (dir, _cache, mut idx, courses) = listed_course();
    let origins = origins(&courses);
    let q = Query::parse("buffer worker", false);
    let want = idx.search_fresh(&origins, &q, 50).unwrap();
    let file = plan_file(&idx, dir.path());
    assert!(!file.exists());
    assert_eq!(hits(&mut idx, dir.path(), &q), want);
    let kept = std::fs::read(&file).unwrap();
    assert_eq!(hits(&mut idx, dir.path(), &q), want);
    // A plan that checks out is believed: one whose text rows are moved
    // one lesson on (as a plan made from another index would be) moves
    // the hits with it...
    let listing = idx.listing_file(dir.path()).unwrap();
    let (files, k) = text_plan_file::decode(&kept, &listing, dir.path()).unwrap();
    let generation = k.generation;
    let mut plan = k
        .plan(&files.origins, files.sums, Some(generation))
        .unwrap();
    let n = files.origins.len();
    plan.ids = plan
        .ids
        .into_iter()
        .map(|(id, place)| (id, (place + 1) % n))
        .collect();
    let moved = text_plan_file::encode(&plan, generation, &files, dir.path()).unwrap();
    std::fs::write(&file, &moved).unwrap();
    assert_ne!(hits(&mut idx, dir.path(), &q), want);
    // ...until the index's text rows change: a lesson read again.
    idx.insert(&[extract(&origins[2])]).unwrap();
    assert_eq!(hits(&mut idx, dir.path(), &q), want);
    assert_ne!(std::fs::read(&file).unwrap(), moved, "made again");
}

#[test]
fn the_generation_moves_with_every_change_of_the_text_rows() {
    let (_dir, cache, mut idx, courses) = listed_course();
    let origins = origins(&courses);
    let g0 = idx.generation().unwrap();
    // Read again: the old row goes, a new one comes.
    idx.insert(&[extract(&origins[0])]).unwrap();
    let g1 = idx.generation().unwrap();
    assert_ne!(g0, g1);
    // Nothing to store: nothing moves.
    idx.insert(&[]).unwrap();
    let g2 = idx.generation().unwrap();
    assert_eq!(g2, g1);
    // A failed write moves nothing either.
    idx.conn().execute_batch("DROP TABLE lesson_fts").unwrap();
    assert!(idx.insert(&[extract(&origins[1])]).is_err());
    assert_eq!(idx.generation().unwrap(), g2);
    // Another process sees the same generation; an index made again a
    // new one, whatever its count.
    let other = Index::open(Some(cache.path()));
    assert_eq!(other.generation(), idx.generation());
    drop((idx, other));
    remove(cache.path());
    let fresh = Index::open(Some(cache.path()));
    assert_ne!(fresh.generation().unwrap(), g0);
}

#[test]
fn a_kept_plan_that_does_not_check_out_is_made_again() {
    let (dir, _cache, mut idx, courses) = listed_course();
    let origins = origins(&courses);
    let q = Query::parse("stale", false);
    let want = idx.search_fresh(&origins, &q, 50).unwrap();
    idx.search_listed(dir.path(), &q, 50).unwrap();
    let file = plan_file(&idx, dir.path());
    let good = std::fs::read(&file).unwrap();
    let mut flipped = good.clone();
    flipped[100] ^= 4;
    for bad in [
        b"".to_vec(),
        good[..good.len() / 2].to_vec(),
        flipped,
        vec![0; good.len()],
    ] {
        std::fs::write(&file, &bad).unwrap();
        let got = idx.search_listed(dir.path(), &q, 50).unwrap();
        assert_eq!(got.found.unwrap().0, want);
        assert_eq!(std::fs::read(&file).unwrap(), good, "made again");
    }
}

#[test]
fn a_listing_damaged_under_its_kept_plan_is_not_believed() {
    let (dir, _cache, mut idx, courses) = listed_course();
    let origins = origins(&courses);
    let q = Query::parse("stale", false);
    let want = idx.search_fresh(&origins, &q, 50).unwrap();
    assert_eq!(hits(&mut idx, dir.path(), &q), want);
    let listing = idx.listing_file(dir.path()).unwrap();
    let good = std::fs::read(&listing).unwrap();
    // Its records spoiled, its head (and the digests a kept plan is
    // matched by) left as they were: a record shown no longer checks out.
    let mut spoiled = good.clone();
    let n = spoiled.len();
    spoiled[n / 2..].fill(b'x');
    std::fs::write(&listing, &spoiled).unwrap();
    assert!(idx.search_listed(dir.path(), &q, 50).is_none());
    // Another listing altogether: the plan is not its plan.
    let mut other = good.clone();
    other[listing_file::PREFIX - 1] ^= 1;
    std::fs::write(&listing, &other).unwrap();
    assert!(idx.search_listed(dir.path(), &q, 50).is_none());
    std::fs::write(&listing, &good).unwrap();
    assert_eq!(hits(&mut idx, dir.path(), &q), want);
}

#[test]
fn a_listing_of_an_older_version_is_never_read_and_is_written_again() {
    let (dir, _cache, mut idx, courses) = listed_course();
    let listing = idx.listing_file(dir.path()).unwrap();
    let good = std::fs::read(&listing).unwrap();
    assert_eq!(idx.snapshot(dir.path()), Some(courses.clone()));
    // The same bytes under the hand-written codec's magic.
    let mut older = good.clone();
    older[..8].copy_from_slice(b"lectern3");
    std::fs::write(&listing, &older).unwrap();
    assert_eq!(idx.snapshot(dir.path()), None);
    assert!(idx.peek(dir.path()).is_none());
    // The folder is read again, and its listing written in this version.
    assert_eq!(idx.courses(dir.path()).unwrap(), courses);
    assert_eq!(std::fs::read(&listing).unwrap(), good);
}
