//! `cubed solve --steps`: a solution for a person to follow, as the 1988 program's text
//! step-by-step solution was: how to hold the cube, then each turn in the chosen notation and
//! in words, with the cube drawn after it in the colours it was typed in.

use cubed_core::cube::{format_moves, move_in_words, net_lines, ColourScheme, Move};
use cubed_core::cube::{FaceOrder, Notation, NotationError};
use serde_json::{json, Value};

/// One cube's walk-through: the cube before the first move and after each (`states`, 6 ×
/// size² symbols each), and the moves between them.
pub(crate) struct Walkthrough<'a> {
    size: usize,
    scheme: &'a ColourScheme,
    pub(crate) moves: &'a [Move],
    states: Vec<String>,
    notation: Notation,
    /// The order the cube's faces were typed in, which the JSON's cubes keep.
    typed: FaceOrder,
}

impl<'a> Walkthrough<'a> {
    /// The walk-through of `moves` on a cube of `size` drawn in `scheme` and typed in
    /// `typed` order, from `states` (the cube before the first move and after each, URFDLB).
    pub(crate) fn new(
        (size, scheme, typed): (usize, &'a ColourScheme, FaceOrder),
        moves: &'a [Move],
        states: Vec<String>,
        notation: Notation,
    ) -> Walkthrough<'a> {
        Walkthrough {
            size,
            scheme,
            moves,
            states,
            notation,
            typed,
        }
    }

    /// How to hold the cube so that the moves' faces are the ones meant.
    fn holding(&self) -> String {
        cubed_core::cube::holding_words(self.size, self.scheme)
    }

    /// Each move as written in the chosen notation, with its words.
    fn steps(&self) -> Result<Vec<(String, String)>, NotationError> {
        self.moves
            .iter()
            .map(|&m| Ok((format_moves(&[m], self.notation)?, move_in_words(m))))
            .collect()
    }

    /// The text: the holding and the cube, then each step and the cube after it.
    pub(crate) fn print(&self) -> Result<(), NotationError> {
        let steps = self.steps()?;
        println!("{}:", self.holding());
        self.print_net(0);
        for (i, (written, words)) in steps.iter().enumerate() {
            println!("step {} of {}: {written}, {words}", i + 1, steps.len());
            self.print_net(i + 1);
        }
        println!("solved");
        Ok(())
    }

    fn print_net(&self, state: usize) {
        let lines = (self.states.get(state)).and_then(|s| net_lines(s, self.size));
        for line in lines.unwrap_or_default() {
            println!("    {line}");
        }
    }

    /// The JSON fields: how to hold the cube, and each step's move, words and the cube
    /// after it (in the order it was typed in).
    pub(crate) fn json(&self) -> Result<(Value, Value), NotationError> {
        let steps = self.steps()?;
        let rows: Vec<Value> = (steps.iter().zip(self.states.iter().skip(1)))
            .map(|((written, words), cube)| {
                let cube = self.typed.from_urfdlb(cube);
                json!({"move": written, "words": words, "cube": cube})
            })
            .collect();
        Ok((Value::String(self.holding()), Value::Array(rows)))
    }
}
