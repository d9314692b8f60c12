//! Cluttered 1920x1080 test frames of a 2x2, our own (no other project's photos): a robot's surroundings drawn from a seed (`scene`), and a face of a random 2x2 photographed by the simulated camera (`SimCamera`, the project's one cube renderer) pasted in at a fifth to a third of the width, anywhere, turned up to 10 degrees (`paste`), with the truth known: the cube and each face's corners. Two sets: the development frames, which the finder was developed on, and the held-out frames (other seeds, and a scene with elements and a layout the development frames never show), which judge it and were never tuned on.

pub mod draw;
pub mod elements;
pub mod paste;
pub mod scene;

use cubed::cube::Face;
use cubed::pocket::{random_pocket, PocketFacelets};
use cubed::vision::camera::sim::{SimCamera, SimLighting, SimScene};
use cubed::vision::grid::face_grid::FaceGrid;
use cubed::vision::scan::FacePhoto;
use image::RgbImage;
use paste::{paste_face, Placement};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Which frames: the ones developed on, or the ones held out to judge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameSet {
    /// Developed on: the workshop scene, seeds from 10 000.
    Dev,
    /// Held out, never tuned on: the lab scene, seeds from 90 000.
    HeldOut,
}

impl FrameSet {
    pub fn label(self) -> &'static str {
        match self {
            FrameSet::Dev => "dev",
            FrameSet::HeldOut => "held-out",
        }
    }

    /// The seed of this set's `index`th cube.
    fn seed(self, index: usize) -> u64 {
        let first = match self {
            FrameSet::Dev => 10_000,
            FrameSet::HeldOut => 90_000,
        };
        first + index as u64
    }
}

/// One face's frame and where the face is in it.
#[derive(Clone, Debug)]
pub struct PocketFrame {
    pub face: Face,
    pub image: RgbImage,
    /// The face's outer corners in the frame (TL, TR, BR, BL as the face is seen upright).
    pub grid: FaceGrid,
}

/// The six frames of one random 2x2, and the cube.
#[derive(Clone, Debug)]
pub struct FrameScan {
    /// Which set and cube, for messages: "held-out 3".
    pub name: String,
    pub truth: PocketFacelets,
    /// URFDLB.
    pub frames: Vec<PocketFrame>,
}

impl FrameScan {
    /// The frames as a scan's photos (each upright: no quarter turn to undo).
    pub fn photos(&self) -> Vec<FacePhoto> {
        (self.frames.iter())
            .map(|f| FacePhoto {
                face: f.face,
                image_rotation: 0,
                image: f.image.clone(),
            })
            .collect()
    }
}

/// The `index`th cube of `set`: a random 2x2 in one scene (the robot does not move between
/// photos), each face placed anew (the grippers take it again for each).
pub fn frame_scan(set: FrameSet, index: usize) -> FrameScan {
    let seed = set.seed(index);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let truth = random_pocket(&mut rng).to_facelets();
    let scene = SimScene {
        cube: truth.to_3x3(),
        pocket: true,
        ..SimScene::default()
    };
    let mut camera = SimCamera::new(seed, SimLighting::default());
    let frames = (Face::ALL.iter())
        .map(|&face| {
            let placement = Placement::draw(&mut rng, (scene::FRAME_WIDTH, scene::FRAME_HEIGHT));
            let shot = camera.render_pocket_face_and_grid(&scene.pocket_face_colours(face), 0);
            let (image, grid) = frame_with(set, seed, (&shot.0, &shot.1), &placement);
            PocketFrame { face, image, grid }
        })
        .collect();
    FrameScan {
        name: format!("{} {index}", set.label()),
        truth,
        frames,
    }
}

/// The scene of `set`'s `index`th cube with no cube in it (nor grippers): a frame where no
/// grid may be found.
pub fn clutter_only(set: FrameSet, index: usize) -> RgbImage {
    finish(
        scene::draw_scene(set, set.seed(index), None),
        set.seed(index),
    )
}

/// The scene of `seed` with the face of `photo` pasted in at `placement`, and its corners.
fn frame_with(
    set: FrameSet,
    seed: u64,
    photo: (&RgbImage, &FaceGrid),
    placement: &Placement,
) -> (RgbImage, FaceGrid) {
    let held = (placement.centre, placement.side);
    let mut frame = scene::draw_scene(set, seed, Some(held));
    let grid = paste_face(&mut frame, photo, placement);
    let noise_seed = seed ^ (placement.centre[0].to_bits() as u64) << 20;
    (finish(frame, noise_seed), grid)
}

/// The whole frame through the webcam's lens and sensor: a little blur, then noise.
fn finish(frame: RgbImage, seed: u64) -> RgbImage {
    let mut frame = draw::box_blur(&frame, 1);
    draw::add_noise(&mut frame, 5.0, seed);
    frame
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scan_is_the_same_for_its_seed_and_the_sets_differ() {
        let a = frame_scan(FrameSet::Dev, 0);
        let b = frame_scan(FrameSet::Dev, 0);
        assert_eq!(a.truth, b.truth);
        assert_eq!(a.frames[2].image, b.frames[2].image);
        assert_eq!(a.frames.len(), 6);
        let held = frame_scan(FrameSet::HeldOut, 0);
        assert_ne!(held.frames[0].image, a.frames[0].image);
        assert_eq!(a.frames[0].image.dimensions(), (1920, 1080));
    }

    /// The frame's pixel at the middle of each sticker of a face is that sticker's colour,
    /// roughly (the simulated camera's light and noise on it).
    #[test]
    fn each_face_shows_its_stickers_at_the_truths_corners() {
        let scan = frame_scan(FrameSet::Dev, 1);
        let scene = SimScene {
            cube: scan.truth.to_3x3(),
            pocket: true,
            ..SimScene::default()
        };
        for frame in &scan.frames {
            let want = scene.pocket_face_colours(frame.face);
            for (k, colour) in want.iter().enumerate() {
                let [x, y] = frame
                    .grid
                    .point(0.25 + 0.5 * (k % 2) as f32, 0.25 + 0.5 * (k / 2) as f32);
                let seen = frame.image.get_pixel(x as u32, y as u32).0;
                let near = (0..3).all(|c| (seen[c] as i32 - colour[c] as i32).abs() < 80);
                assert!(near, "{} sticker {k}: {seen:?} for {colour:?}", frame.face);
            }
        }
    }
}
