#!/usr/bin/env python3
"""Word recall and precision of `lectern render` against mdBook's own HTML.

Usage: book_words.py BOOK HTML_DIR LECTERN [--quizzes] [--worst N] [--detail FILE]
       book_words.py prepare BOOK_TOML   (edits a copy's book.toml, see prepare())

BOOK is the book's folder (book.toml, src/), HTML_DIR the folder mdBook built
from it, LECTERN the binary. For every chapter (each .md file SUMMARY.md
links to) the words a reader sees in the page's <main> are
compared with the words `lectern render` prints for the same chapter, as
multisets of normalised words (NFKC, case-folded, runs of letters, digits and
`_`): recall = matched / mdBook words, precision = matched / lectern words.

Excluded from mdBook's <main>, as a reader of the page does not see them
as words of the book: <script>, <style>, <template>, <nav> (the page's
previous/next arrows), <noscript>, <button> (the page's controls: "Show
Railroad"), comments, attribute values (the "#" of heading anchors is in
href), the `<span class="boring">` lines of rust blocks (the `# ` lines
mdBook hides until the reader asks for them; lectern hides them too) and
mdbook-spec's railroad diagrams and lists of uncovered rules
(`grammar-hidden`, `popup-hidden`: shown on a click; the grammar's text
above them is counted). An image counts as its alt text,
an ordered list's item as its number. What is raised or lowered is a word
apart, as a reader sees it (see SCRIPTS).

With --quizzes (books using mdbook-quiz, whose questions the page holds only
as JSON for its script), each `{{#quiz FILE.toml}}` line left in the page is
replaced by the words of that TOML file's questions: prompt, options, answer,
accepted alternatives and explanation (markdown: fence info strings and link
targets dropped), and lectern renders with --answers so it prints them all.

What aquascope draws (the Brown book's programs and permission badges)
is left out of both sides: mdBook's page is built without aquascope, which
needs a nightly toolchain (AQUASCOPE_CLASS, book_words_lectern.PERM).
lectern's side is in book_words_lectern.py.

Prints one summary line per book (TSV: book, chapters, mdBook words, lectern
words, matched, recall, precision, chapters under 0.99) and the worst chapters.
"""

import collections
import html.parser
import os
import re
import sys
import tomllib

from book_words_lectern import PERM, lectern_text, without_badges, words

SKIP_TAGS = {"script", "style", "template", "nav", "noscript", "button"}
# Classes of what the page hides until the reader asks: mdBook's hidden
# lines of rust blocks, mdbook-spec's railroad diagrams and its lists of
# uncovered rules (test-summary.md).
HIDDEN_CLASSES = {"boring", "grammar-hidden", "popup-hidden"}
# An aquascope program (```aquascope fences, the Brown book's): where
# aquascope is not built, mdBook shows its source as code, hidden lines
# and markers included; lectern shows what aquascope would (the program,
# its points) and a note on the diagram it cannot draw. Neither is what
# the web edition shows, so the block is left out of both sides (see
# AQUASCOPE_NOTE).
AQUASCOPE_CLASS = "language-aquascope"
VOID = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link",
    "meta", "source", "track", "wbr",
}
# Tags after which a reader sees a break: their text never runs into the
# next element's.
BLOCK = {
    "p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "pre",
    "td", "th", "tr", "table", "blockquote", "dt", "dd", "dl", "br", "hr",
    "details", "summary", "section", "figure", "figcaption", "main", "header",
    "footer", "aside", "tbody", "thead", "img", "input",
}
# Raised and lowered text (<sup>, <sub>) is set apart from the word before
# it, smaller: a reader sees `x` and `1..=6`, `Expression` and `except
# StructExpression` (mdbook-spec's grammar, the Reference's notation
# table), where the page's text runs them into one word (`x1`,
# `Expressionexcept`). On lectern's side likewise: the characters Unicode
# makes superscript or subscript forms (`x²`, what lectern draws for
# <sup>2</sup>) are words apart before NFKC makes them digits.
SCRIPTS = {"sub", "sup"}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
QUIZ = re.compile(r"\{\{#quiz\s+([^}\s]+)\s*\}\}")


class MainText(html.parser.HTMLParser):
    """The text inside <main>, without what the page hides."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []  # (tag, hidden)
        self.parts = []
        # The next number of each open <ol> (None for <ul>): the browser
        # draws "1." before each item, which a reader sees as text.
        self.lists = []
        self.first_heading = None  # the text of the page's first h1-h6
        self.heading = None

    def hidden(self):
        return bool(self.stack) and self.stack[-1][1]

    def in_main(self):
        return any(t == "main" for t, _ in self.stack)

    def handle_starttag(self, tag, attrs):
        if tag in BLOCK:
            self.parts.append(" ")
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        # An image shows what its alt text says (lectern, which cannot draw
        # it, shows the alt text).
        if tag == "img" and self.in_main() and not self.hidden():
            self.parts.append(f" {attrs.get('alt') or ''} ")
        if tag in VOID:
            return
        # A footnote's number, and any raised or lowered text, is not run
        # into the word before it (SCRIPTS).
        if tag in SCRIPTS:
            self.parts.append(" ")
        if tag in HEADINGS and self.first_heading is None and self.in_main():
            self.heading = []
        hide = (self.hidden() or tag in SKIP_TAGS or bool(HIDDEN_CLASSES & set(classes))
                or AQUASCOPE_CLASS in classes)
        self.stack.append((tag, hide))
        if tag == "ol":
            start = attrs.get("start") or "1"
            self.lists.append(int(start) if start.isdigit() else 1)
        elif tag == "ul":
            self.lists.append(None)
        elif tag == "li" and self.lists and self.lists[-1] is not None:
            if self.in_main() and not hide:
                self.parts.append(f" {self.lists[-1]}. ")
            self.lists[-1] += 1

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if tag in HEADINGS and self.heading is not None and self.first_heading is None:
            self.first_heading = "".join(self.heading)
        if tag in BLOCK or tag in SCRIPTS:
            self.parts.append(" ")
        if tag in ("ol", "ul") and self.lists and any(t == tag for t, _ in self.stack):
            self.lists.pop()
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if self.in_main() and not self.hidden():
            self.parts.append(data)
            if self.heading is not None and self.first_heading is None:
                self.heading.append(data)


def page_text(path):
    p = MainText()
    with open(path, encoding="utf-8", errors="replace") as f:
        p.feed(f.read())
    p.close()
    return "".join(p.parts), p.first_heading or ""


FENCE = re.compile(r"^\s*(```+|~~~+).*$", re.M)
LINK_TARGET = re.compile(r"\]\([^)]*\)")


def markdown_words(text):
    """Words a reader sees of a markdown string: fence lines and link
    targets are not shown."""
    text = FENCE.sub(" ", text)
    text = LINK_TARGET.sub("] ", text)
    return words(text)


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k != "id":
                yield from strings(v)


def quiz_words(toml_path):
    """Words of a quiz's questions: every string of prompt and answer, and
    the explanation (`context`); ids, types and booleans are not text."""
    try:
        with open(toml_path, "rb") as f:
            quiz = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        print(f"warning: {toml_path}: {e}", file=sys.stderr)
        return []
    out = []
    # A multipart quiz's shared prompts (`[multipart] q = "..."`), shown
    # above each question that names it (mdbook-quiz shows one question at
    # a time).
    shared = quiz.get("multipart", {})
    for q in quiz.get("questions", []):
        if isinstance(shared, dict) and isinstance(shared.get(q.get("multipart")), str):
            out.extend(markdown_words(shared[q["multipart"]]))
        for part in ("prompt", "answer", "context"):
            for s in strings(q.get(part, "")):
                out.extend(markdown_words(s))
        # A tracing program's answer is the line of its error, a number
        # the page shows with the answer.
        line = q.get("answer", {}).get("lineNumber") if isinstance(q.get("answer"), dict) else None
        if isinstance(line, int) and not isinstance(line, bool):
            out.append(str(line))
    return out


SUMMARY_LINK = re.compile(r"\]\(\s*<?([^)>\s]+\.md)(?:#[^)]*)?>?\s*\)")


def chapters(book):
    """(markdown path relative to src, html path relative to the build) of
    each chapter SUMMARY.md links, once; a README.md is mdBook's index."""
    src = os.path.join(book, "src")
    with open(os.path.join(src, "SUMMARY.md"), encoding="utf-8") as f:
        summary = f.read()
    seen = set()
    for m in SUMMARY_LINK.finditer(summary):
        rel = os.path.normpath(m.group(1).replace("%20", " "))
        if rel in seen or not os.path.isfile(os.path.join(src, rel)):
            continue
        seen.add(rel)
        base = rel[:-3]
        if os.path.basename(rel) == "README.md":
            base = os.path.join(os.path.dirname(rel), "index")
        yield rel, base + ".html"


def compare(a, b):
    ca, cb = collections.Counter(a), collections.Counter(b)
    matched = sum((ca & cb).values())
    return ca, cb, matched


SECTION = re.compile(r"^\[([^\]]+)\]\s*$")


def runnable(name, table):
    """The program to run for preprocessor NAME, or None when it is not
    built: its `--bin` (a `cargo run` command) or `mdbook-NAME` on PATH,
    else a command of its own that is on PATH."""
    import shutil

    command = table.get("command", "")
    argv = command.split()
    if "--bin" in argv[:-1]:
        binary = argv[argv.index("--bin") + 1]
    elif argv[:2] == ["cargo", "run"]:
        binary = None
        for i, a in enumerate(argv[:-1]):
            if a == "--manifest-path":
                with open(argv[i + 1], "rb") as f:
                    binary = tomllib.load(f)["package"]["name"]
    else:
        binary = f"mdbook-{name}"
    found = shutil.which(binary) if binary else None
    if found:
        return found
    if argv and argv[0] != "cargo" and shutil.which(argv[0]):
        return command
    return None


def prepare(book_toml):
    """Rewrites a copy's book.toml so that mdBook builds HTML only, with the
    preprocessors that are built: each one found on PATH is run by its
    path (not `cargo run`, which would build it inside the copy); the
    others are removed and named on stdout, one per line, so the table says
    which ran. Outputs other than html are removed (nothing to compare)."""
    os.chdir(os.path.dirname(os.path.abspath(book_toml)))
    book_toml = "book.toml"
    with open(book_toml, "rb") as f:
        config = tomllib.load(f)
    # Style sheets and scripts a book builds before mdBook (Brown's
    # js-extensions) are made empty: they style the page, they hold no word.
    html_config = config.get("output", {}).get("html", {})
    for extra in html_config.get("additional-css", []) + html_config.get("additional-js", []):
        if not os.path.exists(extra):
            os.makedirs(os.path.dirname(extra) or ".", exist_ok=True)
            open(extra, "w").close()
    commands = {}
    for name, table in config.get("preprocessor", {}).items():
        commands[name] = runnable(name, table)
    out, skip, section = [], False, None
    with open(book_toml, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for line in lines:
        m = SECTION.match(line)
        if m:
            section = m.group(1).strip().split(".")
            skip = (section[0] == "output" and section[1:2] != ["html"]) or (
                section[0] == "preprocessor" and commands.get(section[1]) is None)
            out.append(line if not skip else "")
            if section[0] == "preprocessor" and not skip and len(section) == 2:
                out.append(f"command = {tomllib_quote(commands[section[1]])}")
            continue
        if skip:
            continue
        if section and section[0] == "preprocessor" and re.match(r"\s*command\s*=", line):
            continue
        out.append(line)
    with open(book_toml, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    for name, cmd in commands.items():
        print(f"{name}{'' if cmd else ' (not built)'}")


def tomllib_quote(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def main(argv):
    args = argv[1:]
    if args[:1] == ["prepare"]:
        prepare(args[1])
        return
    quizzes = "--quizzes" in args
    worst = 8
    detail = None
    if "--worst" in args:
        worst = int(args[args.index("--worst") + 1])
    if "--detail" in args:
        detail = args[args.index("--detail") + 1]
    pos = [a for i, a in enumerate(args) if not a.startswith("--")
           and (i == 0 or args[i - 1] not in ("--worst", "--detail"))]
    book, html_dir, lectern = pos[:3]
    name = os.path.basename(os.path.normpath(book))
    rows = []
    for md, page in chapters(book):
        page_path = os.path.join(html_dir, page)
        if not os.path.isfile(page_path):
            continue  # not in SUMMARY: mdBook builds no page for it
        text, heading = page_text(page_path)
        extra = []
        if quizzes:
            for m in QUIZ.finditer(text):
                toml = os.path.join(book, "src", os.path.dirname(md), m.group(1))
                extra.extend(quiz_words(os.path.normpath(toml)))
            text = QUIZ.sub(" ", text)
        chapter = os.path.join(book, "src", md)
        mine = words(lectern_text(lectern, chapter, quizzes, heading))
        if PERM.search(text):
            text, mine = without_badges(text, mine, chapter)
        mdbook = words(text) + extra
        ca, cb, matched = compare(mdbook, mine)
        rows.append((md, len(mdbook), len(mine), matched, ca, cb))
    report(name, rows, worst, detail)


def ratio(n, d):
    return n / d if d else 1.0


def report(name, rows, worst, detail):
    total_a = sum(r[1] for r in rows)
    total_b = sum(r[2] for r in rows)
    total_m = sum(r[3] for r in rows)
    under = [r for r in rows
             if ratio(r[3], r[1]) < 0.99 or ratio(r[3], r[2]) < 0.99]
    print(f"{name}\t{len(rows)}\t{total_a}\t{total_b}\t{total_m}\t"
          f"{ratio(total_m, total_a):.4f}\t{ratio(total_m, total_b):.4f}\t{len(under)}")
    by_recall = sorted(rows, key=lambda r: ratio(r[3], r[1]))[:worst]
    by_precision = sorted(rows, key=lambda r: ratio(r[3], r[2]))[:worst]
    out = open(detail, "a", encoding="utf-8") if detail else sys.stderr
    for label, picked in (("recall", by_recall), ("precision", by_precision)):
        print(f"# {name}: worst {label}", file=out)
        for md, a, b, m, ca, cb in picked:
            missing = (ca - cb).most_common(12)
            extra = (cb - ca).most_common(12)
            print(f"{md}\trecall {ratio(m, a):.4f}\tprecision {ratio(m, b):.4f}"
                  f"\tmissing {fmt(missing)}\textra {fmt(extra)}", file=out)
    if detail:
        out.close()


def fmt(pairs):
    return " ".join(f"{w}×{n}" for w, n in pairs) or "-"


if __name__ == "__main__":
    main(sys.argv)
