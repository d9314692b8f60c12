//! Directions in the robot frame and the 24 orientations of the cube (which cube face points where).
//!
//! A direction shares its index with the face that points there at home
//! (`up`=U, `right`=R, `front`=F, `down`=D, `left`=L, `back`=B), so the
//! cube's sticker permutations also describe turns and rotations in the robot
//! frame. Rotation tables are derived from those permutations, not typed in.

use cubed_core::cube::{Axis, Face, FaceletCube, Move, Rotation};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::OnceLock;

/// A direction in the robot frame.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[repr(u8)]
pub enum Direction {
    Up = 0,
    Right = 1,
    Front = 2,
    Down = 3,
    Left = 4,
    Back = 5,
}

impl Direction {
    /// All directions, in the order of their home faces (URFDLB).
    pub const ALL: [Direction; 6] = [
        Direction::Up,
        Direction::Right,
        Direction::Front,
        Direction::Down,
        Direction::Left,
        Direction::Back,
    ];

    /// Index 0..6 (the index of the home face).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The direction with index `i` (modulo 6).
    pub fn from_index(i: usize) -> Direction {
        Direction::ALL[i % 6]
    }

    /// The face that points this way when the cube is at home.
    pub fn home_face(self) -> Face {
        Face::from_index(self.index())
    }

    /// The direction on the other side of the cube.
    pub fn opposite(self) -> Direction {
        Direction::from_index(self.index() + 3)
    }

    /// Axis number 0..3 (up/down, right/left, front/back).
    pub fn axis(self) -> usize {
        self.index() % 3
    }

    /// True for `up`, `right` and `front`, the positive end of each axis.
    pub fn is_positive(self) -> bool {
        self.index() < 3
    }

    /// The lower-case name used in configs and programs.
    pub fn name(self) -> &'static str {
        ["up", "right", "front", "down", "left", "back"][self.index()]
    }

    /// Where this direction goes when the cube turns `quarters` clockwise
    /// quarter turns as seen from `about`.
    pub fn rotated(self, about: Direction, quarters: i8) -> Direction {
        let q = quarters.rem_euclid(4) as usize;
        (0..q).fold(self, |d, _| tables().dir_step[about.index()][d.index()])
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The whole-cube rotation of `quarters` clockwise quarter turns seen from
/// `about`, or `None` when it is a multiple of four.
pub(crate) fn rotation_about(about: Direction, quarters: i8) -> Option<Rotation> {
    let axis = match about.axis() {
        0 => Axis::Y,
        1 => Axis::X,
        _ => Axis::Z,
    };
    let q = if about.is_positive() {
        quarters
    } else {
        -quarters
    };
    match q.rem_euclid(4) as u8 {
        0 => None,
        quarters => Some(Rotation { axis, quarters }),
    }
}

/// Which cube face points in each direction: one of 24 orientations.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Orientation(u8);

impl Orientation {
    /// The cube at home: U up, F front.
    pub const HOME: Orientation = Orientation(0);

    /// All 24 orientations.
    pub fn all() -> impl Iterator<Item = Orientation> {
        (0..24).map(Orientation)
    }

    /// Index 0..24.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The cube face pointing in `dir`.
    pub fn face_at(self, dir: Direction) -> Face {
        tables().faces[self.index()][dir.index()]
    }

    /// How the cube is held, as `--start` takes it: the face up, then the face to the
    /// front (e.g. `UF`).
    pub fn holding(self) -> String {
        format!(
            "{}{}",
            self.face_at(Direction::Up),
            self.face_at(Direction::Front)
        )
    }

    /// The direction cube face `face` points in.
    pub fn direction_of(self, face: Face) -> Direction {
        let faces = &tables().faces[self.index()];
        Direction::from_index(faces.iter().position(|&f| f == face).unwrap_or(0))
    }

    /// The orientation after the whole cube turns `quarters` clockwise seen from `about`.
    pub fn rotated(self, about: Direction, quarters: i8) -> Orientation {
        let q = quarters.rem_euclid(4) as usize;
        (0..q).fold(self, |o, _| {
            Orientation(tables().rotate[o.index()][about.index()])
        })
    }

    /// Rotations that take the cube from home to this orientation.
    pub fn rotations_from_home(self) -> &'static [Rotation] {
        &tables().paths[self.index()]
    }

    /// The orientation whose faces are `faces` (cube face at each direction), if it is one.
    pub fn from_faces(faces: [Face; 6]) -> Option<Orientation> {
        let i = tables().faces.iter().position(|f| *f == faces)?;
        Some(Orientation(i as u8))
    }

    /// The orientation shown by the centres of a robot-frame facelet cube.
    pub fn of_centres(cube: &FaceletCube) -> Option<Orientation> {
        Orientation::from_faces(std::array::from_fn(|d| cube.stickers[d * 9 + 4]))
    }
}

struct Tables {
    /// `dir_step[about][d]`: where `d` goes after one clockwise quarter turn about `about`.
    dir_step: [[Direction; 6]; 6],
    faces: Vec<[Face; 6]>,
    rotate: Vec<[u8; 6]>,
    paths: Vec<Vec<Rotation>>,
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

fn centres_after(faces: [Face; 6], about: Direction) -> [Face; 6] {
    let mut cube = FaceletCube::default();
    for d in Direction::ALL {
        cube.stickers[d.index() * 9 + 4] = faces[d.index()];
    }
    let rotation = rotation_about(about, 1).map(Move::Rotate);
    let turned = rotation.map_or(cube, |m| cube.apply(m));
    std::array::from_fn(|d| turned.stickers[d * 9 + 4])
}

fn build_tables() -> Tables {
    let home: [Face; 6] = Face::ALL;
    let dir_step = Direction::ALL.map(|about| {
        let after = centres_after(home, about);
        Direction::ALL.map(|d| {
            let to = after.iter().position(|&f| f == d.home_face()).unwrap_or(0);
            Direction::from_index(to)
        })
    });
    let mut faces = vec![home];
    let mut paths: Vec<Vec<Rotation>> = vec![Vec::new()];
    let mut rotate: Vec<[u8; 6]> = Vec::new();
    let mut next = 0;
    while next < faces.len() {
        let mut row = [0u8; 6];
        for about in Direction::ALL {
            let after = centres_after(faces[next], about);
            let index = faces.iter().position(|f| *f == after).unwrap_or_else(|| {
                let mut path = paths[next].clone();
                path.extend(rotation_about(about, 1));
                faces.push(after);
                paths.push(path);
                faces.len() - 1
            });
            row[about.index()] = index as u8;
        }
        rotate.push(row);
        next += 1;
    }
    Tables {
        dir_step,
        faces,
        rotate,
        paths,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_24_orientations_closed_under_rotation() {
        assert_eq!(tables().faces.len(), 24);
        for o in Orientation::all() {
            for d in Direction::ALL {
                assert_eq!(o.rotated(d, 1).rotated(d, -1), o);
                assert_eq!(o.rotated(d, 1), o.rotated(d.opposite(), -1));
            }
        }
    }

    #[test]
    fn x_brings_the_front_up_and_y_the_right_to_the_front() {
        let x = Orientation::HOME.rotated(Direction::Right, 1);
        assert_eq!(x.face_at(Direction::Up), Face::F);
        let y = Orientation::HOME.rotated(Direction::Up, 1);
        assert_eq!(y.face_at(Direction::Front), Face::R);
        assert_eq!(Direction::Front.rotated(Direction::Right, 1), Direction::Up);
    }

    #[test]
    fn paths_from_home_reach_their_orientation() {
        for o in Orientation::all() {
            let moves: Vec<Move> = o
                .rotations_from_home()
                .iter()
                .map(|&r| Move::Rotate(r))
                .collect();
            let cube = FaceletCube::default().apply_all(&moves);
            assert_eq!(Orientation::of_centres(&cube), Some(o));
        }
    }
}
