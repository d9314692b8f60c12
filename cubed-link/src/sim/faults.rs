//! Fault injection for the simulator: the `--faults` option and the byte mangler.
//!
//! `corrupt=P` flips one bit of each byte with probability P, `drop=P` drops each byte with
//! probability P (both directions); `unplug-every=DURATION` (`500ms`, `2s`) and
//! `unplug-at-move=N` close the pty (the host sees a hang-up) and open a new one after
//! `unplug-for=DURATION` (default 100ms); `reboot-at=N` reboots after the N-th executed
//! command; `slip-at-turn=N` makes the N-th face turn slip (the motor turns, the layer
//! stays: only where a simulated camera watches, as in `cubed run` and `cubed dry-run`);
//! `estop-at-move=N` presses the robot's emergency-stop button after the N-th executed
//! command (0: at power-on) and releases it after `estop-for=DURATION` (default 1s).
//! Several `unplug-at-move`, `reboot-at`, `estop-at-move` and `slip-at-turn` entries may be
//! given.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// The keys of a `--faults` specification (`cubed sim --help` describes each).
pub const FAULT_KEYS: [&str; 10] = [
    "corrupt",
    "drop",
    "unplug-every",
    "unplug-for",
    "unplug-at-move",
    "reboot-at",
    "estop-at-move",
    "estop-for",
    "slip-at-turn",
    "hand-at-turn",
];

/// A `--faults` specification that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FaultSpecError {
    #[error("fault '{item}': expected key=value (keys: {})", FAULT_KEYS.join(", "))]
    Malformed { item: String },
    #[error("fault '{key}': unknown key (keys: {})", FAULT_KEYS.join(", "))]
    UnknownKey { key: String },
    #[error("fault '{key}={value}': {expected}")]
    BadValue {
        key: String,
        value: String,
        expected: &'static str,
    },
    #[error("fault '{key}' is given twice (only the *-at keys may be repeated, one moment each)")]
    Repeated { key: String },
}

/// Which faults to inject.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FaultPlan {
    pub corrupt: f64,
    pub drop: f64,
    pub unplug_every_ms: Option<u64>,
    pub unplug_for_ms: u64,
    pub unplug_at_moves: Vec<u64>,
    pub reboot_at_moves: Vec<u64>,
    /// After how many executed commands the e-stop button is pressed (0: at power-on).
    pub estop_at_moves: Vec<u64>,
    /// How long it stays pressed, wall ms.
    pub estop_for_ms: u64,
    pub slip_at_turns: Vec<u64>,
    /// Face turns (counted from 1) after which a person's hand is in the next scan's photos
    /// (six), where a simulated camera watches.
    pub hand_at_turns: Vec<u64>,
}

fn parse_ms(key: &str, value: &str) -> Result<u64, FaultSpecError> {
    let bad = || FaultSpecError::BadValue {
        key: key.into(),
        value: value.into(),
        expected: "a duration above zero, such as 250ms or 2s",
    };
    let (number, scale) = if let Some(ms) = value.strip_suffix("ms") {
        (ms, 1.0)
    } else if let Some(s) = value.strip_suffix('s') {
        (s, 1000.0)
    } else {
        return Err(bad());
    };
    let number: f64 = number.parse().map_err(|_| bad())?;
    if !(number.is_finite() && number > 0.0) {
        return Err(bad());
    }
    Ok((number * scale).round() as u64)
}

fn parse_probability(key: &str, value: &str) -> Result<f64, FaultSpecError> {
    match value.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(FaultSpecError::BadValue {
            key: key.into(),
            value: value.into(),
            expected: "a probability between 0 and 1",
        }),
    }
}

fn parse_count(key: &str, value: &str) -> Result<u64, FaultSpecError> {
    value.parse().map_err(|_| FaultSpecError::BadValue {
        key: key.into(),
        value: value.into(),
        expected: "a number of executed commands",
    })
}

fn parse_turn(key: &str, value: &str) -> Result<u64, FaultSpecError> {
    match value.parse() {
        Ok(0) => Err(FaultSpecError::BadValue {
            key: key.into(),
            value: value.into(),
            expected: "face turns are counted from 1",
        }),
        Ok(turn) => Ok(turn),
        Err(_) => Err(FaultSpecError::BadValue {
            key: key.into(),
            value: value.into(),
            expected: "a number of face turns, from 1",
        }),
    }
}

impl FaultPlan {
    /// The entries counted in commands (and, given the face turns done, in turns) that have
    /// not come yet, as written (`estop-at-move=5000`), and `unplug-every` if it never made an
    /// unplug: a run that ended before them never saw them. An entry comes once the count
    /// reaches it (`unplug-at-move=0` at once).
    pub fn not_reached(
        &self,
        commands: u64,
        turns: Option<u64>,
        timed_unplugs: u64,
    ) -> Vec<String> {
        let mut out = Vec::new();
        if let (Some(every), 0) = (self.unplug_every_ms, timed_unplugs) {
            let period = match every % 1000 {
                0 => format!("{}s", every / 1000),
                _ => format!("{every}ms"),
            };
            out.push(format!("unplug-every={period}"));
        }
        let mut later = |key: &str, list: &[u64], done: u64| {
            let pending = list.iter().filter(|&&at| at > done);
            out.extend(pending.map(|at| format!("{key}={at}")));
        };
        later("unplug-at-move", &self.unplug_at_moves, commands);
        later("reboot-at", &self.reboot_at_moves, commands);
        later("estop-at-move", &self.estop_at_moves, commands);
        if let Some(turns) = turns {
            later("slip-at-turn", &self.slip_at_turns, turns);
            later("hand-at-turn", &self.hand_at_turns, turns);
        }
        out
    }

    /// The entries only a simulated camera can show (`slip-at-turn=5`, `hand-at-turn=3`), as
    /// written: the robot served alone has no scene to slip or hide.
    pub fn needing_a_camera(&self) -> Vec<String> {
        let slips = self
            .slip_at_turns
            .iter()
            .map(|t| format!("slip-at-turn={t}"));
        let hands = self
            .hand_at_turns
            .iter()
            .map(|t| format!("hand-at-turn={t}"));
        slips.chain(hands).collect()
    }

    /// Reads `corrupt=0.01,drop=0.01,unplug-every=2s,reboot-at=40`.
    pub fn parse(text: &str) -> Result<FaultPlan, FaultSpecError> {
        let mut plan = FaultPlan {
            unplug_for_ms: 100,
            estop_for_ms: 1000,
            ..FaultPlan::default()
        };
        let mut seen: Vec<&str> = Vec::new();
        for item in text.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| FaultSpecError::Malformed { item: item.into() })?;
            if !key.ends_with("-at") && !key.ends_with("-at-move") && !key.ends_with("-at-turn") {
                if seen.contains(&key) {
                    return Err(FaultSpecError::Repeated { key: key.into() });
                }
                seen.push(key);
            }
            match key {
                "corrupt" => plan.corrupt = parse_probability(key, value)?,
                "drop" => plan.drop = parse_probability(key, value)?,
                "unplug-every" => plan.unplug_every_ms = Some(parse_ms(key, value)?),
                "unplug-for" => plan.unplug_for_ms = parse_ms(key, value)?,
                "unplug-at-move" => plan.unplug_at_moves.push(parse_count(key, value)?),
                "reboot-at" => plan.reboot_at_moves.push(parse_count(key, value)?),
                "estop-at-move" => plan.estop_at_moves.push(parse_count(key, value)?),
                "estop-for" => plan.estop_for_ms = parse_ms(key, value)?,
                "slip-at-turn" => plan.slip_at_turns.push(parse_turn(key, value)?),
                "hand-at-turn" => plan.hand_at_turns.push(parse_turn(key, value)?),
                _ => return Err(FaultSpecError::UnknownKey { key: key.into() }),
            }
        }
        Ok(plan)
    }
}

/// What the injector did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct InjectionStats {
    pub bytes_corrupted: u64,
    pub bytes_dropped: u64,
    pub unplugs: u64,
}

/// Corrupts and drops bytes at random (seeded).
pub(crate) struct Mangler {
    rng: ChaCha8Rng,
    corrupt: f64,
    drop: f64,
    pub stats: InjectionStats,
}

impl Mangler {
    /// A mangler for `plan`, reproducible from `seed`.
    pub(crate) fn new(plan: &FaultPlan, seed: u64) -> Mangler {
        Mangler {
            rng: ChaCha8Rng::seed_from_u64(seed),
            corrupt: plan.corrupt,
            drop: plan.drop,
            stats: InjectionStats::default(),
        }
    }

    /// The bytes as the line delivers them.
    pub(crate) fn mangle(&mut self, bytes: &[u8]) -> Vec<u8> {
        if self.corrupt == 0.0 && self.drop == 0.0 {
            return bytes.to_vec();
        }
        let mut out = Vec::with_capacity(bytes.len());
        for &byte in bytes {
            if self.rng.random_bool(self.drop) {
                self.stats.bytes_dropped += 1;
                continue;
            }
            if self.rng.random_bool(self.corrupt) {
                self.stats.bytes_corrupted += 1;
                out.push(byte ^ (1 << self.rng.random_range(0..8)));
            } else {
                out.push(byte);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_key() {
        let plan = FaultPlan::parse(
            "corrupt=0.01,drop=0.02,unplug-every=1.5s,unplug-for=50ms,unplug-at-move=7,reboot-at=9,estop-at-move=3,estop-for=2s",
        )
        .expect("valid");
        assert_eq!(
            (plan.estop_at_moves.clone(), plan.estop_for_ms),
            (vec![3], 2000)
        );
        assert_eq!(plan.corrupt, 0.01);
        assert_eq!(plan.drop, 0.02);
        assert_eq!(plan.unplug_every_ms, Some(1500));
        assert_eq!(plan.unplug_for_ms, 50);
        assert_eq!(plan.unplug_at_moves, vec![7]);
        assert_eq!(plan.reboot_at_moves, vec![9]);
    }

    #[test]
    fn refuses_unknown_keys_and_bad_values() {
        assert!(matches!(
            FaultPlan::parse("melt=1"),
            Err(FaultSpecError::UnknownKey { .. })
        ));
        assert!(matches!(
            FaultPlan::parse("drop=2"),
            Err(FaultSpecError::BadValue { .. })
        ));
        assert!(matches!(
            FaultPlan::parse("unplug-every=5"),
            Err(FaultSpecError::BadValue { .. })
        ));
        assert!(matches!(
            FaultPlan::parse("drop"),
            Err(FaultSpecError::Malformed { .. })
        ));
        assert!(matches!(
            FaultPlan::parse("corrupt=0.01,corrupt=0.02"),
            Err(FaultSpecError::Repeated { .. })
        ));
        for zero in ["slip-at-turn=0", "hand-at-turn=0", "hand-at-turn=x"] {
            assert!(
                matches!(FaultPlan::parse(zero), Err(FaultSpecError::BadValue { .. })),
                "{zero}"
            );
        }
        // Moments may repeat; a move count of 0 is before the first move.
        let plan = FaultPlan::parse(
            "unplug-at-move=0,unplug-at-move=9,slip-at-turn=2,slip-at-turn=5,hand-at-turn=7",
        )
        .expect("valid");
        assert_eq!(
            plan.needing_a_camera(),
            ["slip-at-turn=2", "slip-at-turn=5", "hand-at-turn=7"]
        );
        assert_eq!(
            (plan.unplug_at_moves, plan.slip_at_turns, plan.hand_at_turns),
            (vec![0, 9], vec![2, 5], vec![7])
        );
    }

    #[test]
    fn entries_beyond_the_commands_and_turns_done_are_named_as_not_reached() {
        let plan = FaultPlan::parse(
            "estop-at-move=0,estop-at-move=30,reboot-at=31,unplug-at-move=29,slip-at-turn=4,hand-at-turn=4,corrupt=0.1",
        )
        .expect("valid");
        assert_eq!(
            plan.not_reached(30, Some(4), 0),
            vec!["reboot-at=31".to_string()]
        );
        assert_eq!(
            plan.not_reached(29, Some(3), 0),
            [
                "reboot-at=31",
                "estop-at-move=30",
                "slip-at-turn=4",
                "hand-at-turn=4"
            ]
        );
        // Turns unknown (no simulated camera to slip under): slips and hands are not judged.
        assert_eq!(plan.not_reached(0, None, 0).len(), 3);
        assert!(FaultPlan::default().not_reached(0, Some(0), 0).is_empty());
        // A timed unplug that never came (the run was shorter than its period).
        let every = FaultPlan::parse("unplug-every=2s").expect("valid");
        assert_eq!(every.not_reached(500, None, 0), ["unplug-every=2s"]);
        assert!(every.not_reached(500, None, 1).is_empty());
    }

    #[test]
    fn mangler_without_faults_passes_bytes_through() {
        let mut mangler = Mangler::new(&FaultPlan::default(), 1);
        assert_eq!(mangler.mangle(&[1, 2, 0, 3]), vec![1, 2, 0, 3]);
    }
}
