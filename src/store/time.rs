//! Instants as stored: Unix milliseconds, which sort and compare as plain
//! integers in SQL.

use chrono::{DateTime, Utc};

pub(crate) fn to_ms(at: DateTime<Utc>) -> i64 {
    at.timestamp_millis()
}

/// A value no `DateTime` can hold can only come from a damaged or foreign
/// row; it reads as the epoch rather than failing the whole query.
pub(crate) fn from_ms(ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(ms).unwrap_or_default()
}
