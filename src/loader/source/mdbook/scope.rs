//! Books found once per load. A command that reads many chapters of one
//! book in one go (`lint`, the course index's first read) opens a scope,
//! and inside it every path of a book finds the same [`Book`]: its
//! SUMMARY.md read once (read again per chapter, 4,000 chapters took
//! 14 s), its budgets spent together. Outside a scope each call finds
//! the book afresh, so an edited SUMMARY.md is read the next time.

use super::Book;
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

thread_local! {
    static BOOKS: RefCell<Option<HashMap<PathBuf, Book>>> = const { RefCell::new(None) };
}

/// `f`, with the books it finds kept until it returns (a scope inside
/// another one shares the outer one's books).
pub fn scope<T>(f: impl FnOnce() -> T) -> T {
    let outer = BOOKS.with(|b| {
        let mut b = b.borrow_mut();
        let outer = b.is_some();
        b.get_or_insert_with(HashMap::new);
        outer
    });
    // Dropped even when `f` unwinds, so no later call sees its books.
    struct Leave(bool);
    impl Drop for Leave {
        fn drop(&mut self) {
            if !self.0 {
                BOOKS.with(|b| b.borrow_mut().take());
            }
        }
    }
    let _leave = Leave(outer);
    f()
}

/// The book in folder `dir`: the one this scope found there, or `make`'s.
pub fn book(dir: &Path, make: impl FnOnce() -> Book) -> Book {
    let known = BOOKS.with(|b| b.borrow().as_ref().and_then(|m| m.get(dir).cloned()));
    if let Some(book) = known {
        return book;
    }
    let book = make();
    BOOKS.with(|b| {
        if let Some(m) = b.borrow_mut().as_mut() {
            m.insert(dir.to_path_buf(), book.clone());
        }
    });
    book
}
