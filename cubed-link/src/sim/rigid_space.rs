//! Where things are for the simulator's machine: cubies and stickers in space, what a
//! jaw touches, whole-cube turns between the robot's frame and the cube's own, and what a
//! camera sees. Built on the cube module's sticker geometry, not on the planner.

use crate::robot::model::Grip;
use crate::robot::Direction;
use cubed_core::cube::geometry::{normal, quarter_turn, StickerPerm};
use cubed_core::cube::{Face, FaceletCube};

pub(super) type Vec3 = [i8; 3];

pub(super) fn dot(a: Vec3, b: Vec3) -> i8 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(super) fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// The outward unit vector of a robot direction.
pub(super) fn vector(dir: Direction) -> Vec3 {
    normal(dir.home_face())
}

pub(super) fn direction_of(v: Vec3) -> Option<Direction> {
    Direction::ALL.into_iter().find(|&d| vector(d) == v)
}

/// The cubies a gripper at `at` touches with a `grip`.
pub(super) fn gripped_cubies(grip: Grip, at: Direction) -> Vec<Vec3> {
    let n = vector(at);
    let mut out = Vec::new();
    for x in -1..=1 {
        for y in -1..=1 {
            for z in -1..=1 {
                let p = [x, y, z];
                let depth = dot(n, p);
                let touched = match grip {
                    Grip::Layer => depth == 1,
                    Grip::TwoLayers => depth >= 0,
                    Grip::Centre => p == n,
                };
                if touched {
                    out.push(p);
                }
            }
        }
    }
    out
}

pub(super) fn moved(cube: &FaceletCube, perm: &StickerPerm) -> FaceletCube {
    FaceletCube {
        stickers: perm.apply(&cube.stickers),
    }
}

/// `cube` turned as a whole until `wanted` holds (one of the 24 orientations), if it can be.
fn turned_whole(cube: &FaceletCube, wanted: impl Fn(&FaceletCube) -> bool) -> Option<FaceletCube> {
    let turns = [
        quarter_turn(Face::U, |_| true),
        quarter_turn(Face::R, |_| true),
    ];
    let mut seen = vec![*cube];
    let mut next = 0;
    while let Some(&candidate) = seen.get(next) {
        if wanted(&candidate) {
            return Some(candidate);
        }
        for turn in &turns {
            let turned = moved(&candidate, turn);
            if !seen.contains(&turned) {
                seen.push(turned);
            }
        }
        next += 1;
    }
    None
}

fn centres(cube: &FaceletCube) -> [Face; 6] {
    std::array::from_fn(|d| cube.stickers[d * 9 + 4])
}

/// The cube in its own frame: turned whole until every centre is at its home.
pub(crate) fn own_frame(robot_frame: &FaceletCube) -> FaceletCube {
    turned_whole(robot_frame, |c| {
        centres(c) == centres(&FaceletCube::default())
    })
    .unwrap_or(*robot_frame)
}

/// `cube` (its own frame) put in the robot the way the cube there now sits.
pub(crate) fn placed_like(cube: &FaceletCube, now: &FaceletCube) -> FaceletCube {
    turned_whole(cube, |c| centres(c) == centres(now)).unwrap_or(*cube)
}

/// The view a camera at `at` with its image top towards `image_top` has of this cube:
/// the face it sees and the photo's clockwise rotation from the face as drawn in the net.
pub(crate) fn camera_view(cube: &FaceletCube, at: Direction, image_top: Direction) -> (Face, u8) {
    let face_at = |d: Direction| cube.stickers[d.index() * 9 + 4];
    let face = face_at(at);
    let above_in_net = match face {
        Face::U => Face::B,
        Face::D => Face::F,
        _ => Face::U,
    };
    let net_top = Direction::ALL
        .into_iter()
        .find(|&d| face_at(d) == above_in_net)
        .unwrap_or(Direction::Up);
    let rotation = (0..4u8)
        .find(|&k| image_top.rotated(at, k as i8) == net_top)
        .unwrap_or(0);
    (face, rotation)
}
