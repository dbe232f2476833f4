//! The Brown University Rust Book draws some programs with aquascope
//! (its own preprocessor: ```` ```aquascope,interpreter ```` fences whose
//! code carries step markers like `` `[]` `` and hides lines with a bare
//! `#`). lectern cannot draw the diagrams; it shows the program, as Rust,
//! without the markers, its hidden lines hidden.

/// `text` with every aquascope fence turned into a Rust one.
pub fn rewrite(text: &str) -> String {
    if !text.contains("aquascope") {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<String> = None;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        match &fence {
            None => {
                let ticks = t.len() - t.trim_start_matches(['`', '~']).len();
                if ticks >= 3 && t[ticks..].starts_with("aquascope") {
                    let indent = &line[..line.len() - t.len()];
                    fence = Some(t[..ticks].to_string());
                    out.push_str(indent);
                    out.push_str(&t[..ticks]);
                    out.push_str("rust\n");
                    continue;
                }
                out.push_str(line);
            }
            Some(f) => {
                if closes(t.trim_end(), f) {
                    fence = None;
                    out.push_str(line);
                    continue;
                }
                out.push_str(&code_line(line));
            }
        }
    }
    out
}

/// Whether `line` closes a fence opened with `fence` (as many of its
/// characters or more, and nothing else).
fn closes(line: &str, fence: &str) -> bool {
    let c = fence.chars().next();
    line.len() >= fence.len() && line.chars().all(|x| Some(x) == c)
}

/// A line of an aquascope program: markers out, `#code` as `# code`.
fn code_line(line: &str) -> String {
    let mut s = strip_markers(line);
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

/// `` `[]` ``, `` `{}` ``, `` `(focus,paths:x)` `` and the like removed.
fn strip_markers(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find('`') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let close = match after.chars().next() {
            Some('[') => Some(']'),
            Some('{') => Some('}'),
            Some('(') => Some(')'),
            _ => None,
        };
        let end = close.and_then(|c| {
            after
                .find('`')
                .filter(|&j| j > 0 && after[..j].ends_with(c))
        });
        match end {
            Some(j) => rest = &after[j + 1..],
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
            "Text `[]` stays.\n\n```rust\n# fn main() {\nlet x = 1;\n    x += 1;\n# }\n```\n"
        );
        assert_eq!(rewrite("no fences"), "no fences");
        assert_eq!(strip_markers("a `b` `[` c"), "a `b` `[` c");
    }
}
