//! The shipped palette is the standard scheme (every config file's loading: tests/config_files.rs).

use cubed::vision::light::palette::{load_palette, Palette};
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
