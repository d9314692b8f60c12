//! Syntax errors in robot design files: the message with the line and the `[[table]] #n` section where the TOML parser stopped.

use super::config::ConfigError;

pub(crate) fn syntax_error(text: &str, file: &str, e: &toml::de::Error) -> ConfigError {
    let offset = e.span().map_or(0, |s| s.start);
    let line = text[..offset.min(text.len())].matches('\n').count() + 1;
    ConfigError::Syntax {
        file: file.to_string(),
        section: section_at(text, offset),
        line,
        message: e.message().trim().to_string(),
    }
}

/// The table header in force at byte `offset`, e.g. `[[gripper]] #2`.
fn section_at(text: &str, offset: usize) -> String {
    let mut section = "top level".to_string();
    let mut counts: Vec<(String, usize)> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if at > offset {
            break;
        }
        at += line.len();
        let header = line.trim();
        if let Some(name) = header.strip_prefix("[[").and_then(|h| h.split("]]").next()) {
            let n = match counts.iter_mut().find(|(k, _)| k == name) {
                Some((_, n)) => {
                    *n += 1;
                    *n
                }
                None => {
                    counts.push((name.to_string(), 1));
                    1
                }
            };
            section = format!("[[{name}]] #{n}");
        } else if header.starts_with('[') {
            section = header
                .split('#')
                .next()
                .unwrap_or(header)
                .trim()
                .to_string();
        }
    }
    section
}
