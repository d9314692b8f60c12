//! `cubed calibrate` and the palette the commands read with: a palette from a solved cube's photos or scan, refusals that write nothing (swapped photos, washed-out light, a file not a palette, no camera), and the palette the daemon would read with.

use super::{data, simulated_folder};
use crate::common::{cubed, stderr, stdout};
use cubed::cube::{FaceOrder, FaceletCube};
use std::path::Path;

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
        first_word.is_some_and(|l| l.starts_with("refused: ")),
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

/// Photos of two neighbouring faces saved under each other's names: refused naming them, and
/// no palette is written.
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

/// `calibrate --output` never writes over a file that is not a palette (a configuration named
/// by mistake is kept, byte for byte) nor into a directory that does not exist; over an old
/// palette it writes.
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

/// The shipped solved photos (three landscape, three portrait) calibrate with each grid found,
/// and with one face's grid given; given off its stickers, the refusal says to check that
/// grid first; `--show-grids` says each face's. Corners say where stickers are in photos:
/// with a scan file they are refused.
#[test]
fn calibrate_takes_one_faces_grid_and_names_it_when_refused() {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/photos/solved-3x3");
    let photos = shipped.to_str().expect("utf8");
    let dir = tempfile::tempdir().expect("temp dir");
    let output = dir.path().join("palette.toml");
    let output = output.to_str().expect("utf8");
    let calibrate = |given: &[&str]| {
        let mut args = vec!["calibrate", "--images", photos, "--output", output];
        for g in given {
            match g.starts_with("--") {
                true => args.push(g),
                false => args.extend(["--corners", g]),
            }
        }
        cubed(&args, None)
    };
    let found = cubed(&["scan", "--images", photos, "--show-grids"], None);
    let said = stderr(&found);
    let f_line = (said.lines())
        .find(|l| l.starts_with("grid of face F"))
        .unwrap_or_else(|| panic!("F's grid: {said}"));
    let f_corners = f_line.split('"').nth(1).expect("quoted corners");
    let out = calibrate(&[f_corners]);
    assert!(out.status.success(), "{f_corners}: {}", stderr(&out));
    // Half a face to the right: a column of F's stickers, and the background beside them.
    let numbers: Vec<f64> = (f_corners.trim_start_matches("F=").split([' ', ',']))
        .map(|n| n.parse().expect("a number"))
        .collect();
    let half = (numbers[2] - numbers[0]) / 2.0;
    let moved: Vec<String> = (numbers.chunks(2))
        .map(|p| format!("{:.0},{:.0}", p[0] + half, p[1]))
        .collect();
    let off = calibrate(&[&format!("F={}", moved.join(" "))]);
    assert_eq!(off.status.code(), Some(2), "{}", stdout(&off));
    assert!(
        stderr(&off).contains("check the grid given for face F (--corners"),
        "{}",
        stderr(&off)
    );
    // As scan does, it shows the grids it read on, each ready to give back for its face.
    let shown = calibrate(&["--show-grids"]);
    assert!(shown.status.success(), "{}", stderr(&shown));
    let said = stderr(&shown);
    assert!(said.contains("grid of face F: --corners \"F="), "{said}");
    let scan = data("scans/3x3x3-solved-01.json");
    let out = cubed(
        &[
            "calibrate",
            "--scan",
            &scan,
            "--output",
            output,
            "--corners",
            f_corners,
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("a scan file (--scan) holds their readings already"),
        "{}",
        stderr(&out)
    );
}
