use super::*;
use crate::model::runs_text;

fn one(toml: &str) -> Check {
    let mut q = parse(toml, "q.toml").unwrap();
    assert!(q.problems.is_empty(), "{:?}", q.problems);
    assert_eq!(q.checks.len(), 1);
    q.checks.remove(0)
}

fn texts(c: &Check) -> Vec<String> {
    c.order
        .iter()
        .map(|&i| runs_text(&c.options[i].text))
        .collect()
}

#[test]
fn a_multiple_choice_question_with_one_answer() {
    let c = one(r#"
[[questions]]
id = "abc"
type = "MultipleChoice"
prompt.prompt = "What is **1 + 1**?"
prompt.distractors = ["1", "3", "`infinity`"]
answer.answer = "2"
context = "Ask a *mathematician*."
"#);
    assert_eq!(c.id, "abc");
    assert_eq!(c.kind, CheckKind::Choice { multi: false });
    assert_eq!(runs_text(&c.question), "What is 1 + 1?");
    assert!(c.question.iter().any(|r| r.bold && r.text == "1 + 1"));
    assert!(c.body.is_empty());
    let correct: Vec<bool> = c.options.iter().map(|o| o.correct).collect();
    assert_eq!(
        correct,
        [true, false, false, false],
        "the answer first, in file order"
    );
    assert!(
        c.options[3]
            .text
            .iter()
            .any(|r| r.code && r.text == "infinity")
    );
    assert!(Check::is_permutation(&c.order, 4));
    assert_eq!(
        c.why,
        Some(vec![Block::Paragraph(vec![
            Run::plain("Ask a "),
            Run {
                text: "mathematician".into(),
                italic: true,
                ..Run::default()
            },
            Run::plain("."),
        ])])
    );
}

#[test]
fn an_explanation_keeps_its_paragraphs_lists_and_code() {
    let c = one(r#"
[[questions]]
type = "ShortAnswer"
prompt.prompt = "Which word?"
answer.answer = "mut"
context = """
First it says this.

- one point
- another

```rust
fn main() {
    let mut x = 1;
}
```
"""
"#);
    let why = c.why.unwrap();
    assert!(matches!(why[0], Block::Paragraph(_)), "{why:?}");
    assert!(matches!(why[1], Block::List { .. }), "{why:?}");
    let Block::Code(code) = &why[2] else {
        panic!("{why:?}")
    };
    assert!(code.text.contains("\n    let mut x = 1;\n"), "{code:?}");
}

#[test]
fn several_answers_make_a_choose_all_question() {
    let c = one(r#"
[[questions]]
type = "MultipleChoice"
prompt.prompt = "Which are even?"
prompt.distractors = ["1", "3"]
answer.answer = ["2", "4"]
"#);
    assert_eq!(c.kind, CheckKind::Choice { multi: true });
    assert_eq!(c.options.iter().filter(|o| o.correct).count(), 2);
    assert_eq!(c.id, "q.toml#0", "no id: the file and the question's place");
    // A list of one is still "choose all, then submit", as in mdbook-quiz.
    let c = one(
        "[[questions]]\ntype = \"MultipleChoice\"\nprompt.prompt = \"p\"\nprompt.distractors = [\"b\"]\nanswer.answer = [\"a\"]\n",
    );
    assert_eq!(c.kind, CheckKind::Choice { multi: true });
}

#[test]
fn a_short_answer_accepts_its_alternatives() {
    let c = one(r#"
[[questions]]
type = "ShortAnswer"
prompt.prompt = "The keyword?"
answer.answer = "let"
answer.alternatives = ["`let`", "let mut"]
"#);
    assert_eq!(
        c.kind,
        CheckKind::Short {
            accepted: vec!["let".into(), "`let`".into(), "let mut".into()]
        }
    );
    assert!(c.options.is_empty() && c.order.is_empty());
    assert_eq!(c.why, None);
}

#[test]
fn a_tracing_question_holds_its_program() {
    let c = one(r#"
[[questions]]
type = "Tracing"
prompt.program = """
fn main() {
    println!("hi");
}
"""
answer.doesCompile = true
answer.stdout = "hi"
"#);
    assert_eq!(
        c.kind,
        CheckKind::Tracing {
            program: "fn main() {\n    println!(\"hi\");\n}".into(),
            lang: "rust".into(),
            compiles: true,
            stdout: Some("hi".into()),
            line: None,
        }
    );
    assert_eq!(runs_text(&c.question), TRACING_QUESTION);
    let c = one(
        "[[questions]]\ntype = \"Tracing\"\nprompt.program = \"x\"\nanswer.doesCompile = false\nanswer.lineNumber = 4\n",
    );
    assert!(matches!(
        c.kind,
        CheckKind::Tracing {
            compiles: false,
            line: Some(4),
            stdout: None,
            ..
        }
    ));
}

#[test]
fn a_prompt_with_code_keeps_it_above_the_question() {
    let c = one(r#"
[[questions]]
type = "ShortAnswer"
multipart = "shared"
prompt.prompt = """
Consider:

```aquascope,interpreter
#fn main() {
let x = 1;`[]`
#}
```

What is `x`?
"""
answer.answer = "1"

[multipart]
shared = "These questions share a program."
"#);
    assert_eq!(runs_text(&c.question), "What is x?");
    assert_eq!(c.body.len(), 3, "{:?}", c.body);
    assert!(
        matches!(&c.body[0], Block::Paragraph(r) if runs_text(r).starts_with("These questions"))
    );
    assert_eq!(
        c.body[2],
        Block::code(crate::model::CodeBlock {
            lang: Some("rust".into()),
            label: None,
            text: "# fn main() {\nlet x = 1;\n# }".into(),
            badges: Vec::new(),
            numbered: false,
            marks: Vec::new(),
        })
    );
}

#[test]
fn the_shuffle_is_stable_per_question() {
    let a = shuffled(6, "question-id");
    assert_eq!(a, shuffled(6, "question-id"));
    assert!(Check::is_permutation(&a, 6));
    let others: Vec<Vec<usize>> = (0..8).map(|i| shuffled(6, &format!("other-{i}"))).collect();
    assert!(others.iter().any(|o| *o != a), "the id decides the order");
    assert_eq!(shuffled(0, "x"), Vec::<usize>::new());
    assert_eq!(shuffled(1, "x"), [0]);
}

#[test]
fn sort_answers_and_answer_index_fix_the_order() {
    let c = one(
        "[[questions]]\ntype = \"MultipleChoice\"\nprompt.prompt = \"p\"\nprompt.distractors = [\"c\", \"b\", \"d\"]\nprompt.sortAnswers = true\nanswer.answer = \"a\"\n",
    );
    assert_eq!(texts(&c), ["a", "b", "c", "d"]);
    let c = one(
        "[[questions]]\ntype = \"MultipleChoice\"\nprompt.prompt = \"p\"\nprompt.distractors = [\"no\", \"maybe\"]\nprompt.answerIndex = 1\nanswer.answer = \"yes\"\n",
    );
    assert_eq!(texts(&c), ["no", "yes", "maybe"]);
    let c = one(
        "[[questions]]\ntype = \"MultipleChoice\"\nprompt.prompt = \"p\"\nprompt.distractors = [\"no\"]\nprompt.answerIndex = 9\nanswer.answer = \"yes\"\n",
    );
    assert_eq!(
        texts(&c),
        ["no", "yes"],
        "an index past the end puts it last"
    );
}

#[test]
fn what_cannot_be_asked_is_a_note_never_a_failure() {
    let text = "[[questions]]\ntype = \"Ranking\"\nprompt.prompt = \"Rank these\"\nanswer.answer = 1\n\n[[questions]]\ntype = \"ShortAnswer\"\nprompt.prompt = \"no answer field\"\n";
    let q = parse(text, "q.toml").unwrap();
    assert!(q.checks.is_empty());
    assert_eq!(q.notes.len(), 2);
    assert!(q.notes[0].contains("Ranking") && q.notes[0].contains("Rank these"));
    let (at0, err0, _) = &q.problems[0];
    assert_eq!((*at0, *err0), (0, false), "an unknown kind is a warning");
    let (_, err1, m1) = &q.problems[1];
    assert!(*err1 && m1.contains("answer"), "{m1}");
}

#[test]
fn problems_are_located() {
    let text = "[[questions]]\ntype = \"x\nprompt = 1\n";
    let (at, message) = parse(text, "q").unwrap_err();
    assert_eq!(super::super::summary::line_col(text, at).0, 2);
    assert!(!message.is_empty());
    let text = "[[questions]]\ntype = \"ShortAnswer\"\nprompt.prompt = \"p\"\nanswer.answer = \"a\"\n\n[[questions]]\ntype = \"MultipleChoice\"\nprompt.prompt = \"p\"\nprompt.distractors = [\"a\"]\nanswer.answer = []\n";
    let q = parse(text, "q").unwrap();
    assert_eq!(q.checks.len(), 2, "kept, and said to lint");
    let (at, error, message) = &q.problems[0];
    assert!(*error && message.contains("no right answer"));
    assert_eq!(super::super::summary::line_col(text, *at).0, 6);
}

#[test]
fn an_option_of_code_keeps_its_lines_and_indentation() {
    let c = one(r#"
[[questions]]
type = "MultipleChoice"
prompt.prompt = "Which one?"
prompt.distractors = ["plain `words`"]
answer.answer = """
```rust
fn f() {
    g();
}
```
"""
"#);
    let code = &c.options[0];
    assert!(code.text.is_empty());
    let [Block::Code(block)] = code.body.as_slice() else {
        panic!("{:?}", code.body)
    };
    assert_eq!(block.text, "fn f() {\n    g();\n}");
    assert!(c.options[1].body.is_empty());
    assert_eq!(runs_text(&c.options[1].text), "plain words");
}
