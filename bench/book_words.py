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

Prints one summary line per book (TSV: book, chapters, mdBook words, lectern
words, matched, recall, precision, chapters under 0.99) and the worst chapters.
"""

import collections
import html.parser
import itertools
import os
import re
import subprocess
import sys
import tomllib
import unicodedata

WORD = re.compile(r"\w+")
SKIP_TAGS = {"script", "style", "template", "nav", "noscript", "button"}
# Classes of what the page hides until the reader asks: mdBook's hidden
# lines of rust blocks, mdbook-spec's railroad diagrams and its lists of
# uncovered rules (test-summary.md).
HIDDEN_CLASSES = {"boring", "grammar-hidden", "popup-hidden"}
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


def scripted(c):
    return unicodedata.decomposition(c).startswith(("<super>", "<sub>"))


def words(text):
    # `_` joins identifiers (`drop_in_place`) but also marks emphasis in
    # lectern's colourless output (`_really_`): stripped at a word's ends
    # on both sides alike.
    if any(ord(c) > 127 and scripted(c) for c in text):
        text = "".join(
            f" {''.join(run)} " if up else "".join(run)
            for up, run in itertools.groupby(text, lambda c: ord(c) > 127 and scripted(c))
        )
    text = unicodedata.normalize("NFKC", text).casefold()
    return [w for w in (w.strip("_") for w in WORD.findall(text)) if w]


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
        hide = self.hidden() or tag in SKIP_TAGS or bool(HIDDEN_CLASSES & set(classes))
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


# lectern's label over a `<details>` that has no summary (speaker notes),
# after the fold's mark (▾ open, as `render` prints it); the browser draws
# its own disclosure label there ("Details"), and neither is the book's
# word.
NOTES_LABEL = re.compile(r"^[\s│]*(?:[▸▾] )?Notes\s*$")
# lectern's words around a check's text (what mdbook-quiz's page says in
# its own words, which are not in the TOML): its header, the numbers of
# options and of a tracing program's lines, the fixed questions and the
# marks of --answers. Only inside a check: from its `━━ Check` line to its
# `Why:` line.
CHECK_HEAD = re.compile(r"^\W*━━ Check \d+ of \d+")
CHECK_WHY = re.compile(r"^(\W*)Why: ")
CHECK_CHROME = [re.compile(p) for p in (
    r"^\s*\d+\. ",
    r"^(\W*│ )\d+ ",
    r"✔ The right answer|✔ The answer: (it does not compile; the error is on )?",
    r"Right: your answer|Wrong: your answer|Right: you chose it",
    r"Missed: this one is right too|Wrong: not a right answer|Why it tempts: ",
    r"Also accepted: |Accepted answers: |Your answer:|\(Choose every right answer\.\)",
    r"Does this program compile\? If it does, what does it print\? If not, on which line is the error\?",
    r"Does it compile\?|Yes, it compiles|No, it does not|What does it print\?|On which line is the error\?",
)]
# A code box's top and bottom frame, after any quote bars or list marks.
FRAME_TOP_LINE = re.compile(r"^\W*╭─")
FRAME_BOTTOM_LINE = re.compile(r"^\W*╰─")
# SGR colours and OSC 8 hyperlinks.
ESCAPE = re.compile(r"\x1b\[[0-9;:]*[A-Za-z]|\x1b\][^\x1b\x07]*(\x1b\\|\x07)")
# A link's target, which lectern prints after its text (` <https://…>`,
# ` <other.md#part>`) so that a link cannot disguise where it goes; mdBook
# keeps it in an href.
TARGET = re.compile(r" <[^\s<>]*[/.:#][^\s<>]*>")
# lectern's word before a picture's alt text (`[image: alt]`, `[image]`),
# which mdBook's page draws as the picture: the alt text counts, the
# label does not.
IMAGE_LABEL = re.compile(r"\[image(?:: |\])")
# mdbook-spec's rule label alone on its line (`[notation]`, drawn under
# the heading it names): not the heading shown again, though its words
# can be the title's.
RULE_LABEL = re.compile(r"^\s*\[[^\]\s]+\]\s*$")


def lectern_page(out, heading):
    """What lectern prints of the chapter itself: without the line under
    the title (`Book · Module · Lesson n of m · min`, lectern's equivalent
    of mdBook's sidebar, outside <main>), without the title above it when it
    is not the page's first heading, or when that heading follows it (then
    it is SUMMARY.md's name for the chapter, which mdBook shows in its
    sidebar; otherwise lectern shows that heading as the title),
    without the name in a code box's top frame (the fence's language and
    `n lines hidden (#)`, which mdBook's page does not show as words),
    without the `Notes` label of speaker notes, without link targets and
    the `image` label before a picture's alt text, and
    without a check's own words (CHECK_CHROME)."""
    lines = out.split("\n")
    if len(lines) > 1 and " · " in lines[1]:
        del lines[1]
        rest = [l for l in lines[1:] if l.strip() and not RULE_LABEL.match(l)]
        again = bool(rest) and words(rest[0]) == words(lines[0])
        if words(lines[0]) != words(heading) or again:
            del lines[0]
    kept, in_code, in_check = [], False, False
    for line in lines:
        if CHECK_HEAD.match(line):
            in_check = True
            continue
        if in_check:
            if CHECK_WHY.match(line):
                in_check = False
                line = CHECK_WHY.sub(r"\1", line)
            for chrome in CHECK_CHROME:
                line = chrome.sub(lambda m: m.group(1) or "" if m.re.groups else "", line)
        if FRAME_TOP_LINE.match(line):
            in_code = True
            continue
        if FRAME_BOTTOM_LINE.match(line):
            in_code = False
        if not in_code and NOTES_LABEL.match(line):
            continue
        kept.append(line if in_code else IMAGE_LABEL.sub("[", TARGET.sub("", line)))
    return "\n".join(kept)


def lectern_text(lectern, chapter, answers, heading):
    # In colour, as a reader sees it: without colour lectern marks code
    # and emphasis with backticks and underscores, which split words
    # (`union`s) that the page and the terminal show whole.
    cmd = [lectern, "render", "--color", "always", "--width", "2000"]
    if answers:
        cmd.append("--answers")
    r = subprocess.run(cmd + [chapter], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"warning: {chapter}: {r.stderr.strip()[:200]}", file=sys.stderr)
    return lectern_page(ESCAPE.sub("", r.stdout), heading)


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
        mdbook = words(text) + extra
        chapter = os.path.join(book, "src", md)
        mine = words(lectern_text(lectern, chapter, quizzes, heading))
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
