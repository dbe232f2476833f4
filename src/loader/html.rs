//! A small, safe pass over the HTML that books write inside markdown.
//!
//! Only what books use inline is understood — `kbd`, `code`, `em`/`i`,
//! `strong`/`b`, `sup`, `sub`, `span`, `a`, `br`, `img` (as its alt text),
//! `figure`/`figcaption`, `details`/`summary`, and the plain containers
//! `p`/`div` — and it becomes the model's styles, never terminal markup.
//! Any other tag is shown as the text it is; comments are dropped.
//! Attributes are read only for `a href` and `img alt`, and every string
//! that leaves here is sanitised by the caller like any other text.
//!
//! Hand-written rather than an HTML parser crate: what is needed is a
//! tokenizer of single tags over pulldown-cmark's HTML events (which are
//! already split into tags and lines), not a DOM; a full parser would
//! interpret far more than lectern may show.

/// A tag the pass knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Known {
    Kbd,
    Code,
    Em,
    Strong,
    Strike,
    Sup,
    Sub,
    /// `span`, `p`, `div`, `figure`, `details`, `small`, …: no style.
    Plain,
    /// A container that starts a new line (`p`, `div`, `figure`, …).
    Line,
    A,
    Br,
    Img,
    Figcaption,
    Summary,
    /// `pre`: in an HTML block, preformatted text (a code block); inline,
    /// a line of its own.
    Pre,
    /// The Rust book's `<Listing number=… file-name=… caption=…>` (its
    /// mdBook preprocessor's element): its file name and caption shown.
    Listing,
}

fn known(name: &str) -> Option<Known> {
    Some(match name.to_ascii_lowercase().as_str() {
        "kbd" => Known::Kbd,
        "code" | "tt" | "samp" => Known::Code,
        "em" | "i" | "cite" | "var" => Known::Em,
        "strong" | "b" => Known::Strong,
        "del" | "s" | "strike" => Known::Strike,
        "sup" => Known::Sup,
        "sub" => Known::Sub,
        "span" | "small" | "mark" | "u" | "ins" | "abbr" | "wbr" | "font" => Known::Plain,
        "p" | "div" | "figure" | "details" | "center" | "section" => Known::Line,
        "a" => Known::A,
        "br" => Known::Br,
        "img" => Known::Img,
        "figcaption" => Known::Figcaption,
        "summary" => Known::Summary,
        "pre" => Known::Pre,
        "listing" => Known::Listing,
        _ => return None,
    })
}

/// What the pass finds, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Piece {
    Text(String),
    Open(Known, Option<String>),
    Close(Known),
    /// A line ends here (a newline of an HTML block).
    Newline,
    /// A `<Listing>` opens: its number, file name and caption.
    Listing(Listing),
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Listing {
    pub number: Option<String>,
    pub file: Option<String>,
    pub caption: Option<String>,
}

/// Splits `html` into pieces. `comment` carries an unclosed `<!--` from one
/// event to the next (a comment over several lines of an HTML block).
pub(super) fn pass(html: &str, comment: &mut bool, out: &mut Vec<Piece>) {
    let mut rest = html;
    let mut text = String::new();
    while !rest.is_empty() {
        if *comment {
            match rest.find("-->") {
                Some(end) => {
                    rest = &rest[end + 3..];
                    *comment = false;
                }
                None => return flush(&mut text, out),
            }
            continue;
        }
        let Some(lt) = rest.find(['<', '\n', '&']) else {
            text.push_str(rest);
            break;
        };
        text.push_str(&rest[..lt]);
        rest = &rest[lt..];
        if rest.starts_with('\n') {
            flush(&mut text, out);
            out.push(Piece::Newline);
            rest = &rest[1..];
        } else if rest.starts_with('&') {
            let (s, n) = entity(rest);
            text.push_str(&s);
            rest = &rest[n..];
        } else if let Some(after) = rest.strip_prefix("<!--") {
            *comment = true;
            rest = after;
        } else if let Some((piece, n)) = tag(rest) {
            flush(&mut text, out);
            out.push(piece);
            rest = &rest[n..];
        } else {
            text.push('<');
            rest = &rest[1..];
        }
    }
    flush(&mut text, out);
}

fn flush(text: &mut String, out: &mut Vec<Piece>) {
    if !text.is_empty() {
        out.push(Piece::Text(std::mem::take(text)));
    }
}

/// A known tag at the start of `s` (on its `<`), and its length in bytes.
fn tag(s: &str) -> Option<(Piece, usize)> {
    let body = &s[1..];
    let (closing, body) = match body.strip_prefix('/') {
        Some(b) => (true, b),
        None => (false, body),
    };
    let name_len = body
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(body.len());
    if name_len == 0 || !body.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return None;
    }
    let kind = known(&body[..name_len])?;
    let attrs_at = 1 + usize::from(closing) + name_len;
    let end = close_of(s, attrs_at)?;
    let attrs = &s[attrs_at..end];
    if !attrs.is_empty() && !attrs.starts_with(|c: char| c.is_whitespace() || c == '/') {
        return None;
    }
    let piece = if closing {
        Piece::Close(kind)
    } else if kind == Known::Listing {
        Piece::Listing(Listing {
            number: attr(attrs, "number"),
            file: attr(attrs, "file-name"),
            caption: attr(attrs, "caption"),
        })
    } else {
        let value = match kind {
            Known::A => attr(attrs, "href"),
            Known::Img => attr(attrs, "alt"),
            _ => None,
        };
        Piece::Open(kind, value)
    };
    Some((piece, end + 1))
}

/// Where the `>` that ends a tag is, quotes respected.
fn close_of(s: &str, from: usize) -> Option<usize> {
    let mut quote = None;
    for (i, c) in s[from..].char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            (None, '>') => return Some(from + i),
            (None, '<') => return None,
            _ => {}
        }
    }
    None
}

/// The value of attribute `name` (entities decoded), if present.
fn attr(attrs: &str, name: &str) -> Option<String> {
    let mut rest = attrs;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
        if rest.is_empty() {
            return None;
        }
        let n = rest
            .find(|c: char| c.is_whitespace() || c == '=' || c == '/')
            .unwrap_or(rest.len());
        let key = &rest[..n];
        rest = rest[n..].trim_start();
        let mut value = "";
        if let Some(v) = rest.strip_prefix('=') {
            let v = v.trim_start();
            let (val, len) = match v.chars().next() {
                Some(q @ ('"' | '\'')) => {
                    let end = v[1..].find(q).map_or(v.len(), |e| e + 1);
                    (&v[1..end], (end + 1).min(v.len()))
                }
                _ => {
                    let end = v.find(char::is_whitespace).unwrap_or(v.len());
                    (&v[..end], end)
                }
            };
            value = val;
            rest = &v[len..];
        }
        if key.eq_ignore_ascii_case(name) {
            return Some(decode(value));
        }
    }
}

/// Text with its character references decoded.
pub(super) fn decode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        let (t, n) = entity(&rest[at..]);
        out.push_str(&t);
        rest = &rest[at + n..];
    }
    out.push_str(rest);
    out
}

/// The character reference at the start of `s` (on its `&`) and its
/// length; an unknown one is the `&` itself.
fn entity(s: &str) -> (String, usize) {
    let Some(end) = s[1..].find(';').filter(|&e| e > 0 && e <= 32) else {
        return ("&".into(), 1);
    };
    let name = &s[1..=end];
    let len = end + 2;
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok(),
            None => num.parse().ok(),
        };
        return match code.and_then(char::from_u32).filter(|&c| c != '\0') {
            Some(c) => (c.to_string(), len),
            None => ("\u{fffd}".into(), len),
        };
    }
    let c = match name {
        "amp" => "&",
        "lt" => "<",
        "gt" => ">",
        "quot" => "\"",
        "apos" => "'",
        "nbsp" => "\u{a0}",
        "vert" | "verbar" => "|",
        "mdash" => "—",
        "ndash" => "–",
        "hellip" => "…",
        "copy" => "©",
        "reg" => "®",
        "trade" => "™",
        "larr" => "←",
        "rarr" => "→",
        "uarr" => "↑",
        "darr" => "↓",
        "harr" => "↔",
        "times" => "×",
        "divide" => "÷",
        "plusmn" => "±",
        "le" => "≤",
        "ge" => "≥",
        "ne" => "≠",
        "lsquo" => "‘",
        "rsquo" => "’",
        "ldquo" => "“",
        "rdquo" => "”",
        "laquo" => "«",
        "raquo" => "»",
        "middot" => "·",
        "bull" => "•",
        "deg" => "°",
        "euro" => "€",
        "pound" => "£",
        "sect" => "§",
        "para" => "¶",
        "shy" => "\u{ad}",
        "zwsp" => "\u{200b}",
        "ast" => "*",
        "num" => "#",
        "lbrace" | "lcub" => "{",
        "rbrace" | "rcub" => "}",
        "lsqb" | "lbrack" => "[",
        "rsqb" | "rbrack" => "]",
        "grave" => "`",
        "bsol" => "\\",
        "lowbar" => "_",
        "Hat" => "^",
        "tilde" => "~",
        "dollar" => "$",
        "percnt" => "%",
        "excl" => "!",
        "quest" => "?",
        "colon" => ":",
        "semi" => ";",
        "equals" => "=",
        "plus" => "+",
        "sol" => "/",
        _ => return ("&".into(), 1),
    };
    (c.into(), len)
}

/// `text` as superscript (or subscript) characters when every character
/// has one, else `^(text)` (`_(text)`).
pub(super) fn script(text: &str, sup: bool) -> String {
    const DIGITS_SUP: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    const DIGITS_SUB: [char; 10] = ['₀', '₁', '₂', '₃', '₄', '₅', '₆', '₇', '₈', '₉'];
    let one = |c: char| -> Option<char> {
        if let Some(d) = c.to_digit(10) {
            return Some(if sup { DIGITS_SUP } else { DIGITS_SUB }[d as usize]);
        }
        Some(match (sup, c) {
            (_, '+') => {
                if sup {
                    '⁺'
                } else {
                    '₊'
                }
            }
            (_, '-') => {
                if sup {
                    '⁻'
                } else {
                    '₋'
                }
            }
            (_, '=') => {
                if sup {
                    '⁼'
                } else {
                    '₌'
                }
            }
            (_, '(') => {
                if sup {
                    '⁽'
                } else {
                    '₍'
                }
            }
            (_, ')') => {
                if sup {
                    '⁾'
                } else {
                    '₎'
                }
            }
            (true, 'n') => 'ⁿ',
            (true, 'i') => 'ⁱ',
            (false, 'x') => 'ₓ',
            _ => return None,
        })
    };
    match text.chars().map(one).collect::<Option<String>>() {
        Some(s) if !s.is_empty() => s,
        _ => format!("{}({text})", if sup { '^' } else { '_' }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(html: &str) -> Vec<Piece> {
        let mut out = Vec::new();
        let mut comment = false;
        pass(html, &mut comment, &mut out);
        out
    }

    fn text(s: &str) -> Piece {
        Piece::Text(s.into())
    }

    #[test]
    fn known_tags_become_pieces_and_unknown_ones_stay_text() {
        assert_eq!(
            pieces("<kbd>Ctrl</kbd><blink>x</blink>"),
            [
                Piece::Open(Known::Kbd, None),
                text("Ctrl"),
                Piece::Close(Known::Kbd),
                text("<blink>x</blink>"),
            ]
        );
        assert_eq!(
            pieces("<script>alert(1)</script>"),
            [text("<script>alert(1)</script>")]
        );
        assert_eq!(pieces("a < b"), [text("a < b")]);
        assert_eq!(pieces("<br/>"), [Piece::Open(Known::Br, None)]);
    }

    #[test]
    fn nesting_and_unclosed_tags_are_just_pieces() {
        let p = pieces("<b><i>x</b> y <code");
        assert_eq!(p[0], Piece::Open(Known::Strong, None));
        assert_eq!(p[1], Piece::Open(Known::Em, None));
        assert_eq!(p[3], Piece::Close(Known::Strong));
        assert_eq!(p.last(), Some(&text(" y <code")));
    }

    #[test]
    fn comments_are_dropped_even_over_several_lines() {
        let mut comment = false;
        let mut out = Vec::new();
        pass("before <!-- a note\n", &mut comment, &mut out);
        assert!(comment);
        pass("still note --> after\n", &mut comment, &mut out);
        assert!(!comment);
        assert_eq!(out, [text("before "), text(" after"), Piece::Newline]);
    }

    #[test]
    fn entities_are_decoded_and_unknown_ones_kept() {
        assert_eq!(
            decode("a &amp; b &vert; &#124; &#x7C; &bogus; &"),
            "a & b | | | &bogus; &"
        );
        assert_eq!(decode("&#0; &#xFFFFFF;"), "\u{fffd} \u{fffd}");
        // A control from an entity is a character here; the caller's
        // sanitiser makes it visible.
        assert_eq!(decode("&#27;"), "\u{1b}");
    }

    #[test]
    fn hostile_attributes_give_only_text() {
        let p = pieces(r#"<img src="x" alt='a "quoted" &lt;alt&gt;' onerror="evil()">"#);
        assert_eq!(
            p,
            [Piece::Open(Known::Img, Some("a \"quoted\" <alt>".into()))]
        );
        let p = pieces("<a href=\"javascript:x\" title='>'>t</a>");
        assert_eq!(p[0], Piece::Open(Known::A, Some("javascript:x".into())));
        assert_eq!(p[1], text("t"));
        // A tag cut off by the end of its event is text.
        assert_eq!(pieces("<a href=\"x"), [text("<a href=\"x")]);
        assert_eq!(pieces("<kbdx>"), [text("<kbdx>")]);
    }

    #[test]
    fn listings_and_pre_are_known() {
        let p = pieces("<Listing number=\"1-2\" file-name='src/main.rs' caption=\"A &amp; B\">");
        assert_eq!(
            p,
            [Piece::Listing(Listing {
                number: Some("1-2".into()),
                file: Some("src/main.rs".into()),
                caption: Some("A & B".into()),
            })]
        );
        assert_eq!(pieces("</Listing>"), [Piece::Close(Known::Listing)]);
        assert_eq!(pieces("<pre>"), [Piece::Open(Known::Pre, None)]);
    }

    #[test]
    fn scripts_map_when_they_can() {
        assert_eq!(script("2", true), "²");
        assert_eq!(script("n", true), "ⁿ");
        assert_eq!(script("2", false), "₂");
        assert_eq!(script("abc", true), "^(abc)");
    }
}
