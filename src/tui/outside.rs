//! What the reader asks of the world outside the terminal's screen: the
//! clipboard (through the terminal) and a browser.

/// Text to the terminal's clipboard: OSC 52, which the terminal (or tmux
/// with `set-clipboard on`) hands to the system clipboard, over SSH too.
pub(super) fn clipboard(text: &str) {
    use base64::Engine;
    use std::io::Write;
    let payload = base64::engine::general_purpose::STANDARD.encode(text);
    let mut out = std::io::stdout().lock();
    let _ = write!(out, "\x1b]52;c;{payload}\x07");
    let _ = out.flush();
}

/// A web or mail address (checked by the state: printable ASCII, http,
/// https or mailto) to `$BROWSER` (each of its `:`-separated commands in
/// turn, `%s` standing for the address, as the convention has it), else
/// the desktop's opener; detached and silent so nothing it prints lands on
/// the reader's screen. `Err` says why nothing could open it.
pub(super) fn open_url(url: &str) -> Result<(), String> {
    let spawn = |program: &str, args: &[&str]| {
        std::process::Command::new(program)
            .args(args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .is_ok()
    };
    if let Some(browsers) = std::env::var_os("BROWSER").filter(|b| !b.is_empty()) {
        let browsers = browsers.to_string_lossy().into_owned();
        for command in browsers.split(':').filter(|c| !c.trim().is_empty()) {
            let words: Vec<String> = command
                .split_whitespace()
                .map(|w| w.replace("%s", url))
                .collect();
            let Some((program, rest)) = words.split_first() else {
                continue;
            };
            let mut args: Vec<&str> = rest.iter().map(String::as_str).collect();
            if !command.contains("%s") {
                args.push(url);
            }
            if spawn(program, &args) {
                return Ok(());
            }
        }
        return Err(format!("none of $BROWSER ({browsers}) could be started"));
    }
    if cfg!(target_os = "macos") {
        return if spawn("open", &[url]) {
            Ok(())
        } else {
            Err("`open` could not be started".into())
        };
    }
    // Without a display (over SSH, on a console) xdg-open would start a
    // text browser on the terminal the reader holds.
    let display = ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|d| !d.is_empty()));
    if !display {
        return Err("no display and no $BROWSER".into());
    }
    if spawn("xdg-open", &[url]) {
        Ok(())
    } else {
        Err("xdg-open could not be started".into())
    }
}
