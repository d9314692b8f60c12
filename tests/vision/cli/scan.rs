//! `cubed scan` from photos: real and simulated photos read surely or refused (too bright, a face missing, a given grid off, a photo turned in strong light), the grids found shown as corners to give back, frames in name order.

use super::{
    data, same_cube, simulated_folder_lit, too_bright_cube, too_bright_folder, TOO_BRIGHT,
};
use crate::common::{cubed, stderr, stdout};
use cubed::vision::camera::sim::SimLighting;
use std::path::Path;

/// The real photos' white and yellow clip alike in their middles; their rims tell them
/// apart, and the cube is read surely.
#[test]
fn scan_reads_the_real_photos_surely() {
    let photos = data("photos/3x3x3-random-01");
    let out = cubed(&["scan", "--images", &photos, "--format", "json"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let truth = "LBBUURDDRDDLBRFRBDLLFRFRBLURFFLDLDBLURFULFBUUUDFDBFBUR";
    let read = json["facelets"].as_str().expect("facelets");
    assert!(same_cube(read, truth), "{read}");
    // As text, the cube read pipes into `cubed solve --stdin` as one cube.
    let text = stdout(&cubed(&["scan", "--images", &photos], None));
    let solved = cubed(&["solve", "--stdin", "--tables", "small"], Some(&text));
    assert!(solved.status.success(), "{}", stderr(&solved));
    assert_eq!(stdout(&solved).lines().count(), 1, "{}", stdout(&solved));
}

/// Photos under a lamp brighter still: refused, the stickers in doubt named by index and by
/// name alike.
#[test]
fn scan_refuses_photos_too_bright_naming_the_stickers_in_doubt() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cube = too_bright_cube();
    // Under the bench's lamp (x1.3-1.7) the stickers' rims tell this cube's colours apart.
    let bench_lamp = tempfile::tempdir().expect("temp dir");
    let lit = SimLighting::too_bright_for_a_webcam();
    simulated_folder_lit(cube, bench_lamp.path(), lit);
    let folder = bench_lamp.path().to_str().expect("utf8");
    let out = cubed(&["scan", "--images", folder, "--format", "json"], None);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let read = json["facelets"].as_str().unwrap_or_default();
    assert!(same_cube(read, TOO_BRIGHT), "{read}");
    // A little brighter, they do not.
    let lamp = SimLighting {
        exposure: (1.6, 1.9),
        ..SimLighting::too_bright_for_a_webcam()
    };
    simulated_folder_lit(cube, dir.path(), lamp);
    let folder = dir.path().to_str().expect("utf8");
    let out = cubed(&["scan", "--images", folder, "--format", "json"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    // In doubt: close to another reading, or clipped alike.
    let kind = json["error"]["kind"].as_str().unwrap_or_default();
    assert!(matches!(kind, "unsure" | "alike"), "{json}");
    let unsure = json["unsure"].as_array().expect("unsure");
    assert!(!unsure.is_empty());
    // The same stickers by the names the text output gives them (index 5 is U6).
    let names: Vec<String> = unsure
        .iter()
        .map(|s| {
            let i = s.as_u64().expect("index") as usize;
            format!("{}{}", &"URFDLB"[i / 9..i / 9 + 1], i % 9 + 1)
        })
        .collect();
    assert_eq!(json["unsure_names"], serde_json::json!(names));
    assert!(json["best_guess"].as_str().is_some(), "{json}");
    // In text: the refusal on stderr, naming the stickers, the colours in doubt and what to do.
    let out = cubed(&["scan", "--images", folder], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "stdout: {}", stdout(&out));
    let said = stderr(&out);
    for words in [
        format!(
            "{} {}",
            cubed::words::count(names.len(), "sticker", "stickers"),
            names.join(", ")
        ),
        "in doubt, as the best guess reads them: ".to_string(),
        "what to do: they came out too bright (clipped at full".to_string(),
        "best guess".to_string(),
    ] {
        assert!(said.contains(&words), "{words}: {said}");
    }
    assert!(!said.contains("re-capture"), "{said}");
}

#[test]
fn scan_with_a_face_photo_missing_names_the_face_instead_of_reusing_another() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = Path::new(&data("photos/3x3x3-random-01")).to_path_buf();
    for face in ["U", "R", "F", "D", "L"] {
        std::fs::copy(
            source.join(format!("{face}.png")),
            dir.path().join(format!("{face}.png")),
        )
        .expect("copy");
    }
    let out = cubed(
        &[
            "scan",
            "--images",
            dir.path().to_str().expect("utf8"),
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let message = json["error"]["message"].as_str().expect("message");
    assert!(message.contains("face B"), "{message}");
}

/// `--show-grids` says the grid found in each photo as `--corners` (and `[camera] grid`) takes
/// it for that face: given back, all six or one, it reads the same cube; a face's corners given
/// anticlockwise (a mirrored face) are refused.
#[test]
fn scan_shows_the_grids_it_found_as_corners_to_give_back() {
    let dir = too_bright_folder();
    let dirname = dir.path().to_str().expect("utf8");
    let out = cubed(&["scan", "--images", dirname, "--show-grids"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = stderr(&out);
    let lines: Vec<&str> = said
        .lines()
        .filter(|l| l.starts_with("grid of face"))
        .collect();
    assert_eq!(lines.len(), 6, "{said}");
    let given: Vec<String> = (lines.iter())
        .map(|l| l.split('"').nth(1).expect("quoted corners").to_string())
        .collect();
    let scan = |corners: &[String]| {
        let mut args = vec!["scan", "--images", dirname, "--format", "json"];
        for c in corners {
            args.extend(["--corners", c.as_str()]);
        }
        cubed(&args, None)
    };
    let reads_the_cube = |corners: &[String]| {
        let out = scan(corners);
        assert!(out.status.success(), "{corners:?}: {}", stdout(&out));
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
        assert!(same_cube(
            json["facelets"].as_str().expect("facelets"),
            TOO_BRIGHT
        ));
    };
    reads_the_cube(&given);
    reads_the_cube(&given[2..3]);
    let (face, corners) = given[0].split_once('=').expect("U=…");
    assert_eq!(face, "U", "{}", lines[0]);
    // The same corners as `[camera] grid` takes them.
    let toml_form = lines[0]
        .split("([camera] ")
        .nth(1)
        .expect("the config form");
    let table: toml::Table = toml_form.trim_end_matches(')').parse().expect("TOML");
    let grid: Vec<Vec<f64>> = table["grid"].clone().try_into().expect("four points");
    let said: Vec<f64> = (corners.split([' ', ',']))
        .map(|n| n.parse().expect("a number"))
        .collect();
    assert_eq!(grid.concat(), said, "{toml_form}");
    let mut points: Vec<&str> = corners.split(' ').collect();
    points.reverse();
    let out = scan(&[format!("U={}", points.join(" "))]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("anticlockwise"), "{}", stdout(&out));
}

/// One face's grid given off its stickers, the others found: the refusal names that face as
/// the one whose grid was given. A face given twice, a name that is no face, or two grids for
/// every photo are refused saying so.
#[test]
fn a_grid_given_for_one_face_is_named_when_the_photos_are_refused() {
    let dir = too_bright_folder();
    let images = dir.path().to_str().expect("utf8");
    let (w, h) = image::image_dimensions(dir.path().join("F.png")).expect("a photo");
    let quarter = format!("0,0 {},0 {},{} 0,{}", w / 2, w / 2, h / 2, h / 2);
    let off = cubed(
        &[
            "scan",
            "--images",
            images,
            "--corners",
            &format!("f={quarter}"),
        ],
        None,
    );
    assert_eq!(off.status.code(), Some(2), "{}", stderr(&off));
    assert!(
        stderr(&off)
            .contains("check the grid given for face F (--corners; the others' were found)"),
        "{}",
        stderr(&off)
    );
    for (corners, words) in [
        (
            vec![format!("F={quarter}"), format!("F={quarter}")],
            "face F's corners were already given",
        ),
        (
            vec![format!("X={quarter}")],
            "\"X\" before '=' is not a face",
        ),
        (
            vec![quarter.clone(), quarter.clone()],
            "the corners for every photo were already given",
        ),
        (
            vec!["F=1,2 3,4".to_string()],
            "face F: --corners needs 4 points",
        ),
    ] {
        let mut args = vec!["scan", "--images", images];
        for c in &corners {
            args.extend(["--corners", c.as_str()]);
        }
        let out = cubed(&args, None);
        assert_eq!(out.status.code(), Some(2), "{corners:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(words), "{words}: {}", stderr(&out));
    }
}

/// Six photos named after no face are read in name order, and the command says which file it
/// took as which face; a photo with something over a sticker is refused, and `--show-grids`
/// then still shows each photo's grid (the one in doubt among them).
#[test]
fn frames_in_name_order_are_said_and_a_refusal_still_shows_the_grids() {
    let dir = too_bright_folder();
    let frames = tempfile::tempdir().expect("temp dir");
    for (n, face) in ["U", "R", "F", "D", "L", "B"].iter().enumerate() {
        let from = dir.path().join(format!("{face}.png"));
        std::fs::copy(&from, frames.path().join(format!("shot-{}.png", n + 1))).expect("copy");
    }
    let framed = frames.path().to_str().expect("utf8");
    let out = cubed(&["scan", "--images", framed], None);
    let said = stderr(&out);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("read in name order, shot-1.png as U, shot-2.png as R")
            && said.contains("shot-6.png as B"),
        "{said}"
    );
    let named = cubed(
        &["scan", "--images", dir.path().to_str().expect("utf8")],
        None,
    );
    assert_eq!(stdout(&out), stdout(&named), "the same cube either way");
    assert!(!stderr(&named).contains("name order"), "{}", stderr(&named));

    // A grey card over half of face F's photo.
    let f = dir.path().join("F.png");
    let mut photo = image::open(&f).expect("photo").to_rgb8();
    let (w, h) = photo.dimensions();
    for y in h / 2..h {
        for x in 0..w / 2 {
            photo.put_pixel(x, y, image::Rgb([128, 128, 128]));
        }
    }
    photo.save(&f).expect("saved");
    let images = dir.path().to_str().expect("utf8");
    let refused = cubed(&["scan", "--images", images], None);
    assert_eq!(refused.status.code(), Some(2), "{}", stderr(&refused));
    let shown = cubed(&["scan", "--images", images, "--show-grids"], None);
    assert_eq!(shown.status.code(), Some(2), "{}", stderr(&shown));
    let said = stderr(&shown);
    let grid_lines: Vec<&str> = said
        .lines()
        .filter(|l| l.starts_with("grid of face"))
        .collect();
    assert_eq!(grid_lines.len(), 6, "{said}");
    assert!(
        grid_lines.iter().any(|l| l.starts_with("grid of face F")),
        "{said}"
    );
}

/// A grid given off the stickers reads a cube that is not there: the refusal says the grid was
/// given, not only what is wrong with the cube.
#[test]
fn a_refusal_with_a_given_grid_says_the_grid_may_be_off() {
    let dir = too_bright_folder();
    let images = dir.path().to_str().expect("utf8");
    let found = cubed(&["scan", "--images", images], None);
    assert!(found.status.success(), "{}", stderr(&found));
    assert!(!stderr(&found).contains("the grid was given"));
    let (w, h) = image::image_dimensions(dir.path().join("U.png")).expect("a photo");
    // The top-left quarter of each photo: mostly not the face's stickers.
    let corners = format!("0,0 {},0 {},{} 0,{}", w / 2, w / 2, h / 2, h / 2);
    let off = cubed(&["scan", "--images", images, "--corners", &corners], None);
    assert_eq!(off.status.code(), Some(2), "{}", stderr(&off));
    assert!(
        stderr(&off).contains("check the grid given for every photo (--corners or a grid file)"),
        "{}",
        stderr(&off)
    );
}

/// The real photo set, strongly lit (its whites and yellows clip, yet it reads sure), with face
/// F's photo turned a quarter: the refusal names the photo that reads as a sure cube once
/// turned back first, and the light's advice (the clipped stickers look alike) only after.
#[test]
fn a_turned_photo_in_strong_light_is_named_before_the_light() {
    let dir = tempfile::tempdir().expect("temp dir");
    let shipped = Path::new(&data("photos/3x3x3-random-01")).to_path_buf();
    for face in ["U", "R", "F", "D", "L", "B"] {
        let name = format!("{face}.png");
        std::fs::copy(shipped.join(&name), dir.path().join(&name)).expect("copied");
    }
    let f = dir.path().join("F.png");
    let turned = image::imageops::rotate90(&image::open(&f).expect("photo").to_rgb8());
    turned.save(&f).expect("saved");
    let out = cubed(
        &["scan", "--images", dir.path().to_str().expect("utf8")],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let said = stderr(&out);
    let photo = said.find("what to do: the photo of face F was likely taken turned a quarter turn");
    let light = said.find("otherwise: they came out too bright");
    assert!(
        matches!((photo, light), (Some(p), Some(l)) if p < l),
        "{said}"
    );
}
