//! `cubed-bench vision`'s simulated-camera rows: random cubes in the default light and under a lamp too bright (first take, after re-capture, and the same photos kept), on black-body and white-body cubes.

use super::bench_report::report;
use super::vision_bench_args::VisionBenchArgs;
use cubed::vision::camera::sim::{SimLighting, WHITE_BODY};
use cubed::vision::light::palette::Palette;
use cubed::vision::read::classify::ClassifyOptions;
use cubed::vision::recapture::Rounds;
use cubed_bench::measure::evaluate::Tally;
use cubed_bench::measure::sim::{
    tally_sim_cubes, tally_sim_kept_photos, tally_sim_recaptures, SimPhotos,
};

/// Every simulated-camera row: the default light, then a lamp too bright, for cubes of black
/// plastic and of white plastic (where a sticker's rim blurs into white, not into black).
pub fn print_sim_rows(args: &VisionBenchArgs, palette: &Palette, options: &ClassifyOptions) {
    let black = SimPhotos::new(args.seed, SimLighting::default());
    let white = black.on_body(WHITE_BODY);
    for (photos, body) in [(black, "black-body cubes"), (white, "white-body cubes")] {
        print_default_light_rows(args, (&photos, body), palette, options);
        let lamps = [
            (
                SimLighting::too_bright_for_a_webcam(),
                "with a webcam's highlight roll-off",
            ),
            (
                SimLighting::too_bright_clipping(),
                "each channel clipping alone (no roll-off)",
            ),
        ];
        for (lighting, lamp) in lamps {
            let photos = SimPhotos { lighting, ..photos };
            print_recapture_row(args, (&photos, body, lamp), palette, options);
        }
    }
}

fn print_default_light_rows(
    args: &VisionBenchArgs,
    (photos, body): (&SimPhotos, &str),
    palette: &Palette,
    options: &ClassifyOptions,
) {
    let sim = tally_sim_cubes(args.sim_cubes, photos, palette, options);
    let seed = args.seed;
    report(
        &format!("simulated camera, {body}, default lighting, seed {seed}"),
        &sim,
    );
    for failure in sim.failures.iter().take(args.show_failures) {
        println!("    {failure}");
    }
    let kept = tally_sim_kept_photos(args.sim_cubes, photos, palette, options);
    report(
        "  the same photos read as photos kept (clipped stickers read from their rims, as `scan --images` does)",
        &kept,
    );
    let found = photos.with_grids_found();
    let kept = tally_sim_kept_photos(args.sim_cubes, &found, palette, options);
    report(
        "  the same, kept, each photo's grid found (`grid = \"auto\"`; a face without one, or with one a whole sticker off, read on the grid the others agree on)",
        &kept,
    );
    for failure in kept.failures.iter().take(args.show_failures) {
        println!("    {failure}");
    }
}

/// The simulated camera under a lamp too bright: the first take against the outcome after
/// re-capturing, and the same photos read as kept.
fn print_recapture_row(
    args: &VisionBenchArgs,
    (photos, body, lamp): (&SimPhotos, &str, &str),
    palette: &Palette,
    options: &ClassifyOptions,
) {
    let how = Rounds::new(args.recaptures);
    let both = tally_sim_recaptures(args.sim_cubes, photos, &how, palette, options);
    let cells = |t: &Tally| {
        format!(
            "{}/{} right, {} refused, {} confidently wrong",
            t.right,
            t.total(),
            t.unsure,
            t.wrong + t.illegal
        )
    };
    println!(
        "simulated camera, {body}, lamp too bright (x1.3-1.7) {lamp}, seed {}: first take {}; after {} round(s) of re-capture {} ({} faces taken darker, {} brighter, {} as before)",
        args.seed,
        cells(&both.first),
        args.recaptures,
        cells(&both.after),
        both.retaken_darker,
        both.retaken_brighter,
        both.retaken_normal
    );
    for failure in both.after.failures.iter().take(args.show_failures) {
        println!("    {failure}");
    }
    let kept = tally_sim_kept_photos(args.sim_cubes, photos, palette, options);
    println!(
        "  the same photos read as photos kept (clipped stickers read from their rims, as `scan --images` does): {}",
        cells(&kept)
    );
}
