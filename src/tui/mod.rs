//! The interactive reader's runtime: sets up the terminal, feeds events
//! through the key tables into `state::update`, hands the effects to the
//! effect runner, and draws.

mod boot;
mod events;
mod input;
mod startup;
mod terminal;

use crate::cli::Common;
use crate::effects::{Runner, Work};
use crate::index::Index;
use crate::state::{self, Action, Effect, Msg, Prefs, Size, State};
use crate::store::Store;
use crate::theme::{Theme, ThemeKind};
use boot::Boot;
use events::Incoming;
use ratatui::crossterm::event::Event;
use std::path::{Path, PathBuf};

type Res = Result<(), Box<dyn std::error::Error>>;

pub fn read(paths: &[PathBuf], common: &Common) -> Res {
    run(paths, common, false)
}

pub fn review(path: Option<&Path>, common: &Common) -> Res {
    let paths: Vec<PathBuf> = path.map(Path::to_path_buf).into_iter().collect();
    run(&paths, common, true)
}

fn run(paths: &[PathBuf], common: &Common, start_review: bool) -> Res {
    let data_dir = Store::data_dir(common.data_dir.as_deref());
    let mut boot = Boot::prepare(paths, data_dir, start_review)?;
    let theme = Theme::new(common.theme.unwrap_or_else(ThemeKind::detect));
    let (tx, rx, signals) = events::channel();
    let mut term = terminal::Term::enter(!common.no_mouse)?;
    let area = term.area();
    let mut runner = Runner::new(None, Index::in_memory(), Work::Threads(events::sink(&tx)));
    boot.equip(&mut runner);
    let prefs = Prefs {
        mouse: !common.no_mouse,
        dark: theme.kind.is_dark(),
    };
    let size = Size {
        width: area.width,
        height: area.height,
    };
    let (mut s, fx) = boot.first_state(size, prefs, &mut runner)?;
    apply(&mut runner, &mut s, &mut term, fx);
    for action in boot.first_actions(&s) {
        let fx = state::update(&mut s, action);
        apply(&mut runner, &mut s, &mut term, fx);
    }
    term.terminal.draw(|f| crate::ui::draw(f, &s, &theme))?;
    terminal::let_frame_show();
    // Before any key is read; one frame for all of it, with the store's
    // progress.
    for msg in boot.after_first_frame(&mut runner)? {
        let fx = state::receive(&mut s, msg);
        apply(&mut runner, &mut s, &mut term, fx);
    }
    let slug = s.course().slug.clone();
    let mut drawn = false;
    if let Some(msg) = boot.settle_store(&mut runner, &slug) {
        let fx = state::receive(&mut s, msg);
        apply(&mut runner, &mut s, &mut term, fx);
        draw(&mut term, &mut s, &mut runner, &theme)?;
        drawn = true;
    }
    events::listen(&tx, signals);
    // A resize before the key reader started was not reported.
    if let Some(action) = resized(&mut term, None) {
        let fx = state::update(&mut s, action);
        apply(&mut runner, &mut s, &mut term, fx);
        drawn = false;
    }
    let mut stale = std::mem::take(&mut boot.stale);
    while !s.quit {
        if !std::mem::take(&mut drawn) {
            draw(&mut term, &mut s, &mut runner, &theme)?;
        }
        if !stale.is_empty() {
            let sink = events::sink(&tx);
            startup::revalidate(std::mem::take(&mut stale), boot.data_dir(), sink);
        }
        // What the held-back work found (the cards due, a store fault) is
        // news worth a redraw.
        if runner.has_held() && runner.flush(&mut s) {
            draw(&mut term, &mut s, &mut runner, &theme)?;
        }
        let Ok(incoming) = rx.recv() else { break };
        let fx = match incoming {
            Incoming::Stop => state::update(&mut s, Action::Quit),
            Incoming::Resumed => {
                let _ = term.resume();
                update_opt(&mut s, resized(&mut term, None))
            }
            Incoming::Reply(reply) => match runner.take(reply) {
                Some(msg) => state::receive(&mut s, msg),
                None => Vec::new(),
            },
            Incoming::Term(Event::Resize(w, h)) => {
                update_opt(&mut s, resized(&mut term, Some((w, h))))
            }
            Incoming::Term(ev) => {
                let action = input::action(&s, ev);
                update_opt(&mut s, action)
            }
        };
        apply(&mut runner, &mut s, &mut term, fx);
    }
    runner.flush(&mut s);
    drop(term);
    if let Some(w) = runner.store.as_mut().and_then(Store::take_warning) {
        eprintln!("lectern: {w}");
    }
    Ok(())
}

fn update_opt(s: &mut State, action: Option<Action>) -> Vec<Effect> {
    action.map_or_else(Vec::new, |a| state::update(s, a))
}

/// Effects to the runner; the terminal's own are carried out here.
fn apply(runner: &mut Runner, s: &mut State, term: &mut terminal::Term, fx: Vec<Effect>) {
    for effect in runner.apply(s, fx) {
        match effect {
            Effect::SetMouse(on) => term.set_mouse(on),
            Effect::Suspend => {
                let _ = term.suspend();
            }
            _ => {}
        }
    }
}

/// Draws the state. A lesson just opened is drawn from its first screen
/// alone; the rest of it is then laid out and drawn, before the next key.
fn draw(
    term: &mut terminal::Term,
    s: &mut State,
    runner: &mut Runner,
    theme: &Theme,
) -> std::io::Result<()> {
    term.terminal.draw(|f| crate::ui::draw(f, s, theme))?;
    if s.reader.partial() {
        terminal::let_frame_show();
        let fx = state::receive(s, Msg::Drawn);
        apply(runner, s, term, fx);
        term.terminal.draw(|f| crate::ui::draw(f, s, theme))?;
    }
    Ok(())
}

/// The screen takes its new size (`None`: asked of the terminal); the
/// state follows if it changed.
fn resized(term: &mut terminal::Term, size: Option<(u16, u16)>) -> Option<Action> {
    match term.resize(size) {
        Ok(true) => {
            let area = term.area();
            Some(Action::Resize(area.width, area.height))
        }
        _ => None,
    }
}
