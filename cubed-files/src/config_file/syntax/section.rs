//! Which table header is in force at a place in a TOML file (`[[gripper]] #2 'right' [gripper.motion]`), and a sub-table written before its list's first table.

/// The table header in force at byte `offset`, e.g. `[[gripper]] #2 'right'` (its number,
/// and its `name` if it has one), `[[gripper]] #2 'right' [gripper.motion]` for a sub-table
/// of it, `[board]`; and, in the first `[[name]]` when a `[name.…]` header came before it
/// (the usual cause of TOML's "duplicate key" there), that in words.
pub(in crate::config_file) fn section_at(text: &str, offset: usize) -> (String, Option<String>) {
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
