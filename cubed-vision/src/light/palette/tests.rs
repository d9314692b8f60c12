//! The palette file's loader tested: colours from names, symbols and faces, and errors naming the file, the colour and the key with its allowed range.

use super::*;

#[test]
fn the_default_palette_round_trips_through_toml() {
    let p = Palette::default();
    let back = parse_palette(&p.to_toml(), Path::new("x.toml")).expect("valid");
    for (a, b) in p.colours.iter().zip(&back.colours) {
        assert_eq!((&a.name, a.symbol, a.home), (&b.name, b.symbol, b.home));
        assert!(a.reference.delta_e(b.reference) < 0.2);
    }
}

fn six(entry: impl Fn(usize) -> String) -> String {
    (0..6)
        .map(|i| format!("[[colour]]\n{}\n", entry(i)))
        .collect()
}

fn entry(i: usize) -> String {
    format!(
        "name = \"c{i}\"\nsymbol = \"{}\"\nface = \"{}\"\nsrgb = [{}, 0, 0]",
        (b'a' + i as u8) as char,
        "URFDLB".as_bytes()[i] as char,
        i * 40
    )
}

#[test]
fn the_palest_colour_is_white_wherever_its_home_is() {
    let p = Palette::default();
    assert_eq!(p.colours[p.palest()].name, "white");
    let mut moved = p.clone();
    moved.colours.swap(0, 3);
    assert_eq!(moved.colours[moved.palest()].name, "white");
}

#[test]
fn any_six_symbols_are_allowed() {
    let p = parse_palette(&six(entry), Path::new("p.toml")).expect("valid");
    assert_eq!(p.symbols(), ['a', 'b', 'c', 'd', 'e', 'f']);
}

fn problem(text: &str) -> String {
    let error = parse_palette(text, Path::new("config/p.toml")).expect_err("invalid");
    crate::error_chain::error_chain(&error)
}

#[test]
fn errors_name_the_file_the_key_and_the_allowed_range() {
    let bad_rgb = six(|i| {
        if i == 2 {
            entry(i).replace("srgb = [80", "srgb = [300")
        } else {
            entry(i)
        }
    });
    let msg = problem(&bad_rgb);
    assert!(
        msg.contains("config/p.toml")
            && msg.contains("[[colour]] #3 srgb")
            && msg.contains("0..=255"),
        "{msg}"
    );
    let twice = six(|i| entry(i).replace("face = \"R\"", "face = \"U\""));
    assert!(
        problem(&twice).contains("[[colour]] #2 face"),
        "{}",
        problem(&twice)
    );
    let five: String = six(entry)
        .splitn(7, "[[colour]]")
        .take(6)
        .collect::<Vec<_>>()
        .join("[[colour]]");
    assert!(problem(&five).contains("exactly 6"), "{}", problem(&five));
    let unknown = six(|i| format!("{}\nshade = 1", entry(i)));
    assert!(problem(&unknown).contains("shade"), "{}", problem(&unknown));
    let long = six(|i| entry(i).replace("srgb = [", "srgb = [9, "));
    assert!(
        problem(&long).contains("[[colour]] #1 srgb: 4 values; give three"),
        "{}",
        problem(&long)
    );
    let lab = six(|i| entry(i).replace("srgb = [", "lab = [101, 0, 0]\n#"));
    assert!(problem(&lab).contains("0..=100"), "{}", problem(&lab));
    // Colour 5 given colour 2's value: two colours that cannot be told apart.
    let alike = six(|i| entry(i).replace("srgb = [160,", "srgb = [40,"));
    let said = problem(&alike);
    assert!(
        said.contains("[[colour]] #5") && said.contains("\"c4\" is 0.0 from \"c1\""),
        "{said}"
    );
}
