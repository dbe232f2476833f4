//! mdbook-spec's links to the standard library: a link label that no
//! definition names and that reads as a Rust path (`[an
//! allocator][std::alloc]`, `` [`Option::map`] ``) is an intra-doc link,
//! which mdbook-spec resolves with rustdoc. lectern has no rustdoc to ask:
//! such a link goes to the documentation's search for the path, in the
//! crate it names (std otherwise). Left alone, the label showed as text,
//! brackets and all, where the book shows the link's words. A link
//! definition whose destination is such a path (`[CStr]: core::ffi::CStr`)
//! goes there too.

use pulldown_cmark::{BrokenLink, Parser};

/// Link definitions (each on its own line) for the labels of `text` that
/// are Rust paths no definition names, each once.
pub fn definitions(text: &str) -> String {
    // Most chapters bracket no path: they are not parsed again.
    if !super::spec::bracketed(text).any(|label| rust_path(label).is_some()) {
        return String::new();
    }
    let mut labels: Vec<String> = Vec::new();
    let mut found = |link: BrokenLink<'_>| {
        let label = link.reference.to_string();
        if rust_path(&label).is_some() && !labels.contains(&label) {
            labels.push(label);
        }
        None
    };
    let options = crate::loader::markdown::options();
    Parser::new_with_broken_link_callback(text, options, Some(&mut found)).for_each(drop);
    labels
        .iter()
        .filter_map(|label| Some(format!("\n[{label}]: <{}>", url(rust_path(label)?))))
        .collect()
}

/// `line` (one line of prose, its newline kept) with its destination made
/// the documentation's search, if it is a link definition whose
/// destination is a Rust path.
pub fn definition_line(line: &str) -> Option<String> {
    let body = line.trim_start_matches(' ');
    let indent = &line[..line.len() - body.len()];
    if indent.len() > 3 {
        return None;
    }
    let (label, rest) = body.strip_prefix('[')?.split_once("]:")?;
    let dest = rest.trim();
    let dest = dest
        .strip_prefix('<')
        .and_then(|d| d.strip_suffix('>'))
        .unwrap_or(dest);
    if label.is_empty() || label.starts_with('^') || dest.contains(char::is_whitespace) {
        return None;
    }
    let path = rust_path(dest)?;
    let end = if line.ends_with('\n') { "\n" } else { "" };
    Some(format!("{indent}[{label}]: <{}>{end}", url(path)))
}

/// The path `label` names (backticks and a `#part` left out), if it is
/// one: segments of letters, digits and `_` joined by `::` (after a
/// rustdoc disambiguator such as `macro@`), generic
/// arguments in `<>`, a macro's `!` or a function's `()` at the end.
fn rust_path(label: &str) -> Option<&str> {
    let inner = label.trim();
    let inner = inner
        .strip_prefix('`')
        .and_then(|t| t.strip_suffix('`'))
        .unwrap_or(inner);
    let path = inner.split('#').next()?;
    // rustdoc's disambiguators: `macro@Clone`, `struct@Rc`.
    let path = match path.split_once('@') {
        Some((kind, rest)) if DISAMBIGUATORS.contains(&kind) => rest,
        _ => path,
    };
    let bare = path
        .strip_suffix("()")
        .or_else(|| path.strip_suffix('!'))
        .unwrap_or(path);
    let bare = match bare.find('<') {
        Some(at) if bare.ends_with('>') => &bare[..at],
        Some(_) => return None,
        None => bare,
    };
    let segment = |s: &str| {
        s.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    bare.split("::").all(segment).then_some(path)
}

/// What rustdoc accepts before `@` to say which kind of item a path is.
const DISAMBIGUATORS: [&str; 22] = [
    "struct",
    "enum",
    "trait",
    "union",
    "mod",
    "module",
    "const",
    "constant",
    "fn",
    "function",
    "method",
    "derive",
    "type",
    "value",
    "macro",
    "prim",
    "primitive",
    "static",
    "field",
    "variant",
    "tymethod",
    "attr",
];

const CRATES: [&str; 5] = ["std", "core", "alloc", "proc_macro", "test"];

/// Where the documentation's search finds `path`.
fn url(path: &str) -> String {
    let first = path.split("::").next().unwrap_or_default();
    let krate = CRATES.iter().find(|c| **c == first).unwrap_or(&"std");
    let query: String = path
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b':' | b'.' | b'-' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect();
    format!("https://doc.rust-lang.org/{krate}/index.html?search={query}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_told_from_other_labels() {
        for (label, path) in [
            ("std::alloc", "std::alloc"),
            ("`Option::map`", "Option::map"),
            ("std::ptr#provenance", "std::ptr"),
            ("`std::panic!`", "std::panic!"),
            ("`size_of()`", "size_of()"),
            ("`std::cell::UnsafeCell<T>`", "std::cell::UnsafeCell<T>"),
            ("u8", "u8"),
            ("macro@PartialEq", "PartialEq"),
        ] {
            assert_eq!(rust_path(label), Some(path), "{label}");
        }
        for label in [
            "u8; 4",
            "a b",
            "1st",
            "",
            "x<",
            "::std",
            "a::",
            "me@example",
            "@x",
        ] {
            assert_eq!(rust_path(label), None, "{label}");
        }
    }

    #[test]
    fn definitions_to_paths_go_to_the_search_and_others_stay() {
        assert_eq!(
            definition_line("[CStr]: core::ffi::CStr\n").as_deref(),
            Some("[CStr]: <https://doc.rust-lang.org/core/index.html?search=core::ffi::CStr>\n")
        );
        assert_eq!(
            definition_line("  [`get`]: <slice::get>").as_deref(),
            Some("  [`get`]: <https://doc.rust-lang.org/std/index.html?search=slice::get>")
        );
        for kept in [
            "[a]: other.md\n",
            "[a]: https://example.com\n",
            "[a]: #part\n",
            "[^note]: text\n",
            "    [a]: std::alloc\n",
            "[a]: std::alloc \"title\"\n",
            "Not [a]: definition",
        ] {
            assert_eq!(definition_line(kept), None, "{kept}");
        }
    }

    #[test]
    fn undefined_path_labels_get_a_search_and_others_stay() {
        let text = "An [allocator][std::alloc], [`Option<T>`], [kept][defined], \
                    [not a path][a b], `[in::code]` and [std::alloc] again.\n\n\
                    [defined]: other.md\n";
        let defs = definitions(text);
        assert_eq!(
            defs,
            "\n[std::alloc]: <https://doc.rust-lang.org/std/index.html?search=std::alloc>\
             \n[`Option<T>`]: <https://doc.rust-lang.org/std/index.html?search=Option%3CT%3E>"
        );
        let core = definitions("[`core::mem::forget`]");
        assert!(
            core.contains("/core/index.html?search=core::mem::forget>"),
            "{core}"
        );
    }
}
