//! The order aquascope numbers a program's step markers in: the order the
//! program reaches them as it runs (L2 can stand in a function below
//! `main`, reached by a call before the marker after that call). lectern
//! does not run the program; it follows it as written, from `main`, into
//! each function of the program a line calls before that line's own
//! markers (a marker that opens its line comes before the line's calls),
//! each function once at a time. What that walk never reaches is numbered
//! after, in the order it is written.

/// Where the step markers of `line` stand (byte offsets), in order.
pub type Finder = fn(&str) -> Vec<usize>;

/// A function of the program: its name and the lines of its body.
struct Function<'a> {
    name: &'a str,
    header: usize,
    body: std::ops::Range<usize>,
}

/// The name `line` declares a function of (`fn name(`), if any.
fn declares(line: &str) -> Option<&str> {
    let t = line.trim_start_matches([' ', '\t', '#']);
    let at = t.find("fn ")?;
    let before = &t[..at];
    if !before
        .split_whitespace()
        .all(|w| ["pub", "async", "const", "unsafe"].contains(&w))
    {
        return None;
    }
    let rest = &t[at + 3..];
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
    (end > 0 && rest[end..].starts_with(['(', '<'])).then(|| &rest[..end])
}

fn functions<'a>(lines: &[&'a str]) -> Vec<Function<'a>> {
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(name) = declares(l) else { continue };
        let mut depth = 0i64;
        let mut end = lines.len();
        for (j, m) in lines.iter().enumerate().skip(i) {
            depth += m.matches('{').count() as i64 - m.matches('}').count() as i64;
            if depth <= 0 && m.contains('}') {
                end = j + 1;
                break;
            }
        }
        out.push(Function {
            name,
            header: i,
            body: i..end,
        });
    }
    out
}

/// Whether `line` calls `name` (`name(`, not part of a longer name).
fn calls(line: &str, name: &str) -> bool {
    line.match_indices(name).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        line[i + name.len()..].starts_with('(') && !before.is_some_and(ident)
    })
}

struct Walk<'a, 'b> {
    lines: &'b [&'a str],
    functions: Vec<Function<'a>>,
    /// Each line's markers: (offset, opens the line).
    markers: Vec<Vec<(usize, bool)>>,
    /// The number of each marker, by line and place on it.
    numbers: Vec<Vec<Option<usize>>>,
    next: usize,
    stack: Vec<usize>,
}

impl Walk<'_, '_> {
    fn number(&mut self, line: usize, opening: bool) {
        for k in 0..self.markers[line].len() {
            if self.markers[line][k].1 == opening && self.numbers[line][k].is_none() {
                self.next += 1;
                self.numbers[line][k] = Some(self.next);
            }
        }
    }

    fn visit(&mut self, f: usize) {
        self.stack.push(f);
        for line in self.functions[f].body.clone() {
            self.number(line, true);
            let header = self.functions.iter().any(|g| g.header == line);
            for g in 0..self.functions.len() {
                if !header
                    && !self.stack.contains(&g)
                    && calls(self.lines[line], self.functions[g].name)
                {
                    self.visit(g);
                }
            }
            self.number(line, false);
        }
        self.stack.pop();
    }
}

/// The number of each step marker of the program `lines`, in the order
/// they are written.
pub fn order(lines: &[&str], find: Finder) -> Vec<usize> {
    let markers: Vec<Vec<(usize, bool)>> = lines
        .iter()
        .map(|l| {
            find(l)
                .into_iter()
                .map(|at| (at, l[..at].trim_start_matches([' ', '\t', '#']).is_empty()))
                .collect()
        })
        .collect();
    let numbers = markers.iter().map(|m| vec![None; m.len()]).collect();
    let mut walk = Walk {
        lines,
        functions: functions(lines),
        markers,
        numbers,
        next: 0,
        stack: Vec::new(),
    };
    if let Some(main) = walk.functions.iter().position(|f| f.name == "main") {
        walk.visit(main);
    }
    for line in 0..lines.len() {
        walk.number(line, true);
        walk.number(line, false);
    }
    walk.numbers.into_iter().flatten().flatten().collect()
}
