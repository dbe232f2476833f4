//! Character references: numeric ones and the named ones books write.

/// The character reference at the start of `s` (on its `&`) and its
/// length; an unknown one is the `&` itself.
pub(super) fn entity(s: &str) -> (String, usize) {
    let Some(end) = s[1..].find(';').filter(|&e| e > 0 && e <= 32) else {
        return ("&".into(), 1);
    };
    let name = &s[1..=end];
    let len = end + 2;
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok(),
            None => num.parse().ok(),
        };
        return match code.and_then(char::from_u32).filter(|&c| c != '\0') {
            Some(c) => (c.to_string(), len),
            None => ("\u{fffd}".into(), len),
        };
    }
    let c = match name {
        "amp" => "&",
        "lt" => "<",
        "gt" => ">",
        "quot" => "\"",
        "apos" => "'",
        "nbsp" => "\u{a0}",
        "vert" | "verbar" => "|",
        "mdash" => "—",
        "ndash" => "–",
        "hellip" => "…",
        "copy" => "©",
        "reg" => "®",
        "trade" => "™",
        "larr" => "←",
        "rarr" => "→",
        "uarr" => "↑",
        "darr" => "↓",
        "harr" => "↔",
        "times" => "×",
        "divide" => "÷",
        "plusmn" => "±",
        "le" => "≤",
        "ge" => "≥",
        "ne" => "≠",
        "lsquo" => "‘",
        "rsquo" => "’",
        "ldquo" => "“",
        "rdquo" => "”",
        "laquo" => "«",
        "raquo" => "»",
        "middot" => "·",
        "bull" => "•",
        "deg" => "°",
        "euro" => "€",
        "pound" => "£",
        "sect" => "§",
        "para" => "¶",
        "shy" => "\u{ad}",
        "zwsp" => "\u{200b}",
        "ast" => "*",
        "num" => "#",
        "lbrace" | "lcub" => "{",
        "rbrace" | "rcub" => "}",
        "lsqb" | "lbrack" => "[",
        "rsqb" | "rbrack" => "]",
        "grave" => "`",
        "bsol" => "\\",
        "lowbar" => "_",
        "Hat" => "^",
        "tilde" => "~",
        "dollar" => "$",
        "percnt" => "%",
        "excl" => "!",
        "quest" => "?",
        "colon" => ":",
        "semi" => ";",
        "equals" => "=",
        "plus" => "+",
        "sol" => "/",
        _ => return ("&".into(), 1),
    };
    (c.into(), len)
}
