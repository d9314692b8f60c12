//! `cubed-bench vision`'s figures for the bounds that refuse a cube that cannot exist: how far right and wrong best guesses' repairs reach, and what a piece put wrong in place on each real scan costs.

use cubed::cube::FaceletCube;
use cubed::pocket::PocketFacelets;
use cubed::vision::light::colour::Rgb;
use cubed::vision::light::palette::Palette;
use cubed::vision::read::classify::Doubt;
use cubed::vision::read::classify::{
    classify, Classification, ClassifyError, ClassifyOptions, IMPOSSIBLE_REPAIR,
    WORST_UNSHOWN_REPAIR,
};
use cubed::vision::read::pocket::{classify_pocket, PocketClassification, PocketClassifyError};
use cubed_bench::measure::evaluate::{repair_reach, LabelledScan, Part, RepairReach, Sample};
use cubed_bench::measure::pocket::corners_of;

/// How far the best guesses' repairs reach against the bounds that refuse a cube that cannot
/// exist (`IMPOSSIBLE_REPAIR`), stickers that make no cube (`unshown_bound`) and one sticker
/// clearly given a colour it does not have (`worst_bound`; the 2x2 has none).
pub(super) fn print_repair_reach(
    what: &str,
    samples: &[Sample],
    (unshown_bound, worst_bound): (f32, Option<f32>),
) {
    let words = |reach: RepairReach, bound: Option<f32>| {
        let against = match bound {
            Some(b) => format!(
                "bound {b}: {} right ones above it, refused",
                reach.right_over
            ),
            None => "not bounded".to_string(),
        };
        format!(
            "up to {:.1}, right ones up to {:.1} ({against})",
            reach.largest, reach.largest_right
        )
    };
    let as_read = repair_reach(samples, |r| r.as_read, IMPOSSIBLE_REPAIR);
    let unshown = repair_reach(samples, |r| r.unshown, unshown_bound);
    let worst = repair_reach(
        samples,
        |r| r.worst_unshown,
        worst_bound.unwrap_or(f32::INFINITY),
    );
    println!(
        "{what}, {} best guesses (every condition, first and final takes): the legal reading costs over the readings as read {}; over each sticker read as it looks {}; one sticker's share of that {}",
        samples.len(),
        words(as_read, Some(IMPOSSIBLE_REPAIR)),
        words(unshown, Some(unshown_bound)),
        words(worst, worst_bound)
    );
}

/// Puts one piece of a scan's readings wrong in place.
type PutWrong = fn(&mut [Rgb; 54]);

/// Each real scan with one piece put wrong in place (edge UF flipped, corner URF twisted,
/// corner URF mirrored: two of its stickers swapped): the repair each costs, and how many are
/// refused as impossible.
pub(super) fn print_pieces_wrong_in_place(
    all: &[(Part, LabelledScan)],
    palette: &Palette,
    options: &ClassifyOptions,
) {
    let wrongs: [(&str, PutWrong); 3] = [
        ("an edge flipped", |r| r.swap(7, 19)),
        ("a corner twisted", |r| {
            (r[8], r[9], r[20]) = (r[20], r[8], r[9]);
        }),
        ("a corner mirrored", |r| r.swap(8, 9)),
    ];
    let mut said = Vec::new();
    for (how, put_wrong) in wrongs {
        let (mut least, mut most, mut refused) = (f32::INFINITY, 0.0f32, 0);
        for (_, scan) in all {
            let mut readings = scan.readings;
            put_wrong(&mut readings);
            let (guess, impossible) = match classify(&readings, palette, options) {
                Ok(cube) => (cube, false),
                Err(e) => {
                    let impossible = e.kind() == "impossible";
                    let ClassifyError { best_guess, .. } = e;
                    (*best_guess, impossible)
                }
            };
            let repair = guess.repairs.as_read;
            (least, most) = (least.min(repair), most.max(repair));
            refused += usize::from(impossible);
        }
        said.push(format!(
            "{how} {least:.0} to {most:.0} ({refused} of {} refused as impossible)",
            all.len()
        ));
    }
    println!(
        "a piece put wrong in place on each real scan, the legal reading's cost over the readings as read (bound {IMPOSSIBLE_REPAIR}): {}",
        said.join("; ")
    );
}

/// How a reading of a cube that cannot exist ended: refused as impossible, refused otherwise,
/// read surely as the cube before it was made impossible, or surely as another.
#[derive(Default)]
struct Ends {
    impossible: usize,
    unsure: usize,
    as_before: usize,
    another: usize,
    /// The least and most one sticker's share of the repair, among those read surely.
    sure_worst: Option<(f32, f32)>,
}

/// One reading's end.
enum End {
    Impossible,
    Unsure,
    AsBefore,
    Another,
}

impl Ends {
    /// Counts a reading's end; `worst` is one sticker's largest share of its repair.
    fn count(&mut self, end: End, worst: f32) {
        let counter = match end {
            End::Impossible => &mut self.impossible,
            End::Unsure => &mut self.unsure,
            End::AsBefore => &mut self.as_before,
            End::Another => &mut self.another,
        };
        *counter += 1;
        if matches!(end, End::AsBefore | End::Another) {
            let (least, most) = self.sure_worst.unwrap_or((worst, worst));
            self.sure_worst = Some((least.min(worst), most.max(worst)));
        }
    }

    fn count_3x3(&mut self, result: Result<Classification, ClassifyError>, truth: &FaceletCube) {
        match result {
            Err(e) if e.kind() == "impossible" => self.count(End::Impossible, 0.0),
            Err(_) => self.count(End::Unsure, 0.0),
            Ok(c) if c.facelets == *truth => self.count(End::AsBefore, c.repairs.worst_unshown),
            Ok(c) => self.count(End::Another, c.repairs.worst_unshown),
        }
    }

    fn count_2x2(
        &mut self,
        result: Result<PocketClassification, PocketClassifyError>,
        truth: &PocketFacelets,
    ) {
        match result {
            Err(PocketClassifyError {
                doubt: Doubt::Impossible,
                ..
            }) => self.count(End::Impossible, 0.0),
            Err(_) => self.count(End::Unsure, 0.0),
            Ok(c) if c.facelets == *truth => self.count(End::AsBefore, c.repairs.worst_unshown),
            Ok(c) => self.count(End::Another, c.repairs.worst_unshown),
        }
    }

    fn words(&self, what: &str) -> String {
        let total = self.impossible + self.unsure + self.as_before + self.another;
        let (least, most) = self.sure_worst.unwrap_or_default();
        format!(
            "{what}: {total}; refused as impossible {}, refused as unsure {}, read surely as the cube before {}, as another cube {} (one sticker's share of their repair {least:.0} to {most:.0})",
            self.impossible, self.unsure, self.as_before, self.another
        )
    }
}

/// Each real scan made impossible as a person would: every two stickers of different colours
/// swapped (re-stickered), and each centre covered by another centre's colour.
pub(super) fn print_stickers_swapped(
    all: &[(Part, LabelledScan)],
    palette: &Palette,
    options: &ClassifyOptions,
) {
    for part in [Part::Dev, Part::HeldOut] {
        let scans: Vec<&LabelledScan> = (all.iter().filter(|(p, _)| *p == part))
            .map(|(_, s)| s)
            .collect();
        if !scans.is_empty() {
            print_restickered(part, &scans, palette, options);
        }
    }
}

fn print_restickered(
    part: Part,
    scans: &[&LabelledScan],
    palette: &Palette,
    options: &ClassifyOptions,
) {
    let (mut swapped, mut covered) = (Ends::default(), Ends::default());
    for scan in scans {
        let colour = |s: usize| scan.truth.stickers[s];
        let stickers = (0..54).filter(|s| s % 9 != 4);
        for a in stickers.clone() {
            for b in stickers
                .clone()
                .filter(|&b| b > a && colour(b) != colour(a))
            {
                let mut readings = scan.readings;
                readings.swap(a, b);
                swapped.count_3x3(classify(&readings, palette, options), &scan.truth);
            }
        }
        for f in 0..6 {
            for g in (0..6).filter(|&g| g != f) {
                let mut readings = scan.readings;
                readings[f * 9 + 4] = scan.readings[g * 9 + 4];
                covered.count_3x3(classify(&readings, palette, options), &scan.truth);
            }
        }
    }
    println!(
        "{} part's real scans re-stickered (bound on one sticker's share {WORST_UNSHOWN_REPAIR}): {}; {}",
        part.label(),
        swapped.words("two stickers of different colours swapped"),
        covered.words("a centre covered with another centre's colour")
    );
    let mut pocket = Ends::default();
    for scan in scans {
        let (corners, truth) = corners_of(&scan.readings, &scan.truth);
        let colour = |s: usize| truth.stickers[s];
        for a in 0..corners.len() {
            for b in (a + 1..corners.len()).filter(|&b| colour(b) != colour(a)) {
                let mut readings = corners;
                readings.swap(a, b);
                pocket.count_2x2(classify_pocket(&readings, palette, options), &truth);
            }
        }
    }
    println!(
        "{} part's real scans' corners read as 2x2s, re-stickered: {}",
        part.label(),
        pocket.words("two stickers of different colours swapped")
    );
}
