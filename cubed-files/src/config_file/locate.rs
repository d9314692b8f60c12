//! Where a key a validation error names is written: the section as a message names it
//! (`[[gripper]] 'left'`, `[[gripper]] 'left' wiring`, `[board]`, `top level`) found in the
//! parsed text, and said as syntax errors say it (`[[gripper]] #1 'left' [gripper.wiring]
//! (line 31)`).

use super::syntax::section_at;
use toml::de::{DeTable, DeValue};

/// The section a message names, as a path into the file's tables.
#[derive(Debug, PartialEq, Eq)]
enum Section<'a> {
    TopLevel,
    /// `[a.b]`: the dotted path.
    Table(Vec<&'a str>),
    /// `[[kind]] 'name'` or `[[kind]] #number` (both: the number rules), then maybe a
    /// sub-table of that element (`motion`, `wiring`).
    Named {
        kind: &'a str,
        number: Option<usize>,
        name: Option<&'a str>,
        sub: Option<&'a str>,
    },
}

fn section_of(label: &str) -> Option<Section<'_>> {
    if label == "top level" {
        return Some(Section::TopLevel);
    }
    if let Some(rest) = label.strip_prefix("[[") {
        let (kind, rest) = rest.split_once("]]")?;
        let mut rest = rest.trim_start();
        let mut number = None;
        if let Some(after) = rest.strip_prefix('#') {
            let digits = after
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(after.len());
            number = Some(after[..digits].parse::<usize>().ok()?);
            rest = after[digits..].trim_start();
        }
        let mut name = None;
        if let Some(after) = rest.strip_prefix('\'') {
            let (quoted, after) = after.split_once('\'')?;
            name = Some(quoted);
            rest = after;
        }
        if number.is_none() && name.is_none() {
            return None;
        }
        let sub = rest.trim();
        let plain = |word: &str| {
            !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        if !(sub.is_empty() || plain(sub)) {
            return None;
        }
        return Some(Section::Named {
            kind,
            number,
            name,
            sub: (!sub.is_empty()).then_some(sub),
        });
    }
    let inner = label.strip_prefix('[')?.strip_suffix(']')?;
    Some(Section::Table(inner.split('.').map(str::trim).collect()))
}

fn entry<'t, 'i>(table: &'t DeTable<'i>, key: &str) -> Option<&'t toml::Spanned<DeValue<'i>>> {
    table
        .iter()
        .find(|(k, _)| k.get_ref().as_ref() == key)
        .map(|(_, v)| v)
}

fn table_in<'t, 'i>(value: &'t DeValue<'i>) -> Option<&'t DeTable<'i>> {
    match value {
        DeValue::Table(table) => Some(table),
        _ => None,
    }
}

/// The table a section names, and the byte offset it starts at (its first key, else its
/// header's place).
fn find_table<'t, 'i>(
    root: &'t toml::Spanned<DeTable<'i>>,
    section: &Section<'_>,
) -> Option<(&'t DeTable<'i>, usize)> {
    match section {
        Section::TopLevel => Some((root.get_ref(), 0)),
        Section::Table(path) => {
            let mut table = root.get_ref();
            let mut at = 0;
            for key in path {
                let value = entry(table, key)?;
                at = value.span().start;
                table = table_in(value.get_ref())?;
            }
            Some((table, at))
        }
        Section::Named {
            kind,
            number,
            name,
            sub,
        } => {
            let DeValue::Array(items) = entry(root.get_ref(), kind)?.get_ref() else {
                return None;
            };
            let named = |item: &&toml::Spanned<DeValue<'i>>| {
                table_in(item.get_ref())
                    .and_then(|t| entry(t, "name"))
                    .is_some_and(
                        |n| matches!(n.get_ref(), DeValue::String(s) if Some(s.as_ref()) == *name),
                    )
            };
            let item = match number {
                Some(n) => items.get(n.checked_sub(1)?)?,
                None => items.iter().find(named)?,
            };
            let table = table_in(item.get_ref())?;
            match sub {
                None => Some((table, item.span().start)),
                Some(sub) => {
                    let value = entry(table, sub)?;
                    Some((table_in(value.get_ref())?, value.span().start))
                }
            }
        }
    }
}

/// Where `key` of the section `label` is written in `text`: the section as syntax errors
/// name it, and the key's line (else the section's first line). `None` when the label is
/// not one of a single section or the text does not parse.
pub fn locate_key(text: &str, label: &str, key: &str) -> Option<(String, usize)> {
    let section = section_of(label)?;
    let root = DeTable::parse(text).ok()?;
    let (table, start) = find_table(&root, &section)?;
    let at = entry(table, key).map_or(start, |value| value.span().start);
    let line = text[..at.min(text.len())].matches('\n').count() + 1;
    let named = match section {
        Section::TopLevel => "top level".to_string(),
        _ => section_at(text, at).0,
    };
    Some((named, line))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESIGN: &str = "name = \"r\"\n\n[board]\nenable = 5\n\n[[gripper]]\nname = \"left\"\nat = \"left\"\n\n[[gripper]]\nname = \"right\"\nat = \"right\"\n\n[gripper.wiring]\nstep = 2\njaw = 40\n";

    #[test]
    fn a_named_table_of_an_array_is_found_by_its_name_and_said_by_its_number() {
        assert_eq!(
            locate_key(DESIGN, "[[gripper]] 'right'", "at"),
            Some(("[[gripper]] #2 'right'".to_string(), 12))
        );
        assert_eq!(
            locate_key(DESIGN, "[[gripper]] 'left'", "at"),
            Some(("[[gripper]] #1 'left'".to_string(), 8))
        );
    }

    #[test]
    fn a_numbered_table_is_found_by_its_number_when_two_share_a_name() {
        let twice = DESIGN.replace("name = \"right\"", "name = \"left\"");
        assert_eq!(
            locate_key(&twice, "[[gripper]] #2 'left'", "name"),
            Some(("[[gripper]] #2 'left'".to_string(), 11))
        );
        assert_eq!(
            locate_key(&twice, "[[gripper]] #1", "name"),
            Some(("[[gripper]] #1 'left'".to_string(), 7))
        );
        assert_eq!(locate_key(&twice, "[[gripper]] #3", "name"), None);
    }

    #[test]
    fn a_sub_table_of_a_named_table_is_said_with_its_header() {
        assert_eq!(
            locate_key(DESIGN, "[[gripper]] 'right' wiring", "jaw"),
            Some(("[[gripper]] #2 'right' [gripper.wiring]".to_string(), 16))
        );
    }

    #[test]
    fn a_missing_key_is_placed_at_its_section() {
        let (named, line) = locate_key(DESIGN, "[[gripper]] 'left'", "range").expect("found");
        assert_eq!(named, "[[gripper]] #1 'left'");
        assert!((6..=8).contains(&line), "line {line}");
    }

    #[test]
    fn plain_tables_and_the_top_level_are_found() {
        assert_eq!(
            locate_key(DESIGN, "[board]", "enable"),
            Some(("[board]".to_string(), 4))
        );
        assert_eq!(
            locate_key(DESIGN, "top level", "name"),
            Some(("top level".to_string(), 1))
        );
    }

    #[test]
    fn a_label_of_several_sections_or_an_unknown_name_is_not_placed() {
        assert_eq!(
            locate_key(DESIGN, "[[gripper]] and [[flipper]]", "name"),
            None
        );
        assert_eq!(locate_key(DESIGN, "[[gripper]] 'nobody'", "at"), None);
        assert_eq!(locate_key(DESIGN, "[[gripper]]", "name"), None);
    }
}
