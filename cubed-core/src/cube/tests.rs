//! Unit and property tests of the cube model.

use super::geometry::position;
use super::random::{random_cube, random_scramble};
use super::*;
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub(super) const SOLVED: &str = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";

fn turn(s: &str) -> Move {
    parse_moves(s, Notation::Singmaster).unwrap()[0]
}

#[test]
fn u_turn_moves_front_top_row_to_left() {
    let p = turn("U").perm();
    assert_eq!(&p.src[36..39], &[18, 19, 20]);
    assert_eq!(&p.src[18..21], &[9, 10, 11]);
}

#[test]
fn r_turn_moves_front_up_and_f_turn_moves_up_to_right() {
    assert_eq!(turn("R").perm().src[2], 20);
    assert_eq!(turn("F").perm().src[9], 6);
}

#[test]
fn rotations_follow_their_faces() {
    let centre = |m: &str, at: Face| turn(m).perm().src[at.index() * 9 + 4] as usize / 9;
    assert_eq!(centre("x", Face::U), Face::F.index());
    assert_eq!(
        centre("y", Face::F),
        Face::R.index(),
        "RC+: the right side becomes the front"
    );
    assert_eq!(centre("z", Face::R), Face::U.index());
}

#[test]
fn piece_stickers_share_a_cubie() {
    for s in pieces::CORNER_STICKERS {
        assert!(s.iter().all(|&i| position(i) == position(s[0])));
    }
    for s in pieces::EDGE_STICKERS {
        assert_eq!(position(s[0]), position(s[1]));
    }
}

#[test]
fn turn_cubies_match_the_known_tables() {
    let r = CubieCube::default().turn(Turn {
        face: Face::R,
        quarters: 1,
    });
    assert_eq!(r.cp, [4, 1, 2, 0, 7, 5, 6, 3]);
    assert_eq!(r.co, [2, 0, 0, 1, 1, 0, 0, 2]);
    let f = CubieCube::default().turn(Turn {
        face: Face::F,
        quarters: 1,
    });
    assert_eq!(f.eo, [0, 1, 0, 0, 0, 1, 0, 0, 1, 1, 0, 0]);
    let u = CubieCube::default().turn(Turn {
        face: Face::U,
        quarters: 1,
    });
    assert_eq!(u.cp, [3, 0, 1, 2, 4, 5, 6, 7]);
}

#[test]
fn four_quarter_turns_are_nothing() {
    for t in Turn::all().filter(|t| t.quarters == 1) {
        let c = (0..4).fold(CubieCube::default(), |c, _| c.turn(t));
        assert!(c.is_solved(), "{t:?}^4");
    }
}

#[test]
fn face_orders_convert_to_urfdlb() {
    let ulfrbd = "UUUUUUUUULLLLLLLLLFFFFFFFFFRRRRRRRRRBBBBBBBBBDDDDDDDDD";
    let (f, _) = FaceletCube::parse(ulfrbd, FaceOrder::Ulfrbd, None).unwrap();
    assert_eq!(f.to_string(), SOLVED);
    let tfrplb = "UUUUUUUUUFFFFFFFFFRRRRRRRRRBBBBBBBBBLLLLLLLLLDDDDDDDDD";
    let (f, _) = FaceletCube::parse(tfrplb, FaceOrder::Tfrplb, None).unwrap();
    assert_eq!(f.to_string(), SOLVED);
}

#[test]
fn any_six_symbols_work() {
    let s: String = "WROYPK"
        .chars()
        .flat_map(|c| std::iter::repeat_n(c, 9))
        .collect();
    let (f, scheme, c) = parse_cube(&s, FaceOrder::Urfdlb, None).unwrap();
    assert!(c.is_solved() && f.is_solved());
    assert_eq!(f.to_symbols(&scheme), s);
}

pub(super) fn err(s: &str) -> CubeError {
    parse_cube(s, FaceOrder::Urfdlb, None).unwrap_err()
}

pub(super) fn with(s: &str, changes: &[(usize, char)]) -> String {
    let mut v: Vec<char> = s.chars().collect();
    for &(i, c) in changes {
        v[i] = c;
    }
    v.into_iter().collect()
}

#[test]
fn each_error_class_is_reported() {
    assert_eq!(
        err("UUU"),
        CubeError::WrongLength {
            found: 3,
            commas: 0
        }
    );
    assert_eq!(
        err("U").to_string(),
        "wrong length: 1 sticker, a cube has 54"
    );
    let faces = [
        "UUUUUUUUU",
        "RRRRRRRRR",
        "FFFFFFFFF",
        "DDDDDDDDD",
        "LLLLLLLLL",
        "BBBBBBBBB",
    ];
    assert_eq!(
        err(&faces.join(",")).to_string(),
        "wrong length: 59 stickers (5 of them commas: stickers are separated by spaces, or by nothing), a cube has 54"
    );
    let pocket = err("UUUURRRRFFFFDDDDLLLLBBBB").to_string();
    assert!(pocket.ends_with("(24 is a 2x2: give --size 2)"), "{pocket}");
    assert!(!err("UUU").to_string().contains("2x2"));
    // R's centre typed 'U' and a sticker wrong too (U1 'R'): not just the centre.
    assert!(matches!(
        err(&with(SOLVED, &[(13, 'U'), (0, 'R')])),
        CubeError::CentresNotDistinct { symbol: 'U', .. }
    ));
    assert_eq!(err(&with(SOLVED, &[(13, 'U')])).kind(), "centres_mistyped");
    assert!(matches!(
        err(&with(SOLVED, &[(0, 'Q')])),
        CubeError::UnknownSymbol {
            symbol: 'Q',
            sticker: Sticker(0),
            ..
        }
    ));
    // Typed in another order, the sticker is named where the input has it: the 11th symbol
    // of ULFRBD input is L2 (URFDLB index 37).
    let ulfrbd = "UUUUUUUUULQLLLLLLLFFFFFFFFFRRRRRRRRRBBBBBBBBBDDDDDDDDD";
    let said = FaceletCube::parse(ulfrbd, FaceOrder::Ulfrbd, None)
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        said.to_string(),
        "unknown symbol 'Q' at sticker L2 (index 10 as given): it is not the colour of any centre (URFDLB)"
    );
    assert_eq!(
        err(&with(SOLVED, &[(0, 'R')])).to_string(),
        "colour 'U' (face U) appears 8 times, colour 'R' (face R) 10 times: each colour must appear exactly 9 times"
    );
    // URF corner showing U, R, R: no such piece (counts kept right by swapping with an R sticker).
    assert!(matches!(
        err(&with(SOLVED, &[(20, 'R'), (10, 'F')])),
        CubeError::InvalidCorner {
            position: Corner::URF,
            ..
        }
    ));
    assert_eq!(
        err(&with(SOLVED, &[(20, 'R'), (10, 'F')])).to_string(),
        "the corner at URF (stickers U9, R1, F3) has colours URR, which no corner piece has"
    );
    assert!(matches!(
        err(&with(SOLVED, &[(10, 'U'), (1, 'R')])),
        CubeError::InvalidEdge {
            position: Edge::UR,
            ..
        }
    ));
    // Twist URF in place.
    assert_eq!(
        err(&with(SOLVED, &[(8, 'F'), (9, 'U'), (20, 'R')])),
        CubeError::CornerTwist {
            twist: 1,
            only: Some(Corner::URF),
            as_given: String::new(),
        }
    );
    // Flip UR in place.
    assert_eq!(
        err(&with(SOLVED, &[(5, 'R'), (10, 'U')])),
        CubeError::EdgeFlip {
            only: Some(Edge::UR),
            as_given: String::new(),
        }
    );
    // Two corners off their up/down colour: the stickers cannot tell which was twisted.
    let mut two = CubieCube::default();
    (two.co[0], two.co[1]) = (1, 1);
    assert_eq!(
        two.check(),
        Err(CubeError::CornerTwist {
            twist: 2,
            only: None,
            as_given: String::new(),
        })
    );
    // Swap UR and UF edges.
    assert_eq!(
        err(&with(SOLVED, &[(5, 'F'), (10, 'U'), (7, 'R'), (19, 'U')])),
        CubeError::Parity
    );
    // URF twisted, UR flipped and UF swapped with UB: each law broken is said, in one error
    // of the first's kind.
    let mut three = CubieCube::default();
    (three.co[0], three.eo[0]) = (1, 1);
    three.ep.swap(1, 3);
    let said = three.check().unwrap_err();
    assert_eq!(said.kind(), "corner_twist");
    let words = said.to_string();
    for law in [
        "a corner is twisted",
        "an edge is flipped",
        "two pieces are swapped",
    ] {
        assert_eq!(words.matches(law).count(), 1, "{words}");
    }
}

#[test]
fn duplicated_pieces_are_named() {
    let mut c = CubieCube::default();
    c.cp[1] = 0;
    assert!(matches!(
        c.check(),
        Err(CubeError::DuplicateCorner {
            piece: Corner::URF,
            ..
        })
    ));
    let mut c = CubieCube::default();
    c.ep[5] = 4;
    assert!(matches!(
        c.check(),
        Err(CubeError::DuplicateEdge {
            piece: Edge::DR,
            ..
        })
    ));
}

/// A cube typed in colours has its pieces named in those colours, not by face letters the
/// person never typed; a piece twisted in place is named with its stickers.
#[test]
fn pieces_are_named_in_the_colours_typed() {
    let colours = |s: &str| -> String {
        s.chars()
            .map(|c| "WRGYOB".as_bytes()["URFDLB".find(c).unwrap_or(0)] as char)
            .collect()
    };
    // U9 (of the URF corner) and D3 swapped: a corner of Y, R, G.
    let swapped = with(SOLVED, &[(8, 'D'), (29, 'U')]);
    let message = err(&colours(&swapped)).to_string();
    assert!(message.contains("has colours YRG"), "{message}");
    // Two stickers of one corner swapped: its colours exist, the other way round.
    let mirrored = err(&colours(&with(SOLVED, &[(8, 'R'), (9, 'U')]))).to_string();
    assert!(mirrored.ends_with("has colours RWG, which a corner piece has, but the other way round it, as if two of its stickers were swapped"), "{mirrored}");
    let none = err(&with(SOLVED, &[(9, 'U'), (0, 'R')])).to_string();
    assert!(none.ends_with("which no corner piece has"), "{none}");
    // The URF corner's colours put at UFL too (and DLF's at DFR, to keep nine of each).
    let twice = with(SOLVED, &[(18, 'R'), (38, 'F'), (26, 'L'), (15, 'F')]);
    let message = err(&colours(&twice)).to_string();
    assert!(
        message.contains("corner piece WRG (its home is URF) appears twice"),
        "{message}"
    );
    assert!(err(&twice)
        .to_string()
        .contains("corner piece URF appears twice"));
    let twisted = with(SOLVED, &[(8, 'F'), (9, 'U'), (20, 'R')]);
    let message = err(&colours(&twisted)).to_string();
    assert!(
        message.ends_with("it is the corner at URF (stickers U9, R1, F3)"),
        "{message}"
    );
}

#[test]
fn woolley_notation_reads_the_1988_program() {
    let m = parse_moves("T+ P- B2 RC+ RC2 RC- L+", Notation::Woolley).unwrap();
    let s = format_moves(&m, Notation::Singmaster).unwrap();
    assert_eq!(s, "U B' D2 y y2 y' L");
    assert!(matches!(
        parse_moves("T", Notation::Woolley),
        Err(NotationError::MissingSuffix { .. })
    ));
    let primed = parse_moves("T+ R'", Notation::Woolley)
        .unwrap_err()
        .to_string();
    assert!(
        primed.ends_with("(the ' of Singmaster's R' is R- here)"),
        "{primed}"
    );
    let thrice = parse_moves("rc3", Notation::Woolley)
        .unwrap_err()
        .to_string();
    assert!(
        thrice.ends_with("(three quarters, RC3, is RC- here)"),
        "{thrice}"
    );
    assert!(matches!(
        parse_moves("Q+", Notation::Woolley),
        Err(NotationError::UnknownMove { .. })
    ));
    let x = parse_moves("x", Notation::Singmaster).unwrap();
    assert!(format_moves(&x, Notation::Woolley).is_err());
}

#[test]
fn singmaster_accepts_compact_and_unicode_forms() {
    let a = parse_moves("RU2F'x2y’", Notation::Singmaster).unwrap();
    assert_eq!(
        format_moves(&a, Notation::Singmaster).unwrap(),
        "R U2 F' x2 y'"
    );
    assert!(matches!(
        parse_moves("R Q", Notation::Singmaster),
        Err(NotationError::UnknownMove { at: 2, .. })
    ));
    let wide = parse_moves("F Rw", Notation::Singmaster)
        .unwrap_err()
        .to_string();
    assert!(
        wide.starts_with("unknown move 'w' in 'Rw' at character 4 (wide"),
        "{wide}"
    );
    let alone = parse_moves("R Q", Notation::Singmaster)
        .unwrap_err()
        .to_string();
    assert!(
        alone.starts_with("unknown move 'Q' at character 3"),
        "{alone}"
    );
}

#[test]
fn a_turn_by_three_quarters_is_the_inverse_and_other_counts_are_refused_by_place() {
    let three = parse_moves("R3 U3' x3", Notation::Singmaster).unwrap();
    let inverse = parse_moves("R' U x'", Notation::Singmaster).unwrap();
    assert_eq!(three, inverse);
    let said = parse_moves("R U4 F", Notation::Singmaster).unwrap_err();
    assert_eq!(
        said.to_string(),
        "move 'U4' at character 3: a turn is by 1, 2 or 3 quarters (U, U2, U3 or U')"
    );
    let said = parse_moves("R Q", Notation::Singmaster).unwrap_err();
    assert_eq!(said.to_string(), "unknown move 'Q' at character 3");
    assert_eq!(
        parse_moves("R1 U", Notation::Singmaster).unwrap(),
        parse_moves("R U", Notation::Singmaster).unwrap()
    );
    // R2' is R2, as often written; two primes or two counts may hide a typo: refused.
    assert_eq!(
        parse_moves("R2' U2’", Notation::Singmaster).unwrap(),
        parse_moves("R2 U2", Notation::Singmaster).unwrap()
    );
    for (text, token) in [
        ("U R''", "R''"),
        ("U R22", "R22"),
        ("U R'2", "R'2"),
        ("U R2'2", "R2'2"),
    ] {
        let said = parse_moves(text, Notation::Singmaster).unwrap_err();
        assert_eq!(
            said.to_string(),
            format!("move '{token}' at character 3: a turn takes one count and at most one prime after it (R, R2, R' or R2'), so '{token}' may hide a typo"),
        );
    }
    let said = parse_moves("R r", Notation::Singmaster)
        .unwrap_err()
        .to_string();
    assert!(said.contains("wide and slice turns are not read"), "{said}");
    let said = parse_moves("T+ U+", Notation::Woolley)
        .unwrap_err()
        .to_string();
    assert!(said.contains("calls the top T"), "{said}");
}

fn any_move(rotations: bool) -> impl Strategy<Value = Move> {
    let n: usize = if rotations { 27 } else { 21 };
    (0..n).prop_map(|k| match k {
        0..18 => Move::Turn(Turn::from_index(k)),
        18..21 => Move::Rotate(Rotation {
            axis: Axis::Y,
            quarters: (k - 17) as u8,
        }),
        _ => Move::Rotate(Rotation {
            axis: if k < 24 { Axis::X } else { Axis::Z },
            quarters: ((k - 21) % 3 + 1) as u8,
        }),
    })
}

proptest! {
    #[test]
    fn singmaster_round_trip(moves in proptest::collection::vec(any_move(true), 0..40)) {
        let text = format_moves(&moves, Notation::Singmaster).unwrap();
        prop_assert_eq!(parse_moves(&text, Notation::Singmaster).unwrap(), moves);
    }

    #[test]
    fn woolley_round_trip(moves in proptest::collection::vec(any_move(false), 0..40)) {
        let text = format_moves(&moves, Notation::Woolley).unwrap();
        prop_assert_eq!(parse_moves(&text, Notation::Woolley).unwrap(), moves);
    }

    #[test]
    fn cubies_and_facelets_round_trip(seed in any::<u64>()) {
        let c = random_cube(&mut ChaCha8Rng::seed_from_u64(seed));
        prop_assert_eq!(CubieCube::from_facelets(&c.to_facelets()), Ok(c));
    }

    #[test]
    fn sequence_then_inverse_is_solved(moves in proptest::collection::vec(any_move(true), 0..30)) {
        let f = FaceletCube::default().apply_all(&moves);
        let back = f.apply_all(&moves::invert_sequence(&moves));
        prop_assert_eq!(back, FaceletCube::default());
    }

    #[test]
    fn facelet_and_cubie_turns_agree(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let moves = random_scramble(&mut rng, 25, false);
        let by_stickers = FaceletCube::default().apply_all(&moves);
        let by_cubies = moves.iter().fold(CubieCube::default(), |c, m| match m {
            Move::Turn(t) => c.turn(*t),
            Move::Rotate(_) => c,
        });
        prop_assert_eq!(by_cubies.to_facelets(), by_stickers);
    }

    #[test]
    fn turns_without_rotations_then_the_rotations_are_the_moves(
        moves in proptest::collection::vec(any_move(true), 0..30)
    ) {
        // A separate witness: the stickers after the moves as given, against the turns in the
        // starting frame followed by every rotation (the rotations alone, in order).
        let turns: Vec<Move> = FaceletCube::turns_without_rotations(&moves)
            .into_iter()
            .map(Move::Turn)
            .collect();
        let rotations: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| matches!(m, Move::Rotate(_)))
            .collect();
        let as_given = FaceletCube::default().apply_all(&moves);
        let turned = FaceletCube::default().apply_all(&turns).apply_all(&rotations);
        prop_assert_eq!(as_given, turned);
    }

    #[test]
    fn rotated_cubes_relabel_to_valid_cubes(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let moves = random_scramble(&mut rng, 25, true);
        let f = FaceletCube::default().apply_all(&moves).relabel_by_centres();
        prop_assert!(CubieCube::from_facelets(&f).is_ok());
    }
}
