//! A solution for a person to follow on paper or a terminal: the cube drawn as an unfolded
//! net in its own colours, and each face turn said in words.

use super::face::Face;
use super::moves::{Move, Turn};

/// The cube's stickers (URFDLB order, each face row by row as seen from outside, `size` ×
/// `size` per face) drawn as the usual net: up above left, front, right and back, down
/// below. One line per row of stickers, stickers a space apart.
///
/// `None` when `stickers` is not 6 × size² symbols.
pub fn net_lines(stickers: &str, size: usize) -> Option<Vec<String>> {
    let symbols: Vec<char> = stickers.chars().collect();
    if size == 0 || symbols.len() != 6 * size * size {
        return None;
    }
    let row = |face: Face, r: usize| -> String {
        let start = face.index() * size * size + r * size;
        let cells: Vec<String> = symbols[start..start + size]
            .iter()
            .map(char::to_string)
            .collect();
        cells.join(" ")
    };
    let indent = " ".repeat(2 * size);
    let mut lines = Vec::with_capacity(3 * size);
    lines.extend((0..size).map(|r| format!("{indent}{}", row(Face::U, r))));
    for r in 0..size {
        let belt: Vec<String> = [Face::L, Face::F, Face::R, Face::B]
            .into_iter()
            .map(|face| row(face, r))
            .collect();
        lines.push(belt.join(" "));
    }
    lines.extend((0..size).map(|r| format!("{indent}{}", row(Face::D, r))));
    Some(lines)
}

/// What a person holding the cube does for `turn`, e.g. "turn the back face a quarter turn
/// clockwise, as seen from the back". Clockwise is as seen looking straight at that face,
/// the cube held still with its up face on top and its front face towards you: the words
/// say from where.
pub fn turn_in_words(turn: Turn) -> String {
    let name = face_name(turn.face);
    let seen_from = match turn.face {
        Face::U => "above".to_string(),
        Face::D => "below".to_string(),
        _ => format!("the {name}"),
    };
    let how = match turn.quarters {
        1 => format!("a quarter turn clockwise, as seen from {seen_from}"),
        2 => "a half turn".to_string(),
        _ => format!("a quarter turn anticlockwise, as seen from {seen_from}"),
    };
    format!("turn the {name} face {how}")
}

/// What a person holding the cube does for `m`: a face turn in words, or a turn of the
/// whole cube.
pub fn move_in_words(m: Move) -> String {
    match m {
        Move::Turn(turn) => turn_in_words(turn),
        Move::Rotate(_) => "turn the whole cube".to_string(),
    }
}

/// The cube shown by `show` before the first move and after each of `moves`.
pub fn states_after<C, M: Copy>(
    start: C,
    moves: &[M],
    apply: impl Fn(&C, M) -> C,
    show: impl Fn(&C) -> String,
) -> Vec<String> {
    let mut states = vec![show(&start)];
    let mut now = start;
    for &m in moves {
        now = apply(&now, m);
        states.push(show(&now));
    }
    states
}

/// The everyday name of a face of a cube held in front of you.
/// How to hold a cube of `size` (2 or 3) whose colours are `scheme`'s so that the moves'
/// faces are the ones meant: a 3x3 by its centres, a 2x2 by the corner that never moves.
pub fn holding_words(size: usize, scheme: &super::ColourScheme) -> String {
    let colour = |face: Face| scheme.symbols[face.index()];
    match size {
        2 => format!(
            "hold the cube with the corner of colours '{}', '{}' and '{}' at the bottom, on the left, at the back (it stays there)",
            colour(Face::D),
            colour(Face::L),
            colour(Face::B)
        ),
        _ => format!(
            "hold the cube with the centre coloured '{}' on top and the centre coloured '{}' facing you",
            colour(Face::U),
            colour(Face::F)
        ),
    }
}

pub fn face_name(face: Face) -> &'static str {
    match face {
        Face::U => "top",
        Face::R => "right",
        Face::F => "front",
        Face::D => "bottom",
        Face::L => "left",
        Face::B => "back",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{parse_moves, ColourScheme, FaceletCube, Notation};

    fn net_after(moves: &str) -> Vec<String> {
        let moves = parse_moves(moves, Notation::Singmaster).expect("moves");
        let symbols = FaceletCube::default()
            .apply_all(&moves)
            .to_symbols(&ColourScheme::default());
        net_lines(&symbols, 3).expect("54 stickers")
    }

    #[test]
    fn a_solved_cube_draws_each_face_in_its_place_of_the_net() {
        let net = net_after("");
        assert_eq!(net.len(), 9);
        assert_eq!(net[0], "      U U U");
        assert_eq!(net[4], "L L L F F F R R R B B B");
        assert_eq!(net[8], "      D D D");
    }

    /// Turning F clockwise, seen from the front, carries the left face's stickers next to F
    /// up onto the bottom row of the top face, and the top's onto the right face's left
    /// column: where a person holding a cube sees them go.
    #[test]
    fn a_front_turn_moves_the_stickers_a_person_sees_move() {
        let net = net_after("F");
        assert_eq!(net[2], "      L L L", "top's bottom row");
        assert_eq!(net[3], "L L D F F F U R R B B B");
        assert_eq!(net[6], "      R R R", "bottom's top row");
    }

    #[test]
    fn a_pocket_cube_draws_two_by_two() {
        let net = net_lines("UUUURRRRFFFFDDDDLLLLBBBB", 2).expect("24");
        assert_eq!(
            net,
            [
                "    U U",
                "    U U",
                "L L F F R R B B",
                "L L F F R R B B",
                "    D D",
                "    D D"
            ]
        );
        assert_eq!(net_lines("UUU", 2), None);
    }

    #[test]
    fn turns_are_said_as_a_person_does_them() {
        let turn = |face, quarters| turn_in_words(Turn { face, quarters });
        assert_eq!(
            turn(Face::R, 1),
            "turn the right face a quarter turn clockwise, as seen from the right"
        );
        assert_eq!(turn(Face::D, 2), "turn the bottom face a half turn");
        assert_eq!(
            turn(Face::B, 3),
            "turn the back face a quarter turn anticlockwise, as seen from the back"
        );
        assert_eq!(
            turn(Face::D, 1),
            "turn the bottom face a quarter turn clockwise, as seen from below"
        );
    }
}
