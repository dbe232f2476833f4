//! A terminal for the loop to run on without one: ratatui's `TestBackend`
//! for the screen, and a record of what the world outside it was asked.

use super::Host;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

pub struct TestHost {
    pub terminal: Terminal<TestBackend>,
    pub mouse: bool,
    /// Text put on the clipboard, addresses opened, in order.
    pub clipboard: Vec<String>,
    pub opened: Vec<String>,
    /// Ctrl-Z presses (the process is not stopped).
    pub suspended: usize,
    /// Whether a browser is there to open addresses.
    pub browser: bool,
    /// The editor notes are written in: a line it adds to each (none:
    /// no `$EDITOR` set); and the notes it was given, in order.
    pub editor: Option<String>,
    pub edited: Vec<String>,
}

impl TestHost {
    pub fn new(width: u16, height: u16) -> TestHost {
        let terminal = Terminal::new(TestBackend::new(width, height))
            .unwrap_or_else(|e| unreachable!("a TestBackend cannot fail: {e}"));
        TestHost {
            terminal,
            mouse: true,
            clipboard: Vec::new(),
            opened: Vec::new(),
            suspended: 0,
            browser: true,
            editor: None,
            edited: Vec::new(),
        }
    }
}

impl Host for TestHost {
    type Backend = TestBackend;

    fn terminal(&mut self) -> &mut Terminal<TestBackend> {
        &mut self.terminal
    }

    fn resize(&mut self, size: Option<(u16, u16)>) -> Option<(u16, u16)> {
        let (w, h) = size?;
        let area = Rect::new(0, 0, w, h);
        if self.terminal.get_frame().area() == area {
            return None;
        }
        self.terminal.backend_mut().resize(w, h);
        self.terminal.resize(area).ok()?;
        Some((w, h))
    }

    fn set_mouse(&mut self, on: bool) {
        self.mouse = on;
    }

    fn suspend(&mut self) {
        self.suspended += 1;
    }

    fn resume(&mut self) {}

    fn clipboard(&mut self, text: &str) {
        self.clipboard.push(text.to_owned());
    }

    fn edit(&mut self, text: &str) -> crate::state::Edited {
        self.edited.push(text.to_owned());
        match &self.editor {
            Some(line) => crate::state::Edited::Text(format!("{text}\n{line}")),
            None => crate::state::Edited::NoEditor,
        }
    }

    fn open_url(&mut self, url: &str) -> Result<(), String> {
        if !self.browser {
            return Err("no browser".into());
        }
        self.opened.push(url.to_owned());
        Ok(())
    }
}
