"""lectern's side of `book_words.py`: the words `lectern render` prints of
a chapter, without lectern's own chrome, and the normalisation of words
both sides share (see book_words.py)."""

import collections
import itertools
import re
import subprocess
import sys
import unicodedata

WORD = re.compile(r"\w+")


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
CHECK_HEAD = re.compile(r"^\W*━━ Check (?:\d+ of \d+|your understanding)")
CHECK_WHY = re.compile(r"^(\W*)Why: ")
CHECK_CHROME = [re.compile(p) for p in (
    r"^\s*\d+\. ",
    r"✔ The right answer|✔ The answer: (?:it does not compile; the error is on line "
    r"|it compiles and prints$)?",
    r"Right: your answer|Wrong: your answer|Right: you chose it|✔ A right answer",
    r"Answer the question above\.|\(This question has no prompt\.\)",
    r"Missed: this one is right too|Wrong: not a right answer|Why it tempts: ",
    r"Also accepted: |Accepted answers: |Your answer:|\(Choose every right answer\.\)",
    r"Does this program compile\? If it does, what does it print\? If not, on which line is the error\?",
    r"Does it compile\?|Yes, it compiles|No, it does not|What does it print\?|On which line is the error\?",
)]
# A tracing program's line number, in its code box (an empty line's too;
# not the program's output, drawn after the answer in a box of its own).
CHECK_LINE_NUMBER = re.compile(r"^(\W*│ +)\d+(?: |$)")
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
# lectern's note under an aquascope program: it and the code box above it
# are left out (AQUASCOPE_CLASS).
AQUASCOPE_NOTE = re.compile(r"^\W*The web edition draws .* here; lectern shows the program\.\W*$")
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
    box = (0, 0)  # where the last code box starts and ends in kept
    for line in lines:
        if AQUASCOPE_NOTE.match(line) and not "".join(kept[box[1]:]).strip():
            del kept[box[0]:]
            continue
        if CHECK_HEAD.match(line):
            in_check = True
            continue
        if in_check:
            if CHECK_WHY.match(line):
                in_check = False
                line = CHECK_WHY.sub(r"\1", line)
            for chrome in CHECK_CHROME:
                line = chrome.sub("", line)
            if in_code:
                line = CHECK_LINE_NUMBER.sub(r"\1", line)
        if FRAME_TOP_LINE.match(line):
            in_code = True
            box = (len(kept), len(kept))
            continue
        if FRAME_BOTTOM_LINE.match(line):
            in_code = False
            box = (box[0], len(kept) + 1)
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


# aquascope's permission badges (`@Perm{read}`, `@Perm[lost]{own}`, in
# prose, run together when adjacent): where aquascope is not built,
# mdBook's page shows them as written; lectern draws the badge aquascope
# would (`R`, `+R`, `(R)`; `RO` for two). Neither is what the web edition
# shows, so they are left out of both sides: the syntax from the page's
# text, and from lectern's words those of the badges the chapter's
# source has.
PERM = re.compile(r"(?:@Perm(?:\[(?:gained|lost|missing)\])?\{(?:read|write|own|flow)\})+")
PERM_ONE = re.compile(r"@Perm(?:\[(\w+)\])?\{(\w+)\}")
LETTER = {"read": "R", "write": "W", "own": "O", "flow": "F"}
CHANGE = {"": "{}", "gained": "+{}", "lost": "{}", "missing": "({})"}


def without_badges(text, mine, chapter):
    with open(chapter, encoding="utf-8", errors="replace") as f:
        source = f.read()
    drawn = collections.Counter()
    for run in PERM.findall(source):
        badge = "".join(CHANGE[c or ""].format(LETTER[p]) for c, p in PERM_ONE.findall(run))
        drawn.update(words(badge))
    kept = []
    for w in mine:
        if drawn[w] > 0:
            drawn[w] -= 1
        else:
            kept.append(w)
    return PERM.sub(" ", text), kept
