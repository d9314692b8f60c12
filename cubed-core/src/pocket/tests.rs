//! Tests of the pocket cube: the distance distribution against the published one, solutions checked on a separately written sticker model, optimality against brute force, and every input error.

use super::witness;
use super::*;
use crate::cube::{format_moves, parse_moves, Corner, Face, FaceOrder, Move, Notation, Turn};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::{Arc, OnceLock};

fn solver() -> &'static PocketSolver {
    static SOLVER: OnceLock<PocketSolver> = OnceLock::new();
    SOLVER.get_or_init(|| PocketSolver::new(Arc::new(PocketTables::build())))
}

const SOLVED: &str = "UUUURRRRFFFFDDDDLLLLBBBB";

/// The witness's stickers for a cube of the model.
fn witness_of(c: &PocketCube) -> witness::Stickers {
    c.to_facelets().stickers.map(|f| f.index() as u8)
}

fn cube_of_witness(s: &witness::Stickers) -> PocketCube {
    let f = PocketFacelets {
        stickers: s.map(|c| Face::from_index(c as usize)),
    };
    PocketCube::read(&f).expect("a witness state is a cube")
}

/// Applies a solution with the witness model (only U, R, F turns exist there).
fn witness_apply(s: &witness::Stickers, turns: &[Turn]) -> witness::Stickers {
    turns
        .iter()
        .fold(*s, |c, t| witness::turn(&c, t.face.letter(), t.quarters))
}

#[test]
fn htm_distribution_is_the_published_one() {
    let published: [u64; 12] = [
        1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644,
    ];
    assert_eq!(solver().tables().distribution(Metric::Htm), published);
}

#[test]
fn qtm_distribution_ends_at_14_with_276_cubes() {
    let counts = solver().tables().distribution(Metric::Qtm);
    assert_eq!(counts.len(), 15, "{counts:?}");
    assert_eq!(counts[14], 276);
    let published: [u64; 15] = [
        1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276,
    ];
    assert_eq!(counts, published);
}

#[test]
fn coordinates_round_trip_and_solved_is_state_zero() {
    assert_eq!(coord::state_index(&PocketCube::default()), 0);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..2000 {
        let c = random_pocket(&mut rng);
        assert_eq!(coord::cube_of_index(coord::state_index(&c)), c);
    }
}

#[test]
fn the_witness_agrees_with_the_model_on_each_turn() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..200 {
        let c = random_pocket(&mut rng);
        for t in coord::fixed_turns() {
            let by_model = witness_of(&c.turn(t));
            let by_witness = witness::turn(&witness_of(&c), t.face.letter(), t.quarters);
            assert_eq!(by_model, by_witness, "{t:?}");
        }
    }
}

#[test]
fn distances_match_brute_force_to_depth_6_htm_and_7_qtm() {
    for (metric, depth, half) in [(Metric::Htm, 6, true), (Metric::Qtm, 7, false)] {
        let brute = witness::distances(depth, half);
        let mut per_depth = vec![0u64; depth as usize + 1];
        for (state, d) in &brute {
            per_depth[*d as usize] += 1;
            let cube = cube_of_witness(state);
            assert_eq!(solver().distance(&cube, metric), *d, "{metric:?}");
            let turns = solver().solve(&cube, metric);
            assert_eq!(length_in(&turns, metric), *d as usize);
            assert!(witness::is_solved(&witness_apply(state, &turns)));
        }
        let table = solver().tables().distribution(metric);
        assert_eq!(per_depth[..], table[..=depth as usize], "{metric:?}");
    }
}

#[test]
fn random_cubes_are_solved_on_the_witness_in_the_table_length() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..2000 {
        let cube = random_pocket(&mut rng);
        for metric in [Metric::Htm, Metric::Qtm] {
            let turns = solver().solve(&cube, metric);
            assert!(witness::is_solved(&witness_apply(
                &witness_of(&cube),
                &turns
            )));
            assert_eq!(
                length_in(&turns, metric),
                solver().distance(&cube, metric) as usize
            );
            assert!(turns.len() <= 11 || metric == Metric::Qtm);
        }
    }
}

#[test]
fn every_optimal_solution_solves_and_none_repeats() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for _ in 0..50 {
        let cube = random_pocket(&mut rng);
        let all = solver().optimal_solutions(&cube, Metric::Htm, 64);
        assert!(!all.is_empty());
        let d = solver().distance(&cube, Metric::Htm) as usize;
        for s in &all {
            assert_eq!(s.len(), d);
            assert!(witness::is_solved(&witness_apply(&witness_of(&cube), s)));
        }
        let mut unique = all.clone();
        unique.dedup();
        assert_eq!(unique.len(), all.len());
    }
}

#[test]
fn a_solved_cube_needs_nothing_and_one_turn_needs_one() {
    let (_, _, cube) = parse_pocket(SOLVED, PocketFormat::Facelets(FaceOrder::Urfdlb), None)
        .expect("solved parses");
    assert!(solver().solve(&cube, Metric::Htm).is_empty());
    for t in Turn::all() {
        let one = PocketCube::default().turn(t);
        assert_eq!(solver().solve(&one, Metric::Htm).len(), 1, "{t:?}");
        let q = if t.quarters == 2 { 2 } else { 1 };
        assert_eq!(
            length_in(&solver().solve(&one, Metric::Qtm), Metric::Qtm),
            q
        );
    }
}

#[test]
fn any_six_symbols_and_any_holding_of_the_cube_work() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let scheme = crate::cube::ColourScheme {
        symbols: ['W', 'R', 'G', 'Y', 'O', 'B'],
    };
    for _ in 0..200 {
        let cube = random_pocket(&mut rng);
        let text = cube.to_facelets().to_symbols(&scheme);
        let (_, read_scheme, read) =
            parse_pocket(&text, PocketFormat::Facelets(FaceOrder::Urfdlb), None).expect("valid");
        assert_eq!((read, read_scheme), (cube, scheme));
        // The same cube turned about y: read again from its DLB corner, still solvable.
        let y = crate::cube::Rotation {
            axis: crate::cube::Axis::Y,
            quarters: 1,
        };
        let turned = cube
            .to_facelets()
            .apply(Move::Rotate(y))
            .to_symbols(&scheme);
        let (f, _, held) =
            parse_pocket(&turned, PocketFormat::Facelets(FaceOrder::Urfdlb), None).expect("valid");
        let solution: Vec<Move> = (solver().solve(&held, Metric::Htm).into_iter())
            .map(Move::Turn)
            .collect();
        assert!(f.apply_all(&solution).is_solved());
    }
}

#[test]
fn the_legacy_letters_are_the_1988_face_order() {
    let solved = "yyyy gggg rrrr bbbb oooo wwww";
    let (f, scheme, cube) = parse_pocket(solved, PocketFormat::Legacy, None).expect("solved");
    assert!(f.is_solved() && cube.is_solved());
    // T F R P L B: top is U, front F, right R, posterior B, left L, bottom D.
    assert_eq!(scheme.symbols, ['y', 'r', 'g', 'w', 'o', 'b']);
    let mut rng = ChaCha8Rng::seed_from_u64(19);
    for _ in 0..100 {
        let cube = random_pocket(&mut rng);
        let urfdlb: Vec<char> = cube.to_facelets().to_symbols(&scheme).chars().collect();
        let legacy: String = [Face::U, Face::F, Face::R, Face::B, Face::L, Face::D]
            .iter()
            .flat_map(|f| urfdlb[f.index() * 4..f.index() * 4 + 4].to_vec())
            .collect();
        let upper = legacy.to_uppercase();
        let (_, _, read) = parse_pocket(&upper, PocketFormat::Legacy, None).expect("legacy");
        assert_eq!(read, cube);
    }
    let bad = parse_pocket("yyyyggggrrrrbbbbooooxwww", PocketFormat::Legacy, None);
    assert!(
        matches!(bad, Err(PocketError::UnknownColour { symbol: 'x', sticker, .. }) if sticker == PocketSticker(12)),
        "{bad:?}"
    );
    // A symbol is shown as it was typed, though the legacy letters are read in either case.
    let typed = parse_pocket("yyyyggggrrrrbbbbooooXwww", PocketFormat::Legacy, None);
    assert!(
        matches!(typed, Err(PocketError::UnknownColour { symbol: 'X', .. })),
        "{typed:?}"
    );
    // Told as the legacy input numbers it: the 21st letter, the bottom's first.
    let said = PocketFormat::Legacy.in_input_terms(&bad.expect_err("x").to_string());
    assert!(said.contains("'x' at sticker B1 (letter 21)"), "{said}");
    let five_white = parse_pocket("yyyyggggrrrrbbbbooowwwww", PocketFormat::Legacy, None);
    let said = PocketFormat::Legacy.in_input_terms(&five_white.expect_err("5 w").to_string());
    assert!(
        said.contains(
            "(at B1 (letter 21), B2 (letter 22), B3 (letter 23), B4 (letter 24), L4 (letter 20))"
        ),
        "{said}"
    );
    // Another face order: the index in the input as given.
    let order = PocketFormat::Facelets(FaceOrder::Tfrplb);
    let said = order.in_input_terms(&PocketSticker(12).to_string());
    assert_eq!(said, "D1 (index 20 as given)");
    let urfdlb = PocketFormat::Facelets(FaceOrder::Urfdlb);
    assert_eq!(urfdlb.in_input_terms("D1 (index 12)"), "D1 (index 12)");
}

fn urfdlb(text: &str) -> Result<PocketCube, PocketError> {
    parse_pocket(text, PocketFormat::Facelets(FaceOrder::Urfdlb), None).map(|(_, _, c)| c)
}

fn swapped(a: usize, b: usize) -> String {
    let mut s: Vec<char> = SOLVED.chars().collect();
    s.swap(a, b);
    s.into_iter().collect()
}

#[test]
fn each_error_names_what_and_where() {
    assert_eq!(
        urfdlb(&SOLVED[..23]),
        Err(PocketError::WrongLength {
            found: 23,
            commas: 0
        })
    );
    let three = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
    let e = urfdlb(three).unwrap_err().to_string();
    assert!(
        e.ends_with("a 2x2 cube has 24 (54 is a 3x3: give --size 3)"),
        "{e}"
    );
    let seventh = format!("{}X", &SOLVED[..23]);
    let e = urfdlb(&seventh).unwrap_err();
    assert!(
        matches!(e, PocketError::SeventhColour { symbol: 'X', .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("B4 (index 23)"), "{e}");
    let count = format!("{}U", &SOLVED[..23]);
    let e = urfdlb(&count).unwrap_err();
    assert!(
        matches!(
            e,
            PocketError::ColourCount {
                symbol: 'U',
                count: 5,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("B4 (index 23)"), "{e}");
    let palette = parse_pocket(
        SOLVED,
        PocketFormat::Facelets(FaceOrder::Urfdlb),
        Some(&['U']),
    );
    assert!(matches!(
        palette,
        Err(PocketError::UnknownColour { symbol: 'R', .. })
    ));
    // U4 (the URF corner's up sticker) and D2 (DFR's down sticker) swapped: a mirror corner.
    let e = urfdlb(&swapped(3, 13)).unwrap_err();
    assert!(
        matches!(
            e,
            PocketError::ImpossibleCorner {
                position: Corner::URF,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().contains("U4 (index 3)"), "{e}");
    // U1 and D3 swapped: the DLB corner now reads U B L, and the message says how it read the faces.
    let e = urfdlb(&swapped(0, 14)).unwrap_err();
    assert!(matches!(e, PocketError::ImpossibleCorner { .. }), "{e:?}");
    assert!(
        e.to_string()
            .contains("when the DLB corner names D 'U', B 'B' and L 'L'"),
        "{e}"
    );
    // A second DLB piece at ULB, its colours the other way round: said so, as on a 3x3.
    let e = urfdlb("DUUURRRRFFFFUDDDLLLLBBBB").unwrap_err();
    assert!(
        matches!(e, PocketError::ImpossibleCorner { mirrored: true, .. }),
        "{e:?}"
    );
    assert!(e.to_string().contains("the other way round"), "{e}");
    // Two stickers of the DLB corner alike: that corner itself is named.
    let e = urfdlb(&swapped(18, 14 - 1)).unwrap_err();
    assert!(
        matches!(
            e,
            PocketError::ImpossibleCorner {
                position: Corner::DBL,
                ..
            }
        ),
        "{e:?}"
    );
    let mut twisted = PocketCube::default();
    twisted.co[Corner::URF as usize] = 1;
    let e = urfdlb(&twisted.to_facelets().to_string()).unwrap_err();
    assert!(matches!(e, PocketError::Twist { twist: 1, .. }), "{e:?}");
    assert!(e.to_string().contains("R1 (index 4)"), "{e}");
    // Two corners off their up/down colour: which one is twisted, no sticker can tell.
    twisted.co[Corner::UFL as usize] = 2;
    twisted.co[Corner::ULB as usize] = 1;
    let e = urfdlb(&twisted.to_facelets().to_string()).unwrap_err();
    assert!(matches!(e, PocketError::Twist { only: None, .. }), "{e:?}");
    assert!(e.to_string().contains("any one corner"), "{e}");
    let duplicated = PocketCube {
        cp: [0, 0, 3, 1, 5, 6, 6, 7],
        co: [0; 8],
    };
    let e = urfdlb(&duplicated.to_facelets().to_string()).unwrap_err();
    assert!(
        matches!(
            e,
            PocketError::DuplicateCorner {
                first: Corner::URF,
                second: Corner::UFL,
                ..
            }
        ),
        "{e:?}"
    );
}

#[test]
fn solutions_print_and_read_back_in_the_1988_notation() {
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    for _ in 0..100 {
        let cube = random_pocket(&mut rng);
        let moves: Vec<Move> = (solver().solve(&cube, Metric::Qtm).into_iter())
            .map(Move::Turn)
            .collect();
        let text = format_moves(&moves, Notation::Woolley).expect("turns print");
        assert!(text.chars().all(|c| "TRF+-2 ".contains(c)), "{text}");
        assert_eq!(parse_moves(&text, Notation::Woolley), Ok(moves));
    }
}

#[test]
fn tables_survive_their_bytes_and_refuse_corruption() {
    let t = solver().tables();
    let mut bytes = Vec::new();
    t.write_to(&mut bytes).expect("write to memory");
    let back = PocketTables::read_from(bytes.as_slice()).expect("read back");
    assert!(back.htm == t.htm && back.qtm == t.qtm);
    let mut corrupt = bytes.clone();
    corrupt[1000] ^= 1;
    assert!(matches!(
        PocketTables::read_from(corrupt.as_slice()),
        Err(tables::PocketTableError::Checksum { .. })
    ));
    assert!(matches!(
        PocketTables::read_from(&bytes[..bytes.len() - 10]),
        Err(tables::PocketTableError::Truncated { .. })
    ));
    assert!(matches!(
        PocketTables::read_from(&b"CUBEDTBL\x01\0\0\0"[..]),
        Err(tables::PocketTableError::BadMagic)
    ));
}

#[test]
fn the_test_program_solves_and_sums_up() {
    let mut rng = ChaCha8Rng::seed_from_u64(29);
    let scrambles = program::scrambles(&mut rng, 300, 25, true);
    let outcomes: Vec<_> = (scrambles.iter())
        .map(|s| program::run_one(solver(), s, Metric::Htm))
        .collect();
    let summary = program::summarise(&outcomes);
    assert_eq!((summary.solved, summary.failed), (300, 0));
    assert!(summary.most.is_some_and(|m| m <= 11));
    // Each outcome's length is the brute-force-checked distance of its scrambled cube.
    for (s, o) in scrambles.iter().zip(&outcomes) {
        let cube = PocketCube::default().apply_all(s);
        assert_eq!(o.moves, Ok(solver().distance(&cube, Metric::Htm) as usize));
    }
}

/// No 2x2 scramble wastes a turn: one or two random moves (rotations among them) leave a
/// cube as many optimal face turns from solved as the scramble has face turns, by the
/// brute-force-checked distances (a turn of one layer then of the other on its axis, or a
/// rotation beside a U or D turn, would leave fewer; so would two rotations, none).
#[test]
fn two_by_two_scrambles_of_few_turns_waste_none() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for (turns, rotations) in [(1, false), (2, false), (2, true), (1, true)] {
        for scramble in program::scrambles(&mut rng, 500, turns, rotations) {
            let cube = PocketCube::default().apply_all(&scramble);
            let face_turns = (scramble.iter())
                .filter(|m| matches!(m, Move::Turn(_)))
                .count();
            let rotations_only = face_turns == 0;
            assert!(
                rotations_only || solver().distance(&cube, Metric::Htm) as usize == face_turns,
                "{scramble:?}"
            );
            let rotations_in_a_row = scramble
                .windows(2)
                .any(|w| matches!(w, [Move::Rotate(_), Move::Rotate(_)]));
            assert!(!rotations_in_a_row, "{scramble:?}");
        }
    }
}
