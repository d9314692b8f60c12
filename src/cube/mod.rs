//! Cube model: facelets, cubies, moves, notation, validation.
