//! Peak memory per byte of a lesson, as the loader takes it: each case
//! runs in a child process of this test (the test binary run again), so
//! its peak (`VmHWM` in /proc/self/status) is its own. Assertions are on
//! ratios: 4x the input at most about 5x the memory, and a file past the
//! caps refused before any tree is built.

use std::process::Command;

const CASE: &str = "LECTERN_MEMORY_CASE";

/// A lesson of `n` tiny blocks, or of a markdown table of `n` rows,
/// written out directly: building it as a JSON tree first would raise the
/// peak before the load is measured.
fn lesson(kind: &str, n: usize) -> Vec<u8> {
    let head =
        r#"{"course":{"slug":"c","title":"C"},"lesson":{"slug":"m","title":"M","position":1},"#;
    let mut s = String::from(head);
    if kind == "blocks" {
        s.push_str(r#""body":{"format":"markdown","text":"x"},"reader":{"schema":1,"title":"M","blocks":["#);
        let block = r#"{"t":"p","runs":[{"text":"a"}]}"#;
        s.push_str(&vec![block; n].join(","));
        s.push_str("]}}");
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
    let after = peak_kb();
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
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "peak_memory_is_linear_and_bounded_by_the_caps"])
        .args(["--nocapture", "--test-threads=1"])
        .env(CASE, case)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .find_map(|l| l.split_once("MEASURED ").map(|(_, m)| m))
        .unwrap_or_else(|| panic!("{case}: {text}"));
    eprintln!("{case}: {line}");
    let mut parts = line.splitn(3, ' ');
    Measured {
        bytes: parts.next().unwrap().parse().unwrap(),
        growth: parts.next().unwrap().parse::<u64>().unwrap() * 1024,
        outcome: parts.next().unwrap().to_string(),
    }
}

fn linear(kind: &str, n: usize, per_byte: u64) {
    let small = measure(&format!("{kind}:{n}"));
    let large = measure(&format!("{kind}:{}", 4 * n));
    assert_eq!(
        (small.outcome.as_str(), large.outcome.as_str()),
        ("ok", "ok")
    );
    let ratio = large.growth as f64 / small.growth.max(1) as f64;
    assert!(ratio <= 5.0, "{kind}: 4x the input, {ratio:.1}x the memory");
    let each = large.growth / large.bytes;
    assert!(
        each <= per_byte,
        "{kind}: {each} bytes of memory per byte of file"
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
    // Measured (debug build): about 10 bytes per byte for tiny blocks
    // (55 while the whole file was first a serde_json tree) and 78 for
    // table rows (pulldown-cmark's tree of the whole body and a Vec of
    // runs per cell; the line cap bounds it to about 30 MB).
    linear("blocks", 10_000, 12);
    linear("table", 10_000, 120);
    refused("blocks", 400_000);
    refused("table", 200_000);
}
