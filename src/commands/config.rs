//! `lectern config --show`: the settings in effect and where each came
//! from (a flag, a line of the config file, or the default).

use crate::cli::Common;
use crate::config::Settings;

pub(super) fn run(common: &Common) -> super::Outcome {
    let s = Settings::load_with(
        common.config.as_deref(),
        common.theme,
        common.no_mouse,
        common.linear,
    )
    .with_images_flag(common.images)
    .with_sync_dir_flag(common.sync_dir.as_deref());
    // Sanitised line by line: it quotes the config file's path, which
    // comes from the environment (`XDG_CONFIG_HOME`) and may hold anything.
    super::render::write(&crate::out::clean_lines(&s.show()))
}
