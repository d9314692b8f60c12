//! A key refused as unknown where it is written but known to another table of the file (`baud` under `[solver]`, `close_ms` below `[gripper.motion]`), a table header misspelled, or a key misspelled: where it belongs, or what was meant.

/// A kind of file's tables: each header as written (`"[robot]"`, `"[[gripper]]"`,
/// `"[gripper.motion]"`; `""` for the keys above every header) with the keys it takes.
pub type Tables<'a> = &'a [(&'a str, &'a [&'a str])];

/// How alike two names must be (Jaro-Winkler) to be offered as what was meant.
const ALIKE: f64 = 0.8;

/// Where the key serde refused as unknown (`message`) in `section` (as syntax errors name it,
/// e.g. "[[gripper]] #2 'holder' [gripper.motion]") belongs, or what was meant by it.
pub(super) fn misplaced_key(message: &str, section: &str, tables: Tables) -> Option<String> {
    let key = message.strip_prefix("unknown field `")?.split('`').next()?;
    let here = header_of(section);
    let Some((_, keys_here)) = tables.iter().find(|(header, _)| *header == here) else {
        // A header no table has, refused by its last word: the header is misspelled.
        return (inner(here).rsplit('.').next() == Some(key))
            .then(|| misspelled_header(here, tables))
            .flatten();
    };
    let holders: Vec<&str> = (tables.iter())
        .filter(|(header, keys)| *header != here && keys.contains(&key))
        .map(|(header, _)| *header)
        .collect();
    let kin: Vec<&str> = (holders.iter().copied())
        .filter(|header| family(header) == family(here))
        .collect();
    let holders = if kin.is_empty() { holders } else { kin };
    let parent = holders
        .iter()
        .find(|header| here.contains('.') && !header.contains('.') && !header.is_empty());
    let said = |headers: &[&str]| {
        let named: Vec<String> = headers.iter().map(|h| format!("`{h}`")).collect();
        named.join(" or ")
    };
    Some(match (parent, holders.is_empty(), here.is_empty()) {
        (Some(parent), _, _) => format!(
            "`{key}` is a key of `{parent}`, not of `{here}`: write it above the `{here}` header (keys below a header belong to it, up to the next header)"
        ),
        (None, true, _) => {
            let meant = closest(key, keys_here.iter().copied())?;
            format!("did you mean `{meant}`?")
        }
        (None, false, true) => format!(
            "`{key}` is a key of {}: write it under that header (keys above every header belong to the file itself)",
            said(&holders)
        ),
        (None, false, false) => format!(
            "`{key}` is a key of {}, not of `{here}`: move it under that header (keys below a header belong to it, up to the next header)",
            said(&holders)
        ),
    })
}

/// "`[gripper.xwiring]` is no table of this file (a `[[gripper]]`'s are `[gripper.motion]`,
/// `[gripper.wiring]`): did you mean `[gripper.wiring]`?"
fn misspelled_header(here: &str, tables: Tables) -> Option<String> {
    let sub = here.contains('.');
    let candidates: Vec<&str> = (tables.iter().map(|(header, _)| *header))
        .filter(|header| !header.is_empty() && header.contains('.') == sub)
        .filter(|header| !sub || family(header) == family(here))
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let listed: Vec<String> = candidates.iter().map(|h| format!("`{h}`")).collect();
    let whose = match sub {
        true => format!("its tables below a `{}` are", family(here)),
        false => "its tables are".to_string(),
    };
    let meant = closest(inner(here), candidates.iter().map(|h| inner(h)))
        .and_then(|name| candidates.iter().find(|h| inner(h) == name));
    let listed = listed.join(", ");
    Some(match meant {
        Some(meant) => {
            format!("`{here}` is no table of this file ({whose} {listed}): did you mean `{meant}`?")
        }
        None => format!("`{here}` is no table of this file ({whose} {listed})"),
    })
}

/// The most alike of `names` to `written`, if alike enough to be what was meant.
fn closest<'a>(written: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    names
        .map(|name| (strsim::jaro_winkler(written, name), name))
        .filter(|(likeness, _)| *likeness >= ALIKE)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name)
}

/// The header in force as tables are listed: `"[gripper.motion]"` for
/// "[[gripper]] #2 'holder' [gripper.motion]", `"[[gripper]]"` for "[[gripper]] #2 'holder'",
/// `""` for the top level.
fn header_of(section: &str) -> &str {
    if section == "top level" {
        return "";
    }
    let Some(rest) = section.strip_prefix("[[") else {
        return section;
    };
    let array = rest.split("]]").next().unwrap_or(rest);
    let sub = (section.rfind(" ["))
        .map(|at| &section[at + 1..])
        .filter(|tail| tail.starts_with(&format!("[{array}.")) && tail.ends_with(']'));
    match sub {
        Some(sub) => sub,
        None => &section[..array.len() + 4],
    }
}

/// The name inside a header's brackets: `gripper.motion` for `[gripper.motion]`.
fn inner(header: &str) -> &str {
    header.trim_matches(|c| c == '[' || c == ']')
}

/// The table a header belongs with: `gripper` for `[[gripper]]` and `[gripper.motion]`.
fn family(header: &str) -> &str {
    inner(header).split('.').next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    const DESIGN: Tables = &[
        ("", &["name", "gripper", "support"]),
        (
            "[[gripper]]",
            &["name", "at", "close_ms", "motion", "wiring"],
        ),
        ("[gripper.motion]", &["accel_deg_s2", "max_deg_s"]),
        ("[gripper.wiring]", &["step", "dir"]),
        ("[[flipper]]", &["name", "flip_ms", "motion"]),
        ("[flipper.motion]", &["accel_deg_s2", "max_deg_s"]),
        ("[support]", &["sets"]),
    ];

    fn said(key: &str, section: &str) -> Option<String> {
        misplaced_key(
            &format!("unknown field `{key}`, expected one of …"),
            section,
            DESIGN,
        )
    }

    #[test]
    fn a_parents_key_below_a_sub_table_is_told_to_move_above_it() {
        assert_eq!(
            said("close_ms", "[[gripper]] #2 'holder' [gripper.motion]").as_deref(),
            Some("`close_ms` is a key of `[[gripper]]`, not of `[gripper.motion]`: write it above the `[gripper.motion]` header (keys below a header belong to it, up to the next header)")
        );
    }

    #[test]
    fn a_key_of_another_table_names_it_preferring_its_own_kind() {
        // Both motions take it: a gripper's key goes to the gripper's motion.
        assert_eq!(
            said("accel_deg_s2", "[[gripper]] #1 'left'").as_deref(),
            Some("`accel_deg_s2` is a key of `[gripper.motion]`, not of `[[gripper]]`: move it under that header (keys below a header belong to it, up to the next header)")
        );
        assert_eq!(
            said("step", "[[gripper]] #1 [gripper.motion]").as_deref(),
            Some("`step` is a key of `[gripper.wiring]`, not of `[gripper.motion]`: move it under that header (keys below a header belong to it, up to the next header)")
        );
        assert_eq!(
            said("sets", "top level").as_deref(),
            Some("`sets` is a key of `[support]`: write it under that header (keys above every header belong to the file itself)")
        );
    }

    #[test]
    fn a_misspelled_header_is_said_with_the_tables_there_are() {
        assert_eq!(
            said("xwiring", "[[gripper]] #1 'left' [gripper.xwiring]").as_deref(),
            Some("`[gripper.xwiring]` is no table of this file (its tables below a `gripper` are `[gripper.motion]`, `[gripper.wiring]`): did you mean `[gripper.wiring]`?")
        );
        let top = said("griper", "[[griper]] #1 'left'").unwrap();
        assert!(top.ends_with("did you mean `[[gripper]]`?"), "{top}");
        // Nothing alike: the tables are listed, nothing guessed.
        let far = said("zzz", "[zzz]").unwrap();
        assert!(!far.contains("did you mean"), "{far}");
        assert!(far.contains("`[support]`"), "{far}");
    }

    #[test]
    fn a_misspelled_key_is_offered_the_key_meant_and_nothing_when_none_is_alike() {
        assert_eq!(
            said("clse_ms", "[[gripper]] #1").as_deref(),
            Some("did you mean `close_ms`?")
        );
        assert_eq!(said("colour", "[[gripper]] #1"), None);
        // Not an unknown key, or tables not known: nothing added.
        assert_eq!(misplaced_key("invalid type", "[support]", DESIGN), None);
        assert_eq!(
            misplaced_key("unknown field `sets`", "top level", &[]),
            None
        );
    }
}
