//! A TOML or serde error's message in words: Rust type and struct names said plainly, a key with no value or with more after its value, and the key on the error's line named.

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
    text = with_short_floats(&without_struct_names(&text));
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

/// A float a serde message quotes in full (`floating point `1000…0.0``, 300 digits for `1e300`)
/// in exponent form, so the error stays one line.
fn with_short_floats(message: &str) -> String {
    const FLOAT: &str = "floating point `";
    let Some(at) = message.find(FLOAT).map(|at| at + FLOAT.len()) else {
        return message.to_string();
    };
    let Some(len) = message[at..].find('`') else {
        return message.to_string();
    };
    let quoted = &message[at..at + len];
    match quoted.parse::<f64>() {
        Ok(value) if quoted.len() > 24 => {
            format!("{}{value:e}{}", &message[..at], &message[at + len..])
        }
        _ => message.to_string(),
    }
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
