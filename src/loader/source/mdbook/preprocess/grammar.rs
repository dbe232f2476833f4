//! mdbook-spec's grammar summary: `{{ grammar-summary }}` in a chapter
//! stands for every production of the book's ```` ```grammar,CATEGORY ````
//! blocks, one section per category (`## Items summary`), in the order
//! the categories first appear, as mdbook-spec writes it. The chapters are
//! read in SUMMARY.md's order (mdbook-spec walks the folder, in no order
//! a reader could see).

use super::Chapter;
use super::fences::{Piece, pieces};

/// What a chapter writes for the summary to stand.
pub const MARK: &str = "{{ grammar-summary }}";

/// The most bytes of productions gathered for one summary: the Rust
/// Reference has about 110 KB; a book with more is cut there.
const MAX_BYTES: usize = 4 << 20;

/// The categories (first-seen order) and their productions, from `texts`.
fn gather<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut total = 0;
    for text in texts {
        for piece in pieces(text) {
            let Piece::Fence(f) = piece else { continue };
            let Some(category) = f.info.strip_prefix("grammar,").map(str::trim) else {
                continue;
            };
            if total + f.body.len() > MAX_BYTES {
                return out;
            }
            total += f.body.len();
            let at = match out.iter().position(|(c, _)| c == category) {
                Some(at) => at,
                None => {
                    out.push((category.to_string(), String::new()));
                    out.len() - 1
                }
            };
            let body = &mut out[at].1;
            if !body.is_empty() {
                body.push('\n');
            }
            body.push_str(f.body.trim_end_matches('\n'));
            body.push('\n');
        }
    }
    out
}

/// The markdown the mark stands for: a heading and a grammar block per
/// category.
fn summary(categories: &[(String, String)]) -> String {
    let mut out = String::new();
    for (category, body) in categories {
        let mut chars = category.chars();
        let cap: String = chars
            .next()
            .into_iter()
            .flat_map(char::to_uppercase)
            .collect();
        out.push_str(&format!(
            "\n## {cap}{} summary\n\n```grammar,{category}\n{body}```\n",
            chars.as_str()
        ));
    }
    out
}

/// `text` with its grammar summary made from the book's chapters.
pub fn rewrite(text: &str, chapter: &dyn Chapter) -> String {
    let texts = chapter.texts();
    let made = summary(&gather(texts.iter().map(String::as_str)));
    text.replace(MARK, &made)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_category_in_the_order_it_first_appears_with_all_its_productions() {
        let a =
            "# A\n\n```grammar,items\nItem -> Thing\n```\n\n```rust\nfn not_grammar() {}\n```\n";
        let b = "```grammar,lexer\nTOKEN -> `t`\n```\n\n```grammar,items\nThing -> TOKEN\n```\n";
        let made = summary(&gather([a, b]));
        assert_eq!(
            made,
            "\n## Items summary\n\n```grammar,items\nItem -> Thing\n\nThing -> TOKEN\n```\n\n## Lexer summary\n\n```grammar,lexer\nTOKEN -> `t`\n```\n"
        );
    }

    #[test]
    fn a_book_of_no_grammar_has_an_empty_summary() {
        assert_eq!(summary(&gather(["# Nothing\n"])), "");
    }
}
