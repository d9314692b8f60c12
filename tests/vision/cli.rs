//! The vision commands through the real binary: classify, scan (auto and configured grid), calibrate, refusals with exit status 2.

use crate::common::{cubed, stderr, stdout};
use cubed::cube::{FaceOrder, FaceletCube};
use cubed::vision::camera::sim::{SimCamera, SimLighting, SimScene};
use cubed::vision::camera::{Camera, CaptureRequest};
use std::path::Path;

fn data(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/vision")
        .join(path)
        .display()
        .to_string()
}

fn same_cube(symbols: &str, expected: &str) -> bool {
    let ours = FaceletCube::parse(symbols, FaceOrder::Urfdlb, None)
        .expect("legal output")
        .0;
    ours == FaceletCube::parse(expected, FaceOrder::Urfdlb, None)
        .expect("legal")
        .0
}

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

/// A cube under a lamp too bright for a webcam whose highlights fade to white.
const TOO_BRIGHT: &str = "DURUULDBRFDFLRRLFBRLUUFFUFFLRUDDDRRDLBBDLLBBBDFFBBRLUU";

/// Photos under a lamp brighter still: refused, the stickers in doubt named by index and by
/// name alike.
#[test]
fn scan_refuses_photos_too_bright_naming_the_stickers_in_doubt() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cube = FaceletCube::parse(TOO_BRIGHT, FaceOrder::Urfdlb, None)
        .expect("legal")
        .0;
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
        format!("sticker(s) {}", names.join(", ")),
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

/// Six simulated photos of `cube` written as U.png … B.png.
fn simulated_folder(cube: FaceletCube, dir: &Path) {
    simulated_folder_lit(cube, dir, SimLighting::default());
}

/// Six simulated photos of `cube` under `lighting`, written as U.png … B.png.
fn simulated_folder_lit(cube: FaceletCube, dir: &Path, lighting: SimLighting) {
    let mut camera = SimCamera::new(5, lighting);
    *camera.scene().lock().expect("scene") = SimScene {
        cube,
        ..SimScene::default()
    };
    for face in cubed::cube::Face::ALL {
        let image = camera
            .capture(&CaptureRequest {
                camera: 0,
                face,
                image_rotation: 0,
                exposure: cubed::vision::camera::Exposure::NORMAL,
            })
            .expect("render");
        image.save(dir.join(format!("{face}.png"))).expect("save");
    }
}

#[test]
fn scan_with_the_configured_grid_and_calibrate_from_a_solved_cube() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cube = FaceletCube::parse(
        "DURUULDBRFDFLRRLFBRLUUFFUFFLRUDDDRRDLBBDLLBBBDFFBBRLUU",
        FaceOrder::Urfdlb,
        None,
    )
    .expect("legal")
    .0;
    simulated_folder(cube, dir.path());
    let dirname = dir.path().to_str().expect("utf8");
    let out = cubed(
        &[
            "scan",
            "--images",
            dirname,
            "--grid",
            "config",
            "--corners",
            "170,90 470,90 470,390 170,390",
            "--format",
            "json",
        ],
        None,
    );
    assert!(out.status.success(), "{}", stdout(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    let read = FaceletCube::parse(
        json["facelets"].as_str().expect("facelets"),
        FaceOrder::Urfdlb,
        None,
    )
    .expect("legal")
    .0;
    assert_eq!(read, cube);

    let solved = tempfile::tempdir().expect("temp dir");
    simulated_folder(FaceletCube::default(), solved.path());
    let written = solved.path().join("palette.toml");
    let out = cubed(
        &[
            "calibrate",
            "--images",
            solved.path().to_str().expect("utf8"),
            "--output",
            written.to_str().expect("utf8"),
        ],
        None,
    );
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out).contains("before"), "{}", stdout(&out));
    assert!(
        !stdout(&out).contains("held another way"),
        "{}",
        stdout(&out)
    );
    cubed::vision::light::palette::load_palette(&written).expect("the written palette loads");
    // A palette the daemon would not read with is said so, with how to make it the one.
    assert!(
        stderr(&out).contains("note: the daemon reads with")
            && stderr(&out).contains("[vision] palette"),
        "{}",
        stderr(&out)
    );
    let data_dir = solved.path().to_str().expect("utf8");
    let into_data_dir = cubed(
        &[
            "calibrate",
            "--images",
            data_dir,
            "--output",
            written.to_str().expect("utf8"),
            "--data-dir",
            data_dir,
        ],
        None,
    );
    assert!(into_data_dir.status.success(), "{}", stderr(&into_data_dir));
    assert!(
        !stderr(&into_data_dir).contains("note:"),
        "{}",
        stderr(&into_data_dir)
    );
    // A real scan of a solved cube held upside down: the table says where each colour was
    // seen, and that the palette keeps each colour's home face.
    let scan = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/vision/scans/3x3x3-solved-01.json"
    );
    let args = [
        "calibrate",
        "--scan",
        scan,
        "--output",
        written.to_str().expect("utf8"),
    ];
    let out = cubed(&args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("held another way"),
        "{}",
        stdout(&out)
    );
    let palette = cubed::vision::light::palette::load_palette(&written).expect("loads");
    let white = palette
        .colours
        .iter()
        .find(|c| c.name == "white")
        .expect("white");
    assert_eq!(
        white.home,
        cubed::cube::Face::U,
        "the palette keeps white on U"
    );
    let refused = cubed(
        &[
            "calibrate",
            "--images",
            dirname,
            "--output",
            written.to_str().expect("utf8"),
        ],
        None,
    );
    assert_eq!(
        refused.status.code(),
        Some(2),
        "a scrambled cube cannot calibrate: {}",
        stderr(&refused)
    );
    // After the notice of the palette used ("cubed: palette …"), the refusal.
    let first_word = stderr(&refused)
        .lines()
        .find(|l| !l.starts_with("cubed: "))
        .map(str::to_string);
    assert!(
        first_word.is_some_and(|l| l.starts_with("invalid: ")),
        "{}",
        stderr(&refused)
    );
    // A palette that cannot be read is the person's input too: exit 2, named.
    let broken = solved.path().join("broken.toml");
    std::fs::write(&broken, "[[colour]]\nname = \"x\"\n").expect("write");
    let out = cubed(
        &[
            "calibrate",
            "--images",
            solved.path().to_str().expect("utf8"),
            "--palette",
            broken.to_str().expect("utf8"),
            "--output",
            written.to_str().expect("utf8"),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("broken.toml"), "{}", stderr(&out));
}

/// `calibrate --output` never writes over a file that is not a palette (a configuration named
/// by mistake is kept, byte for byte) nor into a directory that does not exist; over an old
/// palette it writes.
#[test]
fn calibrate_from_two_neighbouring_faces_photos_swapped_is_refused_and_writes_nothing() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/photos/solved-3x3");
    let dir = tempfile::tempdir().expect("temp dir");
    for face in "URFDLB".chars() {
        // R's photo saved as F's, and F's as R's.
        let from = match face {
            'R' => 'F',
            'F' => 'R',
            other => other,
        };
        let to = dir.path().join(format!("{face}.jpg"));
        std::fs::copy(shipped.join(format!("{from}.jpg")), to).expect("copied");
    }
    let written = dir.path().join("palette.toml");
    let args = ["calibrate", "--images", dir.path().to_str().expect("utf8")];
    let out = cubed(
        &[&args[..], &["--output", written.to_str().expect("utf8")]].concat(),
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("the photos of faces R and F were likely swapped"),
        "{}",
        stderr(&out)
    );
    assert!(!written.exists(), "no palette is written");
}

#[test]
fn calibrate_keeps_a_file_that_is_not_a_palette_and_refuses_a_missing_directory() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("cubed.toml");
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/cubed.toml");
    std::fs::copy(&shipped, &config).expect("copy the config");
    let solved = data("scans/3x3x3-solved-01.json");
    let calibrate_into = |output: &Path| {
        let output = output.to_str().expect("utf8");
        cubed(&["calibrate", "--scan", &solved, "--output", output], None)
    };
    let out = calibrate_into(&config);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    for words in ["cubed.toml", "is not a palette", "daemon's configuration"] {
        assert!(stderr(&out).contains(words), "{words}: {}", stderr(&out));
    }
    let kept = std::fs::read(&config).expect("read");
    assert_eq!(
        kept,
        std::fs::read(&shipped).expect("read"),
        "the config is kept"
    );
    let out = calibrate_into(&dir.path().join("typo/palette.toml"));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("does not exist"), "{}", stderr(&out));
    assert!(!dir.path().join("typo").exists(), "no directory is made");
    let palette = dir.path().join("palette.toml");
    for round in ["new", "over the old palette"] {
        let out = calibrate_into(&palette);
        assert_eq!(out.status.code(), Some(0), "{round}: {}", stderr(&out));
    }
}

/// `--show-grids` says the grid found in each photo as `--corners` (and `[camera] grid`) takes
/// it: given back, it reads the same cube; the same corners given anticlockwise (a mirrored face) are refused.
#[test]
fn scan_shows_the_grids_it_found_as_corners_to_give_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cube = FaceletCube::parse(TOO_BRIGHT, FaceOrder::Urfdlb, None)
        .expect("legal")
        .0;
    simulated_folder(cube, dir.path());
    let dirname = dir.path().to_str().expect("utf8");
    let out = cubed(&["scan", "--images", dirname, "--show-grids"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let said = stderr(&out);
    let lines: Vec<&str> = said
        .lines()
        .filter(|l| l.starts_with("grid of face"))
        .collect();
    assert_eq!(lines.len(), 6, "{said}");
    let corners = lines[0]
        .split('"')
        .nth(1)
        .expect("quoted corners")
        .to_string();
    let scan = |corners: &str| {
        let args = [
            "scan",
            "--images",
            dirname,
            "--corners",
            corners,
            "--format",
            "json",
        ];
        cubed(&args, None)
    };
    let out = scan(&corners);
    assert!(out.status.success(), "{corners}: {}", stdout(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("json");
    assert!(same_cube(
        json["facelets"].as_str().expect("facelets"),
        TOO_BRIGHT
    ));
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
    let out = scan(&points.join(" "));
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).contains("anticlockwise"), "{}", stdout(&out));
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
        stderr(&out).starts_with("refused: ") && stderr(&out).contains("2 point(s)"),
        "{}",
        stderr(&out)
    );
}

/// Without the `camera` feature a webcam is a build choice to change: exit 2, saying how.
#[cfg(not(feature = "camera"))]
#[test]
fn calibrating_from_a_webcam_in_a_build_without_cameras_says_how_to_build_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = dir.path().join("palette.toml");
    let out = cubed(
        &[
            "calibrate",
            "--camera",
            "0",
            "--output",
            &output.to_string_lossy(),
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--features camera"),
        "{}",
        stderr(&out)
    );
    assert!(!output.exists(), "nothing written");
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

/// `cubed scan` and `cubed calibrate` read with the palette the daemon would: one calibrated
/// into the data directory wins over the config's, `--palette` over both, and each says which
/// it used. A calibrated palette whose symbols differ shows in what the scan prints.
#[test]
fn the_command_line_reads_with_the_palette_the_daemon_would() {
    let home = tempfile::tempdir().expect("temp dir");
    let data_dir = home.path().display().to_string();
    let photos = data("photos/3x3x3-random-01");
    let scan = |extra: &[&str]| {
        let mut args = vec!["scan", "--images", photos.as_str(), "--data-dir", &data_dir];
        args.extend_from_slice(extra);
        let out = cubed(&args, None);
        assert!(out.status.success(), "{}", stderr(&out));
        (stdout(&out), stderr(&out))
    };
    let (configured, said) = scan(&[]);
    assert!(
        said.contains("cubed: palette ") && said.contains("[vision] palette"),
        "{said}"
    );
    // The same colours under other symbols, calibrated into the data directory.
    let shipped = std::fs::read_to_string(format!(
        "{}/config/palette.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("shipped palette");
    let lowered = shipped.replace("symbol = \"W\"", "symbol = \"w\"");
    let calibrated = home.path().join("palette.toml");
    std::fs::write(&calibrated, lowered).expect("written");
    let (read, said) = scan(&[]);
    assert!(
        said.contains(&format!("cubed: palette {}", calibrated.display())),
        "{said}"
    );
    assert!(said.contains("calibrated, in the data directory"), "{said}");
    let facelets = |text: &str| text.lines().next().unwrap_or_default().to_string();
    let (read_now, before) = (facelets(&read), facelets(&configured));
    assert_eq!(
        read_now.replace('w', "W"),
        before,
        "only the symbol differs"
    );
    assert_ne!(read_now, before);
    // --palette wins over the calibrated one.
    let given = format!("{}/config/palette.toml", env!("CARGO_MANIFEST_DIR"));
    let (read, said) = scan(&["--palette", &given]);
    assert!(said.contains("(--palette)"), "{said}");
    assert_eq!(facelets(&read), facelets(&configured));
}

/// A solved cube read under a lamp too bright (an orange and a yellow pressed together near
/// full scale in green, what tells them apart) is refused naming the light and those faces,
/// and nothing is written; the same colours a stop darker calibrate.
#[test]
fn calibrating_from_washed_out_readings_is_refused_naming_the_light() {
    let dir = tempfile::tempdir().expect("temp dir");
    let scan_of = |colours: [[u8; 3]; 6]| {
        let faces: Vec<String> = (["U", "R", "F", "D", "L", "B"].iter().zip(colours))
            .map(|(face, rgb)| format!("\"{face}\": [{}]", vec![format!("{rgb:?}"); 9].join(", ")))
            .collect();
        format!("{{\"id\": \"lamp\", \"faces\": {{{}}}}}", faces.join(", "))
    };
    let bright = [
        [255, 255, 255],
        [255, 60, 50],
        [90, 255, 120],
        [255, 255, 120],
        [255, 246, 110],
        [60, 160, 255],
    ];
    let darker = [
        [250, 245, 235],
        [215, 30, 35],
        [30, 160, 80],
        [235, 215, 40],
        [255, 140, 45],
        [20, 90, 230],
    ];
    for (name, colours, refused) in [("bright", bright, true), ("darker", darker, false)] {
        let scan = dir.path().join(format!("{name}.json"));
        std::fs::write(&scan, scan_of(colours)).expect("scan written");
        let written = dir.path().join(format!("{name}.toml"));
        let out = cubed(
            &[
                "calibrate",
                "--scan",
                scan.to_str().expect("utf8"),
                "--output",
                written.to_str().expect("utf8"),
            ],
            None,
        );
        if refused {
            assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
            assert!(
                stderr(&out).contains("the light washed out faces D, L"),
                "{}",
                stderr(&out)
            );
            assert!(!written.exists(), "nothing written");
        } else {
            assert!(out.status.success(), "{}", stderr(&out));
            assert!(written.exists());
        }
    }
}

/// Six photos named after no face are read in name order, and the command says which file it
/// took as which face; a photo with something over a sticker is refused, and `--show-grids`
/// then still shows each photo's grid (the one in doubt among them).
#[test]
fn frames_in_name_order_are_said_and_a_refusal_still_shows_the_grids() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cube = FaceletCube::parse(TOO_BRIGHT, FaceOrder::Urfdlb, None)
        .expect("legal")
        .0;
    simulated_folder(cube, dir.path());
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
    let dir = tempfile::tempdir().expect("temp dir");
    let cube = FaceletCube::parse(TOO_BRIGHT, FaceOrder::Urfdlb, None)
        .expect("legal")
        .0;
    simulated_folder(cube, dir.path());
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
        stderr(&off).contains("note: the grid was given (--corners or a grid file)"),
        "{}",
        stderr(&off)
    );
}
