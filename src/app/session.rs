//! The running reader, whatever terminal it runs on: the state, the
//! effect runner and the screen, and the one loop that drives them
//! (events in, the state updated, effects carried out, the frame drawn,
//! held work done). The terminal runs it over crossterm; the tests over
//! ratatui's `TestBackend` with scripted events.

use super::input;
use crate::effects::{Reply, Runner};
use crate::state::{self, Action, Effect, Msg, State};
use crate::theme::Theme;
use ratatui::crossterm::event::Event;
use std::collections::VecDeque;
use std::io;

/// Everything the loop waits for.
pub enum Incoming {
    Term(Event),
    /// SIGTERM, SIGHUP, SIGINT or SIGQUIT: quit cleanly.
    Stop,
    /// SIGCONT, or back from a SIGTSTP: the shell may have drawn over the
    /// screen after we did, so take the terminal and draw it all again.
    Resumed,
    Reply(Reply),
    /// An action the runtime asks for itself (the screens the command line
    /// opens over the first lesson; tests).
    Act(Action),
    /// What the terminal said of itself, answering the query sent after
    /// the first frame.
    Said(Said),
}

/// The terminal's answer to the start-up query, as the reader uses it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Said {
    /// Its background is dark (`None`: it did not say).
    pub dark: Option<bool>,
    /// How pictures are drawn on it (`None`: as they were).
    pub drawing: Option<crate::state::pictures::Drawing>,
}

/// What the loop needs of the terminal it runs on, beyond its screen.
pub trait Host {
    type Backend: ratatui::backend::Backend;
    fn terminal(&mut self) -> &mut ratatui::Terminal<Self::Backend>;
    /// Takes the screen's new size (`None`: asked of the terminal); the
    /// size, if it changed.
    fn resize(&mut self, size: Option<(u16, u16)>) -> Option<(u16, u16)>;
    fn set_mouse(&mut self, on: bool);
    fn suspend(&mut self);
    /// Takes the terminal again after a stop, to be drawn whole.
    fn resume(&mut self);
    fn clipboard(&mut self, text: &str);
    /// `text` (a note) in the learner's editor, the terminal given to it
    /// meanwhile: what it saved, or why not.
    fn edit(&mut self, text: &str) -> state::Edited;
    /// `Err` says why no browser could open it.
    fn open_url(&mut self, url: &str) -> Result<(), String>;
    /// A frame was drawn and more work follows at once.
    fn frame_drawn(&mut self) {}
    /// One cell's pixels, when the terminal says (asked after a resize:
    /// a font's size may have changed with it).
    fn cell_pixels(&mut self) -> Option<(u16, u16)> {
        None
    }
    /// One frame: `render` draws it, and says the pictures it shows with a
    /// graphics protocol, which a real terminal writes with it.
    fn draw(
        &mut self,
        render: impl FnOnce(&mut ratatui::Frame) -> crate::ui::Shown,
    ) -> io::Result<()> {
        self.terminal()
            .draw(|f| {
                render(f);
            })
            .map(|_| ())
            .map_err(|e| io::Error::other(e.to_string()))
    }
}

/// Where the loop's events come from.
pub trait Events {
    /// The next event, waiting for it; `None`: there will be no more.
    fn next(&mut self, s: &State) -> Option<Incoming>;
    /// An event was handled and `s` is as it left it.
    fn handled(&mut self, _s: &State) {}
}

pub struct Session<H: Host> {
    pub s: State,
    pub runner: Runner,
    pub host: H,
    pub theme: Theme,
    /// Keys typed while a lesson is read off the loop, for the page it
    /// brings: `]]` then `}` moves on the third lesson, not the first.
    typed_ahead: VecDeque<Event>,
    /// Every effect asked for, in order, when kept (tests).
    pub seen: Option<Vec<Effect>>,
}

impl<H: Host> Session<H> {
    pub fn new(s: State, runner: Runner, host: H, theme: Theme) -> Session<H> {
        Session {
            s,
            runner,
            host,
            theme,
            typed_ahead: VecDeque::new(),
            seen: None,
        }
    }

    /// Draws, does the held-back work, and handles the next event, until
    /// the state says quit or the events end. `drawn`: whether the screen
    /// shows the state as it is.
    pub fn run(&mut self, events: &mut impl Events, mut drawn: bool) -> io::Result<()> {
        while !self.s.quit {
            if !std::mem::take(&mut drawn) {
                self.draw()?;
            }
            self.flush()?;
            let Some(incoming) = events.next(&self.s) else {
                break;
            };
            self.handle(incoming);
            events.handled(&self.s);
        }
        Ok(())
    }

    /// The last of the held work, once the loop has ended (the runtime
    /// first tells a signal not to cut it short).
    pub fn finish(&mut self) {
        super::flush(&mut self.s, &mut self.runner);
    }

    /// The work held back until the frame is on screen; what it found
    /// (the cards due, a store fault) is news worth a redraw.
    pub fn flush(&mut self) -> io::Result<()> {
        if self.runner.has_held() && super::flush(&mut self.s, &mut self.runner) {
            self.draw()?;
        }
        Ok(())
    }

    pub fn update(&mut self, action: Action) {
        let fx = state::update(&mut self.s, action);
        self.apply(fx);
    }

    pub fn receive(&mut self, msg: Msg) {
        let fx = state::receive(&mut self.s, msg);
        self.apply(fx);
    }

    /// Effects to the runner; the terminal's own are carried out here.
    pub fn apply(&mut self, fx: Vec<Effect>) {
        let outside = match &mut self.seen {
            Some(seen) => super::apply_traced(&mut self.s, &mut self.runner, fx, seen),
            None => super::apply(&mut self.s, &mut self.runner, fx),
        };
        for effect in outside {
            match effect {
                Effect::SetMouse(on) => self.host.set_mouse(on),
                Effect::Suspend => self.host.suspend(),
                Effect::Clipboard(text) => self.host.clipboard(&text),
                Effect::EditNote(text) => {
                    let edited = self.host.edit(&text);
                    self.receive(Msg::NoteEdited(edited));
                    // The terminal may have been resized meanwhile.
                    self.resized(None);
                }
                Effect::OpenPicture(path) => {
                    let shown = crate::model::sanitize::clean_owned(&path.display().to_string());
                    let say = match self.host.open_url(&path.display().to_string()) {
                        Ok(()) => format!("Opened {shown} in the system's viewer."),
                        Err(why) => format!("No picture viewer here ({why}): the file is {shown}"),
                    };
                    self.receive(Msg::Notice(say));
                }
                Effect::OpenUrl(url) => {
                    if let Err(why) = self.host.open_url(&url) {
                        let say = format!(
                            "Cannot open a browser here ({why}): L, then y on the link, copies {url}"
                        );
                        self.receive(Msg::Notice(say));
                    }
                }
                _ => {}
            }
        }
    }

    pub fn handle(&mut self, incoming: Incoming) {
        match incoming {
            Incoming::Stop => self.update(Action::Quit),
            Incoming::Act(action) => self.update(action),
            Incoming::Resumed => {
                self.host.resume();
                self.resized(None);
            }
            Incoming::Reply(reply) => self.reply(reply),
            Incoming::Said(said) => self.said(said),
            Incoming::Term(Event::Resize(w, h)) => {
                self.resized(Some((w, h)));
            }
            Incoming::Term(ev) if self.runner.is_loading() || !self.typed_ahead.is_empty() => {
                // Quitting, and leaving what is on screen, never wait for
                // the lesson (`q` is Close: it quits from the page).
                match input::action(&self.s, ev.clone()) {
                    Some(a @ (Action::Quit | Action::Close | Action::Back)) => self.update(a),
                    _ => self.typed_ahead.push_back(ev),
                }
            }
            Incoming::Term(ev) => self.key(ev),
        }
    }

    /// The screen takes its new size (`None`: asked of the terminal); the
    /// state follows if it changed (whether it did).
    pub fn resized(&mut self, size: Option<(u16, u16)>) -> bool {
        let Some((w, h)) = self.host.resize(size) else {
            return false;
        };
        self.update(Action::Resize(w, h));
        use crate::state::pictures::Drawing;
        if let (Drawing::Graphics(g), Some(cell)) = (self.s.prefs.drawing, self.host.cell_pixels())
        {
            if g.cell != cell {
                let g = crate::model::Graphics { cell, ..g };
                self.receive(Msg::Drawing(Drawing::Graphics(g)));
            }
        }
        true
    }

    /// The terminal's answer: the palette for its background if the guess
    /// was wrong, and how pictures are drawn.
    fn said(&mut self, said: Said) {
        use crate::theme::ThemeKind;
        if let Some(dark) = said.dark {
            let kind = if dark {
                ThemeKind::Dark
            } else {
                ThemeKind::Light
            };
            if self.theme.kind != ThemeKind::Mono && self.theme.kind != kind {
                self.theme.kind = kind;
                self.receive(Msg::Background(dark));
            }
        }
        if let Some(drawing) = said.drawing {
            self.receive(Msg::Drawing(drawing));
        }
    }

    fn reply(&mut self, reply: Reply) {
        if let Some(msg) = self.runner.take(reply) {
            self.receive(msg);
        }
        // Keys typed ahead move on the whole page: one laid out only to its
        // first screen has no later heading for `}` to find (it stopped two
        // lines short of one, on a loaded machine).
        if !self.typed_ahead.is_empty() && !self.runner.is_loading() && self.s.reader.partial() {
            self.receive(Msg::Drawn);
        }
        while !self.runner.is_loading() {
            let Some(ev) = self.typed_ahead.pop_front() else {
                break;
            };
            self.key(ev);
        }
    }

    fn key(&mut self, ev: Event) {
        if let Some(a) = input::action(&self.s, ev) {
            self.update(a);
        }
    }

    /// Draws the state. A lesson just opened is drawn from its first
    /// screen alone; the rest of it is then laid out and drawn, before the
    /// next event.
    pub fn draw(&mut self) -> io::Result<()> {
        self.frame()?;
        if self.s.reader.partial() {
            self.host.frame_drawn();
            self.receive(Msg::Drawn);
            self.frame()?;
        }
        Ok(())
    }

    /// One frame of the state as it is.
    pub fn frame(&mut self) -> io::Result<()> {
        let (s, theme) = (&self.s, &self.theme);
        self.host.draw(|f| crate::ui::draw_shown(f, s, theme))
    }
}

/// Events given in advance, in order (tests, and scripted runs).
#[derive(Default)]
pub struct Script(pub VecDeque<Incoming>);

impl Events for Script {
    fn next(&mut self, _s: &State) -> Option<Incoming> {
        self.0.pop_front()
    }
}
