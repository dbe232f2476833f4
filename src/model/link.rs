//! Which link targets lectern will hand to a terminal or a browser.

/// A web or mail address (`http`, `https`, `mailto`) of printable ASCII
/// only: nothing that could end an escape sequence or a command line.
pub fn is_web(url: &str) -> bool {
    let scheme = ["http://", "https://", "mailto:"].iter().any(|s| {
        url.len() > s.len()
            && url
                .get(..s.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(s))
    });
    scheme && url.bytes().all(|b| b.is_ascii_graphic())
}

/// The host a web address goes to (`mailto`: the mail domain).
pub fn host(url: &str) -> Option<&str> {
    let rest = url.split_once("://").map(|(_, r)| r).or_else(|| {
        let mail = url.get(..7).filter(|p| p.eq_ignore_ascii_case("mailto:"))?;
        url[mail.len()..].split_once('@').map(|(_, d)| d)
    })?;
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let host = &rest[..end];
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    (!host.is_empty()).then_some(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_of_web_and_mail_targets() {
        assert_eq!(host("https://example.org/a?b"), Some("example.org"));
        assert_eq!(
            host("http://user@evil.example:8080/x"),
            Some("evil.example:8080")
        );
        assert_eq!(host("mailto:me@example.com"), Some("example.com"));
        assert_eq!(host("lesson-2.md"), None);
        assert!(is_web("https://a.b") && !is_web("javascript:x") && !is_web("https://a\x07"));
    }
}
