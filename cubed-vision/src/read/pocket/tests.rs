//! Tests of the 2x2 reader: exact readings of random cubes come back exactly (checked against the pocket model's own validation), a sticker painted another colour is repaired or refused (never read as another cube), a corner twisted in place is refused as impossible, and the fixed corner names D, L and B.

use super::*;
use crate::camera::sim::STANDARD_STICKERS;
use crate::cube::Corner;
use crate::light::palette::load_palette;
use crate::pocket::stickers::corner_stickers;
use crate::pocket::{random_pocket, PocketCube};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn palette() -> Palette {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../config/palette.toml");
    load_palette(&path).expect("the shipped palette loads")
}

/// The stickers of `facelets` as the simulated camera's sticker colours.
fn exact_readings(facelets: &PocketFacelets) -> [Rgb; STICKERS] {
    facelets.stickers.map(|f| STANDARD_STICKERS[f.index()])
}

#[test]
fn exact_readings_of_random_2x2s_read_back_as_the_same_legal_cube() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..50 {
        let truth = random_pocket(&mut rng).to_facelets();
        let read = classify_pocket(
            &exact_readings(&truth),
            &palette(),
            &ClassifyOptions::default(),
        )
        .expect("sure");
        assert_eq!(read.facelets, truth);
        // Second witness: the pocket model's own validation accepts what was read.
        assert!(PocketCube::from_facelets(&read.facelets, &ColourScheme::default()).is_ok());
        assert_eq!(read.symbols().len(), 24);
    }
}

#[test]
fn the_fixed_corner_names_d_l_and_b_whatever_the_colours_on_it() {
    // The solved cube held another way: white on the right, so DLB shows other colours.
    let truth = PocketFacelets::default().apply(crate::cube::Move::Rotate(crate::cube::Rotation {
        axis: crate::cube::Axis::Z,
        quarters: 1,
    }));
    let read = classify_pocket(
        &exact_readings(&truth),
        &palette(),
        &ClassifyOptions::default(),
    )
    .expect("sure");
    assert!(read.facelets.is_solved());
    let dlb = corner_stickers(Corner::DBL).map(|s| read.facelets.stickers[s.0]);
    assert_eq!(dlb, [Face::D, Face::B, Face::L]);
    // The colour on D is the palette colour on the DLB corner's bottom sticker.
    let bottom = corner_stickers(Corner::DBL)[0].0;
    let on_d = palette().colours[read.names[Face::D.index()]].symbol;
    assert_eq!(read.symbols().chars().nth(bottom), Some(on_d));
}

#[test]
fn a_sticker_painted_another_colour_is_repaired_or_refused_never_read_as_another_cube() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut repaired, mut refused) = (0, 0);
    for n in 0..24 {
        let truth = random_pocket(&mut rng).to_facelets();
        let mut readings = exact_readings(&truth);
        let colour = truth.stickers[n].index();
        readings[n] = STANDARD_STICKERS[(colour + 1 + n % 5) % 6];
        match classify_pocket(&readings, &palette(), &ClassifyOptions::default()) {
            Ok(read) => {
                assert_eq!(read.facelets, truth, "sticker {n}: read another cube");
                repaired += 1;
            }
            Err(PocketClassifyError { stickers, .. }) => {
                assert!(!stickers.is_empty());
                refused += 1;
            }
        }
    }
    assert_eq!(repaired + refused, 24);
}

#[test]
fn stickers_read_blank_white_but_given_a_hue_are_refused_and_blank_whites_are_read() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let truth = random_pocket(&mut rng).to_facelets();
    let mut readings = exact_readings(&truth);
    let white = palette().palest();
    let colour_of = |s: usize| truth.stickers[s].index();
    for s in (0..STICKERS).filter(|&s| colour_of(s) == white) {
        readings[s] = [255, 255, 255];
    }
    let read = classify_pocket(&readings, &palette(), &ClassifyOptions::default());
    assert_eq!(read.expect("whites clipped white are read").facelets, truth);
    // A yellow too bright for a webcam fades to the same blank white.
    let yellow = (0..STICKERS)
        .find(|&s| palette().colours[colour_of(s)].symbol == 'Y')
        .expect("a 2x2 shows four yellow stickers");
    readings[yellow] = [255, 255, 255];
    let refused = classify_pocket(&readings, &palette(), &ClassifyOptions::default())
        .expect_err("a blank sticker given yellow must be refused");
    assert!(
        refused.to_string().contains("clipped to blank white"),
        "{refused}"
    );
    let PocketClassifyError {
        stickers, doubt, ..
    } = &refused;
    assert_eq!(*doubt, crate::read::classify::Doubt::Blank);
    assert!(stickers.contains(&yellow), "{stickers:?}");
}

#[test]
fn a_corner_twisted_in_place_is_refused_as_impossible() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for _ in 0..20 {
        let truth = random_pocket(&mut rng).to_facelets();
        let readings = exact_readings(&truth);
        // The URF corner's three readings turned: that corner twisted in place.
        let [a, b, c] = corner_stickers(Corner::URF).map(|s| s.0);
        let mut twisted = readings;
        (twisted[a], twisted[b], twisted[c]) = (readings[c], readings[a], readings[b]);
        match classify_pocket(&twisted, &palette(), &ClassifyOptions::default()) {
            Err(PocketClassifyError { doubt, .. }) => {
                assert_eq!(doubt, Doubt::Impossible)
            }
            Ok(read) => panic!("an impossible 2x2 was given as {}", read.symbols()),
        }
    }
}
