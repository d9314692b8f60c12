//! `cubed config wiring --board pico`, the offline check, against the Pico firmware as
//! built: for designs a builder gets wrong in each way the chip rules (a pin the board
//! keeps, a pin it lacks, two jaws on one PWM output, a top speed beyond its step
//! generator) and the shipped one, the command and the emulated Pico at connect say the
//! same thing in the same words, and both place it at the design's line.

use super::session::open_with;
use crate::common::{cubed, runtime, shipped_design_file, stderr};
use cubed::link::{LinkError, LinkSettings};
use cubed::robot::wiring::RobotSetup;
use cubed::robot::{load_robot, ActuatorMap};

/// The four-arm design with `from` replaced by `to` wherever it is written (or as shipped:
/// opposite grippers must stay alike to turn the cube between them), a word of the
/// refusal expected (none: taken), and the key the refusal is placed at (its first line
/// in the changed file starts with it). A top speed beyond the board is refused offline
/// by the design's own check, with the board's range, before the times that follow from
/// the speed are checked (see [`offline_range_is_the_picos`]).
const CASES: [(&str, &str, &str, &str, &str); 5] = [
    ("as shipped", "", "", "", ""),
    (
        "a jaw on the LED's pin",
        "jaw = 16 ",
        "jaw = 25 ",
        "keeps for itself",
        "jaw = 25 ",
    ),
    (
        "a step pin the RP2040 lacks",
        "step = 2\n",
        "step = 30\n",
        "does not have",
        "step = 30\n",
    ),
    (
        "two jaws on one PWM output",
        "jaw = 17 ",
        "jaw = 0 ",
        "PWM output",
        "jaw = 0 ",
    ),
    // 900°/s at 32 microsteps of a 1.8° motor (every gripper's): 16 000 steps/s.
    (
        "a top speed beyond 15 000 steps/s",
        "microsteps = 8\n",
        "microsteps = 32\n",
        "max_deg_s",
        "max_deg_s = ",
    ),
];

#[test]
fn the_offline_check_says_what_the_pico_as_built_says_at_connect() {
    let Some(pico) = super::session::four_arm_pico("the offline board check", 13) else {
        return;
    };
    let shipped = std::fs::read_to_string(shipped_design_file("four-arm")).expect("design");
    let dir = tempfile::tempdir().expect("temp dir");
    for (case, from, to, refused_for, placed_at) in CASES {
        assert!(shipped.contains(from), "{case}: '{from}' is in the design");
        let file = dir.path().join("my-robot.toml");
        let changed = shipped.replace(from, to);
        std::fs::write(&file, &changed).expect("written");
        let design = file.display().to_string();
        let offline = cubed(
            &["config", "wiring", "--design", &design, "--board", "pico"],
            None,
        );

        let model = load_robot(&file).expect("the design file is valid");
        let map = ActuatorMap::new(&model).expect("actuators");
        let setup = RobotSetup::for_design(&model, &map).expect("wired");
        let settings = LinkSettings {
            actuator_names: cubed::link::fault_words::actuator_names(&map, &model),
            ..LinkSettings::default()
        };
        let at_connect = runtime().block_on(async {
            let opened = open_with(&pico.pico, setup, settings).await;
            match opened {
                Ok(link) => {
                    link.shutdown().await;
                    None
                }
                Err(LinkError::ConfigureRefused { words, .. }) => Some(words),
                Err(other) => panic!("{case}: the Pico failed otherwise: {other}"),
            }
        });
        let said = stderr(&offline);
        let expected_refusal = (!refused_for.is_empty()).then_some(refused_for);
        assert_eq!(
            at_connect
                .as_ref()
                .map(|words| words.contains(refused_for).then_some(refused_for)),
            expected_refusal.map(Some),
            "{case}: the Pico said {at_connect:?}"
        );
        match at_connect {
            None => {
                assert!(
                    offline.status.success(),
                    "{case}: refused offline only: {said}"
                );
                let out = String::from_utf8_lossy(&offline.stdout);
                assert!(
                    out.contains("takes this design; free: GP0"),
                    "{case}: {out}"
                );
            }
            Some(words) if placed_at == "max_deg_s = " => {
                assert_eq!(offline.status.code(), Some(2), "{case}: taken offline only");
                offline_range_is_the_picos(case, &changed, &said, &words);
            }
            Some(words) => {
                assert_eq!(offline.status.code(), Some(2), "{case}: taken offline only");
                let expected = format!("would refuse this design at connect: {words}");
                assert!(
                    said.contains(&expected),
                    "{case}: offline '{said}', Pico '{words}'"
                );
                let key_at = changed.find(placed_at).expect("the key is in the design");
                let line = changed[..key_at].matches('\n').count() + 1;
                let key = placed_at.split(' ').next().unwrap_or_default();
                assert!(
                    said.contains(&format!("(line {line}): key '{key}': a Raspberry Pi Pico")),
                    "{case}: not placed at line {line}: {said}"
                );
                // `cubed exec`, refused at connect, places it at the same line.
                let port = pico.pico.port.display().to_string();
                let exec = cubed(
                    &["exec", "--port", &port, "--robot", &design, "--moves", "U"],
                    None,
                );
                let refused = stderr(&exec);
                assert_eq!(exec.status.code(), Some(2), "{case}: {refused}");
                assert!(
                    refused.contains(&words)
                        && refused.contains(&format!("(the design writes it at {design}: "))
                        && refused.contains(&format!("(line {line}): key '{key}')")),
                    "{case}: exec said {refused}"
                );
            }
        }
        eprintln!("{case}: offline and the Pico agree: {}", said.trim());
    }
}

/// The offline refusal of a top speed names the key at its line, and allows the range the
/// Pico named at connect.
fn offline_range_is_the_picos(case: &str, changed: &str, said: &str, words: &str) {
    let allowed = |text: &str| {
        let at = text.find("allowed ").expect("a range") + "allowed ".len();
        let range: String = text[at..]
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.' || *c == '=')
            .collect();
        range
    };
    let key_at = changed
        .find("max_deg_s = ")
        .expect("the key is in the design");
    let line = changed[..key_at].matches('\n').count() + 1;
    assert!(
        said.contains(&format!(
            "(line {line}): key 'max_deg_s': 900 is out of range"
        )) && said.contains("the Raspberry Pi Pico takes 1..=15000 microsteps per second"),
        "{case}: offline said {said}"
    );
    assert_eq!(
        allowed(said),
        allowed(words),
        "{case}: offline '{said}', Pico '{words}'"
    );
}
