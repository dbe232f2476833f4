//! syntect's `SyntaxSet::find_syntax_by_*`, over the index of the set's
//! syntaxes (`bundles.rs`) and a part of it: the one set is looked in as
//! two, syntect's syntaxes before bat's. The same rules as syntect's, the
//! last syntax to match winning.

use super::bundles::Syntax;

/// By file extension, then by name in any case.
pub(super) fn by_token<'a>(syntaxes: &'a [Syntax], token: &str) -> Option<&'a Syntax> {
    by_extension(syntaxes, token).or_else(|| {
        syntaxes
            .iter()
            .rev()
            .find(|s| s.name.eq_ignore_ascii_case(token))
    })
}

pub(super) fn by_name<'a>(syntaxes: &'a [Syntax], name: &str) -> Option<&'a Syntax> {
    syntaxes.iter().rev().find(|s| s.name == name)
}

/// By file extension, in any case.
pub(super) fn by_extension<'a>(syntaxes: &'a [Syntax], extension: &str) -> Option<&'a Syntax> {
    syntaxes.iter().rev().find(|s| {
        s.extensions
            .iter()
            .any(|e| e.eq_ignore_ascii_case(extension))
    })
}
