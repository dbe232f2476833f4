//! The directives of a text, found as mdBook's pattern finds them
//! (`\{\{\s*#([a-zA-Z0-9_]+)\s+([^}]+)\}\}`, and an escaped `\{{#…}}`
//! running to the last `}}` of its line), in one pass: where the next `}`
//! is, and where each line's last `}}` is, are looked for once and kept,
//! not once per `{{` (a directive never closed, a million characters long
//! and full of `{{`, was quadratic).

pub struct Link<'t> {
    pub start: usize,
    pub end: usize,
    /// `None`: an escaped directive.
    pub name: Option<&'t str>,
    pub args: &'t str,
}

/// What the scan has found ahead of where it is.
#[derive(Default)]
struct Ahead {
    /// The first `}` at or after the last place asked (or the end).
    close: Option<usize>,
    /// The line last asked about: its end and the start of its last `}}`.
    line: Option<(usize, Option<usize>)>,
}

impl Ahead {
    fn close(&mut self, s: &str, from: usize) -> Option<usize> {
        match self.close {
            Some(c) if c >= from => {}
            _ => {
                let found = s[from..].find('}').map_or(s.len(), |n| from + n);
                #[cfg(test)]
                crate::work::add(found - from + 1);
                self.close = Some(found);
            }
        }
        self.close.filter(|&c| c < s.len())
    }

    /// The start of the last `}}` of the line `p` is on, if it is after `p`.
    fn last_close_on_line(&mut self, s: &str, p: usize) -> Option<usize> {
        match self.line {
            Some((end, _)) if end > p => {}
            _ => {
                let end = s[p..].find('\n').map_or(s.len(), |n| p + n);
                let begin = s[..p].rfind('\n').map_or(0, |n| n + 1);
                #[cfg(test)]
                crate::work::add(end - begin + 1);
                self.line = Some((end, s[begin..end].rfind("}}").map(|q| begin + q)));
            }
        }
        self.line.and_then(|(_, q)| q).filter(|&q| q > p)
    }
}

/// Every directive of `s` in order.
pub fn links(s: &str) -> Vec<Link<'_>> {
    let mut out = Vec::new();
    let mut ahead = Ahead::default();
    let mut i = 0;
    while let Some(p) = s[i..].find("{{").map(|p| p + i) {
        #[cfg(test)]
        crate::work::add(p - i + 1);
        if p > i && s.as_bytes()[p - 1] == b'\\' && s[p..].starts_with("{{#") {
            if let Some(q) = ahead.last_close_on_line(s, p) {
                let end = q + 2;
                out.push(Link {
                    start: p - 1,
                    end,
                    name: None,
                    args: "",
                });
                i = end;
                continue;
            }
        }
        match directive(s, p, &mut ahead) {
            Some(link) => {
                i = link.end;
                out.push(link);
            }
            None => i = p + 1,
        }
    }
    out
}

/// `{{ #name args }}` at `p`.
fn directive<'t>(s: &'t str, p: usize, ahead: &mut Ahead) -> Option<Link<'t>> {
    let after = &s[p + 2..];
    let body = after.trim_start();
    let hash = p + 2 + (after.len() - body.len());
    let rest = body.strip_prefix('#')?;
    let n = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    if n == 0 {
        return None;
    }
    let name = &rest[..n];
    let args_start = hash + 1 + n;
    if !s[args_start..].starts_with(char::is_whitespace) {
        return None;
    }
    // No `}` can stand between `p` and the arguments (only spaces, `#`
    // and a name do): the first after `p` is the first after them.
    let close = ahead.close(s, p)?;
    let args = &s[args_start..close];
    if !s[close..].starts_with("}}") || args.trim().is_empty() {
        return None;
    }
    Some(Link {
        start: p,
        end: close + 2,
        name: Some(name),
        args,
    })
}
