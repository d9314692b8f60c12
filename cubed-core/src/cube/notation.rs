//! Reading and writing move sequences in Singmaster notation and in the 1988 notation.
//!
//! Singmaster: `U R F D L B` with `'` (or `’`), `2` and `3` (`R3` = `R'`), one count and at
//! most one prime (`R2'` = `R2`; `R''` is refused), rotations `x y z`;
//! spaces between moves are optional. 1988 ("woolley"): `T R F B L P` for
//! top, right, front, bottom, left, posterior with a mandatory `+`, `-` or `2`,
//! and `RC+ RC- RC2` for the whole-cube rotations `y y' y2`.

use super::face::Face;
use super::moves::{Axis, Move, Rotation, Turn};
use std::fmt::Write;

/// Which notation to read or write.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Notation {
    #[default]
    Singmaster,
    /// The 1988 program's notation.
    Woolley,
}

/// What is wrong with a move sequence, and where (`at`: the offset from 0; the messages count
/// characters from 1, as a person does).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("unknown move '{text}'{within} at character {}{hint}", .at + 1)]
    UnknownMove {
        text: String,
        /// The word it stands in, as ` in 'Rw'`, when that is more than the move (empty
        /// otherwise).
        within: String,
        at: usize,
        /// What was probably meant, with a leading space, or empty.
        hint: &'static str,
    },
    #[error("move '{text}' at character {} needs a suffix '+', '-' or '2' in the 1988 notation{hint}", .at + 1)]
    MissingSuffix {
        text: String,
        at: usize,
        /// What the suffix given means there, with a leading space, or empty.
        hint: String,
    },
    #[error("move '{text}' at character {}: a turn is by 1, 2 or 3 quarters ({face}, {face}2, {face}3 or {face}')", .at + 1)]
    BadQuarters { text: String, at: usize, face: char },
    #[error("move '{text}' at character {}: a turn takes one count and at most one prime after it ({face}, {face}2, {face}' or {face}2'), so '{text}' may hide a typo", .at + 1)]
    BadSuffix { text: String, at: usize, face: char },
    #[error(
        "rotation {rotation} has no form in the 1988 notation (only y rotations: RC+ RC- RC2)"
    )]
    NoWoolleyForm { rotation: String },
}

/// Reads a move sequence.
pub fn parse_moves(text: &str, notation: Notation) -> Result<Vec<Move>, NotationError> {
    match notation {
        Notation::Singmaster => parse_singmaster(text),
        Notation::Woolley => parse_woolley(text),
    }
}

/// Writes a move sequence, moves separated by single spaces.
pub fn format_moves(moves: &[Move], notation: Notation) -> Result<String, NotationError> {
    let mut out = String::new();
    for (i, m) in moves.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match notation {
            Notation::Singmaster => out.push_str(&singmaster(*m)),
            Notation::Woolley => out.push_str(&woolley(*m)?),
        }
    }
    Ok(out)
}

/// One move in Singmaster notation, e.g. `R'`, `U2`, `y`.
pub fn singmaster(m: Move) -> String {
    let (letter, q) = match m {
        Move::Turn(t) => (t.face.letter(), t.quarters),
        Move::Rotate(r) => (r.axis.letter(), r.quarters),
    };
    let suffix = ["", "2", "'"][q as usize - 1];
    format!("{letter}{suffix}")
}

/// One move in the 1988 notation, e.g. `R-`, `T2`, `RC+`.
pub fn woolley(m: Move) -> Result<String, NotationError> {
    let suffix = ["+", "2", "-"][m.quarters() as usize - 1];
    match m {
        Move::Turn(t) => Ok(format!("{}{suffix}", t.face.woolley_letter())),
        Move::Rotate(r) if r.axis == Axis::Y => Ok(format!("RC{suffix}")),
        Move::Rotate(_) => Err(NotationError::NoWoolleyForm {
            rotation: singmaster(m),
        }),
    }
}

/// What a Singmaster suffix (`'`, `3`) after a 1988 move means there, e.g.
/// ` (the ' of Singmaster's R' is R- here)`.
fn woolley_suffix_hint(letters: &[(usize, char)], given: Option<char>) -> String {
    let letters: String = letters
        .iter()
        .map(|&(_, c)| c.to_ascii_uppercase())
        .collect();
    match given {
        Some('\'' | '’' | '′') => {
            format!(" (the ' of Singmaster's {letters}' is {letters}- here)")
        }
        Some('3') => format!(" (three quarters, {letters}3, is {letters}- here)"),
        Some('1') => format!(" (one quarter, {letters}1, is {letters}+ here)"),
        _ => String::new(),
    }
}

fn parse_singmaster(text: &str) -> Result<Vec<Move>, NotationError> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        i += 1;
        if c.is_whitespace() || c == ',' {
            continue;
        }
        let base = match (Face::from_letter(c), c) {
            (Some(face), _) => Some((Some(face), None)),
            (None, 'x') => Some((None, Some(Axis::X))),
            (None, 'y') => Some((None, Some(Axis::Y))),
            (None, 'z') => Some((None, Some(Axis::Z))),
            _ => None,
        };
        let Some((face, axis)) = base else {
            let text = token_text(&chars, i - 1);
            let within = word_around(&chars, i - 1, &text);
            let hint = singmaster_hint(c);
            return Err(NotationError::UnknownMove {
                text,
                within,
                at,
                hint,
            });
        };
        let letter = i - 1;
        let mut quarters = 1u8;
        // One count, then at most one prime: `R''`, `R22` or `R'2` is refused, not guessed.
        let (mut counted, mut primed) = (false, false);
        while let Some(&(_, s)) = chars.get(i) {
            let is_prime = matches!(s, '\'' | '’' | '′');
            if !is_prime && !s.is_ascii_digit() {
                break;
            }
            if primed || (counted && !is_prime) {
                let text = token_text(&chars, letter);
                return Err(NotationError::BadSuffix { text, at, face: c });
            }
            match s {
                '1' => quarters = 1,
                '2' => quarters = 2,
                '3' => quarters = 3,
                // The inverse: R' and R3 are the same turn, R3' is R.
                _ if is_prime => quarters = (4 - quarters) % 4,
                _ => {
                    let text = token_text(&chars, letter);
                    return Err(NotationError::BadQuarters { text, at, face: c });
                }
            }
            (counted, primed) = (counted || !is_prime, primed || is_prime);
            i += 1;
        }
        moves.push(match (face, axis) {
            (Some(face), _) => Move::Turn(Turn { face, quarters }),
            (None, Some(axis)) => Move::Rotate(Rotation { axis, quarters }),
            (None, None) => unreachable!("a base was matched"),
        });
    }
    Ok(moves)
}

fn parse_woolley(text: &str) -> Result<Vec<Move>, NotationError> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        if c.is_whitespace() || c == ',' {
            i += 1;
            continue;
        }
        let upper = c.to_ascii_uppercase();
        let next = chars.get(i + 1).map(|&(_, n)| n.to_ascii_uppercase());
        let (rotation, face, len) = if upper == 'R' && next == Some('C') {
            (true, None, 2)
        } else {
            (false, Face::from_woolley_letter(upper), 1)
        };
        if !rotation && face.is_none() {
            let text = token_text(&chars, i);
            let within = word_around(&chars, i, &text);
            let hint = woolley_hint(upper);
            return Err(NotationError::UnknownMove {
                text,
                within,
                at,
                hint,
            });
        }
        let quarters = match chars.get(i + len).map(|&(_, s)| s) {
            Some('+') => 1,
            Some('2') => 2,
            Some('-') => 3,
            given => {
                let text = token_text(&chars, i);
                let hint = woolley_suffix_hint(&chars[i..i + len], given);
                return Err(NotationError::MissingSuffix { text, at, hint });
            }
        };
        i += len + 1;
        moves.push(match face {
            Some(face) => Move::Turn(Turn { face, quarters }),
            None => Move::Rotate(Rotation {
                axis: Axis::Y,
                quarters,
            }),
        });
    }
    Ok(moves)
}

/// What a letter Singmaster does not read probably meant.
fn singmaster_hint(c: char) -> &'static str {
    match c {
        'u' | 'r' | 'f' | 'd' | 'l' | 'b' | 'w' | 'M' | 'E' | 'S' => {
            " (wide and slice turns are not read: a robot turns outer layers; give face turns U R F D L B)"
        }
        'T' | 'P' => {
            " (T and P are the top and the posterior in the 1988 notation: to write moves in it, give --notation woolley)"
        }
        '+' | '-' => {
            " (+ and - are the 1988 notation's: to write moves in it, give --notation woolley; Singmaster writes R, R' and R2)"
        }
        _ => "",
    }
}

/// What a letter the 1988 notation does not read probably meant.
fn woolley_hint(upper: char) -> &'static str {
    match upper {
        'U' => " (the 1988 notation calls the top T: T+ T- T2)",
        'D' => " (the 1988 notation calls the bottom B: B+ B- B2)",
        _ => "",
    }
}

/// ` in 'WORD'` for the whitespace-separated word around `chars[at]`, when it holds more
/// than `text` (a move written against the one before it: `Rw`); else empty.
fn word_around(chars: &[(usize, char)], at: usize, text: &str) -> String {
    let start = chars[..at]
        .iter()
        .rposition(|(_, c)| c.is_whitespace() || *c == ',')
        .map_or(0, |p| p + 1);
    let word = token_text(chars, start);
    if word == text {
        String::new()
    } else {
        format!(" in '{word}'")
    }
}

fn token_text(chars: &[(usize, char)], start: usize) -> String {
    let mut s = String::new();
    for &(_, c) in chars[start..]
        .iter()
        .take_while(|(_, c)| !c.is_whitespace())
    {
        let _ = s.write_char(c);
    }
    s
}
