//! mdbook-spec's grammar notation (a ```` ```grammar ```` block's
//! productions) drawn as mdbook-spec draws it, as markdown: each
//! production a paragraph, its source lines kept as lines (indented by
//! no-break spaces, as mdbook-spec indents them), `->` an arrow, a
//! terminal (`` `fn` ``) as code, a footnote mark (`[^name]`) as the
//! chapter's numbered note, and a suffix (`Expression _except
//! [StructExpression]_`) as emphasized text, its links as their text.
//! The rest of the notation (`?`, `*`, `{1..=6}`, `[` `]`, `!`, `~`,
//! `U+0009`, `<prose>`, `// comments`) is shown as written.
//!
//! mdbook-spec makes every name a link; lectern does not: it shows a
//! link's target after its text, which after each name of a production
//! would bury the grammar.

/// The markdown for the productions `body` of a grammar block. `notes`:
/// whether footnote marks are kept (mdbook-spec drops them from the
/// grammar summary, whose page has no notes).
pub fn draw(body: &str, notes: bool) -> String {
    let mut out = String::new();
    let mut lines: Vec<String> = Vec::new();
    for line in body.lines().chain([""]) {
        if line.trim().is_empty() {
            if !lines.is_empty() {
                if !out.is_empty() {
                    out.push('\n');
                }
                // A hard break (`\` at the end) between a production's lines.
                out.push_str(&lines.join("\\\n"));
                out.push('\n');
                lines.clear();
            }
            continue;
        }
        lines.push(drawn_line(line, notes));
    }
    out
}

/// One source line: its indent as no-break spaces (markdown would drop
/// spaces), a production's head (`@root Name ->`) as the name in bold and
/// an arrow, then its expression.
fn drawn_line(line: &str, notes: bool) -> String {
    let line = line.trim_end();
    let body = line.trim_start_matches(' ');
    let mut out = "\u{a0}".repeat(line.len() - body.len());
    let body = body.strip_prefix("@root ").unwrap_or(body);
    let rest = match super::spec::production(body) {
        Some(name) => {
            out.push_str(&format!("**{}** →", escaped(name)));
            &body[name.len() + 3..]
        }
        None => body,
    };
    expression(rest, &mut out, notes);
    out.trim_end().to_string()
}

/// Whether `c` starts a name, as mdbook-spec's parser reads one.
fn name_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || !c.is_ascii()
}

fn name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || !c.is_ascii()
}

/// The tokens of `s`, drawn into `out`.
fn expression(s: &str, out: &mut String, notes: bool) {
    let mut i = 0;
    // Whether the last token ends an expression (a suffix may follow).
    let mut after = false;
    while let Some(c) = s[i..].chars().next() {
        let rest = &s[i..];
        if c == ' ' {
            if after && let Some(len) = suffix(rest) {
                out.push_str(&format!(" *{}*", unlinked(&rest[2..len - 1])));
                i += len;
                continue;
            }
            if !out.ends_with([' ', '\u{a0}']) {
                out.push(' ');
            }
            i += 1;
            continue;
        }
        let (len, ends) = token(rest, out, notes);
        after = ends;
        i += len;
    }
}

/// Draws the token `s` starts with: its length in `s`, and whether it
/// ends an expression.
fn token(s: &str, out: &mut String, notes: bool) -> (usize, bool) {
    let c = s.chars().next().unwrap_or(' ');
    if let Some(hex) = s.strip_prefix("U+") {
        let n = hex.bytes().take_while(u8::is_ascii_hexdigit).count();
        out.push_str(&s[..2 + n]);
        return (2 + n, true);
    }
    if name_start(c) {
        let name: &str = &s[..s.find(|c| !name_char(c)).unwrap_or(s.len())];
        out.push_str(&escaped(name));
        return (name.len(), true);
    }
    let closed = |end: char| {
        s[1..]
            .find([end, '\n'])
            .filter(|&at| s[1 + at..].starts_with(end))
    };
    match c {
        '`' => {
            if let Some(at) = closed('`').filter(|&at| at > 0) {
                out.push_str(&code(&s[1..1 + at]));
                return (at + 2, true);
            }
        }
        '<' => {
            if let Some(at) = closed('>').filter(|&at| at > 0) {
                out.push_str(&format!("\\<{}\\>", &s[1..1 + at]));
                return (at + 2, true);
            }
        }
        '/' if s.starts_with("//") => {
            out.push_str(s);
            return (s.len(), false);
        }
        '[' if s.starts_with("[^") => {
            if let Some(at) = closed(']') {
                if notes {
                    out.push_str(&s[..at + 2]);
                }
                return (at + 2, true);
            }
        }
        _ if c.is_ascii_digit() => {
            out.push(c);
            return (1, false);
        }
        _ => {}
    }
    // The notation's own marks, escaped: markdown reads none of them.
    out.push('\\');
    out.push(c);
    (c.len_utf8(), matches!(c, ')' | ']' | '?' | '*' | '+' | '}'))
}

/// The length of the suffix `s` starts with (` _text_`, closed by a `_`
/// out of backticks before a space or the line's end), as mdbook-spec's
/// parser reads one.
fn suffix(s: &str) -> Option<usize> {
    let text = s.strip_prefix(" _")?;
    let mut code = false;
    for (at, c) in text.char_indices() {
        match c {
            '`' => code = !code,
            '_' if !code && at > 0 && text[at + 1..].chars().next().is_none_or(|n| n == ' ') => {
                return Some(2 + at + 1);
            }
            _ => {}
        }
    }
    None
}

/// A suffix's markdown with its links (`[text][rule]`, `[Name]`,
/// `[text](to)`) as their text, code spans as written.
fn unlinked(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut code = false;
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '`' {
            code = !code;
        } else if c == '[' && !code {
            if let Some(end) = rest.find(']') {
                out.push_str(&rest[1..end]);
                rest = &rest[end + 1..];
                // What names the target: a label or a destination.
                for (open, close) in [('[', ']'), ('(', ')')] {
                    if rest.starts_with(open) {
                        let end = rest.find(close).map_or(rest.len(), |e| e + 1);
                        rest = &rest[end..];
                    }
                }
                continue;
            }
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// A terminal as inline code, padded when it starts or ends with a
/// space (markdown strips one from each end of a padded span).
fn code(t: &str) -> String {
    if (t.starts_with(' ') || t.ends_with(' ')) && !t.trim().is_empty() {
        format!("` {t} `")
    } else {
        format!("`{t}`")
    }
}

/// A name as markdown text: `_` escaped, so that no name is emphasis.
fn escaped(name: &str) -> String {
    name.replace('_', "\\_")
}

#[cfg(test)]
mod tests;
