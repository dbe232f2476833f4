//! The layout of a page of 300 closed folds (HTML `details`, as a book's
//! speaker notes), 60 times at 80 columns: each closed fold's body is
//! laid out to count its lines and, since issue 28's folds, its
//! characters (what the anchors' text holds and the page leaves out).
//! `cargo run --release --example fold_layout` (see BENCHMARKS.md).
fn main() {
    let mut md = String::from("# Folds\n\n");
    for i in 0..300 {
        md.push_str(&format!("Paragraph {i} before the fold, with enough words to wrap once at eighty columns of text.\n\n"));
        md.push_str("<details><summary>Speaker notes</summary>\n\n");
        for j in 0..4 {
            md.push_str(&format!("- Note {j}: a line of the speaker's notes that says what to show, and why it matters here.\n"));
        }
        md.push_str("\n```rust\nfn main() {\n    println!(\"hi\");\n}\n```\n\n</details>\n\n");
    }
    let origin = lectern::model::Origin::File("t.md".into());
    let lesson = lectern::loader::load_from(&origin, md.as_bytes())
        .unwrap()
        .lesson;
    let code = lectern::layout::Highlights::default();
    let mut times = Vec::new();
    for _ in 0..60 {
        let t = std::time::Instant::now();
        let page = lectern::layout::page(&lesson, 80, &code);
        std::hint::black_box(&page);
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "lines {} median {:.3} ms p10 {:.3} p90 {:.3}",
        lectern::layout::page(&lesson, 80, &code).lines.len(),
        times[30],
        times[6],
        times[54]
    );
}
