//! `cubed bench vision`'s figures for the bounds that refuse a cube that cannot exist: how far right and wrong best guesses' repairs reach, and what a piece put wrong in place on each real scan costs.

use cubed::vision::classify::{classify, ClassifyError, ClassifyOptions, IMPOSSIBLE_REPAIR};
use cubed::vision::colour::Rgb;
use cubed::vision::evaluate::{repair_reach, LabelledScan, Part, RepairReach, Sample};
use cubed::vision::palette::Palette;

/// How far the best guesses' repairs reach against the bounds that refuse a cube that cannot
/// exist (`IMPOSSIBLE_REPAIR`) and stickers that make no cube (`unshown_bound`).
pub(super) fn print_repair_reach(what: &str, samples: &[Sample], unshown_bound: f32) {
    let words = |reach: RepairReach, bound: f32| {
        format!(
            "up to {:.1}, right ones up to {:.1} (bound {bound}: {} right ones above it, refused)",
            reach.largest, reach.largest_right, reach.right_over
        )
    };
    let as_read = repair_reach(samples, |r| r.as_read, IMPOSSIBLE_REPAIR);
    let unshown = repair_reach(samples, |r| r.unshown, unshown_bound);
    println!(
        "{what}, {} best guesses (every condition, first and final takes): the legal reading costs over the readings as read {}; over each sticker read as it looks {}",
        samples.len(),
        words(as_read, IMPOSSIBLE_REPAIR),
        words(unshown, unshown_bound)
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
                    let ClassifyError::Unsure { best_guess, .. } = e;
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
