//! The real terminal as the loop's host: crossterm's screen, the mouse,
//! job control, the clipboard and the browser.

use super::{outside, terminal};
use crate::app::Host;

impl Host for terminal::Term {
    type Backend = terminal::Backend;

    fn terminal(&mut self) -> &mut ratatui::Terminal<terminal::Backend> {
        &mut self.terminal
    }

    fn resize(&mut self, size: Option<(u16, u16)>) -> Option<(u16, u16)> {
        match terminal::Term::resize(self, size) {
            Ok(true) => {
                let area = self.area();
                Some((area.width, area.height))
            }
            _ => None,
        }
    }

    fn set_mouse(&mut self, on: bool) {
        terminal::Term::set_mouse(self, on);
    }

    fn suspend(&mut self) {
        let caught = self.caught;
        let _ = terminal::Term::suspend(self, caught);
    }

    fn resume(&mut self) {
        let _ = terminal::Term::resume(self);
    }

    fn edit(&mut self, text: &str) -> crate::state::Edited {
        let Some(editor) = super::editor::chosen() else {
            return crate::state::Edited::NoEditor;
        };
        terminal::Term::hand_over(self, || super::editor::edit(&editor, text))
    }

    fn clipboard(&mut self, text: &str) {
        outside::clipboard(text);
    }

    fn open_url(&mut self, url: &str) -> Result<(), String> {
        outside::open_url(url)
    }

    fn frame_drawn(&mut self) {
        terminal::let_frame_show();
    }

    fn draw(
        &mut self,
        render: impl FnOnce(&mut ratatui::Frame) -> crate::ui::Shown,
    ) -> std::io::Result<()> {
        super::graphics::draw(self, render)
    }

    fn cell_pixels(&mut self) -> Option<(u16, u16)> {
        terminal::Term::cell_pixels(self)
    }
}
