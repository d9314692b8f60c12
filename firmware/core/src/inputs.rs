//! Board inputs as the firmware sees them: a raw sample changes an input's level only
//! once the new level has held for the board's `debounce_samples` samples in a row, so
//! one noisy sample neither ends a homing seek nor presses the start button twice.

/// The debounced levels of up to 32 inputs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Inputs {
    levels: u32,
    /// Samples in a row that differed from `levels`, per input.
    run: [u8; 32],
    needed: u8,
}

impl Inputs {
    /// Inputs at `levels`, each changing after `needed` samples (at least 1).
    pub(crate) const fn new(levels: u32, needed: u8) -> Self {
        Inputs {
            levels,
            run: [0; 32],
            needed: if needed == 0 { 1 } else { needed },
        }
    }

    /// One sample of input `index` that takes effect at once (an e-stop being pressed:
    /// a stop must not wait for the noise to settle, a false one is safe).
    pub(crate) fn set_now(&mut self, index: u8, high: bool) {
        if let Some(run) = self.run.get_mut(usize::from(index)) {
            *run = 0;
            let bit = 1u32 << index;
            self.levels = if high {
                self.levels | bit
            } else {
                self.levels & !bit
            };
        }
    }

    /// One sample of input `index`.
    pub(crate) fn sample(&mut self, index: u8, high: bool) {
        let Some(run) = self.run.get_mut(usize::from(index)) else {
            return;
        };
        let bit = 1u32 << index;
        if high == (self.levels & bit != 0) {
            *run = 0;
            return;
        }
        *run = run.saturating_add(1);
        if *run >= self.needed {
            self.levels ^= bit;
            *run = 0;
        }
    }

    /// The debounced levels, bit per input.
    pub(crate) const fn levels(&self) -> u32 {
        self.levels
    }

    /// Whether an input has been seen at a new level and not yet long enough to count.
    pub(crate) fn settling(&self) -> bool {
        self.run.iter().any(|&run| run > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_counts_only_after_enough_samples_in_a_row() {
        let mut inputs = Inputs::new(0, 3);
        inputs.sample(4, true);
        inputs.sample(4, true);
        inputs.sample(4, false); // a glitch back resets the count
        inputs.sample(4, true);
        inputs.sample(4, true);
        assert_eq!(inputs.levels(), 0);
        inputs.sample(4, true);
        assert_eq!(inputs.levels(), 1 << 4);
        inputs.sample(40, true); // no such input: ignored
        assert_eq!(inputs.levels(), 1 << 4);
    }

    #[test]
    fn set_now_takes_effect_at_once() {
        let mut inputs = Inputs::new(0, 3);
        inputs.sample(2, true);
        inputs.set_now(2, true);
        assert_eq!(inputs.levels(), 1 << 2);
        inputs.sample(2, false);
        inputs.sample(2, false);
        assert_eq!(inputs.levels(), 1 << 2, "the count starts afresh");
    }

    #[test]
    fn an_input_settles_from_its_first_new_sample_until_it_counts_or_goes_back() {
        let mut inputs = Inputs::new(0, 3);
        assert!(!inputs.settling());
        inputs.sample(7, true);
        assert!(inputs.settling());
        inputs.sample(7, true);
        inputs.sample(7, true);
        assert!(!inputs.settling(), "counted: {:b}", inputs.levels());
        inputs.sample(7, false);
        assert!(inputs.settling());
        inputs.sample(7, true);
        assert!(!inputs.settling(), "back at its level before it counted");
    }

    #[test]
    fn one_sample_is_enough_without_debouncing() {
        let mut inputs = Inputs::new(1, 1);
        inputs.sample(0, false);
        assert_eq!(inputs.levels(), 0);
    }
}
