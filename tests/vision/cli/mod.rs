//! The vision commands through the real binary, by command, and what they share: the test data's paths, the same cube read, six simulated photos of a cube written to a folder.

mod calibrate;
mod classify;
mod scan;
mod white_body;

use cubed::cube::{FaceOrder, FaceletCube};
use cubed::vision::camera::sim::{SimLighting, BLACK_BODY};
use std::path::Path;

fn data(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/vision")
        .join(path)
        .display()
        .to_string()
}

fn same_cube(symbols: &str, expected: &str) -> bool {
    let ours = FaceletCube::parse(symbols, FaceOrder::Urfdlb, None)
        .expect("legal output")
        .0;
    ours == FaceletCube::parse(expected, FaceOrder::Urfdlb, None)
        .expect("legal")
        .0
}

/// A cube under a lamp too bright for a webcam whose highlights fade to white.
const TOO_BRIGHT: &str = "DURUULDBRFDFLRRLFBRLUUFFUFFLRUDDDRRDLBBDLLBBBDFFBBRLUU";

/// The cube `TOO_BRIGHT` as a cube.
fn too_bright_cube() -> FaceletCube {
    FaceletCube::parse(TOO_BRIGHT, FaceOrder::Urfdlb, None)
        .expect("legal")
        .0
}

/// A folder of six simulated photos of `TOO_BRIGHT` in ordinary light, U.png … B.png.
fn too_bright_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    simulated_folder(too_bright_cube(), dir.path());
    dir
}

/// Six simulated photos of `cube` written as U.png … B.png.
fn simulated_folder(cube: FaceletCube, dir: &Path) {
    simulated_folder_lit(cube, dir, SimLighting::default());
}

/// Six simulated photos of `cube` under `lighting`, written as U.png … B.png.
fn simulated_folder_lit(cube: FaceletCube, dir: &Path, lighting: SimLighting) {
    crate::common::simulated_photos(cube, dir, lighting, BLACK_BODY);
}
