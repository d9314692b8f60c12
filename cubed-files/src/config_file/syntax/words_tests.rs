//! Tests of TOML syntax errors in words: the section, line and key named, Rust type names said plainly, and the hints for tables and lists of tables mixed up or a list left open.

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
    let hint = array_written_as_table(two, "duplicate key", "[gripper]", None).expect("said");
    assert!(
        hint.starts_with("`[gripper]` (line 3) makes one table"),
        "{hint}"
    );
    assert!(hint.contains("write `[[gripper]]`"), "{hint}");
    let twice = "[camera]\nname = \"a\"\n\n[camera]\nname = \"b\"\n";
    let hint = array_written_as_table(twice, "duplicate key", "[camera]", None).expect("said");
    // Nowhere `[[camera]]`: a table written twice, or a list's; the table is said first,
    // since the advice to write `[[x]]` for a table would be refused next.
    assert!(
        hint.starts_with("`[camera]` is written 2 times (lines 1, 4): write a table once"),
        "{hint}"
    );
    assert!(hint.contains("write `[[camera]]` for every one"), "{hint}");
    // Where the file's kind knows its lists, one advice: a daemon's `[vision]` is one table
    // (written twice, or once with two brackets beside one), a design's cameras a list.
    let daemon: &[&str] = &[];
    let vision = "[vision]\ngrid = \"auto\"\n\n[vision]\nexposure = 1\n";
    let hint = array_written_as_table(vision, "duplicate key", "[vision]", Some(daemon));
    assert_eq!(
        hint.as_deref(),
        Some("`vision` is one table, written 2 times (lines 1, 4): write `[vision]` once, with one pair of brackets, its keys together under it")
    );
    let mixed = "[vision]\ngrid = \"auto\"\n[[vision]]\nexposure = 1\n";
    let hint = array_written_as_table(mixed, "duplicate key", "[vision]", Some(daemon));
    assert!(hint.is_some_and(|h| h.contains("write `[vision]` once")));
    let design: &[&str] = &["gripper", "camera"];
    let hint = array_written_as_table(twice, "duplicate key", "[camera]", Some(design));
    assert!(hint
        .is_some_and(|h| h
            .starts_with("`[camera]` (line 1) makes one table, but each camera is one of a list")));
    let solo = "name = \"r\"\n[gripper] # the only one\nname = \"a\"\n";
    let expected = "map, expected a list, [a, b, …]";
    assert!(array_written_as_table(solo, expected, "[gripper]", None).is_some());
    // A table that is one table, and a list written right, say nothing more.
    let fine = "[board]\nenable = 1\n[[gripper]]\nname = \"a\"\n[gripper.motion]\n";
    assert_eq!(
        array_written_as_table(fine, "duplicate key", "[board]", None),
        None
    );
    assert_eq!(
        array_written_as_table(solo, "duplicate key", "[gripper]", None),
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
    let error =
        toml::from_str::<H>("[history]\nkeep_runs = 100000000000000000000\n").expect_err("huge");
    let message = in_words(error.message());
    assert!(message.contains("(too large for any key)"), "{message}");
    assert!(!message.contains("i128"), "{message}");
    let error = toml::from_str::<H>("[history]\nkeep_runs = 1e300\n").expect_err("a float");
    let message = in_words(error.message());
    assert!(
        message.contains("floating point `1e300`, expected a whole number"),
        "a huge float said short: {message}"
    );
    let error = toml::from_str::<H>("[history]\nkeep_runs = 2.5\n").expect_err("a float");
    assert!(in_words(error.message()).contains("floating point `2.5`"));
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
