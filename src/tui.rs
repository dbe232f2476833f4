//! placeholder
pub fn read(
    _p: &[std::path::PathBuf],
    _c: &crate::cli::Common,
) -> Result<(), Box<dyn std::error::Error>> {
    Err("reader: not yet".into())
}
pub fn review(
    _p: Option<&std::path::Path>,
    _c: &crate::cli::Common,
) -> Result<(), Box<dyn std::error::Error>> {
    Err("review: not yet".into())
}
