//! A small, safe pass over the HTML that books write inside markdown.
//!
//! Only what books use is understood — `kbd`, `code`, `em`/`i`,
//! `strong`/`b`, `sup`, `sub`, `mark`, `span`, `a`, `br`, `img` (as its alt
//! text), `figure`/`figcaption`, `details`/`summary`, `hr`, `blockquote`,
//! checkboxes, simple tables, and the plain containers `p`/`div` — and it
//! becomes the model's styles and blocks, never terminal markup. Any other
//! tag is shown as the text it is; comments, `style` and `script` (CSS and
//! code for a browser, not for the reader) are dropped. Attributes are read
//! only for `a href`, `img alt` and `input type checked`, and every string
//! that leaves here is sanitised by the caller like any other text.
//!
//! Hand-written rather than an HTML parser crate: what is needed is a
//! tokenizer of single tags over pulldown-cmark's HTML events (which are
//! already split into tags and lines), not a DOM; a full parser would
//! interpret far more than lectern may show.

mod entity;

use entity::entity;

/// What the pass is skipping, carried from one event to the next (an
/// HTML block comes as one event per line).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) enum Skip {
    #[default]
    Nothing,
    /// An unclosed `<!--`.
    Comment,
    /// The inside of a `<style>` or `<script>`, up to its closing tag.
    Raw(Known),
}

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
    Mark,
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
    /// `hr`: a rule.
    Hr,
    /// `<input type="checkbox">`: its value is the box drawn, ☐ or ☑.
    Check,
    /// `blockquote`: in an HTML block, a quote; inline, a line.
    Quote,
    /// `details`: in an HTML block, a quote led by its summary, or by
    /// "Notes" when it has none (mdBook's speaker notes); inline, a line.
    Details,
    /// `table`, `tr`, `td`/`th`: in one HTML block, a table; cut by
    /// markdown (a blank line, a list in a cell), lines of its content.
    Table,
    Row,
    Cell,
    HeadCell,
    /// `style` and `script`: what they hold is skipped.
    Style,
    Script,
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
        "mark" => Known::Mark,
        "span" | "small" | "u" | "ins" | "abbr" | "wbr" | "font" => Known::Plain,
        "p" | "div" | "figure" | "center" | "section" | "caption" => Known::Line,
        "details" => Known::Details,
        "thead" | "tbody" | "tfoot" => Known::Plain,
        "hr" => Known::Hr,
        "input" => Known::Check,
        "blockquote" => Known::Quote,
        "table" => Known::Table,
        "tr" => Known::Row,
        "td" => Known::Cell,
        "th" => Known::HeadCell,
        "style" => Known::Style,
        "script" => Known::Script,
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

/// Splits `html` into pieces. `skip` carries what is being skipped from
/// one event to the next (a comment over several lines of an HTML block).
pub(super) fn pass(html: &str, skip: &mut Skip, out: &mut Vec<Piece>) {
    let mut rest = html;
    let mut text = String::new();
    while !rest.is_empty() {
        if *skip != Skip::Nothing {
            let (end, len) = match *skip {
                Skip::Raw(Known::Script) => ("</script", 0),
                Skip::Raw(_) => ("</style", 0),
                _ => ("-->", 3),
            };
            // ASCII lowercase keeps every byte where it was.
            match rest.to_ascii_lowercase().find(end) {
                Some(at) => {
                    // A raw element's closing tag is read (and dropped)
                    // as a tag.
                    rest = &rest[at + len..];
                    *skip = Skip::Nothing;
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
            *skip = Skip::Comment;
            rest = after;
        } else if let Some((piece, n)) = tag(rest) {
            flush(&mut text, out);
            match piece {
                Piece::Open(k @ (Known::Style | Known::Script), _) => *skip = Skip::Raw(k),
                Piece::Close(Known::Style | Known::Script) => {}
                piece => out.push(piece),
            }
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
            // Another kind of input (a text field, a button) is shown as
            // the text it is.
            Known::Check => match attr(attrs, "type") {
                Some(t) if t.eq_ignore_ascii_case("checkbox") => Some(
                    if attr(attrs, "checked").is_some() {
                        "☑"
                    } else {
                        "☐"
                    }
                    .into(),
                ),
                _ => return None,
            },
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

/// `text` as superscript (or subscript) characters when every character
/// has one, else `^(text)` (`_(text)`). Unicode has raised forms of the
/// digits, `+-=()` and every small letter but q, and lowered forms of the
/// digits, `+-=()` and a few letters; those read (and are found, by NFKC)
/// as the letters themselves: `n<sub>i</sub>` is `nᵢ`, not `n_(i)`.
pub(super) fn script(text: &str, sup: bool) -> String {
    const PLAIN_SUP: &str = "0123456789+-=()abcdefghijklmnoprstuvwxyz";
    const SUP: &str = "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ";
    const PLAIN_SUB: &str = "0123456789+-=()aehijklmnoprstuvx";
    const SUB: &str = "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ";
    let (plain, raised) = if sup {
        (PLAIN_SUP, SUP)
    } else {
        (PLAIN_SUB, SUB)
    };
    let one = |c: char| -> Option<char> {
        let at = plain.chars().position(|p| p == c)?;
        raised.chars().nth(at)
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
        let mut skip = Skip::Nothing;
        pass(html, &mut skip, &mut out);
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
        assert_eq!(pieces("<script>alert(1)</script>after"), [text("after")]);
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
        let mut skip = Skip::Nothing;
        let mut out = Vec::new();
        pass("before <!-- a note\n", &mut skip, &mut out);
        assert_eq!(skip, Skip::Comment);
        pass("still note --> after\n", &mut skip, &mut out);
        assert_eq!(skip, Skip::Nothing);
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
    fn style_and_script_are_skipped_even_over_several_lines() {
        let mut skip = Skip::Nothing;
        let mut out = Vec::new();
        pass("<STYLE>\n", &mut skip, &mut out);
        assert_eq!(skip, Skip::Raw(Known::Style));
        pass("h1 ~ ul > li { padding: 0; }\n", &mut skip, &mut out);
        pass("</style>shown\n", &mut skip, &mut out);
        assert_eq!(skip, Skip::Nothing);
        assert_eq!(out, [text("shown"), Piece::Newline]);
        // A script ends at its own closing tag, not at a style's.
        assert_eq!(pieces("<script>a</style>b</script>c"), [text("c")]);
    }

    #[test]
    fn checkboxes_are_boxes_and_other_inputs_text() {
        assert_eq!(
            pieces(r#"<input type="checkbox" checked disabled><input type=CHECKBOX>"#),
            [
                Piece::Open(Known::Check, Some("☑".into())),
                Piece::Open(Known::Check, Some("☐".into())),
            ]
        );
        assert_eq!(
            pieces(r#"<input type="text">"#),
            [text(r#"<input type="text">"#)]
        );
        assert_eq!(pieces("<hr/>"), [Piece::Open(Known::Hr, None)]);
    }

    #[test]
    fn scripts_map_when_they_can() {
        assert_eq!(script("2", true), "²");
        assert_eq!(script("n", true), "ⁿ");
        assert_eq!(script("2", false), "₂");
        assert_eq!(script("abc", true), "ᵃᵇᶜ");
        assert_eq!(script("q", true), "^(q)", "no raised q");
        assert_eq!(script("i+1", false), "ᵢ₊₁");
        assert_eq!(script("y", false), "_(y)", "no lowered y");
    }
}
