//! Every shipped file under config/ loads (palette.toml today; others as they land).

use cubed::vision::palette::{load_palette, Palette};
use std::path::Path;

#[test]
fn the_shipped_palette_loads_and_is_the_default_standard_scheme() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/palette.toml");
    let palette = load_palette(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(palette.symbols(), ['W', 'R', 'G', 'Y', 'O', 'B']);
    for (shipped, default) in palette
        .colours
        .iter()
        .zip(Palette::default().colours.iter())
    {
        assert_eq!(shipped.name, default.name);
        assert!(shipped.reference.delta_e(default.reference) < 0.5);
    }
}

#[test]
fn every_palette_file_under_config_loads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("config");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("config folder") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.starts_with("palette") && name.ends_with(".toml") {
            load_palette(&path).unwrap_or_else(|e| panic!("{e}"));
            checked += 1;
        }
    }
    assert!(checked >= 1);
}
