//! One `{{#include}}` (or `rustdoc_include`, `playground`): the lines it
//! takes, expanded in turn and written to the page at the directive's
//! indentation, every byte counted (see `page`).

use super::super::lines::{self, Take};
use super::page::Level;
use super::{Expander, Gives, MAX_DEPTH, Over, Refusal};
use std::path::Path;

impl Expander<'_> {
    pub(super) fn include(
        &mut self,
        kind: &str,
        args: &str,
        file: &Path,
        depth: usize,
        level: &mut Level,
    ) -> Gives {
        let mut words = args.split_whitespace();
        let spec = words.next().unwrap_or("");
        let attrs: Vec<&str> = words.collect();
        let playground = matches!(kind, "playground" | "playpen");
        let (path, take) = match spec.split_once(':') {
            Some((p, rest)) if !playground => (p, lines::parse_take(Some(rest))),
            _ => (spec, Take::Lines(0, None)),
        };
        if depth >= MAX_DEPTH {
            return Gives::Refused(Refusal(format!(
                "cannot include `{path}`: includes nested over {MAX_DEPTH} deep"
            )));
        }
        // The whole file is looked through, whatever part is taken.
        let charge = |me: &mut Self, size: u64| {
            if size > crate::loader::MAX_LESSON_BYTES {
                let why = format!("cannot include `{path}`: the file is too large");
                return Err(Gives::Refused(Refusal(why)));
            }
            let size = usize::try_from(size).unwrap_or(usize::MAX);
            me.spend(size, Over::Scanned).map_err(Gives::Over)
        };
        let (target, canon, whole) = match self.read(file, path, charge) {
            Ok(found) => found,
            Err(gives) => return gives,
        };
        // mdBook includes nothing for an anchor the file lacks, and warns.
        let missing = |name: &str| {
            Gives::Warned(format!(
                "cannot include `{spec}`: `{path}` has no anchor `{name}` (nothing is included)"
            ))
        };
        let taken = match (&take, kind == "rustdoc_include") {
            (Take::Lines(s, e), false) => Some(lines::take_lines(&whole, *s, *e)),
            (Take::Lines(s, e), true) => Some(lines::rustdoc_lines(&whole, *s, *e)),
            (Take::Anchor(a), false) => lines::take_anchored(&whole, a),
            (Take::Anchor(a), true) => lines::rustdoc_anchored(&whole, a),
        };
        let Some(taken) = taken else {
            return missing(match &take {
                Take::Anchor(a) => a,
                Take::Lines(..) => "",
            });
        };
        let taken = if playground {
            let lang = match attrs.is_empty() {
                true => "rust".to_string(),
                false => format!("rust,{}", attrs.join(",")),
            };
            format!("```{lang}\n{taken}\n```\n")
        } else {
            taken
        };
        let taken = as_lines(taken);
        let lead = self.page.lead_here(level);
        // Making the lead is work as much as writing it: thousands of
        // includes after one long indent would each copy it.
        if let Err(over) = self.spend(lead.len(), Over::Included) {
            return Gives::Over(over);
        }
        let mut inner = Level::at(&self.page, lead);
        self.stack.push(canon);
        let written = self.expand(&taken, &whole, &target, depth + 1, &mut inner);
        self.stack.pop();
        match written {
            Ok(()) => Gives::Written,
            Err(over) => Gives::Over(over),
        }
    }
}

/// `text` as the lines it is included as: `\r\n` read as `\n`, and no
/// newline after the last line (the directive's own line goes on).
fn as_lines(text: String) -> String {
    let mut text = match text.contains('\r') {
        true => text.replace("\r\n", "\n"),
        false => text,
    };
    if text.ends_with('\n') {
        text.pop();
    }
    text
}
