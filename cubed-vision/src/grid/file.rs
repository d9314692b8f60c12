//! The configured grid: a small TOML file (`corners = [[x, y] x 4]`, pixels, top-left, top-right, bottom-right, bottom-left) and its loader.

use crate::grid::face_grid::FaceGrid;
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GridFile {
    corners: Vec<Vec<f64>>,
}

/// Why a grid file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum GridFileError {
    #[error("cannot read grid {path}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("grid {path}: line {line}: {message}")]
    Parse {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("grid {path}: {key}: {problem}")]
    Invalid {
        path: PathBuf,
        key: String,
        problem: String,
    },
}

/// Reads and validates a grid file.
pub fn load_grid(path: &Path) -> Result<FaceGrid, GridFileError> {
    let text =
        crate::named_file::read_text(path, crate::named_file::TEXT_LIMIT).map_err(|source| {
            GridFileError::Read {
                path: path.into(),
                source,
            }
        })?;
    let file: GridFile = toml::from_str(&text).map_err(|e| {
        let (line, message) = crate::config_file::syntax::toml_in_words(&text, &e);
        GridFileError::Parse {
            path: path.into(),
            line,
            message,
        }
    })?;
    let invalid = |key: &str, problem: String| GridFileError::Invalid {
        path: path.into(),
        key: key.into(),
        problem,
    };
    // Two coordinates a point exactly: a longer list is not taken for its first two.
    let points = (file.corners.iter().enumerate())
        .map(|(i, point)| {
            <[f64; 2]>::try_from(point.as_slice()).map_err(|_| {
                let given = match point.len() {
                    1 => "1 value".to_string(),
                    n => format!("{n} values"),
                };
                invalid(
                    "corners",
                    format!("point {}: {given}; give two, [x, y]", i + 1),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let corners: [[f64; 2]; 4] = points.as_slice().try_into().map_err(|_| {
        invalid(
            "corners",
            format!("{} points, exactly 4 are needed", file.corners.len()),
        )
    })?;
    parse_corners(corners).map_err(|p| invalid("corners", p.to_string()))
}

/// Why four corners do not outline a face that can be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CornersError {
    #[error("coordinate {0} is outside 0..100000 pixels")]
    OutOfRange(f64),
    #[error("the corners go round the face anticlockwise, which would read it mirrored: {ORDER}")]
    Anticlockwise,
    #[error("the corners do not go round the face (two sides cross, or three corners are in a line): {ORDER}")]
    Crossed,
    #[error("the face is smaller than 9 pixels a side")]
    TooSmall,
}

const ORDER: &str = "give them top-left, top-right, bottom-right, bottom-left, clockwise round the face as the photo shows it";

/// Checks four corners (non-negative, below 100 000 pixels, a face of at least 9 pixels a side).
pub fn parse_corners(corners: [[f64; 2]; 4]) -> Result<FaceGrid, CornersError> {
    if let Some(&p) = corners
        .iter()
        .flatten()
        .find(|v| !(0.0..100_000.0).contains(*v))
    {
        return Err(CornersError::OutOfRange(p));
    }
    check_goes_round_clockwise(&corners)?;
    let grid = FaceGrid {
        corners: corners.map(|c| c.map(|v| v as f32)),
    };
    if grid.cell_size() < 3.0 {
        return Err(CornersError::TooSmall);
    }
    Ok(grid)
}

/// The corners must go round the face clockwise as the photo shows it (its y axis points
/// down), each turn of the outline the same way: given anticlockwise, the face would be read
/// mirrored; given across (a bow tie), its stickers out of place.
fn check_goes_round_clockwise(corners: &[[f64; 2]; 4]) -> Result<(), CornersError> {
    let turn = |i: usize| {
        let [a, b, c] = [0, 1, 2].map(|k| corners[(i + k) % 4]);
        (b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])
    };
    let turns = [0, 1, 2, 3].map(turn);
    if turns.iter().all(|&t| t > 0.0) {
        Ok(())
    } else if turns.iter().all(|&t| t < 0.0) {
        Err(CornersError::Anticlockwise)
    } else {
        Err(CornersError::Crossed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_must_go_round_the_face_clockwise() {
        let square = [[10.0, 10.0], [310.0, 10.0], [310.0, 310.0], [10.0, 310.0]];
        assert!(parse_corners(square).is_ok());
        let turned = [[160.0, 0.0], [310.0, 160.0], [160.0, 310.0], [10.0, 160.0]];
        assert!(parse_corners(turned).is_ok(), "any start, still clockwise");
        let mut mirrored = square;
        mirrored.reverse();
        let said = parse_corners(mirrored)
            .expect_err("anticlockwise")
            .to_string();
        assert!(said.contains("anticlockwise"), "{said}");
        let mut crossed = square;
        crossed.swap(2, 3);
        let said = parse_corners(crossed).expect_err("bow tie").to_string();
        assert!(said.contains("do not go round"), "{said}");
    }

    #[test]
    fn a_grid_file_loads_and_a_bad_one_names_the_key() {
        let dir = tempfile::tempdir().expect("temp dir");
        let good = dir.path().join("grid.toml");
        std::fs::write(
            &good,
            "corners = [[10, 10], [310, 10], [310, 310], [10, 310]]\n",
        )
        .expect("write");
        assert_eq!(
            load_grid(&good).expect("valid"),
            FaceGrid::square(10.0, 10.0, 300.0)
        );
        let bad = dir.path().join("bad.toml");
        std::fs::write(&bad, "corners = [[10, 10], [310, 10], [310, 310]]\n").expect("write");
        let msg = load_grid(&bad).expect_err("three corners").to_string();
        assert!(
            msg.contains("bad.toml") && msg.contains("corners") && msg.contains("exactly 4"),
            "{msg}"
        );
        let long = "corners = [[10, 10, 99999], [310, 10], [310, 310], [10, 310]]\n";
        std::fs::write(&bad, long).expect("write");
        let msg = load_grid(&bad).expect_err("three coordinates").to_string();
        assert!(
            msg.contains("corners: point 1: 3 values; give two"),
            "{msg}"
        );
    }
}
