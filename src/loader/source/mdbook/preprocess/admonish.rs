//! mdbook-admonish: a ```` ```admonish KIND title="…" ```` fence is a box
//! of markdown, titled by its `title` (or a quoted title after the kind),
//! else by its kind (`note` when none is given); `title=""` has none.
//! lectern draws it as it draws a GitHub alert: a quote whose first line
//! is the title, in bold.

use super::fences::{Piece, dedent, pieces};

/// `text` with each admonish fence as a quoted box.
pub fn rewrite(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for piece in pieces(text) {
        match piece {
            Piece::Prose(p) => out.push_str(p),
            Piece::Fence(f) => match f.info.strip_prefix("admonish") {
                Some(rest) if rest.is_empty() || rest.starts_with(char::is_whitespace) => {
                    let lead = format!("{}> ", f.indent);
                    if let Some(title) = title(rest) {
                        out.push_str(&format!("{lead}**{title}**\n{}>\n", f.indent));
                    }
                    for line in dedent(f.body, f.indent) {
                        out.push_str(lead.trim_end_matches(' '));
                        if !line.is_empty() {
                            out.push(' ');
                            out.push_str(line);
                        }
                        out.push('\n');
                    }
                    out.push('\n');
                }
                _ => out.push_str(f.raw),
            },
        }
    }
    out
}

/// The box's title from what follows `admonish` (`None`: `title=""`).
fn title(rest: &str) -> Option<String> {
    let rest = rest.trim();
    let kind = rest
        .split(|c: char| c.is_whitespace() || c == '"')
        .next()
        .filter(|k| !k.is_empty() && !k.contains('='));
    let quoted = |from: &str| {
        let from = from.strip_prefix('"')?;
        from.find('"').map(|end| from[..end].to_string())
    };
    let given = match rest.find("title=") {
        Some(i) => quoted(&rest[i + "title=".len()..]),
        None => kind.and_then(|k| quoted(rest[k.len()..].trim_start())),
    };
    match given {
        Some(t) if t.trim().is_empty() => None,
        Some(t) => Some(t),
        None => {
            let kind = kind.unwrap_or("note");
            let mut c = kind.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
        }
    }
}
