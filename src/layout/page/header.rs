//! The lesson's header (title, where it sits, the key idea) and its
//! credits (authorship, licence, review status, how to cite).

use super::builder::Builder;
use crate::layout::style::{BOLD, Role, Span, Style};
use crate::model::LessonMeta;

impl Builder<'_> {
    pub(super) fn header(&mut self, m: &LessonMeta) {
        self.text(&m.title, Style::new(Role::Title).with(BOLD));
        let mut meta = vec![m.course_title.clone()];
        if let Some(module) = &m.module {
            meta.push(if module.title.is_empty() {
                format!("Module {}", module.index)
            } else {
                format!("Module {}: {}", module.index, module.title)
            });
        }
        match (m.position, m.of) {
            (Some(p), Some(of)) => meta.push(format!("Lesson {p} of {of}")),
            (Some(p), None) => meta.push(format!("Lesson {p}")),
            _ => {}
        }
        if let Some(min) = m.minutes {
            meta.push(format!("{min} min"));
        }
        self.text(&meta.join(" · "), Role::Meta);
        if let Some(k) = &m.key_idea {
            self.blank();
            self.wrapped(&[
                (
                    "Key idea: ".to_string(),
                    Style::new(Role::KeyIdea).with(BOLD),
                ),
                (k.clone(), Style::new(Role::KeyIdea)),
            ]);
        }
    }

    pub(super) fn credits(&mut self, m: &LessonMeta) {
        self.emit(vec![Span::new("─".repeat(self.avail().min(3)), Role::Rule)]);
        if let Some(a) = &m.authorship {
            self.text(a, Role::Dim);
        }
        if let Some(l) = &m.licence {
            self.text(&format!("Licence: {l}"), Role::Dim);
        }
        if let Some(r) = &m.review_status {
            self.text(&format!("Status: {r}"), Role::Dim);
        }
        if let Some(c) = &m.cite {
            self.text(&format!("Cite as: {c}"), Role::Dim);
        }
    }
}

/// Whether the lesson has credits to show.
pub(super) fn has_credits(m: &LessonMeta) -> bool {
    m.authorship.is_some() || m.licence.is_some() || m.review_status.is_some() || m.cite.is_some()
}
