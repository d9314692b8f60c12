//! `cubed solve --steps`, read as a person reads it: the nets drawn are the cube typed, each
//! step changes only the layer its words name, and the last net is solved.

use crate::common::{cubed, stderr, stdout};

/// Face letters as colours, so that nothing in the output can pass for a face's name.
fn in_colours(urfdlb: &str) -> String {
    urfdlb
        .chars()
        .map(|c| match c {
            'U' => 'W',
            'R' => 'R',
            'F' => 'G',
            'D' => 'Y',
            'L' => 'O',
            _ => 'B',
        })
        .collect()
}

/// A drawn net: each sticker by its (row, column) in the net's grid of stickers.
type Net = Vec<((usize, usize), char)>;

/// The nets of the output, in order: runs of lines indented by four spaces.
fn nets(text: &str) -> Vec<Net> {
    let mut found = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in text.lines().chain([""]) {
        match line.strip_prefix("    ") {
            Some(row) => current.push(row),
            None if !current.is_empty() => found.push(std::mem::take(&mut current)),
            None => {}
        }
    }
    let cells = |rows: Vec<&str>| -> Net {
        (rows.iter().enumerate())
            .flat_map(|(r, row)| {
                (row.char_indices())
                    .filter(|(_, c)| *c != ' ')
                    .map(move |(i, c)| ((r, i / 2), c))
            })
            .collect()
    };
    found.into_iter().map(cells).collect()
}

/// The stickers of a net in URFDLB order, each face row by row.
fn facelets(net: &Net, n: usize) -> String {
    let at = |r: usize, c: usize| {
        net.iter()
            .find(|(p, _)| *p == (r, c))
            .map_or('?', |(_, s)| *s)
    };
    // Where each face's top-left sticker is drawn.
    let corners = [(0, n), (n, 2 * n), (n, n), (2 * n, n), (n, 0), (n, 3 * n)];
    (corners.iter())
        .flat_map(|&(r0, c0)| (0..n * n).map(move |i| (r0 + i / n, c0 + i % n)))
        .map(|(r, c)| at(r, c))
        .collect()
}

/// Whether the sticker drawn at (r, c) of a 3x3 net moves when `face` turns: its own
/// stickers, and the row or column of each neighbour that touches it.
fn in_layer(face: &str, (r, c): (usize, usize)) -> bool {
    let belt = (3..6).contains(&r);
    match face {
        "top" => r <= 3,
        "bottom" => r >= 5,
        "front" => (belt && (2..=6).contains(&c)) || r == 2 || r == 6,
        "back" => (belt && (c >= 8 || c == 0)) || r == 0 || r == 8,
        "left" => (belt && (c <= 3 || c == 11)) || (!belt && c == 3),
        "right" => (belt && (5..=9).contains(&c)) || (!belt && c == 5),
        _ => false,
    }
}

/// Each step line's move and face name: `step 3 of 19: R-, turn the right face …`.
fn steps(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|l| l.strip_prefix("step "))
        .filter_map(|l| l.split_once(": "))
        .filter_map(|(_, rest)| {
            let (written, words) = rest.split_once(", turn the ")?;
            let face = words.split(' ').next()?.to_string();
            Some((written.to_string(), face))
        })
        .collect()
}

#[test]
fn solve_steps_draw_the_cube_typed_and_each_step_turns_the_layer_it_names() {
    let scramble = stdout(&cubed(&["scramble", "--seed", "21"], None));
    let cube = in_colours(scramble.trim());
    let args = [
        "solve",
        "--tables",
        "small",
        "--steps",
        "--notation",
        "woolley",
        &cube,
    ];
    let out = cubed(&args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let solution: Vec<&str> = text.lines().next().unwrap_or("").split(' ').collect();
    assert!(
        text.lines()
            .any(|l| l == "hold the cube with the centre coloured 'W' on top and the centre coloured 'G' facing you:"),
        "{text}"
    );
    let (nets, steps) = (nets(&text), steps(&text));
    assert_eq!(steps.len(), solution.len(), "{text}");
    assert_eq!(nets.len(), steps.len() + 1, "{text}");
    assert_eq!(
        facelets(&nets[0], 3),
        cube,
        "the first net is the cube typed"
    );
    let letters = [("T", "top"), ("F", "front"), ("R", "right")]
        .into_iter()
        .chain([("P", "back"), ("L", "left"), ("B", "bottom")]);
    let names: std::collections::HashMap<&str, &str> = letters.collect();
    for (i, ((written, face), pair)) in steps.iter().zip(nets.windows(2)).enumerate() {
        assert_eq!(written, solution[i], "step {}: {text}", i + 1);
        assert_eq!(names[&written[..1]], face, "step {} words", i + 1);
        let changed: Vec<(usize, usize)> = (pair[0].iter().zip(&pair[1]))
            .filter(|(a, b)| a.1 != b.1)
            .map(|(a, _)| a.0)
            .collect();
        assert!(!changed.is_empty(), "step {} changed nothing", i + 1);
        let outside: Vec<_> = changed.iter().filter(|p| !in_layer(face, **p)).collect();
        assert!(
            outside.is_empty(),
            "step {} ({written}, the {face} face) moved stickers outside its layer: {outside:?}",
            i + 1
        );
    }
    let last = facelets(nets.last().expect("a net"), 3);
    assert!(
        (last.as_bytes().chunks(9)).all(|f| f.iter().all(|&c| c == f[0])),
        "the last net is not solved: {last}"
    );
    assert!(text.lines().any(|l| l == "solved"), "{text}");
}

#[test]
fn solve_steps_in_json_and_for_a_pocket_cube_end_solved() {
    let scramble = stdout(&cubed(&["scramble", "--size", "2", "--seed", "4"], None));
    let cube = scramble.trim();
    let text = stdout(&cubed(&["solve", "--size", "2", "--steps", cube], None));
    let drawn = nets(&text);
    assert_eq!(facelets(&drawn[0], 2), cube, "{text}");
    let last = facelets(drawn.last().expect("a net"), 2);
    assert!(
        (last.as_bytes().chunks(4)).all(|f| f.iter().all(|&c| c == f[0])),
        "{text}"
    );
    assert!(text.contains("hold the cube with the corner of"), "{text}");
    let json = cubed(
        &["solve", "--size", "2", "--steps", "--format", "json", cube],
        None,
    );
    let row: serde_json::Value = serde_json::from_str(&stdout(&json)).expect("one JSON row");
    let rows = row["steps"].as_array().expect("steps");
    assert_eq!(
        rows.len(),
        row["moves"].as_u64().unwrap_or(0) as usize,
        "{row}"
    );
    assert_eq!(
        rows.last().map(|s| s["cube"].clone()),
        Some(last.into()),
        "{row}"
    );
    assert!(rows[0]["words"]
        .as_str()
        .unwrap_or("")
        .starts_with("turn the "));
}

/// `--order` given: each step's `cube` in the JSON is in the order typed, as `facelets` is,
/// and is the net the text draws after that step (the text's nets read back by the test's
/// own net reader, in URFDLB, then put in the typed order here).
#[test]
fn solve_steps_in_json_keep_the_order_the_cube_was_typed_in() {
    let urfdlb = stdout(&cubed(&["scramble", "--seed", "21"], None));
    let in_order = |order: &str, cube: &str| -> String {
        (order.chars())
            .flat_map(|f| {
                let at = "URFDLB".find(f).expect("a face letter") * 9;
                cube[at..at + 9].chars().collect::<Vec<_>>()
            })
            .collect()
    };
    for order in ["ULFRBD", "TFRPLB"] {
        let faces = if order == "TFRPLB" { "UFRBLD" } else { order };
        let typed = in_order(faces, urfdlb.trim());
        let text = stdout(&cubed(
            &["solve", "--steps", "--order", order, &typed],
            None,
        ));
        let drawn = nets(&text);
        let args = [
            "solve", "--steps", "--format", "json", "--order", order, &typed,
        ];
        let row: serde_json::Value =
            serde_json::from_str(&stdout(&cubed(&args, None))).expect("one JSON row");
        let rows = row["steps"].as_array().expect("steps");
        assert_eq!(rows.len() + 1, drawn.len(), "{text}");
        for (step, net) in rows.iter().zip(&drawn[1..]) {
            let expected = in_order(faces, &facelets(net, 3));
            assert_eq!(step["cube"].as_str(), Some(expected.as_str()), "{order}");
        }
    }
}
