//! Syntax errors in TOML files a person writes (robot designs, `cubed.toml`, palettes): the message in words (no Rust type names), with the line, the key and the `[[table]] #n` section where the parser stopped.

use crate::config_file::error::ConfigError;

/// The kinds of TOML file a person gives cubed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    DaemonConfig,
    RobotDesign,
    Palette,
}

impl FileKind {
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

/// The syntax error of `file`, a `wanted` kind of file, in words; or that it is another kind.
pub fn syntax_or_kind_error(
    text: &str,
    file: &str,
    wanted: FileKind,
    e: &toml::de::Error,
) -> ConfigError {
    match another_kind(text, wanted) {
        Some(words) => ConfigError::WrongKind {
            file: file.to_string(),
            words,
        },
        None => syntax_error(text, file, e),
    }
}

pub fn syntax_error(text: &str, file: &str, e: &toml::de::Error) -> ConfigError {
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
    if let Some(hint) = array_written_as_table(text, &message, &section) {
        message = format!("{message}: {hint}");
    }
    if let Some(hint) = table_written_as_array(text, &message, &section) {
        message = format!("{message}: {hint}");
    }
    if let Some(hint) = unclosed_array(text, offset, &message) {
        message = format!("{message}: {hint}");
    }
    if let Some(hint) = super::subtable::key_below_subtable(&message, &section) {
        message = format!("{message}: {hint}");
    }
    ConfigError::Syntax {
        file: file.to_string(),
        section,
        line,
        message,
    }
}

/// "`[[support]]` makes a list of tables; write `[support]`", when a single table was written
/// with two pairs of brackets: the parser then reads the list's one table as the table's first
/// key, and says that a table ("map") is not what that key takes.
fn table_written_as_array(text: &str, message: &str, section: &str) -> Option<String> {
    let name = section.strip_prefix("[[")?.split("]]").next()?;
    let header = format!("[[{name}]]");
    let written = (text.lines())
        .filter(|line| line.split('#').next().unwrap_or("").trim() == header)
        .count();
    (message.starts_with("map, expected") && written == 1).then(|| {
        format!("`{header}` makes a list of tables, and `{name}` is one table: write `[{name}]`")
    })
}

/// "`range` on line 10 opens a list it never closes (`[-1, 1`: a `]` is missing)", when the
/// parser, still inside a list, took the next line's key for an element without a comma.
fn unclosed_array(text: &str, offset: usize, message: &str) -> Option<String> {
    if !message.contains("missing comma between array elements") {
        return None;
    }
    let before = text.get(..offset)?;
    let error_line = before.matches('\n').count() + 1;
    // The key whose list is still open where the error is: lists may span lines.
    let (mut open, mut depth) = (None, 0usize);
    for (n, line) in before.lines().enumerate().take(error_line - 1) {
        let line = line.split('#').next().unwrap_or("");
        let part = match (depth, line.split_once('=')) {
            (0, Some((key, value))) => {
                open = Some((n + 1, key.trim(), value.trim()));
                value
            }
            (0, None) => continue,
            _ => line,
        };
        depth = (depth + part.matches('[').count()).saturating_sub(part.matches(']').count());
        if depth == 0 {
            open = None;
        }
    }
    let (n, key, value) = open?;
    Some(format!(
        "`{key}` on line {n} opens a list it never closes (`{value}`: a `]` is missing)"
    ))
}

/// Why a file that writes one of a list's tables with one pair of brackets (`[gripper]`
/// for `[[gripper]]`) fails, whatever the parser said: `[x]` next to `[[x]]`, `[x]` twice,
/// or `[x]` where a list was expected.
fn array_written_as_table(text: &str, message: &str, section: &str) -> Option<String> {
    let headers: Vec<(usize, &str, bool)> = (text.lines().enumerate())
        .filter_map(|(i, line)| {
            let line = line.split('#').next().unwrap_or("").trim();
            let double = line.strip_prefix("[[").and_then(|l| l.strip_suffix("]]"));
            let single = line.strip_prefix('[').and_then(|l| l.strip_suffix(']'));
            match (double, single) {
                (Some(name), _) => Some((i + 1, name.trim(), true)),
                (None, Some(name)) => Some((i + 1, name.trim(), false)),
                _ => None,
            }
        })
        .collect();
    let written = |name: &str, double: bool| {
        (headers.iter())
            .filter(|h| h.1 == name && h.2 == double)
            .count()
    };
    let (line, name, _) = headers.iter().find(|&&(_, name, double)| {
        !double
            && !name.contains('.')
            && (written(name, true) > 0
                || written(name, false) > 1
                || (message.contains("expected a list") && section == format!("[{name}]")))
    })?;
    Some(format!(
        "`[{name}]` (line {line}) makes one table, but each {name} is one of a list: write `[[{name}]]`, with two brackets, for every one"
    ))
}

/// A TOML error's line and message in words, naming the key (one line, no source snippet).
pub fn toml_in_words(text: &str, e: &toml::de::Error) -> (usize, String) {
    let offset = e.span().map_or(0, |s| s.start);
    let line = text[..offset.min(text.len())].matches('\n').count() + 1;
    let message = match (
        key_without_value(text, offset),
        more_after_value(text, offset),
    ) {
        (Some(key), _) => format!("key '{key}' has no value after '='"),
        (None, Some((key, value, more))) => format!(
            "key '{key}' has `{more}` after its value `{value}` on the same line: a key takes \
             one value (a list is written `[a, b]`, a comment starts with '#')"
        ),
        (None, None) => with_key(text, offset, &in_words(e.message().trim())),
    };
    (line, message)
}

/// The key of the line at `offset` when that line is `key =` with nothing after it but a
/// comment (the parser's own words for it speak of quoting strings).
fn key_without_value(text: &str, offset: usize) -> Option<&str> {
    let (key, value) = line_at(text, offset).split_once('=')?;
    let value = value.split('#').next().unwrap_or("").trim();
    (is_bare_key(key.trim()) && value.is_empty()).then(|| key.trim())
}

/// The key, its value and what follows it, when the line at `offset` is `key = value more`
/// with a value that is whole on its own (`max_solves = 3 3`: the parser's own words speak of
/// quoting strings).
fn more_after_value(text: &str, offset: usize) -> Option<(&str, &str, &str)> {
    let (key, value) = line_at(text, offset).split_once('=')?;
    let key = key.trim();
    let value = value.split('#').next().unwrap_or("").trim();
    let (first, more) = value.split_once(char::is_whitespace)?;
    let whole = toml::from_str::<toml::Table>(&format!("k = {first}")).is_ok();
    (is_bare_key(key) && whole).then(|| (key, first, more.trim()))
}

/// The line of `text` that byte `offset` is on.
fn line_at(text: &str, offset: usize) -> &str {
    let offset = offset.min(text.len());
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    text[start..].lines().next().unwrap_or("")
}

/// Rust type names in a serde message said in words: `expected u32` → `expected a whole
/// number` for a value of another kind (`"fast"`: the key's own range is checked once it is a
/// number), `expected a whole number from 0 to 4294967295` for a number out of the type's range.
pub fn in_words(message: &str) -> String {
    let wrong_kind = message.starts_with("invalid type: ");
    const TYPES: [(&str, &str); 12] = [
        ("u8", "a whole number from 0 to 255"),
        ("u16", "a whole number from 0 to 65535"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u64", "a whole number of 0 or more"),
        ("usize", "a whole number of 0 or more"),
        ("i8", "a whole number from -128 to 127"),
        ("i16", "a whole number from -32768 to 32767"),
        ("i32", "a whole number"),
        ("i64", "a whole number"),
        ("f32", "a number"),
        ("f64", "a number"),
        ("char", "a single character"),
    ];
    let mut text = message.to_string();
    for (rust, words) in TYPES {
        let words = match words.strip_prefix("a whole number") {
            Some(_) if wrong_kind => "a whole number",
            _ => words,
        };
        for (before, after) in [("expected ", ""), ("expected ", ","), ("expected ", " ")] {
            let from = format!("{before}{rust}{after}");
            if after.is_empty() && !text.ends_with(&from) {
                continue;
            }
            text = text.replace(&from, &format!("{before}{words}{after}"));
        }
    }
    text = without_struct_names(&text);
    if wrong_kind && text.ends_with("expected a whole number") {
        match gpio_written_as_a_name(&text) {
            Some((number, true)) => {
                text = format!("{text} (a pin is its GPIO number alone: write {number})")
            }
            Some((number, false)) => text = format!("{text} (write it without quotes: {number})"),
            None => {}
        }
    }
    text.replace("invalid type: ", "")
        .replace("invalid value: ", "")
        .replace(" as i128", " (too large for any key)")
        .replace("EOF while parsing", "the file ends while reading")
        .replace("expected a sequence", "expected a list, [a, b, …]")
}

/// The number in a string value written as a board's pin name (`"GP4"`, `"GPIO4"`) or as
/// a quoted number (`"4"`), as a serde message quotes it: `string "GP4", expected …`.
fn gpio_written_as_a_name(message: &str) -> Option<(&str, bool)> {
    let quoted = message.strip_prefix("invalid type: string \"")?;
    let value = &quoted[..quoted.find('"')?];
    let upper = value.to_ascii_uppercase();
    let digits_at = ["GPIO", "GP", ""]
        .iter()
        .find_map(|prefix| upper.strip_prefix(prefix).map(|_| prefix.len()))?;
    let number = value[digits_at..].trim_start_matches(['_', ' ']);
    let named = digits_at > 0;
    (!number.is_empty() && number.chars().all(|c| c.is_ascii_digit())).then_some((number, named))
}

/// "expected struct ScanFile" (a Rust type's name, which means nothing to a person) in words.
fn without_struct_names(message: &str) -> String {
    const STRUCT: &str = "expected struct ";
    match message.find(STRUCT) {
        Some(at) => {
            let after = &message[at + STRUCT.len()..];
            let name_ends = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            format!(
                "{}expected a set of named keys{}",
                &message[..at],
                &after[name_ends..]
            )
        }
        None => message.to_string(),
    }
}

/// The message prefixed with the key on the line at `offset`, when that line is `key = …`.
fn with_key(text: &str, offset: usize, message: &str) -> String {
    match line_at(text, offset).split_once('=') {
        Some((key, _)) if is_bare_key(key.trim()) && !message.contains(key.trim()) => {
            format!("key '{}': {message}", key.trim())
        }
        _ => message.to_string(),
    }
}

fn is_bare_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The table header in force at byte `offset`, e.g. `[[gripper]] #2 'right'` (its number,
/// and its `name` if it has one), `[[gripper]] #2 'right' [gripper.motion]` for a sub-table
/// of it, `[board]`; and, in the first `[[name]]` when a `[name.…]` header came before it
/// (the usual cause of TOML's "duplicate key" there), that in words.
pub(super) fn section_at(text: &str, offset: usize) -> (String, Option<String>) {
    let mut section = "top level".to_string();
    let mut early = None;
    // Per array of tables: how many so far, and the label of the latest.
    let mut arrays: Vec<(String, usize, String)> = Vec::new();
    // Sub-tables met before any table of their array: the array's name, the header, its line.
    let mut orphans: Vec<(&str, &str, usize)> = Vec::new();
    let mut line_number = 0;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if at > offset {
            break;
        }
        at += line.len();
        line_number += 1;
        let header = line.trim();
        // `[[gripper]` (unclosed) is named as written, below.
        let array = header.strip_prefix("[[").and_then(|h| h.split_once("]]"));
        if let Some((name, _)) = array {
            let n = match arrays.iter().position(|(k, _, _)| k == name) {
                Some(i) => arrays[i].1 + 1,
                None => 1,
            };
            let label = match name_key(&text[at..]) {
                Some(own) => format!("[[{name}]] #{n} '{own}'"),
                None => format!("[[{name}]] #{n}"),
            };
            arrays.retain(|(k, _, _)| k != name);
            arrays.push((name.to_string(), n, label.clone()));
            section = label;
            let first = n == 1;
            early = orphans
                .iter()
                .find(|(array, _, _)| first && *array == name)
                .map(|(_, sub, at)| {
                    format!(
                        "`{sub}` at line {at} comes before any `[[{name}]]`; a sub-table belongs \
                     after the `[[{name}]]` it describes"
                    )
                });
        } else if header.starts_with('[') {
            let plain = header.split('#').next().unwrap_or(header).trim();
            let parent = arrays
                .iter()
                .find(|(name, _, _)| plain.starts_with(&format!("[{name}.")));
            section = match parent {
                Some((_, _, label)) => format!("{label} {plain}"),
                None => plain.to_string(),
            };
            early = None;
            let array = plain
                .trim_start_matches('[')
                .split('.')
                .next()
                .unwrap_or("");
            if parent.is_none() && plain.contains('.') {
                orphans.push((array, plain, line_number));
            }
        }
    }
    (section, early)
}

/// The `name = "…"` of the table whose body starts `body`, up to its next header.
fn name_key(body: &str) -> Option<&str> {
    for line in body.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            return None;
        }
        if let Some((key, value)) = line.split_once('=') {
            if key.trim() == "name" {
                let value = value.trim();
                return value.strip_prefix('"')?.split('"').next();
            }
        }
    }
    None
}

#[cfg(test)]
mod words_tests {
    use super::*;

    fn parsed(text: &str) -> String {
        let e = toml::from_str::<toml::Table>(text).expect_err("bad TOML");
        syntax_error(text, "design.toml", &e).to_string()
    }

    #[test]
    fn a_single_table_written_with_two_pairs_of_brackets_is_said_so() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Design {
            support: Support,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Support {
            sets: Vec<Vec<String>>,
        }
        let text = "[[support]]\nsets = [[\"a\", \"b\"]]\n";
        let e = toml::from_str::<Design>(text).expect_err("a list of tables");
        let said = syntax_error(text, "design.toml", &e).to_string();
        assert!(said.contains("write `[support]`"), "{said}");
        // Written as one table, it parses.
        assert!(toml::from_str::<Design>(&text.replace("[[support]]", "[support]")).is_ok());
    }

    #[test]
    fn a_list_left_open_is_named_with_its_own_line_and_key() {
        // The parser stops at the next key, on the line after.
        let text = "name = \"x\"\n[[gripper]]\nname = \"left\"\nrange = [-1, 1\nopen_ms = 100\n";
        let said = parsed(text);
        assert!(
            said.contains("`range` on line 4 opens a list it never closes (`[-1, 1`"),
            "{said}"
        );
        // A list over several lines, closed, is not the one blamed.
        let text = "sets = [\n  [\"a\", \"b\"],\n]\nrange = [-1, 1\nopen_ms = 100\n";
        let said = parsed(text);
        assert!(said.contains("`range` on line 4"), "{said}");
        assert!(!said.contains("`sets`"), "{said}");
    }

    #[test]
    fn a_list_table_written_with_one_pair_of_brackets_is_said_so() {
        let two = "[[gripper]]\nname = \"a\"\n[gripper]\nname = \"b\"\n";
        let hint = array_written_as_table(two, "duplicate key", "[gripper]").expect("said");
        assert!(
            hint.starts_with("`[gripper]` (line 3) makes one table"),
            "{hint}"
        );
        assert!(hint.contains("write `[[gripper]]`"), "{hint}");
        let twice = "[camera]\nname = \"a\"\n\n[camera]\nname = \"b\"\n";
        let hint = array_written_as_table(twice, "duplicate key", "[camera]").expect("said");
        assert!(hint.starts_with("`[camera]` (line 1)"), "{hint}");
        let solo = "name = \"r\"\n[gripper] # the only one\nname = \"a\"\n";
        let expected = "map, expected a list, [a, b, …]";
        assert!(array_written_as_table(solo, expected, "[gripper]").is_some());
        // A table that is one table, and a list written right, say nothing more.
        let fine = "[board]\nenable = 1\n[[gripper]]\nname = \"a\"\n[gripper.motion]\n";
        assert_eq!(
            array_written_as_table(fine, "duplicate key", "[board]"),
            None
        );
        assert_eq!(
            array_written_as_table(solo, "duplicate key", "[gripper]"),
            None
        );
    }

    #[test]
    fn a_struct_name_and_an_early_end_are_said_in_words() {
        let said = in_words("sequence, expected struct ScanFile");
        assert_eq!(said, "sequence, expected a set of named keys");
        let said = in_words("integer `3`, expected struct ScanFaces at line 1");
        assert_eq!(said, "integer `3`, expected a set of named keys at line 1");
        let said = in_words("EOF while parsing a value");
        assert_eq!(said, "the file ends while reading a value");
        let said = in_words("invalid type: floating point `2.0`, expected a sequence");
        assert_eq!(said, "floating point `2.0`, expected a list, [a, b, …]");
    }

    #[test]
    fn a_pin_written_as_its_name_is_told_to_be_its_number() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct W {
            step: i64,
        }
        let said = |value: &str| {
            let error = toml::from_str::<W>(&format!("step = {value}\n")).expect_err("a string");
            in_words(error.message())
        };
        let written = [("\"GP4\"", "4"), ("\"gpio12\"", "12"), ("\"GPIO_7\"", "7")];
        for (value, number) in written {
            let message = said(value);
            let hint = format!("(a pin is its GPIO number alone: write {number})");
            assert!(message.ends_with(&hint), "{value}: {message}");
        }
        let message = said("\"4\"");
        assert!(
            message.ends_with("(write it without quotes: 4)"),
            "{message}"
        );
        for value in ["\"D4\"", "\"GP\"", "\"GP4a\"", "\"fast\""] {
            let message = said(value);
            assert!(!message.contains("GPIO number"), "{value}: {message}");
        }
    }

    #[test]
    fn rust_type_names_become_words_and_the_key_is_named() {
        let text = "[history]\nkeep_runs = \"many\"\n";
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct H {
            history: K,
        }
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct K {
            keep_runs: u32,
        }
        let error = toml::from_str::<H>(text).expect_err("a string for a number");
        let ConfigError::Syntax { message, line, .. } = syntax_error(text, "f.toml", &error) else {
            panic!("a syntax error");
        };
        assert_eq!(line, 2);
        assert!(message.contains("key 'keep_runs'"), "{message}");
        // A string is not a number at all: the type's range would mislead (the key's own
        // range is checked once it is one).
        assert!(
            message.ends_with("string \"many\", expected a whole number"),
            "{message}"
        );
        assert!(!message.contains("u32"), "{message}");
        let error = toml::from_str::<H>("[history]\nkeep_runs = 100000000000000000000\n")
            .expect_err("huge");
        let message = in_words(error.message());
        assert!(message.contains("(too large for any key)"), "{message}");
        assert!(!message.contains("i128"), "{message}");
        let error = toml::from_str::<H>("[history]\nkeep_runs = -3\n").expect_err("negative");
        let message = in_words(error.message());
        assert!(
            message.contains("expected a whole number from 0 to 4294967295"),
            "a number out of the type's range: {message}"
        );
    }

    /// The section and message TOML's own error for `text` is reported with.
    fn reported(text: &str) -> (String, String) {
        let error = toml::from_str::<toml::Table>(text).expect_err("not valid TOML");
        let ConfigError::Syntax {
            section, message, ..
        } = syntax_error(text, "f.toml", &error)
        else {
            panic!("a syntax error");
        };
        (section, message)
    }

    #[test]
    fn a_table_of_an_array_is_named_by_its_number_and_name_and_so_are_its_sub_tables() {
        let text = "[[gripper]]\nname = \"left\"\n[[gripper]]\nname = \"right\"\n\
                    [gripper.motion]\nmicrosteps = \"8\"\n[board]\nenable = 10\n";
        let at = |needle: &str| text.find(needle).expect("in the text");
        assert_eq!(
            section_at(text, at("name = \"left")).0,
            "[[gripper]] #1 'left'"
        );
        assert_eq!(
            section_at(text, at("microsteps")).0,
            "[[gripper]] #2 'right' [gripper.motion]"
        );
        assert_eq!(section_at(text, at("enable")).0, "[board]");
    }

    #[test]
    fn an_unclosed_array_header_is_named_as_written() {
        let (section, _) = reported("name = \"x\"\n[[gripper]\nname = \"a\"\n");
        assert_eq!(section, "[[gripper]");
    }

    #[test]
    fn a_sub_table_before_its_array_is_said_to_be_the_cause() {
        let text = "name = \"x\"\n[gripper.wiring]\nstep = 2\n[[gripper]]\nname = \"a\"\n";
        let (section, message) = reported(text);
        assert_eq!(section, "[[gripper]] #1 'a'");
        assert!(
            message.contains("`[gripper.wiring]` at line 2 comes before any `[[gripper]]`"),
            "{message}"
        );
        // Said wherever in that table TOML places its error.
        let at_key = section_at(text, text.find("name = \"a").expect("in the text"));
        assert!(
            at_key
                .1
                .as_ref()
                .is_some_and(|early| early.contains("comes before")),
            "{at_key:?}"
        );
        // Where the sub-table follows its array, a duplicate is not blamed on it.
        let text = "[[gripper]]\nname = \"a\"\n[gripper.wiring]\nstep = 2\nstep = 3\n";
        let (_, message) = reported(text);
        assert!(!message.contains("comes before"), "{message}");
    }

    #[test]
    fn a_missing_section_is_placed_at_the_top_level_not_in_the_first_section() {
        let text = "[run]\ncube_size = 3\n";
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Doc {
            run: toml::Table,
            robot: toml::Table,
        }
        let error = toml::from_str::<Doc>(text).expect_err("no [robot]");
        let ConfigError::Syntax {
            section, message, ..
        } = syntax_error(text, "f.toml", &error)
        else {
            panic!("a syntax error");
        };
        assert_eq!(section, "top level");
        assert!(message.contains("robot"), "{message}");
    }
    #[test]
    fn a_key_with_no_value_is_said_so_not_as_an_unquoted_string() {
        for text in [
            "[robot]\nbaud =\n",
            "[robot]\nbaud =   # the link's speed\n",
        ] {
            let error = toml::from_str::<toml::Table>(text).expect_err("no value");
            let (line, message) = toml_in_words(text, &error);
            assert_eq!(
                (line, message.as_str()),
                (2, "key 'baud' has no value after '='")
            );
        }
        let text = "[run]\nmax_solves = 3 3   # solves\n";
        let error = toml::from_str::<toml::Table>(text).expect_err("two values");
        let (line, message) = toml_in_words(text, &error);
        assert_eq!(line, 2);
        assert!(
            message.starts_with("key 'max_solves' has `3` after its value `3`"),
            "{message}"
        );
        let text = "[robot]\nport = dev/tty\n";
        let error = toml::from_str::<toml::Table>(text).expect_err("unquoted");
        let (_, message) = toml_in_words(text, &error);
        assert!(message.starts_with("key 'port': "), "{message}");
        assert!(!message.contains("no value"), "{message}");
    }
}
