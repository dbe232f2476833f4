use super::*;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};

fn key(c: char) -> KeyEvent {
    KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)
}

#[test]
fn less_keys_work_while_reading() {
    assert_eq!(lookup(Screen::Reading, &key('j')), Some(Action::LineDown));
    assert_eq!(lookup(Screen::Reading, &key(' ')), Some(Action::PageDown));
    assert_eq!(lookup(Screen::Reading, &key('G')), Some(Action::Bottom));
    assert_eq!(lookup(Screen::Reading, &key('3')), Some(Action::Count(3)));
    assert_eq!(lookup(Screen::Reading, &key('0')), Some(Action::Count(0)));
    assert_eq!(lookup(Screen::Check, &key('3')), Some(Action::Answer(2)));
    assert_eq!(lookup(Screen::Reading, &key('q')), Some(Action::Close));
    let ctrl_c = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    for screen in Screen::ALL {
        assert_eq!(lookup(screen, &ctrl_c), Some(Action::Quit), "{screen:?}");
    }
}

#[test]
fn prompts_take_text_not_commands() {
    assert_eq!(lookup(Screen::Search, &key('q')), Some(Action::Input('q')));
    assert_eq!(lookup(Screen::Search, &key('j')), Some(Action::Input('j')));
    assert_eq!(
        lookup(Screen::CourseSearch, &key('G')),
        Some(Action::Input('G'))
    );
}

#[test]
fn every_screen_can_be_left_with_esc() {
    let esc = KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE);
    for screen in Screen::ALL {
        assert_eq!(lookup(screen, &esc), Some(Action::Back), "{screen:?}");
    }
}

#[test]
fn labels_are_made_from_the_keys() {
    let down = bindings(Screen::Reading)
        .find(|b| b.action == Action::LineDown)
        .unwrap();
    assert_eq!(down.label(), "j ↓ Enter");
    let page = bindings(Screen::Reading)
        .find(|b| b.action == Action::PageDown)
        .unwrap();
    assert_eq!(page.label(), "Space PgDn Ctrl-D Ctrl-F");
}

#[test]
fn no_key_is_bound_twice_on_a_screen() {
    for screen in Screen::ALL {
        let mut seen = Vec::new();
        for b in bindings(screen) {
            for k in b.keys {
                assert!(!seen.contains(k), "{screen:?}: {k:?} twice");
                seen.push(*k);
            }
        }
    }
}

#[test]
fn help_lists_every_binding_of_reading() {
    let help = help();
    let reading = &help.iter().find(|(s, _)| *s == Screen::Reading).unwrap().1;
    for b in bindings(Screen::Reading) {
        assert!(
            reading.iter().any(|(l, _)| *l == b.label()),
            "{} missing",
            b.label()
        );
    }
}
