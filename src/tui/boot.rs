//! Start-up, in the order it happens, with the speed tricks that pay for
//! it named in one place. Boot says what; the runner does it (the store,
//! the index, the loader: `effects::opening`), inline until the first
//! frame:
//!
//! 0. With no PATH, `tui::read` asks the store's file, read-only and
//!    without opening the store, which course was read last
//!    (`Store::last_course`, one indexed query); that course's folder is
//!    the path from here on, and `prepare` is told its slug.
//! 1. [`Boot::prepare`], before the terminal is set up: a lesson named on
//!    the command line is read at once (it is the lesson to show either
//!    way); otherwise the store starts opening on a thread, since which
//!    lesson to show is its answer. A large course with a stored listing
//!    starts from an outline of one lesson (1.2 MB of entries to touch at
//!    10,000 lessons otherwise); a large folder never listed starts from a
//!    first look at its files (`loader::first_look`: 100,000 lessons'
//!    first frame 6.6 s → 0.82 s, BENCHMARKS.md); a lesson named alone
//!    stands as its own course (its folder is read after the first frame).
//! 2. [`Boot::first_state`], once the terminal has its size: the state,
//!    opened where the store says the reader left off.
//! 3. The first frame (the runtime's).
//! 4. [`Boot::after_first_frame`]: the rest of the page, the lesson's
//!    folder or the whole listing (in the background after a first look),
//!    and the store's progress, each applied as a message before any key
//!    is read; then the folders shown from a listing are checked against
//!    their files ([`Boot::revalidate`]).

use super::startup::{self, looked, outline, resume_in};
use crate::effects::{Early, Runner};
use crate::index::Snapshot;
use crate::loader::Library;
use crate::model::Origin;
use crate::state::{CourseView, Effect, Msg, Opened, Prefs, Size, Start, State};
use std::path::PathBuf;

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// What follows the first frame.
enum Later {
    Nothing,
    /// The named lesson's folder: its other lessons, and where it stands.
    ReadFolder,
    /// The whole listing in place of the outline.
    ReplaceOutline(Snapshot),
    /// The whole listing of a folder of `files` lessons first looked at,
    /// read in the background.
    ReadListing {
        dir: PathBuf,
        files: usize,
    },
}

pub(super) struct Boot {
    paths: Vec<PathBuf>,
    data_dir: Option<PathBuf>,
    start_review: bool,
    /// What starts the session over the first lesson: a review, a drill.
    pub(super) first_action: Option<crate::state::Action>,
    lib: Library,
    /// The course of `lib` to open, when the paths hold several.
    course: usize,
    /// Whether that course was asked for (no picker is offered then).
    chosen: bool,
    /// The lesson named on the command line (or found by a first look at a
    /// large folder), read by the runner first.
    first: Option<Opened>,
    /// Where the store says the learner left the course, when the first
    /// look has asked already.
    early: Option<Early>,
    later: Later,
    /// Folders shown from their last listing, to check against the files.
    pub stale: Vec<PathBuf>,
}

impl Boot {
    /// `course`: the slug of the course to open among those the paths
    /// hold (the one read last, for `lectern` with no arguments). Lesson
    /// files read are ticked on `progress`.
    pub(super) fn prepare(
        paths: &[PathBuf],
        data_dir: Option<PathBuf>,
        review: bool,
        course: Option<&str>,
        runner: &mut Runner,
        progress: &crate::loader::Progress,
    ) -> Res<Boot> {
        let first_file = paths.iter().find(|p| p.is_file());
        let named = !review && first_file.is_some();
        // Parsed on this thread: a second thread to parse it alongside the
        // set-up cost more to start than it saved (first frame 2.4 ms with
        // one, 2.2 ms without, on two cores).
        let mut early = None;
        let mut first = first_file.filter(|_| named).and_then(|p| {
            let origin = Origin::File(p.clone());
            match runner.carry(Effect::Load { origin, lesson: 0 }, &mut Vec::new()) {
                Some(Msg::Loaded(opened)) => Some(*opened),
                _ => None,
            }
        });
        // The store, opened on a thread alongside the course and the
        // terminal: the first frame waits for the slower, not for both.
        if !named {
            runner.start_store(data_dir.clone(), true);
        }
        let alone = match (&first, paths) {
            (Some(opened), [_]) => opened
                .lesson
                .as_ref()
                .ok()
                .map(|l| startup::alone(&opened.origin, l)),
            _ => None,
        };
        runner.use_cached_index(data_dir.as_deref());
        let mut stale = Vec::new();
        let quick = (!named && !review)
            .then(|| runner.peek_listing(paths))
            .flatten();
        let (lib, later) = match (quick, alone) {
            (_, Some(lib)) => (lib, Later::ReadFolder),
            (Some(snapshot), None) => (
                Library {
                    courses: vec![outline(&snapshot)],
                    start: None,
                },
                Later::ReplaceOutline(snapshot),
            ),
            (None, None) => match looked(paths, runner, &mut early, course).filter(|_| !review) {
                Some(look) => {
                    first = Some(look.opened);
                    let (dir, files) = (look.dir, look.files);
                    (look.lib, Later::ReadListing { dir, files })
                }
                None => (
                    runner.read_library(paths, &mut stale, progress)?,
                    Later::Nothing,
                ),
            },
        };
        if lib.courses.iter().all(|c| c.lessons.is_empty()) {
            return Err("no lessons to show".into());
        }
        let wanted = course.and_then(|slug| lib.courses.iter().position(|c| c.slug == slug));
        let course = lib.start.map(|(c, _)| c).or(wanted).unwrap_or(0);
        runner.want_course(&lib.courses[course].slug);
        Ok(Boot {
            paths: paths.to_vec(),
            data_dir,
            start_review: review,
            first_action: review.then_some(crate::state::Action::Review),
            course,
            chosen: wanted.is_some() || review,
            lib,
            first,
            early,
            later,
            stale,
        })
    }

    pub(super) fn first_state(
        &mut self,
        size: Size,
        prefs: Prefs,
        runner: &mut Runner,
    ) -> Res<(State, Vec<crate::state::Effect>)> {
        let mut courses = std::mem::take(&mut self.lib.courses);
        let course = self.course;
        let named = self
            .lib
            .start
            .filter(|_| !matches!(self.first_action, Some(crate::state::Action::Review)))
            .map(|(_, l)| l);
        let mut progress = None;
        let (lesson, view, anchor) = match named {
            Some(lesson) => {
                let view = match self.later {
                    Later::ReadFolder => CourseView::Alone,
                    _ => CourseView::Full,
                };
                (lesson, view, None)
            }
            None => {
                let slug = courses[course].slug.clone();
                if !runner.is_opening_store() {
                    runner.start_store(self.data_dir.clone(), true);
                    runner.want_course(&slug);
                }
                let left = self.early.take().unwrap_or_else(|| runner.early());
                // A review starts from the cards due: the whole store first.
                if self.start_review {
                    progress = runner.settle_store(self.data_dir.clone(), &slug);
                }
                self.where_to_start(&mut courses, course, left)?
            }
        };
        let start = Start {
            courses,
            course,
            lesson,
            view,
            anchor,
            first: self.first.take(),
        };
        let (mut s, mut fx) = start.state(size, prefs);
        if let Some(p) = progress {
            fx.extend(crate::state::receive(&mut s, p));
        }
        Ok((s, fx))
    }

    fn where_to_start(
        &self,
        courses: &mut [crate::model::Course],
        course: usize,
        left: Early,
    ) -> Res<(usize, CourseView, Option<crate::model::Anchor>)> {
        if let Some((_, lesson)) = self.lib.start {
            return Ok((lesson, CourseView::Full, None));
        }
        let outline = match &self.later {
            Later::ReplaceOutline(snapshot) => Some(snapshot),
            // The course is its one lesson found until the listing is read.
            Later::ReadListing { .. } => {
                let (lesson, _, anchor) = resume_in(courses, course, None, left)?;
                return Ok((lesson, CourseView::Outline { place: 0 }, anchor));
            }
            _ => None,
        };
        Ok(resume_in(courses, course, outline, left)?)
    }

    /// Screens asked for on the command line, over the first lesson.
    pub(super) fn first_actions(&self, s: &State) -> Vec<crate::state::Action> {
        let mut out = Vec::new();
        if self.lib.start.is_none() && s.library.courses.len() > 1 && !self.chosen {
            out.push(crate::state::Action::CoursesOpen);
        }
        out.extend(self.first_action.clone());
        out
    }

    /// What follows the first frame, as messages for the state, in order.
    /// The store's progress comes last, so the frame after these has it.
    pub(super) fn after_first_frame(&mut self, runner: &mut Runner) -> Res<Vec<Msg>> {
        let mut msgs = vec![Msg::Drawn];
        match std::mem::replace(&mut self.later, Later::Nothing) {
            Later::Nothing => {}
            Later::ReadFolder => {
                // A folder that cannot be read leaves the lesson alone.
                let none = crate::loader::Progress::none();
                msgs.push(
                    match runner.read_library(&self.paths, &mut self.stale, &none) {
                        Ok(lib) => Msg::CourseRead(lib.courses, lib.start),
                        Err(e) => Msg::Notice(format!("Only this lesson: {e}")),
                    },
                );
            }
            Later::ReplaceOutline(snapshot) => {
                let courses = runner.listing_of(&snapshot)?;
                msgs.push(Msg::CourseRefreshed(snapshot.dir.clone(), courses));
                self.stale.push(snapshot.dir);
            }
            Later::ReadListing { dir, files } => {
                msgs.push(Msg::Reading {
                    done: 0,
                    total: files,
                });
                runner.carry(Effect::ReadListing { dir, files }, &mut Vec::new());
            }
        }
        Ok(msgs)
    }

    /// The store, if the first frame did not wait for it: opened now (in
    /// the background since `prepare`, or started here at low priority).
    pub(super) fn settle_store(&mut self, runner: &mut Runner, slug: &str) -> Option<Msg> {
        runner.settle_store(self.data_dir.clone(), slug)
    }

    /// The folders shown from their last listing, checked against their
    /// files in the background.
    pub(super) fn revalidate(&mut self, runner: &mut Runner) {
        let dirs = std::mem::take(&mut self.stale);
        if !dirs.is_empty() {
            runner.carry(Effect::Revalidate { dirs }, &mut Vec::new());
        }
    }
}
