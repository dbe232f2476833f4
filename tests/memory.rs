//! Peak memory per byte of a lesson, as the loader takes it and with the
//! page laid out on top (what the reader and `lectern render` hold):
//! each case runs in a child process of this test (the test binary run
//! again), so its peak (`VmHWM` in /proc/self/status) is its own, over
//! the file's bytes already read. Assertions are on ratios: 4x the input
//! at most about 5x the memory, a bound per byte of file, and a file past
//! the caps refused before any tree is built.
//!
//! Its own binary, not a module of `it`: a peak read in the process
//! counts every page of code it maps and touches, so the other tests'
//! code linked beside it would move the figures.

#[path = "it/common/child.rs"]
mod child;

const CASE: &str = "LECTERN_MEMORY_CASE";

/// A lesson of `n` tiny blocks, of a markdown table of `n` rows, or of
/// `n` units of markdown prose (see below), written out directly: building it as a JSON tree first would raise the
/// peak before the load is measured.
fn lesson(kind: &str, n: usize) -> Vec<u8> {
    let head =
        r#"{"course":{"slug":"c","title":"C"},"lesson":{"slug":"m","title":"M","position":1},"#;
    let mut s = String::from(head);
    let kind = kind.strip_suffix("+layout").unwrap_or(kind);
    if kind == "blocks" {
        s.push_str(r#""body":{"format":"markdown","text":"x"},"reader":{"schema":1,"title":"M","blocks":["#);
        let block = r#"{"t":"p","runs":[{"text":"a"}]}"#;
        s.push_str(&vec![block; n].join(","));
        s.push_str("]}}");
    } else if kind == "prose" || kind == "markup" {
        s.push_str(r#""body":{"format":"markdown","text":""#);
        // Ordinary prose: a paragraph of plain words with a styled one
        // here and there, then a short list (five lines, 300 bytes).
        let prose = r"A paragraph of ordinary prose that goes on for a while, as lessons do: it explains one idea, gives an *example* of it, and says why it matters before the next paragraph begins. Most of its words are plain text, with a `term` here and there.\n\n- a first point\n- a second point with **bold** in it\n\n";
        // Dense markup: a style, code or a link every few words, and
        // lists of short items (five lines, 110 bytes).
        let markup = r"Some words of *prose* in a paragraph, with `code` and a [link](http://x).\n\n- an item\n- another **item**\n\n";
        let unit = if kind == "prose" { prose } else { markup };
        s.push_str(&unit.repeat(n));
        s.push_str(r#""}}"#);
    } else {
        s.push_str(r#""body":{"format":"markdown","text":"|a|b|\n|-|-|\n"#);
        s.push_str(&"|1|2|\\n".repeat(n));
        s.push_str(r#""}}"#);
    }
    s.into_bytes()
}

fn peak_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// In the child: one load, and what it cost.
fn child(case: &str) {
    let (kind, n) = case.split_once(':').unwrap();
    let bytes = lesson(kind, n.parse().unwrap());
    let before = peak_kb();
    let loaded = lectern::loader::load_bytes("m.json", &bytes);
    // What the reader and `lectern render` hold on top: the page laid
    // out at 80 columns, kept beside the lesson.
    let page = match &loaded {
        Ok(l) if kind.ends_with("+layout") => Some(lectern::layout::page(
            &l.lesson,
            80,
            &lectern::layout::Highlights::default(),
        )),
        _ => None,
    };
    let after = peak_kb();
    drop(page);
    let outcome = match &loaded {
        Ok(_) => "ok".to_string(),
        Err(d) => format!("{d}"),
    };
    println!("MEASURED {} {} {outcome}", bytes.len(), after - before);
}

struct Measured {
    bytes: u64,
    growth: u64,
    outcome: String,
}

fn measure(case: &str) -> Measured {
    let line = child::measured("peak_memory_is_linear_and_bounded_by_the_caps", CASE, case);
    eprintln!("{case}: {line}");
    let mut parts = line.splitn(3, ' ');
    Measured {
        bytes: parts.next().unwrap().parse().unwrap(),
        growth: parts.next().unwrap().parse::<u64>().unwrap() * 1024,
        outcome: parts.next().unwrap().to_string(),
    }
}

fn linear(kind: &str, n: usize, per_byte: f64) {
    let small = measure(&format!("{kind}:{n}"));
    let large = measure(&format!("{kind}:{}", 4 * n));
    assert_eq!(
        (small.outcome.as_str(), large.outcome.as_str()),
        ("ok", "ok")
    );
    let ratio = large.growth as f64 / small.growth.max(1) as f64;
    assert!(ratio <= 5.0, "{kind}: 4x the input, {ratio:.1}x the memory");
    let each = large.growth as f64 / large.bytes as f64;
    eprintln!("{kind}: {each:.1} bytes of memory per byte of file");
    assert!(
        each <= per_byte,
        "{kind}: {each:.1} bytes of memory per byte of file"
    );
}

fn refused(kind: &str, n: usize) {
    let m = measure(&format!("{kind}:{n}"));
    assert!(m.outcome.contains("error: too large"), "{}", m.outcome);
    // One located line: `m.json:LINE:COL: error: ...`.
    assert!(m.outcome.starts_with("m.json:1:"), "{}", m.outcome);
    assert!(
        m.growth <= m.bytes * 2,
        "{kind}: refused, yet {} bytes for a {}-byte file",
        m.growth,
        m.bytes
    );
}

#[test]
fn peak_memory_is_linear_and_bounded_by_the_caps() {
    if let Ok(case) = std::env::var(CASE) {
        return child(&case);
    }
    // Measured (debug build, the larger size), bytes per byte of file,
    // loaded / loaded and laid out at 80 columns:
    // - tiny blocks: 7.6 / 8.2 (55 while the whole file was first a
    //   serde_json tree; 10.8 / 11.6 while a block was 96 bytes);
    // - table rows: 10.7 / 11.2, the allocator's moods at a few hundred
    //   KB give or take one (78 / 83 while pulldown-cmark built a tree of
    //   the whole body, each cell was a vector of runs and each line a
    //   vector of spans with a string each);
    // - ordinary prose and lists: 4.1 / 4.6 (6.3 / 7.2 with a copy of
    //   the body held through the parse and the page's vectors doubled);
    // - dense markup, a style or link every few words and lists of short
    //   items: 10.2 / 11.2 (16.4 / 17.7 while a run was 56 bytes and a
    //   string of its own, a block 96 bytes, the body held twice, and
    //   the page's vectors grown by doubling, each old copy left behind).
    // The bounds leave a few percent for the allocator's moods.
    linear("blocks", 10_000, 12.0);
    linear("table", 10_000, 12.0);
    linear("prose", 2_000, 12.0);
    linear("markup", 2_000, 12.0);
    linear("blocks+layout", 10_000, 12.5);
    linear("table+layout", 10_000, 12.5);
    linear("prose+layout", 2_000, 12.5);
    linear("markup+layout", 2_000, 12.5);
    refused("blocks", 400_000);
    refused("table", 200_000);
}
