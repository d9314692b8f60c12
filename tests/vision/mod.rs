//! Integration tests of vision: real scans, real photos, robustness, simulated camera, CLI.

mod cli;
mod config_files;
mod held_out_photos;
mod photos;
mod real_scans;
mod sim_camera;
mod sim_pocket;

/// The grid found in `image` turned by each of `degrees` is the grid found in the photo as
/// taken, turned alike: each sticker centre within a fifth of a sticker of where the turn took
/// it, in the same reading order. `at` names the photo in a failure.
pub(crate) fn assert_the_grid_turns_with_the_photo(
    image: &image::RgbImage,
    degrees: &[f32],
    at: &str,
) {
    use cubed::vision::grid::finder::find_grid;
    let upright = find_grid(image).unwrap_or_else(|e| panic!("{at}: {e}"));
    let pitch = upright.cell_size();
    let (cx, cy) = (image.width() as f32 / 2.0, image.height() as f32 / 2.0);
    for &turn in degrees {
        let turned = cubed::vision::grid::tilt::rotate(image, turn);
        let grid = find_grid(&turned).unwrap_or_else(|e| panic!("{at} turned {turn}°: {e}"));
        let (sin, cos) = turn.to_radians().sin_cos();
        for i in 0..9 {
            let [x, y] = upright.sticker_centre(i / 3, i % 3);
            // Where `rotate` takes the point (x, y) of the photo as taken.
            let (dx, dy) = (x - cx, y - cy);
            let want = [cos * dx + sin * dy + cx, -sin * dx + cos * dy + cy];
            let got = grid.sticker_centre(i / 3, i % 3);
            let off = (got[0] - want[0]).hypot(got[1] - want[1]);
            assert!(
                off < pitch / 5.0,
                "{at} turned {turn}°: sticker {} found at {got:?}, expected near {want:?}",
                i + 1
            );
        }
    }
}
