//! Syntax errors in TOML files a person writes (robot designs, `cubed.toml`, palettes): the message in words (no Rust type names), with the line, the key and the `[[table]] #n` section where the parser stopped.

mod hints;
mod section;
mod words;

pub(super) use section::section_at;
pub use words::{in_words, toml_in_words};

use crate::config_file::error::ConfigError;
use crate::config_file::Tables;
use hints::{array_written_as_table, table_written_as_array, unclosed_array};

/// The kinds of TOML file a person gives cubed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    DaemonConfig,
    RobotDesign,
    Palette,
}

impl FileKind {
    /// The tables this kind of file writes as lists (`[[gripper]]`); the others are one table.
    fn lists(self) -> &'static [&'static str] {
        match self {
            FileKind::DaemonConfig => &[],
            FileKind::RobotDesign => &["gripper", "flipper", "cradle", "camera"],
            FileKind::Palette => &["colour"],
        }
    }

    fn words(self) -> &'static str {
        match self {
            FileKind::DaemonConfig => "the daemon's configuration (as config/cubed.toml)",
            FileKind::RobotDesign => "a robot design (as config/robots/four-arm.toml)",
            FileKind::Palette => "a palette of colours (as config/palette.toml)",
        }
    }

    /// What `text` plainly is, by its top-level tables: `[[colour]]` a palette, `[[gripper]]`
    /// or `[[flipper]]` a robot design, `[robot]`, `[vision]`, `[run]` or `[http]` the
    /// daemon's configuration.
    fn of(text: &str) -> Option<FileKind> {
        let table: toml::Table = toml::from_str(text).ok()?;
        let has = |key: &str| table.contains_key(key);
        let has_table = |key: &str| table.get(key).is_some_and(toml::Value::is_table);
        if has("colour") {
            Some(FileKind::Palette)
        } else if has("gripper") || has("flipper") {
            Some(FileKind::RobotDesign)
        } else if ["robot", "vision", "run", "http"]
            .into_iter()
            .any(has_table)
        {
            Some(FileKind::DaemonConfig)
        } else {
            None
        }
    }
}

/// "this is a palette of colours (…), not a robot design (…)", when `text`, which did not
/// parse as `wanted`, is plainly a file of another kind (given in the wrong place).
pub fn another_kind(text: &str, wanted: FileKind) -> Option<String> {
    let is = FileKind::of(text).filter(|&k| k != wanted)?;
    Some(format!("this is {}, not {}", is.words(), wanted.words()))
}

/// The line (from 1) of `key = …` in the table `[section]` of `text`, if it is written there.
pub fn key_line(text: &str, section: &str, key: &str) -> Option<usize> {
    let mut current = String::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some(header) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            current = header.trim().to_string();
        } else if current == section
            && line
                .split_once('=')
                .is_some_and(|(name, _)| name.trim() == key)
        {
            return Some(n + 1);
        }
    }
    None
}

/// The syntax error of `file`, a `wanted` kind of file whose tables take the keys `tables`
/// says, in words; or that it is another kind.
pub fn syntax_or_kind_error(
    text: &str,
    file: &str,
    wanted: FileKind,
    tables: Tables,
    e: &toml::de::Error,
) -> ConfigError {
    match another_kind(text, wanted) {
        Some(words) => ConfigError::WrongKind {
            file: file.to_string(),
            words,
        },
        None => syntax_error_in(text, file, Some(wanted.lists()), tables, e),
    }
}

pub fn syntax_error(text: &str, file: &str, e: &toml::de::Error) -> ConfigError {
    syntax_error_in(text, file, None, &[], e)
}

/// The syntax error in words; `lists`: the tables the file writes as lists, when its kind
/// is known (a table written twice is then told to be written once, or a list's tables
/// each with two brackets, whichever it is); `tables`: the keys of each of its tables, to say
/// where a key refused as unknown belongs.
fn syntax_error_in(
    text: &str,
    file: &str,
    lists: Option<&[&str]>,
    tables: Tables,
    e: &toml::de::Error,
) -> ConfigError {
    let offset = e.span().map_or(0, |s| s.start);
    let (line, mut message) = toml_in_words(text, e);
    // A key missing from the document itself is reported at its very start (an empty span
    // at 0) or over all of it, not in whichever section comes first.
    let whole_document = e.message().starts_with("missing field")
        && e.span()
            .is_none_or(|s| s.start == 0 && (s.end == 0 || s.end >= text.trim_end().len()));
    let section = if whole_document {
        "top level".to_string()
    } else {
        let (section, early) = section_at(text, offset);
        if let Some(early) = early {
            message = format!("{message}: {early}");
        }
        section
    };
    if let Some(hint) = array_written_as_table(text, &message, &section, lists) {
        message = format!("{message}: {hint}");
    }
    if let Some(hint) = table_written_as_array(text, &message, &section, lists) {
        message = format!("{message}: {hint}");
    }
    if let Some(hint) = unclosed_array(text, offset, &message) {
        message = format!("{message}: {hint}");
    }
    let hint = super::misplaced::misplaced_key(&message, &section, tables);
    // serde's "unknown field `x`, expected one of …", in this file's words: a key.
    let unknown = (message.strip_prefix("unknown field `"))
        .and_then(|rest| rest.split('`').next())
        .map(str::to_string);
    message = match (unknown, hint) {
        // A misspelled header: the hint names the tables there are, and what was meant.
        (Some(_), Some(hint)) if hint.starts_with("`[") => hint,
        (Some(key), Some(hint)) => format!("unknown key `{key}`: {hint}"),
        (Some(_), None) => message.replacen("unknown field", "unknown key", 1),
        (None, Some(hint)) => format!("{message}: {hint}"),
        (None, None) => message,
    };
    ConfigError::Syntax {
        file: file.to_string(),
        section,
        line,
        message,
    }
}

#[cfg(test)]
mod words_tests;
