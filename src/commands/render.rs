//! `lectern render [PATH]`: a lesson as styled text, or a folder's table
//! of contents. Also what `lectern PATH` prints when stdout is not a
//! terminal (like `less file | cat`).

use super::target::{Target, resolve};
use crate::config::Settings;
use crate::loader;
use crate::render;
use crate::theme::{ColorChoice, ColourEnv, Depth, Theme, ThemeKind};
use std::io::{IsTerminal, Read};
use std::path::Path;

/// What decides the look of printed text.
pub(super) struct Look {
    pub width: Option<u16>,
    pub color: ColorChoice,
    pub answers: bool,
    pub hidden_lines: bool,
}

pub(super) fn run(path: Option<&Path>, look: &Look, settings: &Settings) -> super::Outcome {
    let text = text(path, look, settings)?;
    write(&text)
}

/// The theme for text on stdout, `None` for no escape sequences at all.
pub(super) fn theme(color: ColorChoice, settings: &Settings) -> Option<Theme> {
    let tty = std::io::stdout().is_terminal();
    let depth = crate::theme::depth(ColourEnv::from_env(), tty, color, settings.truecolor.value);
    let kind = settings
        .theme
        .value
        .kind()
        .unwrap_or_else(ThemeKind::detect);
    (depth != Depth::None).then(|| Theme::for_depth(kind, depth))
}

/// How pictures are printed: only when `--images` asks, on a terminal;
/// in its graphics protocol (the terminal asked which, for `auto`), or
/// in half blocks when those are asked for. `None`: each picture is its
/// words and its file.
fn printed(settings: &Settings, colour: bool) -> Option<render::Printed> {
    use crate::config::{ImagesSetting, Source};
    let asked = matches!(settings.images.from, Source::Flag(_));
    if !asked || !colour || !std::io::stdout().is_terminal() || !settings.pictures() {
        return None;
    }
    let tmux = std::env::var_os("TMUX").is_some();
    let graphics = match settings.images.value {
        ImagesSetting::Off => return None,
        ImagesSetting::Halfblocks => None,
        set => Some(crate::tui::graphics_now(set)?),
    };
    Some(render::Printed { graphics, tmux })
}

pub(super) fn text(path: Option<&Path>, look: &Look, settings: &Settings) -> super::Result<String> {
    let stdout = std::io::stdout();
    let width = look.width.unwrap_or_else(|| {
        if stdout.is_terminal() {
            // A terminal that reports no size (a bare pty) is given 80.
            let size = ratatui::crossterm::terminal::size().ok();
            size.map(|(w, _)| w).filter(|w| *w > 0).unwrap_or(80)
        } else {
            80
        }
    });
    let theme = theme(look.color, settings);
    let pictures = printed(settings, theme.is_some());
    let opts = render::Options {
        width,
        theme,
        answers: look.answers,
    };
    if path.is_some_and(|p| p == Path::new("-")) {
        let loaded = loader::load_bytes("<stdin>", &stdin()?)?;
        return Ok(render::lesson_printed(
            &loaded.lesson,
            &opts,
            look.hidden_lines,
            pictures,
        ));
    }
    let counting = crate::loader::progress::on_stderr("reading the course");
    let target = resolve(path, &counting)?;
    drop(counting);
    Ok(match target {
        Target::Lesson(origin) => {
            let lesson = loader::load(&origin)?.lesson;
            render::lesson_printed(&lesson, &opts, look.hidden_lines, pictures)
        }
        Target::Courses(courses) => {
            let mut out = String::new();
            for (i, c) in courses.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                render::write_lines(&mut out, &render::toc(c, width), theme.as_ref());
            }
            out
        }
    })
}

/// Standard input, whole: `-` as a lesson file.
pub(super) fn stdin() -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    std::io::stdin().lock().read_to_end(&mut bytes)?;
    Ok(bytes)
}

pub(super) fn write(text: &str) -> super::Outcome {
    // A closed pipe (`lectern render | head`) ends it quietly (out.rs).
    Ok(crate::out::stdout(text)?)
}
