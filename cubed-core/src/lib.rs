//! `cubed-core`: the cube, its 3x3 solver and the 2x2 pocket cube, pure (no I/O beyond the solver's table bytes, no time, no tokio); the `cubed` library re-exports its modules.
//!
//! | module | what it gives you |
//! | --- | --- |
//! | [`cube`] | facelets and cubies, moves, Singmaster and 1988 notation, validation with reasons, random cubes |
//! | [`solver`] | [`solver::Solver`]: near-optimal solutions by a deadline, several alternatives, on one thread or two |
//! | [`pocket`] | the 2x2 pocket cube: input, validation, optimal solutions from complete distance tables |
//!
//! [`error_chain`] prints an error with its causes; [`words`] says a count with its noun; [`parallel`] runs one piece of work per
//! part, each on a thread of its own.

#![warn(unreachable_pub)]

pub mod cube;
pub mod error_chain;
pub mod parallel;
pub mod pocket;
pub mod solver;
pub mod words;
