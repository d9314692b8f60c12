//! Measuring the daemon's re-capture, for either cube size (`Reader`): a cube's readings classified, the faces of doubtful stickers taken again (at the exposure `recapture` chooses, or always the same one) for a number of rounds, the first take and the final outcome counted apart; over photos (the simulated camera, the photo set) or over real readings under a seeded lighting perturbation.

use crate::measure::evaluate::{name_hash, LabelledScan, Tally};
use crate::measure::perturb::{DrawnLight, Perturbation};
use crate::measure::perturb_photo::{PhotoCondition, PhotoPerturbError};
use cubed::cube::{Face, FaceletCube};
use cubed::error_chain::error_chain;
use cubed::vision::camera::{CameraError, Exposure};
use cubed::vision::grid::sample::SampleOptions;
use cubed::vision::light::colour::Rgb;
use cubed::vision::light::palette::Palette;
use cubed::vision::read::classify::{classify, Classification, ClassifyError, ClassifyOptions};
use cubed::vision::read::reading::{CubeReading, Unsure};
use cubed::vision::read::turned::settle_tops;
use cubed::vision::recapture::{overexposed_cube, Rounds};
use cubed::vision::scan::{read_photos_with_tops, FacePhoto, GridChoice, PhotoReadings, ScanError};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Outcomes of the first take and after re-capturing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecaptureTally<T = Tally> {
    pub first: T,
    pub after: T,
    /// Faces taken again, by the way their exposure stepped from their last photo.
    pub retaken_darker: usize,
    pub retaken_brighter: usize,
    pub retaken_normal: usize,
}

impl RecaptureTally {
    /// Adds `other`'s outcomes to these.
    pub fn absorb(&mut self, other: RecaptureTally) {
        self.first.absorb(other.first);
        self.after.absorb(other.after);
        self.retaken_darker += other.retaken_darker;
        self.retaken_brighter += other.retaken_brighter;
        self.retaken_normal += other.retaken_normal;
    }
}

/// Why a cube's faces cannot be read: a photo not taken, or the photos not read (shared, as
/// every read of the same shots says the same).
#[derive(Clone, Debug, thiserror::Error)]
pub enum ShotsError {
    /// The camera did not take a photo.
    #[error(transparent)]
    Camera(Arc<CameraError>),
    /// A photo could not be changed as the condition says.
    #[error(transparent)]
    Perturb(Arc<PhotoPerturbError>),
    /// The photos were taken but could not be read.
    #[error(transparent)]
    Scan(Arc<ScanError>),
}

impl From<CameraError> for ShotsError {
    fn from(e: CameraError) -> Self {
        ShotsError::Camera(Arc::new(e))
    }
}

impl From<PhotoPerturbError> for ShotsError {
    fn from(e: PhotoPerturbError) -> Self {
        ShotsError::Perturb(Arc::new(e))
    }
}

impl From<ScanError> for ShotsError {
    fn from(e: ScanError) -> Self {
        ShotsError::Scan(Arc::new(e))
    }
}

/// A cube's faces as taken so far, read as `R`.
pub trait Shots<R = [Rgb; 54]> {
    /// The readings of the faces as last taken (or why they cannot be read).
    fn readings(&mut self) -> Result<R, ShotsError>;
    /// Takes each face again at its exposure.
    fn retake(&mut self, again: &[(Face, Exposure)]);
}

/// How photos become readings (`read_photos` for a 3x3, `read_pocket_photos` for a 2x2).
pub type ReadPhotos<R> = fn(&[FacePhoto], &GridChoice, &SampleOptions) -> Result<R, ScanError>;

/// Photos, taken by a function of the faces and their exposures, read with a grid.
pub struct PhotoShots<'a, F, R = [Rgb; 54]> {
    take: F,
    grid: &'a GridChoice,
    read: ReadPhotos<R>,
    sampling: SampleOptions,
    photos: Result<Vec<FacePhoto>, ShotsError>,
}

impl<'a, F, R> PhotoShots<'a, F, R>
where
    F: FnMut(&[(Face, Exposure)]) -> Result<Vec<FacePhoto>, ShotsError>,
{
    /// Takes the six faces at the normal exposure, to be read by `read`.
    pub fn read_by(mut take: F, grid: &'a GridChoice, read: ReadPhotos<R>) -> Self {
        let photos = take(&Face::ALL.map(|f| (f, Exposure::NORMAL)));
        PhotoShots {
            take,
            grid,
            read,
            sampling: SampleOptions::default(),
            photos,
        }
    }

    /// The photos sampled with `sampling` (by default as a camera's).
    pub fn sampled(self, sampling: SampleOptions) -> Self {
        PhotoShots { sampling, ..self }
    }
}

impl<F, R> Shots<R> for PhotoShots<'_, F, R>
where
    F: FnMut(&[(Face, Exposure)]) -> Result<Vec<FacePhoto>, ShotsError>,
{
    fn readings(&mut self) -> Result<R, ShotsError> {
        let photos = self.photos.as_ref().map_err(Clone::clone)?;
        Ok((self.read)(photos, self.grid, &self.sampling)?)
    }

    fn retake(&mut self, again: &[(Face, Exposure)]) {
        let retaken = (self.take)(again);
        let photos = std::mem::replace(&mut self.photos, Ok(Vec::new()));
        self.photos = photos.and_then(|mut p| {
            p.retain(|photo| !again.iter().any(|(f, _)| *f == photo.face));
            p.extend(retaken?);
            Ok(p)
        });
    }
}

/// Real readings under one draw of a lighting perturbation; a face taken again keeps its draw
/// with the light of the exposure asked for.
pub struct ScanShots<'a> {
    readings: &'a [Rgb; 54],
    drawn: DrawnLight,
    light: [f32; 6],
}

impl<'a> ScanShots<'a> {
    /// The readings under `drawn`, every face at the normal exposure.
    pub fn new(readings: &'a [Rgb; 54], drawn: DrawnLight) -> Self {
        ScanShots {
            readings,
            drawn,
            light: [1.0; 6],
        }
    }
}

impl Shots for ScanShots<'_> {
    fn readings(&mut self) -> Result<[Rgb; 54], ShotsError> {
        Ok(self.drawn.apply(self.readings, &self.light))
    }

    fn retake(&mut self, again: &[(Face, Exposure)]) {
        for (face, exposure) in again {
            self.light[face.index()] = exposure.factor();
        }
    }
}

/// One cube size's reading, for the re-capture rounds.
pub trait Reader {
    /// The readings, sticker by sticker.
    type Readings: AsRef<[Rgb]>;
    type Truth;
    /// What classifying gives: a cube, or a refusal with the stickers in doubt.
    type Outcome: Clone;
    type Tally: Default;
    /// Stickers a face.
    const PER_FACE: usize;
    fn classify(&self, readings: &Self::Readings) -> Self::Outcome;
    /// The stickers whose faces to photograph again, as the daemon chooses them: those in doubt
    /// of a refused reading, with those that show their face washed out (taken darker); or
    /// those of a cube given that were overexposed (`recapture::overexposed_stickers`, taken
    /// darker); `None`: none.
    fn to_take_again(
        &self,
        outcome: &Self::Outcome,
        readings: &Self::Readings,
    ) -> Option<ToTakeAgain>;
    fn record(
        tally: &mut Self::Tally,
        name: String,
        readings: &Self::Readings,
        truth: &Self::Truth,
        outcome: Self::Outcome,
    );
    /// Counts a cube whose photos could not be read as refused.
    fn unreadable(tally: &mut Self::Tally, why: String);
}

/// Stickers whose faces to take again: those in doubt (each face stepped as its stickers came
/// out) and those whose faces to take darker.
pub type ToTakeAgain = (Vec<usize>, Vec<usize>);

/// What to take again after `outcome` (a reading of either size) as the daemon chooses it.
pub(crate) fn take_again<R: CubeReading>(
    outcome: &Result<R, Unsure<R>>,
    readings: &[Rgb],
    palette: &Palette,
) -> Option<ToTakeAgain> {
    match outcome {
        Err(Unsure {
            stickers,
            best_guess,
            ..
        }) => Some((stickers.clone(), best_guess.washed_out().to_vec())),
        Ok(c) => {
            let faces_and_names = (c.faces(), c.colour_names());
            overexposed(readings, faces_and_names, palette, R::PER_FACE).map(|s| (Vec::new(), s))
        }
    }
}

/// The 3x3's reading.
pub struct Reading<'a> {
    pub palette: &'a Palette,
    pub options: &'a ClassifyOptions,
}

impl Reader for Reading<'_> {
    type Readings = [Rgb; 54];
    type Truth = FaceletCube;
    type Outcome = Result<Classification, ClassifyError>;
    type Tally = Tally;
    const PER_FACE: usize = 9;

    fn classify(&self, readings: &[Rgb; 54]) -> Self::Outcome {
        classify(readings, self.palette, self.options)
    }

    fn to_take_again(&self, outcome: &Self::Outcome, readings: &[Rgb; 54]) -> Option<ToTakeAgain> {
        take_again(outcome, readings, self.palette)
    }

    fn record(
        tally: &mut Tally,
        name: String,
        readings: &[Rgb; 54],
        truth: &FaceletCube,
        outcome: Self::Outcome,
    ) {
        tally.record_result(name, readings, truth, outcome);
    }

    fn unreadable(tally: &mut Tally, why: String) {
        tally.unsure += 1;
        tally.failures.push(why);
    }
}

/// The 3x3's reading of photos: faces whose tops were in doubt settled by the cube's rules
/// (`turned::settle_tops`), then classified as [`Reading`] does.
pub struct PhotoReading<'a>(pub Reading<'a>);

impl PhotoReading<'_> {
    fn settled(&self, r: &PhotoReadings) -> [Rgb; 54] {
        let (palette, options) = (self.0.palette, self.0.options);
        settle_tops(&r.readings, &r.tops, palette, options).unwrap_or(r.readings)
    }
}

impl Reader for PhotoReading<'_> {
    type Readings = PhotoReadings;
    type Truth = FaceletCube;
    type Outcome = Result<Classification, ClassifyError>;
    type Tally = Tally;
    const PER_FACE: usize = 9;

    fn classify(&self, readings: &PhotoReadings) -> Self::Outcome {
        self.0.classify(&self.settled(readings))
    }

    fn to_take_again(
        &self,
        outcome: &Self::Outcome,
        readings: &PhotoReadings,
    ) -> Option<ToTakeAgain> {
        self.0.to_take_again(outcome, &readings.readings)
    }

    fn record(
        tally: &mut Tally,
        name: String,
        readings: &PhotoReadings,
        truth: &FaceletCube,
        outcome: Self::Outcome,
    ) {
        tally.record_result(name, &readings.readings, truth, outcome);
    }

    fn unreadable(tally: &mut Tally, why: String) {
        Reading::unreadable(tally, why);
    }
}

impl<T> RecaptureTally<T> {
    /// Classifies one cube from `shots` as `reader` does, re-capturing in `rounds` (fresh: none
    /// taken yet), and counts the first take and the outcome. Unreadable photos are all taken
    /// again, as the daemon does.
    pub fn read_cube<R: Reader<Tally = T>>(
        &mut self,
        (name, truth): (&str, &R::Truth),
        (reader, rounds): (&R, &Rounds),
        shots: &mut dyn Shots<R::Readings>,
    ) {
        let mut rounds = rounds.clone();
        let mut first = true;
        loop {
            let readings = match shots.readings() {
                Ok(r) => r,
                Err(e) => {
                    let again = rounds.again_after_unreadable();
                    let why = format!("{name}: {}", error_chain(&e));
                    if std::mem::take(&mut first) {
                        R::unreadable(&mut self.first, why.clone());
                    }
                    if !again {
                        R::unreadable(&mut self.after, why);
                        return;
                    }
                    shots.retake(&Face::ALL.map(|f| (f, Exposure::NORMAL)));
                    continue;
                }
            };
            let outcome = reader.classify(&readings);
            if std::mem::take(&mut first) {
                R::record(
                    &mut self.first,
                    name.to_owned(),
                    &readings,
                    truth,
                    outcome.clone(),
                );
            }
            let before = rounds.clone();
            let again = reader
                .to_take_again(&outcome, &readings)
                .and_then(|(doubtful, darker)| {
                    let stickers = (doubtful.as_slice(), darker.as_slice());
                    rounds.again_after_doubt_in_light(readings.as_ref(), stickers, R::PER_FACE)
                });
            let Some(again) = again else {
                R::record(&mut self.after, name.to_owned(), &readings, truth, outcome);
                return;
            };
            for &(face, exposure) in &again {
                self.count_retake(before.exposure_of(face), exposure);
            }
            shots.retake(&again);
        }
    }

    fn count_retake(&mut self, before: Exposure, after: Exposure) {
        *match after.in_stops().cmp(&before.in_stops()) {
            std::cmp::Ordering::Less => &mut self.retaken_darker,
            std::cmp::Ordering::Greater => &mut self.retaken_brighter,
            std::cmp::Ordering::Equal => &mut self.retaken_normal,
        } += 1;
    }
}

/// Calls `each` with every scan's `variants` seeded lighting variants, numbered, as shots to
/// read (the same draws for either cube size).
pub fn for_each_variant<'a>(
    scans: &'a [LabelledScan],
    (variants, seed): (usize, u64),
    perturbation: &'a Perturbation,
    mut each: impl FnMut(&'a LabelledScan, usize, ScanShots<'a>),
) {
    for scan in scans {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ name_hash(&scan.name));
        for v in 0..variants {
            let drawn = perturbation.draw(&mut rng);
            each(scan, v, ScanShots::new(&scan.readings, drawn));
        }
    }
}

/// `variants` seeded lighting variants of every scan.
pub fn tally_variants(
    scans: &[LabelledScan],
    variants: usize,
    seed: u64,
    perturbation: &Perturbation,
    palette: &Palette,
    options: &ClassifyOptions,
) -> Tally {
    let reading = Reading { palette, options };
    let once = (&reading, &Rounds::new(0));
    tally_variants_recaptured(scans, (variants, seed), perturbation, once).first
}

/// `variants` seeded lighting variants of every scan, re-captured in `rounds`.
pub fn tally_variants_recaptured(
    scans: &[LabelledScan],
    draws: (usize, u64),
    perturbation: &Perturbation,
    (reading, rounds): (&Reading, &Rounds),
) -> RecaptureTally {
    let mut tally = RecaptureTally::default();
    for_each_variant(scans, draws, perturbation, |scan, v, mut shots| {
        let name = format!("{} variant {v}", scan.name);
        tally.read_cube((&name, &scan.truth), (reading, rounds), &mut shots);
    });
    tally
}

/// `variants` seeded variants of a set of face photos under a photo condition (each face's
/// photo changed with its own draw), each read with the grid found automatically and
/// classified, re-captured in `rounds`. A face taken again repeats its draw at the exposure
/// asked for. A variant whose photos cannot be read counts as refused.
pub fn tally_photo_variants(
    photos: &[FacePhoto],
    truth: &FaceletCube,
    condition: &PhotoCondition,
    (variants, seed): (usize, u64),
    (reading, rounds): (&Reading, &Rounds),
) -> RecaptureTally {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ name_hash(condition.name));
    let mut tally = RecaptureTally::default();
    for v in 0..variants {
        // Each face: its first take, and its draw to repeat at another exposure.
        let takes: Vec<(Result<FacePhoto, ShotsError>, ChaCha8Rng)> = (photos.iter())
            .map(|p| {
                let draw = rng.clone();
                let first = condition.change.apply(&p.image, &mut rng);
                (changed_photo(p, first), draw)
            })
            .collect();
        let take = |again: &[(Face, Exposure)]| {
            (again.iter())
                .filter_map(|&(face, exposure)| {
                    let i = photos.iter().position(|p| p.face == face)?;
                    let (first, draw) = &takes[i];
                    Some(if exposure == Exposure::NORMAL {
                        first.clone()
                    } else {
                        let change = &condition.change;
                        let retaken =
                            change.apply_at(&photos[i].image, &mut draw.clone(), exposure.factor());
                        changed_photo(&photos[i], retaken)
                    })
                })
                .collect()
        };
        let mut shots = PhotoShots::read_by(take, &GridChoice::Auto, read_photos_with_tops)
            .sampled(SampleOptions::for_kept_photos());
        let name = format!("{} variant {v}", condition.name);
        let reading = PhotoReading(Reading {
            palette: reading.palette,
            options: reading.options,
        });
        tally.read_cube((&name, truth), (&reading, rounds), &mut shots);
    }
    tally
}

fn changed_photo(
    photo: &FacePhoto,
    changed: Result<image::RgbImage, PhotoPerturbError>,
) -> Result<FacePhoto, ShotsError> {
    Ok(FacePhoto {
        image: changed?,
        ..photo.clone()
    })
}

/// The stickers to take again of a cube read surely (`recapture::overexposed_cube`), `None`
/// when there are none.
pub(crate) fn overexposed(
    readings: &[Rgb],
    faces_and_names: (&[Face], &[usize; 6]),
    palette: &Palette,
    per_face: usize,
) -> Option<Vec<usize>> {
    let stickers = overexposed_cube(readings, faces_and_names, palette, per_face);
    (!stickers.is_empty()).then_some(stickers)
}
