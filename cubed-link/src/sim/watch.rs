//! Turns a motor's angle into what the cube feels: when it leaves a position (a quarter turn,
//! a flipper position) and when it passes half-way to the next one.

/// One motor's position as the machine knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Watch {
    /// Motor microsteps at position 0 (where it was homed).
    zero: i64,
    /// The position the machine holds it at.
    at: i64,
    /// Off `at`, on its way somewhere.
    leaving: bool,
    /// The sense of a move begun and not yet half-way (what the machine has still to feel).
    heading: Option<i32>,
}

/// What one step edge meant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct StepMeaning {
    /// The motor left its position in this sense (±1).
    pub(super) leaving: Option<i32>,
    /// The motor passed half-way to the next position in this sense (±1).
    pub(super) passing: Option<i32>,
}

impl Watch {
    /// A motor homed at `steps` microsteps.
    pub(super) fn homed_at(steps: i64) -> Watch {
        Watch {
            zero: steps,
            at: 0,
            leaving: false,
            heading: None,
        }
    }

    /// The sense (±1) of a move the motor has begun and not yet taken half-way: the machine
    /// holds it where it was, though it is turning.
    pub(super) fn heading(&self) -> Option<i32> {
        self.heading
    }

    /// The position the machine holds the motor at.
    #[cfg(test)]
    pub(super) fn position(&self) -> i64 {
        self.at
    }

    /// The motor is now at `steps`; `per_rev` microsteps make `units` positions.
    pub(super) fn on_step(&mut self, steps: i64, per_rev: i64, units: i64) -> StepMeaning {
        // Scaled so position k is at k·per_rev exactly.
        let x = (steps - self.zero) * units;
        let mut meaning = StepMeaning::default();
        let here = self.at * per_rev;
        if !self.leaving && x != here {
            self.leaving = true;
            meaning.leaving = Some((x - here).signum() as i32);
            self.heading = meaning.leaving;
        }
        // Half-way either side, alike in both senses (opposite motors in sync pass together).
        let off = 2 * (x - here);
        let sense = if off >= per_rev {
            1
        } else if off <= -per_rev {
            -1
        } else {
            0
        };
        if sense != 0 {
            meaning.passing = Some(sense as i32);
            self.at += sense;
            self.heading = None;
        }
        if x == self.at * per_rev {
            self.leaving = false;
            self.heading = None;
        }
        meaning
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Steps a watch from 0 by `steps` one at a time, collecting what they meant.
    fn walk(watch: &mut Watch, from: i64, steps: i64) -> Vec<(i64, StepMeaning)> {
        let sense = steps.signum();
        (1..=steps.abs())
            .map(|k| {
                let at = from + sense * k;
                (at, watch.on_step(at, 1600, 4))
            })
            .filter(|(_, m)| *m != StepMeaning::default())
            .collect()
    }

    #[test]
    fn a_half_turn_leaves_twice_and_passes_twice() {
        let mut watch = Watch::homed_at(0);
        let seen = walk(&mut watch, 0, 800);
        let leaving: Vec<i64> = seen
            .iter()
            .filter(|(_, m)| m.leaving.is_some())
            .map(|(s, _)| *s)
            .collect();
        let passing: Vec<i64> = seen
            .iter()
            .filter(|(_, m)| m.passing == Some(1))
            .map(|(s, _)| *s)
            .collect();
        assert_eq!(leaving, vec![1, 401]);
        assert_eq!(passing, vec![200, 600]);
        assert_eq!(watch.position(), 2);
    }

    #[test]
    fn a_short_wiggle_leaves_but_never_passes() {
        let mut watch = Watch::homed_at(100);
        let out = walk(&mut watch, 100, -50);
        assert_eq!(out[0].1.leaving, Some(-1));
        let back = walk(&mut watch, 50, 50);
        assert!(back.iter().all(|(_, m)| m.passing.is_none()));
        assert_eq!(watch.position(), 0);
        // Half-way is the same distance in both senses.
        let mut down = Watch::homed_at(0);
        let passed = walk(&mut down, 0, -400);
        let at: Vec<i64> = passed
            .iter()
            .filter(|(_, m)| m.passing.is_some())
            .map(|(s, _)| *s)
            .collect();
        assert_eq!(at, vec![-200]);
        // Back at the position: the next step leaves again.
        assert_eq!(watch.on_step(101, 1600, 4).leaving, Some(1));
    }

    #[test]
    fn a_motor_is_heading_somewhere_from_leaving_until_half_way() {
        let mut watch = Watch::homed_at(0);
        assert_eq!(watch.heading(), None);
        walk(&mut watch, 0, 199);
        assert_eq!(watch.heading(), Some(1), "left, short of half-way");
        walk(&mut watch, 199, 1);
        assert_eq!(
            watch.heading(),
            None,
            "half-way: the machine has felt the move"
        );
        walk(&mut watch, 200, 200);
        walk(&mut watch, 400, -10);
        assert_eq!(watch.heading(), Some(-1), "left again, the other way");
        walk(&mut watch, 390, 10);
        assert_eq!(watch.heading(), None, "back where it was");
    }
}
