//! `cubed-bench vision`'s arguments: the data, the seeds, the variants and what to show.

use clap::{Args, ValueEnum};
use cubed::vision::read::classify::ClassifyOptions;
use std::path::PathBuf;

/// Which parts of the labelled scans to run.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq)]
pub enum Parts {
    Dev,
    HeldOut,
    Both,
}

#[derive(Args, Debug)]
pub struct VisionBenchArgs {
    /// Folder of labelled scans (`expected` set). Split by file name into a
    /// development part and a held-out part (FNV-1a of the stem odd: held out).
    #[arg(long, default_value = "tests/data/vision/scans")]
    pub scans: PathBuf,
    /// Folder of six labelled photos (`expected.json`).
    #[arg(long, default_value = "tests/data/vision/photos/3x3x3-random-01")]
    pub photos: PathBuf,
    /// Folder of held-out photo sets (each a folder of six labelled photos), never used to
    /// choose a constant: read as they are and under the photo conditions, pooled.
    #[arg(long, default_value = "tests/data/vision/photos-held-out")]
    pub held_out_photos: PathBuf,
    /// Lighting variants per real scan and condition.
    #[arg(long, default_value_t = 200)]
    pub variants: usize,
    /// Random cubes through the simulated camera.
    #[arg(long, default_value_t = 200)]
    pub sim_cubes: usize,
    /// Seeded variants of the photo set per photo condition.
    #[arg(long, default_value_t = 20)]
    pub photo_variants: usize,
    /// Rounds of re-capturing the faces in doubt, in every table (as `[vision] recaptures`).
    #[arg(long, default_value_t = cubed::vision::recapture::DEFAULT_RECAPTURES)]
    pub recaptures: u32,
    /// Repetitions for the timings.
    #[arg(long, default_value_t = 300)]
    pub timing_runs: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Which parts of the scans to run.
    #[arg(long, value_enum, default_value_t = Parts::Both)]
    pub parts: Parts,
    /// Print up to this many failures per condition (the scans: development part only; the
    /// photo set: first take and after re-capture).
    #[arg(long, default_value_t = 0)]
    pub show_failures: usize,
    /// The least calibrated probability of a right reading (default: the classifier's).
    #[arg(long, default_value_t = ClassifyOptions::default().min_confidence)]
    pub min_confidence: f32,
    /// Write the development part's (least gap, right) pairs as CSV.
    #[arg(long)]
    pub samples_out: Option<PathBuf>,
    /// First fit the calibration (the two logistic constants of `classify.rs`)
    /// and choose the least confidence (≤ 0.1 % confident errors in every
    /// condition but strong drift) on the development part, print them, and
    /// measure with them.
    #[arg(long)]
    pub fit: bool,
    /// How far one face's white balance may differ from its exposure, per
    /// channel (ratio in linear light; default: the classifier's).
    #[arg(long, default_value_t = ClassifyOptions::default().face_cast)]
    pub face_cast: f32,
    /// Weight of the chromaticity distance in the sticker cost (default: the classifier's).
    #[arg(long, default_value_t = ClassifyOptions::default().chromaticity_weight)]
    pub chromaticity_weight: f32,
    /// Share of the calibrated palette in each reference colour (default: the classifier's).
    #[arg(long, default_value_t = ClassifyOptions::default().palette_weight)]
    pub palette_weight: f32,
    /// How far off each face's corrected light may still be, per channel (ratio in linear light; default: the classifier's).
    #[arg(long, default_value_t = ClassifyOptions::default().light_doubt)]
    pub light_doubt: f32,
}
