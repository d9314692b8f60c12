//! The solver's table cache: full tables cached and a corrupt cache rebuilt, a cache folder that cannot be written refused before anything is built.

use super::{scrambles, solves};
use crate::common::{cubed, stderr, stdout};
use cubed::cube::Notation;

#[test]
fn full_tables_are_cached_and_a_corrupt_cache_is_rebuilt() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cache = dir.path().to_str().expect("utf-8 path");
    let stale = dir.path().join("cubed-tables-v0-full.bin");
    std::fs::write(&stale, b"an older format").expect("writing a stale cache file");
    let cube = &scrambles("5", "1")[0];
    let run = || {
        cubed(
            &["solve", "--budget-ms", "10", "--cache-dir", cache, cube],
            None,
        )
    };
    let cold = run();
    assert!(cold.status.success(), "{}", stderr(&cold));
    assert!(
        stderr(&cold).contains("built solver tables"),
        "{}",
        stderr(&cold)
    );
    assert!(solves(cube, stdout(&cold).trim(), Notation::Singmaster));
    assert!(
        !stale.exists(),
        "a cache file of an older format is removed"
    );
    let warm = run();
    assert!(
        warm.status.success() && stderr(&warm).is_empty(),
        "{}",
        stderr(&warm)
    );
    // The full search (endings, queued ends, phase 2) on random cubes.
    let many = scrambles("11", "20");
    let input = many.join("\n");
    let full = cubed(
        &[
            "solve",
            "--stdin",
            "--budget-ms",
            "100",
            "--cache-dir",
            cache,
        ],
        Some(&input),
    );
    assert!(full.status.success(), "{}", stderr(&full));
    let solutions: Vec<String> = stdout(&full).lines().map(str::to_string).collect();
    assert_eq!(solutions.len(), many.len());
    for (cube, solution) in many.iter().zip(&solutions) {
        assert!(
            solves(cube, solution, Notation::Singmaster),
            "{cube}: {solution}"
        );
        assert!(
            solution.split_whitespace().count() <= 22,
            "{cube}: {solution}"
        );
    }
    let file = std::fs::read_dir(dir.path())
        .expect("cache dir")
        .next()
        .expect("a cache file")
        .expect("entry")
        .path();
    let mut bytes = std::fs::read(&file).expect("cache file");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&file, &bytes).expect("corrupting the cache");
    let rebuilt = run();
    assert!(rebuilt.status.success());
    assert!(
        stderr(&rebuilt).contains("checksum mismatch"),
        "{}",
        stderr(&rebuilt)
    );
    assert!(solves(cube, stdout(&rebuilt).trim(), Notation::Singmaster));
}

#[test]
fn tables_refuse_a_cache_folder_they_cannot_write_before_building_anything() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"").expect("write");
    let inside_a_file = file.join("cache");
    let out = cubed(
        &["tables", "--cache-dir", &inside_a_file.to_string_lossy()],
        None,
    );
    // Refused as the option's value (exit 2), naming the file in the way.
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains(&format!("{} is a file, not a folder", file.display())),
        "{said}"
    );
    assert!(
        !said.contains("building"),
        "it must refuse before building: {said}"
    );
}

/// `$CUBED_CACHE_DIR` naming a file, or a folder that cannot be made, is refused as
/// `--cache-dir` is, before any table is built, by every command that loads tables;
/// `--cache-dir` given wins over it.
#[test]
fn a_cache_folder_from_the_environment_that_is_a_file_is_refused_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("a-file");
    std::fs::write(&file, b"").expect("write");
    let with_env = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_cubed"))
            .args(args)
            .env("CUBED_CACHE_DIR", &file)
            .output()
            .expect("cubed runs")
    };
    for args in [
        &["solve", "--tables", "small", "R U"][..],
        &["tables"],
        &["test-program", "--cubes", "1", "--turns", "3"],
    ] {
        let out = with_env(args);
        let said = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(
            said.contains(&format!(
                "$CUBED_CACHE_DIR: {} is a file, not a folder",
                file.display()
            )),
            "{args:?}: {said}"
        );
        assert!(!said.contains("building"), "{args:?}: {said}");
    }
    let cache = dir.path().join("cache");
    let given = with_env(&[
        "solve",
        "--tables",
        "small",
        "--cache-dir",
        &cache.to_string_lossy(),
        crate::common::SOLVED,
    ]);
    assert!(given.status.success(), "{}", stderr(&given));
    // A command that loads no tables is not held to it: a check, a plan of moves.
    assert!(with_env(&["check", crate::common::SOLVED]).status.success());
    let plan = with_env(&["plan", "--robot", "four-arm", "--moves", "R"]);
    assert!(plan.status.success(), "{}", stderr(&plan));
    // A folder that cannot be made (under /proc, which takes no new folders) is refused too.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cubed"))
        .args(["solve", "--tables", "small", crate::common::SOLVED])
        .env("CUBED_CACHE_DIR", "/proc/self/no-such-folder")
        .output()
        .expect("cubed runs");
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("$CUBED_CACHE_DIR: /proc/self/no-such-folder cannot be made"),
        "{said}"
    );
}
