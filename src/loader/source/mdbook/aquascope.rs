//! The Brown University Rust Book draws some programs with aquascope
//! (its own preprocessor: ```` ```aquascope,interpreter ```` fences whose
//! code carries step markers like `` `[]` `` and hides lines with a bare
//! `#`). lectern cannot draw the diagrams; it shows the program, as Rust,
//! its hidden lines hidden, each step marker as the point its prose names
//! (`L1`, `L2`… in the order they stand, as aquascope numbers them), the
//! other markers left out, and a note under it that the web edition draws
//! a diagram there. In prose, `@Perm{read}` (and `@Perm[gained]{…}`,
//! `[lost]`, `[missing]`) is the badge aquascope draws: its letter, `+`
//! for a gain, struck out for a loss, hollow (in brackets) when missing.

mod steps;

/// `text` (a quiz's) with every aquascope fence turned into a Rust one,
/// its markers left out.
pub fn rewrite(text: &str) -> String {
    fences(text, false)
}

/// `text` (a chapter's) with every aquascope fence turned into a Rust
/// one, its step markers as points, a note under it.
pub fn chapter(text: &str) -> String {
    fences(text, true)
}

/// The step points of one program: the number of each of its markers, in
/// the order they are written, and how many are drawn so far.
struct Points {
    numbers: Vec<usize>,
    used: usize,
}

impl Points {
    /// The points of the program whose fence opens `rest` (after the
    /// opening line) and closes with `fence`.
    fn of(rest: &str, fence: &str) -> Points {
        let lines: Vec<&str> = rest
            .lines()
            .take_while(|l| !closes(l.trim(), fence))
            .collect();
        Points {
            numbers: steps::order(&lines, step_markers),
            used: 0,
        }
    }

    fn next(&mut self) -> usize {
        self.used += 1;
        self.numbers
            .get(self.used - 1)
            .copied()
            .unwrap_or(self.used)
    }
}

fn fences(text: &str, points: bool) -> String {
    if !text.contains("aquascope") {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    // The open fence's characters, its kind, and its points.
    let mut fence: Option<(String, String, Points)> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        at += line.len();
        let t = line.trim_start();
        let indent = &line[..line.len() - t.len()];
        match &mut fence {
            None => {
                let ticks = t.len() - t.trim_start_matches(['`', '~']).len();
                if ticks >= 3 && t[ticks..].starts_with("aquascope") {
                    let kind = t[ticks..]
                        .split(',')
                        .nth(1)
                        .unwrap_or("")
                        .trim()
                        .to_string();
                    let marks = Points::of(&text[at..], &t[..ticks]);
                    fence = Some((t[..ticks].to_string(), kind, marks));
                    out.push_str(indent);
                    out.push_str(&t[..ticks]);
                    out.push_str("rust\n");
                    continue;
                }
                out.push_str(line);
            }
            Some((f, kind, marks)) => {
                if closes(t.trim_end(), f) {
                    out.push_str(line);
                    if points {
                        if !line.ends_with('\n') {
                            out.push('\n');
                        }
                        let n = marks.numbers.len();
                        out.push_str(&format!("\n{indent}*{}*\n\n", note(kind, n)));
                    }
                    fence = None;
                    continue;
                }
                out.push_str(&code_line(line, points.then_some(&mut *marks)));
            }
        }
    }
    out
}

/// What the web edition draws under a program of `kind` with `points`
/// marked, said where it stands.
fn note(kind: &str, points: usize) -> String {
    let what = match kind {
        "interpreter" if points > 1 => format!("memory at L1–L{points}"),
        "interpreter" if points == 1 => "memory at L1".to_string(),
        "interpreter" => "memory as the program runs".to_string(),
        "permissions" => "the permissions of each path".to_string(),
        _ => "a diagram of this program".to_string(),
    };
    format!("The web edition draws {what} here; lectern shows the program.")
}

/// `text` with each `@Perm{…}` as aquascope's badge.
pub fn permissions(text: &str) -> String {
    if !text.contains("@Perm") {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("@Perm") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "@Perm".len()..];
        match badge(after) {
            Some((shown, used)) => {
                out.push_str(&shown);
                rest = &after[used..];
            }
            None => {
                out.push_str("@Perm");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The badge `@Perm` followed by `s` stands for, and how much of `s` it
/// takes: `[change]{permission}`.
fn badge(s: &str) -> Option<(String, usize)> {
    let (change, s2) = match s.strip_prefix('[') {
        Some(r) => {
            let end = r.find(']')?;
            (&r[..end], &r[end + 1..])
        }
        None => ("", s),
    };
    let body = s2.strip_prefix('{')?;
    let end = body.find('}')?;
    let letter = match &body[..end] {
        "read" => "R",
        "write" => "W",
        "own" => "O",
        "flow" => "F",
        _ => return None,
    };
    let shown = match change {
        "" => format!("<kbd>{letter}</kbd>"),
        "gained" => format!("<kbd>+{letter}</kbd>"),
        "lost" => format!("<kbd><s>{letter}</s></kbd>"),
        "missing" => format!("<kbd>({letter})</kbd>"),
        _ => return None,
    };
    let used = s.len() - body.len() + end + 1;
    Some((shown, used))
}

/// Whether `line` closes a fence opened with `fence` (as many of its
/// characters or more, and nothing else).
fn closes(line: &str, fence: &str) -> bool {
    let c = fence.chars().next();
    line.len() >= fence.len() && line.chars().all(|x| Some(x) == c)
}

/// A line of an aquascope program: step markers as the points they
/// are, other markers out, `#code` as `# code`.
fn code_line(line: &str, points: Option<&mut Points>) -> String {
    let mut s = strip_markers(line, points);
    let indent = s.len() - s.trim_start().len();
    let t = &s[indent..];
    if t.starts_with('#') && !t.starts_with("# ") && !t.starts_with("#[") && !t.starts_with("#!") {
        let rest = t[1..].trim_end_matches('\n');
        if !rest.is_empty() {
            s = format!(
                "{}# {}{}",
                &s[..indent],
                rest,
                if line.ends_with('\n') { "\n" } else { "" }
            );
        }
    }
    s
}

/// The point marked `n` written to `out` as a comment, before `rest` of
/// its line (what is left of it returned): at the end of the line, or
/// joining the line's own comment, or before its code.
fn point<'a>(n: usize, rest: &'a str, out: &mut String) -> &'a str {
    let r = rest.trim_start_matches([' ', '\t']);
    if r.trim_end().is_empty() {
        out.push_str(&format!(" // L{n}"));
        r
    } else if let Some(comment) = r.strip_prefix("//") {
        out.push_str(&format!(" // L{n}:"));
        comment
    } else {
        out.push_str(&format!("/* L{n} */ "));
        rest
    }
}

/// The end of the marker a backtick opens, `after` it: the index of its
/// closing backtick in `after`.
fn marker_end(after: &str) -> Option<usize> {
    let close = match after.chars().next() {
        Some('[') => ']',
        Some('{') => '}',
        Some('(') => ')',
        _ => return None,
    };
    after
        .find('`')
        .filter(|&j| j > 0 && after[..j].ends_with(close))
}

/// Where the step markers (`` `[]` ``) of `line` stand.
fn step_markers(line: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = line[from..].find('`') {
        let at = from + i;
        let after = &line[at + 1..];
        match marker_end(after) {
            Some(j) => {
                if after.starts_with('[') {
                    out.push(at);
                }
                from = at + 1 + j + 1;
            }
            None => from = at + 1,
        }
    }
    out
}

/// `` `[]` `` as its point (when `points` are drawn, else left out);
/// `` `{}` ``, `` `(focus,paths:x)` `` and the like removed.
fn strip_markers(line: &str, mut points: Option<&mut Points>) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find('`') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match marker_end(after) {
            Some(j) => {
                rest = &after[j + 1..];
                if let Some(p) = points.as_deref_mut().filter(|_| after.starts_with('[')) {
                    rest = point(p.next(), rest, &mut out);
                }
            }
            None => {
                out.push('`');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aquascope_fences_become_rust() {
        let md = "Text `[]` stays.\n\n```aquascope,interpreter,shouldFail\n#fn main() {\nlet x = 1;`[]`\n    `(focus,paths:x)`x += 1;\n#}\n```\n";
        assert_eq!(
            rewrite(md),
            "Text `[]` stays.\n\n```rust\n# fn main() {\nlet x = 1;\n    x += 1;\n# }\n```\n",
            "a quiz's program, its markers out"
        );
        assert_eq!(
            chapter(md),
            "Text `[]` stays.\n\n```rust\n# fn main() {\nlet x = 1; // L1\n    x += 1;\n# }\n```\n\n*The web edition draws memory at L1 here; lectern shows the program.*\n\n"
        );
        assert_eq!(rewrite("no fences"), "no fences");
        assert_eq!(strip_markers("a `b` `[` c", None), "a `b` `[` c");
    }

    #[test]
    fn step_markers_are_the_numbered_points_the_prose_names() {
        let md = "```aquascope,interpreter\nfn main() {\n    f();`[]`\n    g();`[]` // Error: moved\n}\nfn f() {\n    `[]`h();\n}\n```\n```aquascope,permissions,boundaries\nlet v = 1;\n```";
        assert_eq!(
            chapter(md),
            "```rust\nfn main() {\n    f(); // L2\n    g(); // L3: Error: moved\n}\nfn f() {\n    /* L1 */ h();\n}\n```\n\n*The web edition draws memory at L1–L3 here; lectern shows the program.*\n\n```rust\nlet v = 1;\n```\n\n*The web edition draws the permissions of each path here; lectern shows the program.*\n\n",
            "each program numbers its points from L1, in the order it runs"
        );
    }

    #[test]
    fn points_are_numbered_in_the_order_the_program_reaches_them() {
        let md = "```aquascope,interpreter\nfn main() {\n    let n = 5;`[]`\n    let y = plus_one(n);`[]`\n}\n\nfn plus_one(x: i32) -> i32 {\n    `[]`x + 1\n}\n\nfn unused() {\n    0;`[]`\n}\n```\n";
        let out = chapter(md);
        let at = |s: &str| out.find(s).unwrap_or_else(|| panic!("{s}:\n{out}"));
        assert!(at("let n = 5; // L1") < at("plus_one(n); // L3"));
        assert!(out.contains("/* L2 */ x + 1"), "the call runs first: {out}");
        assert!(
            out.contains("0; // L4"),
            "what is never reached comes last: {out}"
        );
    }

    #[test]
    fn permissions_are_aquascopes_badges() {
        assert_eq!(
            permissions(
                "Read (@Perm{read}), @Perm[gained]{write}@Perm[lost]{own} @Perm[missing]{flow} @Perm{fly} @Perm"
            ),
            "Read (<kbd>R</kbd>), <kbd>+W</kbd><kbd><s>O</s></kbd> <kbd>(F)</kbd> @Perm{fly} @Perm"
        );
    }
}
