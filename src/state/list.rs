//! The keys of a short list to choose from (what to copy, which link):
//! move, jump by number, choose, close.

use super::Action;

pub enum Pick<T> {
    /// The key means nothing to a list.
    Unused,
    Moved,
    Chosen(T),
    Closed,
}

/// What `a` does to the list `items` with its `cursor`.
pub fn pick<T: Clone>(items: &[T], cursor: &mut usize, a: &Action) -> Pick<T> {
    let last = items.len().saturating_sub(1);
    match a {
        Action::LineDown => *cursor = (*cursor + 1).min(last),
        Action::LineUp => *cursor = cursor.saturating_sub(1),
        Action::Top => *cursor = 0,
        Action::Bottom => *cursor = last,
        Action::Answer(n) if *n <= last => {
            *cursor = *n;
            return chosen(items, *cursor);
        }
        Action::Open => return chosen(items, *cursor),
        Action::Back | Action::Close => return Pick::Closed,
        _ => return Pick::Unused,
    }
    Pick::Moved
}

fn chosen<T: Clone>(items: &[T], cursor: usize) -> Pick<T> {
    match items.get(cursor) {
        Some(item) => Pick::Chosen(item.clone()),
        None => Pick::Closed,
    }
}
