//! `lectern config --show`: the settings in effect and where each came
//! from (a flag, a line of the config file, or the default).

use crate::cli::Common;
use crate::config::Settings;

pub(super) fn run(common: &Common) -> super::Outcome {
    let s = Settings::load(common.config.as_deref(), common.theme, common.no_mouse);
    super::render::write(&s.show())
}
