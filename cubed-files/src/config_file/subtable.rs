//! The hint for a key written below a sub-table's header (`[gripper.motion]`) that belongs to the table above it.

/// "keys below `[gripper.motion]` belong to it, up to the next header: if `close_ms` belongs to
/// another table (such as `[[gripper]]`, above it), move it under that table's header", for a
/// key unknown in a dotted table
/// (`section` as syntax errors name it, e.g. "[[gripper]] #2 'holder' [gripper.motion]").
pub(super) fn key_below_subtable(message: &str, section: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    let key = rest.split('`').next()?;
    let sub = (section.split_whitespace())
        .find(|word| word.starts_with('[') && !word.starts_with("[[") && word.contains('.'))?;
    let parent = sub
        .trim_matches(|c| c == '[' || c == ']')
        .split('.')
        .next()?;
    let outer = match section.starts_with("[[") {
        true => format!("[[{parent}]]"),
        false => format!("[{parent}]"),
    };
    Some(format!(
        "keys below `{sub}` belong to it, up to the next header: if `{key}` belongs to another table (such as `{outer}`, above it), move it under that table's header"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_below_a_sub_table_is_told_to_move_above_it() {
        let said = key_below_subtable(
            "unknown field `close_ms`, expected one of `full_steps_per_rev`",
            "[[gripper]] #2 'holder' [gripper.motion]",
        );
        assert_eq!(
            said.as_deref(),
            Some("keys below `[gripper.motion]` belong to it, up to the next header: if `close_ms` belongs to another table (such as `[[gripper]]`, above it), move it under that table's header")
        );
        // Not in a sub-table, or not an unknown key: nothing to add.
        assert_eq!(
            key_below_subtable("unknown field `x`", "[[gripper]] #2 'holder'"),
            None
        );
        assert_eq!(key_below_subtable("invalid type", "[gripper.motion]"), None);
    }
}
