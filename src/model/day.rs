//! The learner's day: one notion of "today" for review, stats, the streak
//! and the stats screen. A day is the learner's local calendar day, but
//! starting at a rollover hour rather than midnight (Anki's 4 am), so a
//! review at 1 am still counts for the evening before.

use chrono::{DateTime, Duration, Local, NaiveDate, TimeZone, Utc};

/// The hour (local time) a learner's day starts. The one place it is set;
/// the config file (issue 15) can override it through [`Days::rollover_hour`].
pub const ROLLOVER_HOUR: u32 = 4;

/// How days are cut: at `rollover_hour`, in time zone `tz`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Days<Tz: TimeZone = Local> {
    pub rollover_hour: u32,
    pub tz: Tz,
}

impl Default for Days<Local> {
    fn default() -> Self {
        Days {
            rollover_hour: ROLLOVER_HOUR,
            tz: Local,
        }
    }
}

impl<Tz: TimeZone> Days<Tz> {
    pub fn new(rollover_hour: u32, tz: Tz) -> Days<Tz> {
        Days {
            rollover_hour: rollover_hour.min(23),
            tz,
        }
    }

    /// The learner's day `at` falls in, named by its calendar date.
    pub fn day(&self, at: DateTime<Utc>) -> NaiveDate {
        let local = at.with_timezone(&self.tz).naive_local();
        (local - Duration::hours(i64::from(self.rollover_hour))).date()
    }

    /// When learner-day `date` starts, as an instant. Across a DST gap
    /// that swallows the rollover hour, the first instant after it.
    pub fn start(&self, date: NaiveDate) -> DateTime<Utc> {
        let mut at = date
            .and_hms_opt(self.rollover_hour, 0, 0)
            .unwrap_or_default();
        // A gap is at most a few hours; step until the local time exists.
        for _ in 0..8 {
            if let Some(t) = self.tz.from_local_datetime(&at).earliest() {
                return t.with_timezone(&Utc);
            }
            at += Duration::minutes(30);
        }
        Utc.from_utc_datetime(&at)
    }

    /// The end of the learner's day holding `now`: a card due before it is
    /// due today.
    pub fn end_of_day(&self, now: DateTime<Utc>) -> DateTime<Utc> {
        let next = self.day(now).succ_opt().unwrap_or(NaiveDate::MAX);
        self.start(next)
    }

    /// The end of the learner's day `n` days after today's.
    pub fn end_of_day_in(&self, now: DateTime<Utc>, n: u32) -> DateTime<Utc> {
        let d = self.day(now) + Duration::days(i64::from(n) + 1);
        self.start(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::FixedOffset;

    fn utc(y: i32, m: u32, d: u32, h: u32, min: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, h, min, 0).unwrap()
    }

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn the_day_turns_at_the_rollover_hour_not_midnight() {
        let days = Days::new(4, Utc);
        assert_eq!(days.day(utc(2026, 3, 2, 3, 59)), date(2026, 3, 1));
        assert_eq!(days.day(utc(2026, 3, 2, 4, 0)), date(2026, 3, 2));
        assert_eq!(days.day(utc(2026, 3, 1, 23, 30)), date(2026, 3, 1));
        assert_eq!(
            days.end_of_day(utc(2026, 3, 1, 23, 30)),
            utc(2026, 3, 2, 4, 0)
        );
        assert_eq!(
            days.end_of_day(utc(2026, 3, 2, 1, 0)),
            utc(2026, 3, 2, 4, 0)
        );
    }

    #[test]
    fn a_fixed_offset_moves_the_day_with_the_learner() {
        // UTC+10: 20:00 UTC is 06:00 the next morning there.
        let days = Days::new(4, FixedOffset::east_opt(10 * 3600).unwrap());
        assert_eq!(days.day(utc(2026, 3, 1, 20, 0)), date(2026, 3, 2));
        assert_eq!(days.day(utc(2026, 3, 1, 17, 0)), date(2026, 3, 1));
        assert_eq!(
            days.end_of_day(utc(2026, 3, 1, 20, 0)),
            utc(2026, 3, 2, 18, 0)
        );
        let west = Days::new(4, FixedOffset::west_opt(5 * 3600).unwrap());
        assert_eq!(west.day(utc(2026, 3, 2, 8, 0)), date(2026, 3, 1));
        assert_eq!(west.day(utc(2026, 3, 2, 9, 0)), date(2026, 3, 2));
    }

    #[test]
    fn a_week_ends_seven_rollovers_later() {
        let days = Days::new(4, Utc);
        let now = utc(2026, 3, 1, 12, 0);
        assert_eq!(days.end_of_day_in(now, 0), days.end_of_day(now));
        assert_eq!(days.end_of_day_in(now, 6), utc(2026, 3, 8, 4, 0));
    }

    /// Local time through `TZ`, in a child process so this process's zone
    /// is not changed under other tests: across the spring-forward night
    /// in New York (2 am → 3 am on 2026-03-08) the day still turns at 4 am
    /// local, which is 08:00 UTC after the change and 09:00 before it.
    #[test]
    fn local_days_follow_a_dst_change() {
        if std::env::var_os("LECTERN_DAY_CHILD").is_some() {
            let days = Days::default();
            assert_eq!(
                days.end_of_day(utc(2026, 3, 7, 12, 0)),
                utc(2026, 3, 8, 8, 0)
            );
            assert_eq!(
                days.end_of_day(utc(2026, 3, 6, 12, 0)),
                utc(2026, 3, 7, 9, 0)
            );
            assert_eq!(days.day(utc(2026, 3, 8, 7, 59)), date(2026, 3, 7));
            assert_eq!(days.day(utc(2026, 3, 8, 8, 0)), date(2026, 3, 8));
            return;
        }
        if !std::path::Path::new("/usr/share/zoneinfo/America/New_York").exists() {
            eprintln!("no tz database: the DST case is covered by the fixed-offset test only");
            return;
        }
        let exe = std::env::current_exe().unwrap();
        let out = std::process::Command::new(exe)
            .args([
                "--exact",
                "model::day::tests::local_days_follow_a_dst_change",
            ])
            .env("LECTERN_DAY_CHILD", "1")
            .env("TZ", "America/New_York")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}");
        assert!(stdout.contains("1 passed"), "the child ran: {stdout}");
    }
}
