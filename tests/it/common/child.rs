//! A measurement made in a child process: the test binary run again for
//! one test, with the case in an environment variable, so that the peak
//! memory it reads (`VmHWM`) is the case's own. Kept apart from the rest
//! of `common`, whose reader code would add to every figure.

use std::process::Command;

/// What the child printed after `MEASURED ` when test `test` ran with
/// `var` set to `case`.
pub fn measured(test: &str, var: &str, case: &str) -> String {
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test])
        .args(["--nocapture", "--test-threads=1"])
        .env(var, case)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .find_map(|l| l.split_once("MEASURED ").map(|(_, m)| m.to_string()))
        .unwrap_or_else(|| panic!("{case}: {text}"))
}
