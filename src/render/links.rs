//! OSC 8 hyperlinks for styled output. The layout follows a link's text
//! with its target (` <https://…>`, in the dim role), so a link can never
//! disguise where it goes; here the text and that target are made
//! clickable, for `http`, `https` and `mailto` targets only.

use crate::layout::{Line, Role};

/// The target each span links to, by line and span: the link-role spans
/// before a ` <target>` span (across a wrap) link to it, and so does the
/// target itself; a bare URL as link text links to itself.
pub fn targets(lines: &[Line]) -> Vec<Vec<Option<String>>> {
    let mut out: Vec<Vec<Option<String>>> =
        lines.iter().map(|l| vec![None; l.spans.len()]).collect();
    let mut pending: Vec<(usize, usize)> = Vec::new();
    for (li, line) in lines.iter().enumerate() {
        for (si, span) in line.spans.iter().enumerate() {
            let text = span.text.trim();
            if span.style.role == Role::Link {
                if safe(text) {
                    out[li][si] = Some(text.to_string());
                } else {
                    pending.push((li, si));
                }
            } else if let Some(url) = suffix(&span.text).filter(|u| safe(u)) {
                for (l, s) in pending.drain(..) {
                    out[l][s] = Some(url.to_string());
                }
                out[li][si] = Some(url.to_string());
            } else if text.chars().any(char::is_alphanumeric) {
                // Words between: whatever was pending linked nowhere we show.
                pending.clear();
            }
        }
    }
    out
}

/// The target of a ` <target>` span.
fn suffix(text: &str) -> Option<&str> {
    text.trim()
        .strip_prefix('<')
        .and_then(|t| t.strip_suffix('>'))
}

/// A target lectern will make clickable: a web or mail address made of
/// printable ASCII only (nothing that could end the escape sequence).
pub fn safe(url: &str) -> bool {
    crate::model::link::is_web(url)
}

/// `text` as a hyperlink to `url` (which [`safe`] accepted).
pub fn wrap(out: &mut String, url: &str, text: &str) {
    out.push_str("\x1b]8;;");
    out.push_str(url);
    out.push_str("\x1b\\");
    out.push_str(text);
    out.push_str("\x1b]8;;\x1b\\");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::{Span, Style};

    fn line(spans: &[(&str, Role)]) -> Line {
        Line {
            spans: spans
                .iter()
                .map(|(t, r)| Span::new(*t, Style::new(*r)))
                .collect(),
        }
    }

    #[test]
    fn link_text_and_target_link_to_the_target_across_a_wrap() {
        let lines = [
            line(&[("see ", Role::Text), ("the ", Role::Link)]),
            line(&[
                ("│ ", Role::Quote),
                ("book", Role::Link),
                (" <https://a.org/b>", Role::Dim),
            ]),
            line(&[
                ("javascript ", Role::Link),
                (" <javascript:alert(1)>", Role::Dim),
            ]),
            line(&[("https://x.io", Role::Link), (" and ", Role::Text)]),
        ];
        let t = targets(&lines);
        let a = Some("https://a.org/b".to_string());
        assert_eq!(t[0], [None, a.clone()]);
        assert_eq!(t[1], [None, a.clone(), a]);
        assert_eq!(t[2], [None, None]);
        assert_eq!(t[3], [Some("https://x.io".to_string()), None]);
    }

    #[test]
    fn only_web_and_mail_targets_without_controls_are_safe() {
        assert!(safe("https://example.com/a?b=c"));
        assert!(safe("mailto:me@example.com"));
        assert!(!safe("file:///etc/passwd"));
        assert!(!safe("https://a\x1b]8;;evil"));
        assert!(!safe("https://a b"));
        assert!(!safe("https://"));
        assert!(
            !safe("ht\u{e9}ps://a"),
            "not a char boundary at the scheme's end"
        );
    }
}
