use super::*;

fn drawn(body: &str) -> String {
    draw(body, true)
}

#[test]
fn a_production_is_its_name_an_arrow_and_its_expression() {
    assert_eq!(
        drawn("@root Widget -> Part Other_Name `kw` <any text>\n"),
        "**Widget** → Part Other\\_Name `kw` \\<any text\\>\n"
    );
}

#[test]
fn each_source_line_is_a_line_indented_by_no_break_spaces() {
    let nbsp = |n| "\u{a0}".repeat(n);
    assert_eq!(
        drawn("Pick ->\n      Part\n    | Other?\n"),
        format!("**Pick** →\\\n{}Part\\\n{}\\| Other\\?\n", nbsp(6), nbsp(4))
    );
}

#[test]
fn productions_apart_are_paragraphs_apart_and_comments_stay_on_their_lines() {
    assert_eq!(
        drawn("// the first\nA -> Part\n\nB -> `b`*\n"),
        "// the first\\\n**A** → Part\n\n**B** → `b`\\*\n"
    );
}

#[test]
fn a_suffix_is_emphasis_with_its_links_as_their_text() {
    assert_eq!(
        drawn("S -> Part _except [Other] or [those][a.rule] or `[x]`_ `;`\n"),
        "**S** → Part *except Other or those or `[x]`* `;`\n"
    );
    assert_eq!(
        drawn("S -> Part | _Name\n"),
        "**S** → Part \\| \\_Name\n",
        "a name may start with `_` where no expression ends before it"
    );
}

#[test]
fn a_footnote_mark_is_a_note_of_the_chapter_except_in_the_summary() {
    assert_eq!(
        drawn("F -> Part[^old] `k`[^new]\n"),
        "**F** → Part[^old] `k`[^new]\n"
    );
    assert_eq!(draw("F -> Part[^old] `k`\n", false), "**F** → Part `k`\n");
}

#[test]
fn ranges_charsets_and_code_points_are_shown_as_written() {
    assert_eq!(
        drawn("H -> [`a`-`f` U+0009]{1..=6} !`x` ~[`y`]\n"),
        "**H** → \\[`a`\\-`f` U+0009\\]\\{1\\.\\.\\=6\\} \\!`x` \\~\\[`y`\\]\n"
    );
}

#[test]
fn a_terminal_of_spaces_at_its_ends_keeps_them() {
    assert_eq!(drawn("T -> ` x`\n"), "**T** → `  x `\n");
}

#[test]
fn what_the_markdown_pass_makes_of_it_reads_as_the_page_does() {
    let md = format!(
        "{}\n[^old]: Before 2018.\n",
        drawn("F ->\n    Part[^old] _except `z`_ (`a` | B_C)*\n")
    );
    let blocks = crate::loader::markdown::parse(&md);
    let text: Vec<String> = blocks
        .iter()
        .map(crate::model::Lesson::block_text)
        .collect();
    let text = text.join("\n");
    assert!(text.contains("F →"), "{text}");
    assert!(text.contains("Part[1] except z (a | B_C)*"), "{text}");
    assert!(text.contains("Before 2018."), "{text}");
    assert!(!text.contains('`') && !text.contains('\\'), "{text}");
}
