//! syntect's `SyntaxSet::find_syntax_by_*`, over a part of the set: the
//! one set is looked in as two, syntect's syntaxes before bat's. The
//! same rules as syntect's, the last syntax to match winning.

use syntect::parsing::SyntaxReference;

/// By file extension, then by name in any case.
pub(super) fn by_token<'a>(
    syntaxes: &'a [SyntaxReference],
    token: &str,
) -> Option<&'a SyntaxReference> {
    by_extension(syntaxes, token).or_else(|| {
        syntaxes
            .iter()
            .rev()
            .find(|s| s.name.eq_ignore_ascii_case(token))
    })
}

pub(super) fn by_name<'a>(
    syntaxes: &'a [SyntaxReference],
    name: &str,
) -> Option<&'a SyntaxReference> {
    syntaxes.iter().rev().find(|s| s.name == name)
}

/// By file extension, in any case.
pub(super) fn by_extension<'a>(
    syntaxes: &'a [SyntaxReference],
    extension: &str,
) -> Option<&'a SyntaxReference> {
    syntaxes.iter().rev().find(|s| {
        s.file_extensions
            .iter()
            .any(|e| e.eq_ignore_ascii_case(extension))
    })
}
