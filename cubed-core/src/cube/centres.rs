//! Centres typed in each other's places, or as the wrong colours: typed cubes take their
//! colours from the centres, so such centres make good pieces look impossible; told when
//! every piece would be a cube's with them put right. (One centre typed as a colour no other
//! sticker has is `facelets::centre_typo`.)

use super::cubie::CubieCube;
use super::face::Face;
use super::facelets::{ColourScheme, FaceletCube};

/// The sticker index of `face`'s centre (URFDLB order).
fn centre(face: Face) -> usize {
    face.index() * 9 + 4
}

/// Centres typed in each other's places, in words: the fewest centres to move so that the
/// cube can exist (each way, when two ways move as few), e.g. "U's centre 'F', F's centre
/// 'U'"; none if no such move makes it one.
pub(crate) fn centres_misplaced(symbols: &[char; 54]) -> Option<String> {
    let typed = Face::ALL.map(|f| symbols[centre(f)]);
    in_words(symbols, fewest_changes(symbols, typed)).map(|(_, words)| words)
}

/// Centres typed as the wrong colours (one typed as another centre's, or two as colours no
/// other sticker has), when the other 48 stickers show six colours 8 times each: the centres
/// as typed that are wrong (e.g. "U's centre 'X'"), and the fewest to retype with those
/// colours so the cube can exist, in words as [`centres_misplaced`] says them.
pub(crate) fn centres_mistyped(symbols: &[char; 54]) -> Option<(String, String)> {
    let mut beside: Vec<(char, usize)> = Vec::new();
    for (i, &symbol) in symbols.iter().enumerate() {
        if i % 9 == 4 {
            continue;
        }
        match beside.iter_mut().find(|(s, _)| *s == symbol) {
            Some((_, count)) => *count += 1,
            None => beside.push((symbol, 1)),
        }
    }
    let colours: [(char, usize); 6] = beside.try_into().ok()?;
    if colours.iter().any(|&(_, count)| count != 8) {
        return None;
    }
    let (faces, retyped) = in_words(symbols, fewest_changes(symbols, colours.map(|(s, _)| s)))?;
    let typed = (faces.iter())
        .map(|&face| format!("{face}'s centre '{}'", symbols[centre(face)]))
        .collect::<Vec<_>>()
        .join(", ");
    Some((typed, retyped))
}

/// The fewest centre changes that give the centres the six `colours` in some order and make
/// the cube one that can exist: every such way, as (face, its new centre) pairs.
fn fewest_changes(symbols: &[char; 54], colours: [char; 6]) -> Vec<Vec<(Face, char)>> {
    let typed = Face::ALL.map(|f| symbols[centre(f)]);
    let mut fewest: Vec<Vec<(Face, char)>> = Vec::new();
    for order in permutations_of_six() {
        let centres = order.map(|i| colours[i]);
        let moved: Vec<(Face, char)> = (Face::ALL.into_iter())
            .filter(|f| centres[f.index()] != typed[f.index()])
            .map(|f| (f, centres[f.index()]))
            .collect();
        if moved.is_empty() || fewest.first().is_some_and(|f| f.len() < moved.len()) {
            continue;
        }
        let mut with = *symbols;
        for (face, symbol) in &moved {
            with[centre(*face)] = *symbol;
        }
        if can_exist(&with, &ColourScheme { symbols: centres }) {
            if fewest.first().is_some_and(|f| f.len() > moved.len()) {
                fewest.clear();
            }
            fewest.push(moved);
        }
    }
    fewest
}

/// Every way of changing the centres, in words: the one leaving most stickers beside a
/// centre of their colour first (the way a cube typed near solved was meant; a swap of
/// opposite centres has three ways, the cube turned about each axis), then in face order;
/// with the faces that first way changes.
fn in_words(
    symbols: &[char; 54],
    mut fewest: Vec<Vec<(Face, char)>>,
) -> Option<(Vec<Face>, String)> {
    let typed = Face::ALL.map(|f| symbols[centre(f)]);
    let on_their_face = |moved: &Vec<(Face, char)>| {
        let mut centres = typed;
        for &(face, symbol) in moved {
            centres[face.index()] = symbol;
        }
        (0..54).filter(|&i| symbols[i] == centres[i / 9]).count()
    };
    fewest.sort_by_key(|moved| {
        let faces: Vec<usize> = moved.iter().map(|(face, _)| face.index()).collect();
        (std::cmp::Reverse(on_their_face(moved)), faces)
    });
    let words: Vec<String> = (fewest.iter())
        .map(|moved| {
            (moved.iter())
                .map(|(face, symbol)| format!("{face}'s centre '{symbol}'"))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    let faces = fewest.first()?.iter().map(|&(face, _)| face).collect();
    let words = match &words[..] {
        [one, others @ ..] if !others.is_empty() => {
            format!("{one} (or with {})", others.join("; or with "))
        }
        _ => words.concat(),
    };
    Some((faces, words))
}

/// Whether the symbols, read with `scheme`'s centres, are a cube that can exist.
fn can_exist(symbols: &[char; 54], scheme: &ColourScheme) -> bool {
    let mut stickers = [Face::U; 54];
    for (sticker, symbol) in stickers.iter_mut().zip(symbols) {
        match scheme.symbols.iter().position(|s| s == symbol) {
            Some(face) => *sticker = Face::from_index(face),
            None => return false,
        }
    }
    CubieCube::from_facelets(&FaceletCube { stickers }).is_ok()
}

/// Every order of six things (720), as indices.
fn permutations_of_six() -> impl Iterator<Item = [usize; 6]> {
    (0..6usize.pow(6)).filter_map(|n| {
        let order: [usize; 6] = std::array::from_fn(|k| n / 6usize.pow(k as u32) % 6);
        let distinct = (0..6).all(|i| !order[i + 1..].contains(&order[i]));
        distinct.then_some(order)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{parse_cube, random::random_cube, CubeError, FaceOrder};
    use rand::SeedableRng;

    const SOLVED: &str = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";

    fn refused(text: &str, order: FaceOrder) -> CubeError {
        parse_cube(text, order, None).expect_err("refused")
    }

    fn with_centres(text: &str, centres: &[(Face, char)]) -> String {
        let mut symbols: Vec<char> = text.chars().collect();
        for &(face, symbol) in centres {
            symbols[centre(face)] = symbol;
        }
        symbols.into_iter().collect()
    }

    #[test]
    fn there_are_720_orders_of_six() {
        assert_eq!(permutations_of_six().count(), 720);
    }

    #[test]
    fn a_centre_typed_wrong_is_named_not_the_stickers_it_makes_look_wrong() {
        let typo = with_centres(SOLVED, &[(Face::U, 'X')]);
        let said = refused(&typo, FaceOrder::Urfdlb).to_string();
        assert_eq!(
            said,
            "the centre of face U (sticker U5, index 4 as given) is 'X', which no other sticker has, while 'U' is on 8 stickers and no centre: typed 'X' for 'U' there? (the centres name the colours)"
        );
        // In the 1988 order, D's centre is the sixth block's: index 49 as typed.
        let typo = with_centres(SOLVED, &[(Face::D, 'X')]);
        let typed = FaceOrder::Tfrplb.from_urfdlb(&typo);
        let said = refused(&typed, FaceOrder::Tfrplb).to_string();
        assert!(said.contains("index 49 as given"), "{said}");
        // A sticker typed wrong is still the sticker.
        let mut sticker: Vec<char> = SOLVED.chars().collect();
        sticker[0] = 'X';
        let sticker: String = sticker.into_iter().collect();
        assert_eq!(
            refused(&sticker, FaceOrder::Urfdlb).kind(),
            "unknown_symbol"
        );
    }

    #[test]
    fn centres_typed_in_each_others_places_are_said_with_what_the_pieces_show() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..20 {
            // A cube that exists (made by turning), typed with U's and F's centres swapped.
            let cube = random_cube(&mut rng).to_facelets().to_string();
            let swapped = with_centres(&cube, &[(Face::U, 'F'), (Face::F, 'U')]);
            let error = refused(&swapped, FaceOrder::Urfdlb);
            assert_eq!(error.kind(), "centres_misplaced", "{error}");
            let said = error.to_string();
            assert!(
                said.contains("with U's centre 'U', F's centre 'F', every"),
                "{said}"
            );
        }
        let cycled = with_centres(SOLVED, &[(Face::U, 'R'), (Face::R, 'F'), (Face::F, 'U')]);
        let said = refused(&cycled, FaceOrder::Urfdlb).to_string();
        // Cycled back, or the opposite three cycled to match (the cube turned about a corner).
        assert!(
            said.starts_with("the centres may be typed in each other's places: with U's centre 'U', R's centre 'R', F's centre 'F' (or with D's centre 'L', L's centre 'B', B's centre 'D'), every piece would be one a cube has, and it could be solved (as typed, the "),
            "{said}"
        );
    }

    #[test]
    fn every_way_is_said_the_one_that_leaves_a_solved_cube_first() {
        // F and B swapped on a solved cube: swapping U and D, or R and L, back makes a cube
        // too (the whole cube turned), but only F and B leave it solved.
        let swapped = with_centres(SOLVED, &[(Face::F, 'B'), (Face::B, 'F')]);
        let said = refused(&swapped, FaceOrder::Urfdlb).to_string();
        assert!(
            said.contains("with F's centre 'F', B's centre 'B' (or with U's centre 'D', D's centre 'U'; or with R's centre 'L', L's centre 'R')"),
            "{said}"
        );
        let fixed = with_centres(&swapped, &[(Face::F, 'F'), (Face::B, 'B')]);
        assert!(parse_cube(&fixed, FaceOrder::Urfdlb, None).is_ok());
    }

    #[test]
    fn centres_typed_as_the_wrong_colours_are_said_and_retyping_them_makes_a_cube() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for n in 0..20 {
            let cube = random_cube(&mut rng).to_facelets().to_string();
            // One centre typed as another's colour; two typed as colours no sticker has.
            type Centres = &'static [(Face, char)];
            let (wrong, right): (Centres, Centres) = match n % 3 {
                0 => (&[(Face::U, 'R')], &[(Face::U, 'U')]),
                1 => (
                    &[(Face::U, 'X'), (Face::F, 'Y')],
                    &[(Face::U, 'U'), (Face::F, 'F')],
                ),
                _ => (
                    &[(Face::R, 'X'), (Face::L, 'Y')],
                    &[(Face::R, 'R'), (Face::L, 'L')],
                ),
            };
            let typed = with_centres(&cube, wrong);
            let error = refused(&typed, FaceOrder::Urfdlb);
            assert_eq!(error.kind(), "centres_mistyped", "{error}");
            let said = error.to_string();
            let words = |centres: &[(Face, char)]| {
                (centres.iter())
                    .map(|(face, symbol)| format!("{face}'s centre '{symbol}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            assert!(
                said.contains(&format!("({}) are not", words(wrong))),
                "{said}"
            );
            assert!(
                said.contains(&format!("with {}, every", words(right))),
                "{said}"
            );
            assert_eq!(
                parse_cube(&with_centres(&typed, right), FaceOrder::Urfdlb, None)
                    .map(|c| c.0.to_string()),
                Ok(cube)
            );
        }
        // A sticker wrong too: the colours beside the centres are not 8 each, and no centre
        // is blamed.
        let mut sticker: Vec<char> = with_centres(SOLVED, &[(Face::U, 'R')]).chars().collect();
        sticker[0] = 'F';
        let sticker: String = sticker.into_iter().collect();
        assert_eq!(
            refused(&sticker, FaceOrder::Urfdlb).kind(),
            "centres_not_distinct"
        );
    }

    #[test]
    fn a_cube_wrong_in_its_pieces_is_not_blamed_on_its_centres() {
        // One corner twisted in place (URF's stickers turned round), and two edges swapped.
        let mut twisted: Vec<char> = SOLVED.chars().collect();
        let (u9, r1, f3) = (8, 9, 20);
        (twisted[u9], twisted[r1], twisted[f3]) = ('F', 'U', 'R');
        let twisted: String = twisted.into_iter().collect();
        assert_eq!(refused(&twisted, FaceOrder::Urfdlb).kind(), "corner_twist");
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
        let mut swapped: Vec<char> = random_cube(&mut rng)
            .to_facelets()
            .to_string()
            .chars()
            .collect();
        // UR (U6, R2) and UF (U8, F2) swapped, each keeping its U sticker up.
        let (u6, r2, u8_, f2) = (5, 10, 7, 19);
        (swapped[u6], swapped[u8_]) = (swapped[u8_], swapped[u6]);
        (swapped[r2], swapped[f2]) = (swapped[f2], swapped[r2]);
        let swapped: String = swapped.into_iter().collect();
        let error = refused(&swapped, FaceOrder::Urfdlb);
        assert_ne!(error.kind(), "centres_misplaced", "{error}");
    }
}
