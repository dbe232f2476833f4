//! `lectern config --show`: the settings in effect and where each came
//! from (a flag, a line of the config file, or the default).

use crate::cli::Common;

pub(super) fn run(common: &Common) -> super::Outcome {
    let s = super::settings_of(common);
    // Sanitised line by line: it quotes the config file's path, which
    // comes from the environment (`XDG_CONFIG_HOME`) and may hold anything.
    super::render::write(&crate::out::clean_lines(&s.show()))
}
