//! lectern: a terminal reader for interactive courses.
pub mod store;
