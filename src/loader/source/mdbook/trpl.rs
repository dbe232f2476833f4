//! The Rust Book wraps its listings in `<Listing number="2-1"
//! file-name="src/main.rs" caption="…">` … `</Listing>` for its own
//! preprocessor (mdbook-trpl-listing). Read as markdown those tags would
//! show as text; lectern writes what that preprocessor shows instead: the
//! file's name above the code, "Listing 2-1: caption" below it.

/// `text` with its listing tags as the lines they stand for.
pub fn listings(text: &str) -> String {
    if !text.contains("<Listing") {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut open: Vec<(Option<String>, Option<String>)> = Vec::new();
    let mut fence: Option<char> = None;
    for line in text.split_inclusive('\n') {
        let t = line.trim();
        let starts = |c: char| t.starts_with(&format!("{c}{c}{c}"));
        match fence {
            Some(c) if starts(c) => fence = None,
            Some(_) => {}
            None if starts('`') => fence = Some('`'),
            None if starts('~') => fence = Some('~'),
            None if t.starts_with("<Listing") && t.ends_with('>') => {
                let attr = |name: &str| attribute(t, name);
                if let Some(file) = attr("file-name") {
                    out.push_str(&format!("\nFilename: {file}\n\n"));
                }
                open.push((attr("number"), attr("caption")));
                continue;
            }
            None if t == "</Listing>" => {
                let caption = match open.pop() {
                    Some((Some(n), Some(c))) => format!("Listing {n}: {c}"),
                    Some((Some(n), None)) => format!("Listing {n}"),
                    Some((None, Some(c))) => c,
                    _ => String::new(),
                };
                if !caption.is_empty() {
                    out.push_str(&format!("\n{caption}\n\n"));
                }
                continue;
            }
            None => {}
        }
        out.push_str(line);
    }
    out
}

/// The value of `name="…"` in a tag.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = tag[at..].find('"')?;
    Some(tag[at..at + end].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_tags_become_a_file_name_and_a_caption() {
        let md = "<Listing number=\"2-1\" file-name=\"src/main.rs\" caption=\"A `guess`\">\n\n```rust\n<Listing>\n```\n\n</Listing>\n<Listing caption=\"Only this\">\nx\n</Listing>\n";
        assert_eq!(
            listings(md),
            "\nFilename: src/main.rs\n\n\n```rust\n<Listing>\n```\n\n\nListing 2-1: A `guess`\n\nx\n\nOnly this\n\n"
        );
        assert_eq!(listings("no listings"), "no listings");
    }
}
