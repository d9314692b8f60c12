//! Tests of cubes typed in another face order than URFDLB: stickers put where the order reads them from, and a refused cube's stickers also named by where they were typed.

use super::tests::{err, with, SOLVED};
use super::*;

/// Putting URFDLB symbols in an order and reading them back from it gives them unchanged, and
/// each sticker's index as given is where that order puts it (3x3 and 2x2).
#[test]
fn a_face_order_puts_stickers_where_it_reads_them_from() {
    for order in [FaceOrder::Urfdlb, FaceOrder::Ulfrbd, FaceOrder::Tfrplb] {
        let urfdlb: Vec<char> = (0..54u8).map(|i| char::from(b'0' + i)).collect();
        let given: Vec<char> = order
            .from_urfdlb(&urfdlb.iter().collect::<String>())
            .chars()
            .collect();
        let given: [char; 54] = given.try_into().expect("54 symbols");
        assert_eq!(order.to_urfdlb(&given).to_vec(), urfdlb, "{order:?}");
        for (s, symbol) in urfdlb.iter().enumerate() {
            assert_eq!(given[order.index_as_given(s, 9)], *symbol, "{order:?} {s}");
        }
        let pocket: String = (0..24u8).map(|i| char::from(b'a' + i)).collect();
        let given: Vec<char> = order.from_urfdlb(&pocket).chars().collect();
        for (s, symbol) in pocket.chars().enumerate() {
            assert_eq!(given[order.index_as_given(s, 4)], symbol, "{order:?} {s}");
        }
    }
}

/// A piece no cube has, in a cube typed in the 1988 order, is also named by where its
/// stickers were typed (the names are URFDLB's); typed URFDLB, the names say it alone.
#[test]
fn a_bad_piece_typed_in_another_order_says_its_indexes_as_given() {
    // U9 and R1 swapped: the URF corner's stickers in the other order round it.
    let bad = with(SOLVED, &[(8, 'R'), (9, 'U')]);
    let said = err(&bad).to_string();
    assert!(said.contains("(stickers U9, R1, F3) has"), "{said}");
    let typed = FaceOrder::Tfrplb.from_urfdlb(&bad);
    let said = parse_cube(&typed, FaceOrder::Tfrplb, None)
        .unwrap_err()
        .to_string();
    assert!(
        said.contains("(stickers U9, R1, F3; indexes 8, 18, 11 as given)"),
        "{said}"
    );
    let chars: Vec<char> = typed.chars().collect();
    assert_eq!((chars[8], chars[18], chars[11]), ('R', 'U', 'F'));
}

/// The indexes as given a refusal names, read back from its words.
fn indexes_said(said: &str) -> Vec<usize> {
    let list = said
        .split("; indexes ")
        .nth(1)
        .and_then(|rest| rest.split(" as given").next());
    (list.unwrap_or_default().split(", "))
        .filter_map(|n| n.parse().ok())
        .collect()
}

/// A corner twisted or an edge flipped in place, typed in the 1988 order: the piece named is
/// also said by where its stickers were typed, and the symbols there are that piece's.
#[test]
fn a_twist_or_flip_typed_in_another_order_says_its_indexes_as_given() {
    for (changes, stickers, piece) in [
        (
            &[(8, 'F'), (9, 'U'), (20, 'R')][..],
            "stickers U9, R1, F3",
            "FUR",
        ),
        (&[(5, 'R'), (10, 'U')][..], "stickers U6, R2", "RU"),
    ] {
        let bad = with(SOLVED, changes);
        let plain = err(&bad).to_string();
        assert!(plain.contains(&format!("({stickers})")), "{plain}");
        let typed = FaceOrder::Tfrplb.from_urfdlb(&bad);
        let said = parse_cube(&typed, FaceOrder::Tfrplb, None)
            .unwrap_err()
            .to_string();
        assert!(said.contains(&format!("({stickers}; indexes ")), "{said}");
        let chars: Vec<char> = typed.chars().collect();
        let at: String = indexes_said(&said).iter().map(|&i| chars[i]).collect();
        assert_eq!(at, piece, "{said}");
    }
}
