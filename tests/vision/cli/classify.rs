//! `cubed classify`: facelets and confidence as JSON or text, the readings dumped, and its refusals with exit status 2 (unsure, broken, turned, a least confidence never reached, in text on stderr).

use super::{data, same_cube};
use crate::common::{cubed, stderr, stdout};
use std::path::Path;

#[test]
fn classify_prints_facelets_and_confidence_as_json_and_dumps_the_readings() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dump = dir.path().join("dump.json");
    let out = cubed(
        &[
            "classify",
            "--scan",
            &data("scans/3x3x3-superflip.json"),
            "--format",
            "json",
            "--dump",
            dump.to_str().expect("utf8"),
        ],
        None,
    );
    assert!(out.status.success(), "{}", stdout(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let facelets = json["facelets"].as_str().expect("facelets");
    assert!(
        same_cube(
            facelets,
            "UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB"
        ),
        "{facelets}"
    );
    assert_eq!(json["confidence"].as_array().expect("confidence").len(), 54);
    let again = cubed(
        &[
            "classify",
            "--scan",
            dump.to_str().expect("utf8"),
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(stdout(&again), stdout(&out), "the dump reproduces the run");
}

#[test]
fn an_unsure_reading_is_refused_with_the_sticker_list_and_exit_2() {
    let out = cubed(
        &[
            "classify",
            "--scan",
            &data("scans/3x3x3-random-02.json"),
            "--format",
            "json",
            "--min-confidence",
            "0.99999994",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert_eq!(json["error"]["kind"], "unsure");
    let unsure = json["unsure"].as_array().expect("unsure");
    let centre = |s: &serde_json::Value| s.as_u64().is_none_or(|i| i % 9 == 4 || i >= 54);
    assert!(
        !unsure.is_empty() && !unsure.iter().any(centre),
        "stickers, never a centre: {unsure:?}"
    );
    let names = json["unsure_names"].as_array().expect("names");
    assert_eq!(names.len(), unsure.len());
}

#[test]
fn a_broken_scan_or_palette_is_refused_with_exit_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, r#"{"faces": {"U": [[1,2,3]]}}"#).expect("write");
    let out = cubed(
        &[
            "classify",
            "--scan",
            bad.to_str().expect("utf8"),
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("invalid_scan"), "{}", stdout(&out));
    let palette = dir.path().join("palette.toml");
    std::fs::write(&palette, "[[colour]]\nname = \"x\"\n").expect("write");
    let out = cubed(
        &[
            "classify",
            "--scan",
            &data("scans/3x3x3-cross.json"),
            "--palette",
            palette.to_str().expect("utf8"),
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("invalid_palette"), "{}", stdout(&out));
}

#[test]
fn a_refusal_in_text_goes_to_stderr_and_names_what_is_wrong() {
    let out = cubed(&["classify", "--scan", "/nonexistent/scan.json"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).is_empty(), "stdout: {}", stdout(&out));
    assert!(
        stderr(&out).starts_with("refused: ")
            && stderr(&out).contains("/nonexistent/scan.json")
            && !stderr(&out).contains("invalid_scan"),
        "{}",
        stderr(&out)
    );
    // --corners alone means the configured grid, and a short list says what it got.
    let photos = data("photos/3x3x3-random-01");
    let out = cubed(&["scan", "--images", &photos, "--corners", "1,2 3,4"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).starts_with("refused: ") && stderr(&out).contains("got 4 numbers, 2 points"),
        "{}",
        stderr(&out)
    );
}

/// Any six symbols: a palette with non-ASCII ones prints each face's nine stickers whole.
#[test]
fn classify_prints_a_palette_of_any_symbols_face_by_face() {
    let dir = tempfile::tempdir().expect("temp dir");
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/palette.toml");
    let text = std::fs::read_to_string(shipped).expect("the shipped palette");
    let palette = dir.path().join("palette.toml");
    let text = text
        .replace("symbol = \"W\"", "symbol = \"é\"")
        .replace("symbol = \"Y\"", "symbol = \"★\"");
    std::fs::write(&palette, text).expect("palette written");
    let scan = data("scans/3x3x3-random-01.json");
    let palette = palette.to_str().expect("utf8");
    let out = cubed(&["classify", "--scan", &scan, "--palette", palette], None);
    assert!(out.status.success(), "{}", stderr(&out));
    // The facelets alone on standard output (to pipe on); the faces for the person on stderr.
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    let symbols: Vec<char> = text.trim_end().chars().collect();
    assert_eq!(symbols.len(), 54, "{text}");
    assert!(symbols.contains(&'é') && symbols.contains(&'★'), "{text}");
    let said = stderr(&out);
    let mut lines = said.lines().filter(|l| l.starts_with("  "));
    for (face, letter) in "URFDLB".chars().enumerate() {
        let row = lines.next().expect("a face's row");
        let nine: String = symbols[face * 9..face * 9 + 9].iter().collect();
        let want: Vec<String> = nine
            .chars()
            .collect::<Vec<_>>()
            .chunks(3)
            .map(|c| c.iter().collect())
            .collect();
        assert_eq!(row, format!("  {letter} {}", want.join(" ")), "{text}");
    }
}

/// A least confidence of 1 can never be met (no reading is certain): refused as an argument,
/// not answered with every sticker in doubt.
#[test]
fn a_least_confidence_of_one_is_refused_as_never_reached() {
    let scan = data("scans/3x3x3-random-05.json");
    let out = cubed(
        &["classify", "--scan", &scan, "--min-confidence", "1"],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let said = stderr(&out);
    assert!(
        said.contains("--min-confidence 1 is outside 0..1") && said.contains("never reached"),
        "{said}"
    );
    let near = cubed(
        &["classify", "--scan", &scan, "--min-confidence", "0.999"],
        None,
    );
    assert!(near.status.success(), "{}", stderr(&near));
}

/// A photo turned by mistake (the F face's nine readings a quarter turn anticlockwise): the
/// refusal says which photo reads sure once turned back, and how.
#[test]
fn a_face_read_turned_is_refused_naming_the_photo_and_the_turn_that_reads_sure() {
    let dir = tempfile::tempdir().expect("temp dir");
    let text = std::fs::read_to_string(data("scans/3x3x3-random-05.json")).expect("scan");
    let mut scan: serde_json::Value = serde_json::from_str(&text).expect("json");
    let face = scan["faces"]["F"].as_array().expect("F readings").clone();
    // Anticlockwise: the sticker at (row, column) comes from (column, 2 - row).
    let turned: Vec<serde_json::Value> = (0..9)
        .map(|i| face[(i % 3) * 3 + (2 - i / 3)].clone())
        .collect();
    scan["faces"]["F"] = serde_json::Value::Array(turned);
    let path = dir.path().join("turned.json");
    std::fs::write(&path, scan.to_string()).expect("written");
    let out = cubed(&["classify", "--scan", path.to_str().expect("utf8")], None);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let said = stderr(&out);
    assert!(
        said.contains("what to do: the photo of face F was likely taken turned a quarter turn anticlockwise: turned back (a quarter turn clockwise) it reads as a sure cube")
            && said.contains("otherwise: "),
        "{said}"
    );
    // The scan as it was has no such words.
    let right = cubed(
        &["classify", "--scan", &data("scans/3x3x3-random-05.json")],
        None,
    );
    assert!(right.status.success(), "{}", stderr(&right));
}
