//! placeholder
pub fn print(
    _p: Option<&std::path::Path>,
    _c: &crate::cli::Common,
) -> Result<(), Box<dyn std::error::Error>> {
    Err("stats: not yet".into())
}
