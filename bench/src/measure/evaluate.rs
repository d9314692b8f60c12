//! Measuring the classifier: the development / held-out split of the labelled scans, runs over them (as they are or with seeded lighting variants) counting right, refused, wrong and illegal results, and the confidence of each outcome for the reliability table.

use cubed::cube::FaceletCube;
use cubed::vision::light::colour::Rgb;
use cubed::vision::light::lighting::CLIPPED;
use cubed::vision::light::palette::Palette;
use cubed::vision::read::classify::{
    classify, Calibration, Classification, ClassifyError, ClassifyOptions, Repairs,
};

/// Which part of the labelled data a scan belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// Used while developing the method.
    Dev,
    /// Looked at only to report.
    HeldOut,
}

/// 64-bit FNV-1a of a name: fixes the split and each scan's variant seed.
pub fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl Part {
    /// The split, fixed by the name alone: a scan is held out when the 64-bit
    /// FNV-1a hash of its file stem (`3x3x3-cross` for `3x3x3-cross.json`) is odd.
    pub fn of(stem: &str) -> Part {
        if name_hash(stem) % 2 == 1 {
            Part::HeldOut
        } else {
            Part::Dev
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Part::Dev => "dev",
            Part::HeldOut => "held-out",
        }
    }
}

/// Readings with the true cube they show.
#[derive(Clone, Debug)]
pub struct LabelledScan {
    /// The file stem (it fixes the part and the variant seeds).
    pub name: String,
    pub readings: [Rgb; 54],
    pub truth: FaceletCube,
}

/// The scans of one part.
pub fn scans_in(all: &[(Part, LabelledScan)], part: Part) -> Vec<LabelledScan> {
    (all.iter())
        .filter(|(p, _)| *p == part)
        .map(|(_, s)| s.clone())
        .collect()
}

/// One classified cube, for the reliability table and the calibration fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The least sticker gap of the best guess.
    pub gap: f32,
    /// Its calibrated chance of being wrong.
    pub error_probability: f32,
    pub right: bool,
    /// What the bounds against impossible and unshown cubes judged.
    pub repairs: Repairs,
}

/// How far the repairs of some best guesses reach, measured against a bound.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RepairReach {
    /// The largest of any best guess.
    pub largest: f32,
    /// The largest of a right one.
    pub largest_right: f32,
    /// Right ones above the bound (refused as impossible, or as showing no cube).
    pub right_over: usize,
}

/// How far `repair` of `samples` reaches against `bound`.
pub fn repair_reach(
    samples: &[Sample],
    repair: impl Fn(&Repairs) -> f32,
    bound: f32,
) -> RepairReach {
    samples.iter().fold(RepairReach::default(), |reach, s| {
        let r = repair(&s.repairs);
        RepairReach {
            largest: reach.largest.max(r),
            largest_right: if s.right {
                reach.largest_right.max(r)
            } else {
                reach.largest_right
            },
            right_over: reach.right_over + usize::from(s.right && r > bound),
        }
    })
}

/// Counts of outcomes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub right: usize,
    /// Refused as unsure (the daemon re-captures).
    pub unsure: usize,
    /// A legal cube that is not the true one.
    pub wrong: usize,
    /// An output that is not a legal cube (must stay 0).
    pub illegal: usize,
    /// Names of the scans (and variants) that were not right.
    pub failures: Vec<String>,
    /// Best guesses (refused or not) that misread a sticker whose reading
    /// is full scale in every channel: nothing was left to tell its colour by.
    pub misread_blank: usize,
    /// Per classified cube: its least sticker gap, its calibrated
    /// error probability and whether its (best-guess) reading was right, for
    /// the reliability table.
    pub samples: Vec<Sample>,
}

impl Tally {
    /// Adds `other`'s outcomes to these.
    pub fn absorb(&mut self, other: Tally) {
        self.right += other.right;
        self.unsure += other.unsure;
        self.wrong += other.wrong;
        self.illegal += other.illegal;
        self.misread_blank += other.misread_blank;
        self.failures.extend(other.failures);
        self.samples.extend(other.samples);
    }

    pub fn total(&self) -> usize {
        self.right + self.unsure + self.wrong + self.illegal
    }

    /// Percentage exactly right.
    pub fn percent_right(&self) -> f64 {
        self.percent(self.right)
    }

    /// `count` as a percentage of all outcomes.
    pub fn percent(&self, count: usize) -> f64 {
        100.0 * count as f64 / self.total().max(1) as f64
    }

    /// Classifies one scan and counts the outcome.
    pub fn record(
        &mut self,
        name: String,
        readings: &[Rgb; 54],
        truth: &FaceletCube,
        palette: &Palette,
        options: &ClassifyOptions,
    ) {
        let result = classify(readings, palette, options);
        self.record_result(name, readings, truth, result);
    }

    /// Counts the outcome `result` of classifying `readings`.
    pub fn record_result(
        &mut self,
        name: String,
        readings: &[Rgb; 54],
        truth: &FaceletCube,
        result: Result<Classification, ClassifyError>,
    ) {
        let guess = match &result {
            Ok(c) => c,
            Err(ClassifyError { best_guess, .. }) => best_guess,
        };
        self.samples.push(Sample {
            gap: guess.least_gap(),
            error_probability: guess.error_probability(),
            right: guess.facelets == *truth,
            repairs: guess.repairs,
        });
        let blank = |s: usize| readings[s].iter().all(|&c| c >= CLIPPED);
        if (0..54).any(|s| guess.facelets.stickers[s] != truth.stickers[s] && blank(s)) {
            self.misread_blank += 1;
        }
        match result {
            Ok(c) if c.cubies.check().is_err() => {
                self.illegal += 1;
                self.failures.push(format!("{name}: illegal"));
            }
            Ok(c) if c.facelets == *truth => self.right += 1,
            Ok(c) => {
                self.wrong += 1;
                let differ: Vec<usize> = (0..54)
                    .filter(|&s| c.facelets.stickers[s] != truth.stickers[s])
                    .collect();
                self.failures.push(format!(
                    "{name}: wrong (confidence {:.5}), read {}, true {truth}, differs at {}",
                    c.confidence(),
                    c.facelets,
                    cubed::cube::sticker_names(&differ, 9)
                ));
            }
            Err(ClassifyError {
                stickers,
                best_guess,
                doubt,
                ..
            }) => {
                self.unsure += 1;
                let guess = if best_guess.facelets == *truth {
                    "guess right"
                } else {
                    "guess wrong"
                };
                self.failures
                    .push(format!("{name}: unsure of {stickers:?}, {doubt} ({guess})"));
            }
        }
    }
}

/// Every scan as it is.
pub fn tally_scans(scans: &[LabelledScan], palette: &Palette, options: &ClassifyOptions) -> Tally {
    let mut tally = Tally::default();
    for scan in scans {
        tally.record(
            scan.name.clone(),
            &scan.readings,
            &scan.truth,
            palette,
            options,
        );
    }
    tally
}

/// One bin of the reliability table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bin {
    /// Lower edge of the calibrated confidence (probability of being right).
    pub low: f64,
    pub right: usize,
    pub wrong: usize,
    /// Mean calibrated error probability of the cubes in the bin.
    pub predicted: f64,
}

/// Reliability: per bin of calibrated confidence (lower edges, ascending),
/// how many cubes were read right and wrong (best guesses, refused or not),
/// against the error probability they were given.
pub fn reliability(samples: &[Sample], edges: &[f64]) -> Vec<Bin> {
    edges
        .iter()
        .enumerate()
        .map(|(i, &low)| {
            let high = edges.get(i + 1).copied().unwrap_or(f64::INFINITY);
            let inside: Vec<&Sample> = samples
                .iter()
                .filter(|s| {
                    let c = 1.0 - s.error_probability as f64;
                    c >= low && c < high
                })
                .collect();
            let right = inside.iter().filter(|s| s.right).count();
            let predicted = inside
                .iter()
                .map(|s| s.error_probability as f64)
                .sum::<f64>()
                / inside.len().max(1) as f64;
            Bin {
                low,
                right,
                wrong: inside.len() - right,
                predicted,
            }
        })
        .collect()
}

/// The maximum-likelihood logistic calibration `P(wrong | gap) = 1 / (1 +
/// exp(a + b * sqrt(gap)))` of some samples (Newton's method on the two
/// constants; gaps above 100 count as 100). `None` when the samples cannot
/// fix both constants (no wrong or no right cube).
pub fn fit_calibration(samples: &[Sample]) -> Option<(f64, f64)> {
    let wrong = samples.iter().filter(|s| !s.right).count();
    if wrong == 0 || wrong == samples.len() {
        return None;
    }
    let points: Vec<(f64, f64)> = samples
        .iter()
        .map(|s| {
            let x = f64::from(s.gap.clamp(0.0, 100.0)).sqrt();
            (x, if s.right { 0.0 } else { 1.0 })
        })
        .collect();
    // P(wrong) = sigmoid(-(a + b g)); work with w = -(a, b) as a plain logistic regression.
    let (mut w0, mut w1) = (0.0f64, 0.0f64);
    for _ in 0..100 {
        let (mut g0, mut g1, mut h00, mut h01, mut h11) = (0.0, 0.0, 0.0, 0.0, 0.0);
        for &(x, y) in &points {
            let p = 1.0 / (1.0 + (-(w0 + w1 * x)).exp());
            let (r, v) = (y - p, (p * (1.0 - p)).max(1e-12));
            g0 += r;
            g1 += r * x;
            h00 += v;
            h01 += v * x;
            h11 += v * x * x;
        }
        let det = h00 * h11 - h01 * h01;
        if det.abs() < 1e-12 {
            break;
        }
        let (d0, d1) = ((h11 * g0 - h01 * g1) / det, (h00 * g1 - h01 * g0) / det);
        w0 += d0;
        w1 += d1;
        if d0.abs() + d1.abs() < 1e-9 {
            break;
        }
    }
    Some((-w0, -w1))
}

/// The smallest of `candidates` (ascending least confidences) at which, in
/// every condition, the confidently wrong cubes (best guesses whose
/// calibrated confidence reaches it) are at most that condition's limit (a
/// share of its cubes): counted, and as the calibration expects them (the sum
/// of the accepted cubes' error probabilities, which does not hang on a
/// handful of rare errors). The last candidate when none is.
pub fn choose_threshold(
    conditions: &[(Vec<Sample>, f64)],
    calibration: &Calibration,
    candidates: &[f32],
) -> f32 {
    let within = |samples: &[Sample], limit: f64, t: f32| {
        let accepted = samples
            .iter()
            .filter(|s| calibration.error_probability(s.gap) <= 1.0 - t);
        let (counted, expected) = accepted.fold((0usize, 0.0f64), |(n, e), s| {
            (
                n + usize::from(!s.right),
                e + calibration.error_probability(s.gap) as f64,
            )
        });
        let allowed = limit * samples.len() as f64;
        counted as f64 <= allowed && expected <= allowed
    };
    candidates
        .iter()
        .copied()
        .find(|&t| conditions.iter().all(|(c, limit)| within(c, *limit, t)))
        .or(candidates.last().copied())
        .unwrap_or(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_is_fixed_by_the_name() {
        // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c (even) and of "b" 0xaf63df4c8601f1a5 (odd): published test vectors.
        assert_eq!(name_hash("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(name_hash("b"), 0xaf63_df4c_8601_f1a5);
        assert_eq!(Part::of("a"), Part::Dev);
        assert_eq!(Part::of("b"), Part::HeldOut);
    }

    #[test]
    fn repair_reach_keeps_the_largest_and_counts_right_ones_over_the_bound() {
        let s = |as_read, right| Sample {
            gap: 1.0,
            error_probability: 0.0,
            right,
            repairs: Repairs {
                as_read,
                unshown: 0.0,
                worst_unshown: 0.0,
            },
        };
        let samples = [s(12.0, true), s(77.5, false), s(42.1, true), s(3.0, true)];
        let reach = repair_reach(&samples, |r| r.as_read, 40.0);
        assert_eq!(
            reach,
            RepairReach {
                largest: 77.5,
                largest_right: 42.1,
                right_over: 1
            }
        );
        assert_eq!(
            repair_reach(&[], |r| r.as_read, 40.0),
            RepairReach::default()
        );
    }

    #[test]
    fn reliability_bins_count_right_and_wrong() {
        let s = |error_probability, right| Sample {
            gap: 0.0,
            error_probability,
            right,
            repairs: Repairs::default(),
        };
        let samples = [s(0.75, false), s(0.25, true), s(0.1, true), s(0.001, false)];
        let counts: Vec<(f64, usize, usize)> = reliability(&samples, &[0.0, 0.5, 0.99])
            .iter()
            .map(|b| (b.low, b.right, b.wrong))
            .collect();
        assert_eq!(counts, vec![(0.0, 0, 1), (0.5, 2, 0), (0.99, 0, 1)]);
    }

    #[test]
    fn the_threshold_is_the_least_that_keeps_confident_errors_down_counted_and_expected() {
        let calibration = Calibration { a: 0.0, b: 1.0 };
        // Confidence 1 - 1/(1+e^sqrt(g)): gaps 1, 9, 25, 100 give about 0.73,
        // 0.95, 0.993, 0.99995 (error probabilities 0.27, 0.047, 0.0067, 0.00005).
        let s = |gap, right| Sample {
            gap,
            error_probability: 0.0,
            right,
            repairs: Repairs::default(),
        };
        let mut cond = vec![s(1.0, false), s(9.0, false)];
        cond.extend((0..998).map(|_| s(100.0, true)));
        let candidates = [0.5, 0.9, 0.99, 0.999];
        let pick = |limit| choose_threshold(&[(cond.clone(), limit)], &calibration, &candidates);
        assert_eq!(
            pick(0.0005),
            0.99,
            "0.9 still takes the wrong cube at gap 9"
        );
        assert_eq!(pick(0.0), 0.999, "none is good enough: the last");
        assert_eq!(pick(0.1), 0.5);
        // Right cubes the calibration doubts count as expected errors.
        let mut doubted = cond.clone();
        doubted.extend((0..200).map(|_| s(25.0, true)));
        let expected = choose_threshold(&[(doubted, 0.001)], &calibration, &candidates);
        assert_eq!(
            expected, 0.999,
            "200 x 0.0067 = 1.3 expected errors exceed 1.2"
        );
    }

    #[test]
    fn the_calibration_fit_recovers_a_known_logistic() {
        // Exact frequencies from a known curve: 1000 cubes at each gap, the
        // wrong ones as the curve says (rounded); the fit must find it again.
        let (a, b) = (-1.0f64, 1.5f64);
        let mut samples = Vec::new();
        for gap in 0..20 {
            let p = 1.0 / (1.0 + (a + b * (gap as f64).sqrt()).exp());
            let wrong = (1000.0 * p).round() as usize;
            for k in 0..1000 {
                samples.push(Sample {
                    gap: gap as f32,
                    error_probability: 0.0,
                    right: k >= wrong,
                    repairs: Repairs::default(),
                });
            }
        }
        let (fa, fb) = fit_calibration(&samples).expect("both outcomes present");
        assert!((fa - a).abs() < 0.05 && (fb - b).abs() < 0.05, "{fa} {fb}");
        assert_eq!(fit_calibration(&samples[..1]), None);
    }
}
