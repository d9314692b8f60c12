//! The centres name the faces: the 24 ways a cube can be held, and which palette colour each face's colour is.

use crate::cube::Axis;
use crate::cube::{FaceletCube, Move, Rotation};
use crate::light::colour::LabColour;
use crate::light::palette::Palette;

/// The 24 ways a cube can be held: for each, the home face (in the reference
/// orientation) of the colour now on each face (worked out once).
pub fn orientations() -> &'static [[usize; 6]] {
    static ALL: std::sync::OnceLock<Vec<[usize; 6]>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut found: Vec<FaceletCube> = vec![FaceletCube::default()];
        let mut i = 0;
        while i < found.len() {
            for axis in [Axis::X, Axis::Y] {
                let next = found[i].apply(Move::Rotate(Rotation { axis, quarters: 1 }));
                if !found.contains(&next) {
                    found.push(next);
                }
            }
            i += 1;
        }
        found
            .iter()
            .map(|f| std::array::from_fn(|face| f.stickers[face * 9 + 4].index()))
            .collect()
    })
}

/// Which palette colour each face's colour is: the cheapest of the 24
/// orientations of the palette's scheme, and the cost gap to the next cheapest.
pub(crate) fn name_colours(centres: &[LabColour; 6], palette: &Palette) -> ([usize; 6], f32) {
    let distance: [[f32; 6]; 6] = std::array::from_fn(|f| {
        std::array::from_fn(|c| centres[f].delta_e(palette.colours[c].reference))
    });
    let mut scored: Vec<(f32, [usize; 6])> = orientations()
        .iter()
        .map(|&names| ((0..6).map(|f| distance[f][names[f]]).sum(), names))
        .collect();
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    (scored[0].1, scored[1].0 - scored[0].0)
}
