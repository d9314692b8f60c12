//! Cube model: faces, stickers, cubies, moves, notation, validation and random cubes. Pure: no I/O.

mod centres;
pub(crate) mod cubie;
pub(crate) mod error;
pub(crate) mod face;
pub(crate) mod facelets;
pub mod geometry;
pub(crate) mod guide;
pub(crate) mod moves;
pub(crate) mod notation;
pub(crate) mod pieces;
pub mod random;

#[cfg(test)]
mod order_tests;
#[cfg(test)]
mod tests;

pub use cubie::{permutation_parity, CubieCube};
pub use error::CubeError;
pub use face::sticker_names;
pub use face::Face;
pub use face::Sticker;
pub use face::{face_letters, faces_of};
pub use facelets::{ColourScheme, FaceOrder, FaceletCube};
pub use guide::{face_name, holding_words, move_in_words, net_lines, states_after, turn_in_words};
pub use moves::Axis;
pub use moves::Move;
pub use moves::Rotation;
pub use moves::Turn;
pub use notation::parse_moves;
pub use notation::Notation;
pub use notation::NotationError;
pub use notation::{format_moves, singmaster, woolley};
pub use pieces::{corner_colours, edge_colours, Corner, Edge, CORNER_STICKERS, EDGE_STICKERS};

/// Reads and fully checks a facelet description: the cube, its colour scheme
/// and its cubie form, or the first thing that is wrong with it.
pub fn parse_cube(
    text: &str,
    order: FaceOrder,
    valid: Option<&[char]>,
) -> Result<(FaceletCube, ColourScheme, CubieCube), CubeError> {
    let (facelets, scheme) = FaceletCube::parse(text, order, valid)
        .map_err(|e| with_centres_mistyped(e, text, order))?;
    let cubies = CubieCube::from_facelets(&facelets).map_err(|e| {
        let found = with_indexes_as_given(e.in_colours(&scheme.symbols), order);
        // Centres in each other's places make pieces no cube has; a twist, a flip or a swap
        // of pieces is a fault of the pieces themselves.
        if !found.is_of_a_piece() {
            return found;
        }
        let symbols: [char; 54] =
            std::array::from_fn(|i| scheme.symbols[facelets.stickers[i].index()]);
        match centres::centres_misplaced(&symbols) {
            Some(moved) => CubeError::CentresMisplaced {
                found: Box::new(found),
                moved,
            },
            None => found,
        }
    })?;
    Ok((facelets, scheme, cubies))
}

/// A cube refused for its centres' colours (two centres alike, or a symbol no centre has)
/// that the other stickers say were typed wrong: which centres, and what to retype them as.
fn with_centres_mistyped(found: CubeError, text: &str, order: FaceOrder) -> CubeError {
    let by_centres = matches!(
        found,
        CubeError::CentresNotDistinct { .. } | CubeError::UnknownSymbol { .. }
    );
    let symbols = by_centres
        .then(|| facelets::symbols_in_urfdlb(text, order))
        .flatten();
    match symbols.and_then(|symbols| centres::centres_mistyped(&symbols)) {
        Some((typed, retyped)) => CubeError::CentresMistyped { typed, retyped },
        None => found,
    }
}

/// `error` with a piece's stickers also by their indexes in the input, when it was
/// typed in another face order than URFDLB (where the stickers' names are not where they
/// were typed: "U9, R1, F3; indexes 8, 18, 11 as given").
fn with_indexes_as_given(mut error: CubeError, order: FaceOrder) -> CubeError {
    if order == FaceOrder::Urfdlb {
        return error;
    }
    let as_given = |at: &[usize]| {
        let indexes: Vec<String> = (at.iter())
            .map(|&i| order.index_as_given(i, 9).to_string())
            .collect();
        format!("; indexes {} as given", indexes.join(", "))
    };
    match &mut error {
        CubeError::InvalidCorner {
            position, stickers, ..
        } => stickers.push_str(&as_given(&CORNER_STICKERS[*position as usize])),
        CubeError::InvalidEdge {
            position, stickers, ..
        } => stickers.push_str(&as_given(&EDGE_STICKERS[*position as usize])),
        CubeError::CornerTwist {
            only: Some(corner),
            as_given: said,
            ..
        } => *said = as_given(&CORNER_STICKERS[*corner as usize]),
        CubeError::EdgeFlip {
            only: Some(edge),
            as_given: said,
        } => *said = as_given(&EDGE_STICKERS[*edge as usize]),
        CubeError::Several { first, also } => {
            let first_said = with_indexes_as_given((**first).clone(), order);
            **first = first_said;
            *also = (also.drain(..))
                .map(|e| with_indexes_as_given(e, order))
                .collect();
        }
        _ => {}
    }
    error
}
