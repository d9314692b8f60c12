//! Hints added to a TOML syntax error where a table and a list of tables were mixed up (`[x]` for `[[x]]` and back) or a list was left open.

/// "`[[support]]` makes a list of tables; write `[support]`", when a single table was written
/// with two pairs of brackets: the parser then reads the list's one table as the table's first
/// key, and says that a table ("map") is not what that key takes.
pub(super) fn table_written_as_array(
    text: &str,
    message: &str,
    section: &str,
    lists: Option<&[&str]>,
) -> Option<String> {
    let name = section.strip_prefix("[[")?.split("]]").next()?;
    let header = format!("[[{name}]]");
    let written = (text.lines())
        .filter(|line| line.split('#').next().unwrap_or("").trim() == header)
        .count();
    // Written more than once, it may be a list: unless the file's kind says it is none.
    let one_table =
        written == 1 || lists.is_some_and(|lists| written > 1 && !lists.contains(&name));
    (message.starts_with("map, expected") && one_table).then(|| match written {
        1 => format!("`{header}` makes a list of tables, and `{name}` is one table: write `[{name}]`"),
        _ => format!("`{header}` makes a list of tables, and `{name}` is one table: write `[{name}]` once, its keys together under it"),
    })
}

/// "`range` on line 10 opens a list it never closes (`[-1, 1`: a `]` is missing)", when the
/// parser, still inside a list, took the next line's key for an element without a comma.
pub(super) fn unclosed_array(text: &str, offset: usize, message: &str) -> Option<String> {
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
pub(super) fn array_written_as_table(
    text: &str,
    message: &str,
    section: &str,
    lists: Option<&[&str]>,
) -> Option<String> {
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
    let lines: Vec<String> = (headers.iter())
        .filter(|h| h.1 == *name)
        .map(|h| h.0.to_string())
        .collect();
    let (lines, times) = (lines.join(", "), lines.len());
    match lists.map(|lists| lists.contains(name)) {
        // One table of this kind of file: written once, with one pair of brackets.
        Some(false) => {
            return Some(format!(
                "`{name}` is one table, written {times} times (lines {lines}): write `[{name}]` once, with one pair of brackets, its keys together under it"
            ))
        }
        Some(true) => {}
        // Written twice with one pair of brackets and nowhere with two, in a file of no
        // known kind: the text cannot tell a table written twice from a list's tables.
        None if written(name, true) == 0 && !message.contains("expected a list") => {
            return Some(format!(
                "`[{name}]` is written {times} times (lines {lines}): write a table once, its keys together under one `[{name}]`; only where each is one of a list (a robot's `[[gripper]]`), write `[[{name}]]` for every one"
            ));
        }
        None => {}
    }
    Some(format!(
        "`[{name}]` (line {line}) makes one table, but each {name} is one of a list: write `[[{name}]]`, with two brackets, for every one"
    ))
}
