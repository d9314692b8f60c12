//! The whole reading chain on the simulated camera: random cubes, rotated photos, sampling, classification.

use cubed::vision::camera::sim::{SimCamera, SimLighting, WHITE_BODY};
use cubed::vision::grid::finder::find_grid;
use cubed::vision::light::palette::Palette;
use cubed::vision::read::classify::ClassifyOptions;
use cubed_bench::measure::sim::{tally_sim_cubes, tally_sim_kept_photos, SimPhotos};

#[test]
fn simulated_photos_of_random_cubes_are_read_exactly() {
    let tally = tally_sim_cubes(
        25,
        &SimPhotos::new(11, SimLighting::default()),
        &Palette::default(),
        &ClassifyOptions::default(),
    );
    assert_eq!(tally.right, 25, "{:?}", tally.failures);
}

/// A white-body cube (stickers on white plastic): read right from the camera, and from the
/// same photos kept, where a clipped white sticker's rim is all plastic and says nothing.
#[test]
fn simulated_photos_of_white_body_cubes_are_read_exactly() {
    let photos = SimPhotos::new(11, SimLighting::default()).on_body(WHITE_BODY);
    let (palette, options) = (Palette::default(), ClassifyOptions::default());
    let taken = tally_sim_cubes(25, &photos, &palette, &options);
    assert_eq!(taken.right, 25, "{:?}", taken.failures);
    let kept = tally_sim_kept_photos(25, &photos, &palette, &options);
    assert_eq!(kept.right, 25, "{:?}", kept.failures);
}

#[test]
fn the_grid_finder_finds_the_simulated_face() {
    let mut camera = SimCamera::new(4, SimLighting::default());
    let stickers = cubed::vision::camera::sim::STANDARD_STICKERS;
    let nine = std::array::from_fn(|i| stickers[(i * 5) % 6]);
    for rotation in 0..4 {
        let image = camera.render_face(&nine, rotation);
        let grid = find_grid(&image).unwrap_or_else(|e| panic!("{e}"));
        let nominal = SimCamera::nominal_grid();
        for (got, want) in grid.corners.iter().zip(nominal.corners) {
            let off = (got[0] - want[0]).hypot(got[1] - want[1]);
            assert!(off < 20.0, "rotation {rotation}: {:?}", grid.corners);
        }
    }
}
