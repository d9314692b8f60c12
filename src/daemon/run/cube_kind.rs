//! What a run does differently for a 3x3 and a 2x2 (`CubeKind`): reading and classifying the photos, solving for the robot, and the cube drawn after each planned step. The stage loop (`pipeline`), the classify stage with its re-captures (`scanning`) and the plan stage are one generic path serving both; the solvers keep their own types.

use crate::daemon::run::error::RunError;
use crate::robot::pocket_plan::{solve_pocket_for_robot, PocketAwareOptions};
use crate::robot::{solve_for_robot, AwareError, AwareOptions, Plan, Planner, RobotState};
use cubed_core::cube::FaceletCube;
use cubed_core::pocket::stickers::STICKERS as POCKET_STICKERS;
use cubed_core::pocket::{Metric, PocketFacelets, PocketSolver};
use cubed_core::solver::{Budget, Cancel, Solver};
use cubed_vision::grid::face_grid::FaceGrid;
use cubed_vision::grid::sample::SampleOptions;
use cubed_vision::light::colour::Rgb;
use cubed_vision::light::palette::Palette;
use cubed_vision::read::classify::{classify, Classification, ClassifyOptions};
use cubed_vision::read::pocket::{classify_pocket, PocketClassification};
use cubed_vision::read::reading::{CubeReading, Unsure};
use cubed_vision::read::turned::{settle_tops, settled_words};
use cubed_vision::scan::pocket::read_pocket_photos_and_grids;
use cubed_vision::scan::{
    read_photos_and_grids, tops_in_doubt, FaceGrids, FacePhoto, GridChoice, ScanError,
};
use std::sync::Arc;

/// The parts of a run that depend on the cube's size.
pub(crate) trait CubeKind: Clone + Send + 'static {
    /// The photos' sticker readings, URFDLB, each face in net order.
    type Readings: AsRef<[Rgb]> + Send;
    /// The cube as read from the photos.
    type Seen: CubeReading + Clone + Send + 'static;
    /// Stickers on a face (9 or 4).
    const PER_FACE: usize = <Self::Seen as CubeReading>::PER_FACE;
    /// What the page says while solving.
    const SOLVING: &'static str;
    /// "3x3" or "2x2".
    const NAME: &'static str;
    /// What the run says after homing, if anything.
    const ANNOUNCE: Option<&'static str>;

    /// Samples each photo's stickers: the readings, and the grid each face's photo was sampled
    /// on (URFDLB), with the faces lent one.
    fn read(
        &self,
        photos: &[FacePhoto],
        how: (&GridChoice, &SampleOptions),
    ) -> Result<(Self::Readings, FaceGrids), ScanError>;
    /// Names each sticker's colour, or refuses as unsure.
    fn classify(
        &self,
        readings: &Self::Readings,
        palette: &Palette,
        options: &ClassifyOptions,
    ) -> Result<Self::Seen, Unsure<Self::Seen>>;
    /// The readings with the faces whose tops were in doubt (photos turned by about 45
    /// degrees, on a found grid) settled by the cube's rules, and what to tell the person when
    /// they were; as they are for a 2x2, whose faces are read as its grid finder labels them.
    fn settle(
        &self,
        readings: Self::Readings,
        _grids: (&[FaceGrid], &GridChoice),
        _palette: &Palette,
        _options: &ClassifyOptions,
    ) -> (Self::Readings, Option<String>) {
        (readings, None)
    }
    /// Which photo, turned how, would make a refused reading sure, in words (none for a 2x2,
    /// whose faces have no centre to turn about).
    fn turned(
        &self,
        _readings: &Self::Readings,
        _palette: &Palette,
        _options: &ClassifyOptions,
    ) -> Option<String> {
        None
    }
    /// The cube as the robot planner holds it (a 2x2 rides in a 3x3's corners).
    fn held(seen: &Self::Seen) -> FaceletCube;
    /// The palette symbols of `held` (the planner's cube after a step), in this kind's stickers.
    fn symbols_of(seen: &Self::Seen, held: &FaceletCube) -> String;
    /// The fastest plan for this robot (blocking: run on a worker thread); `cancel` ends it
    /// early, with what it has found so far.
    fn solve(
        &self,
        planner: &Planner,
        start: &RobotState,
        seen: &Self::Seen,
        budget: Budget,
        cancel: Cancel,
    ) -> Result<Plan, RunError>;
}

/// A 3x3: two-phase solving, robot-aware choice among short solutions.
#[derive(Clone)]
pub(crate) struct Three(pub Arc<Solver>);

impl CubeKind for Three {
    type Readings = [Rgb; 54];
    type Seen = Classification;
    const SOLVING: &'static str = "solving: looking for the fastest solution for this robot";
    const NAME: &'static str = "3x3";
    const ANNOUNCE: Option<&'static str> = None;

    fn read(
        &self,
        photos: &[FacePhoto],
        (grid, sampling): (&GridChoice, &SampleOptions),
    ) -> Result<([Rgb; 54], FaceGrids), ScanError> {
        read_photos_and_grids(photos, grid, sampling)
    }

    fn classify(
        &self,
        readings: &[Rgb; 54],
        palette: &Palette,
        options: &ClassifyOptions,
    ) -> Result<Classification, Unsure<Classification>> {
        classify(readings, palette, options)
    }

    fn settle(
        &self,
        readings: [Rgb; 54],
        (grids, grid): (&[FaceGrid], &GridChoice),
        palette: &Palette,
        options: &ClassifyOptions,
    ) -> ([Rgb; 54], Option<String>) {
        let tops = tops_in_doubt(grids, grid);
        match settle_tops(&readings, &tops, palette, options) {
            Some(settled) => (settled, Some(settled_words(&tops))),
            None => (readings, None),
        }
    }

    fn turned(
        &self,
        readings: &[Rgb; 54],
        palette: &Palette,
        options: &ClassifyOptions,
    ) -> Option<String> {
        cubed_vision::read::turned::photo_mistake_words(readings, palette, options)
    }

    fn held(seen: &Classification) -> FaceletCube {
        seen.facelets
    }

    fn symbols_of(seen: &Classification, held: &FaceletCube) -> String {
        held.to_symbols(&seen.scheme)
    }

    fn solve(
        &self,
        planner: &Planner,
        start: &RobotState,
        seen: &Classification,
        budget: Budget,
        cancel: Cancel,
    ) -> Result<Plan, RunError> {
        let options = AwareOptions {
            budget,
            cancel,
            ..AwareOptions::default()
        };
        let solved = solve_for_robot(planner, &self.0, start, &seen.cubies, &options)
            .map_err(RunError::Solve)?;
        Ok(solved.plan)
    }
}

/// A 2x2: no centres (the fixed corner and the palette name the faces), solved optimally.
#[derive(Clone)]
pub(crate) struct Pocket(pub Arc<PocketSolver>);

impl CubeKind for Pocket {
    type Readings = [Rgb; POCKET_STICKERS];
    type Seen = PocketClassification;
    const SOLVING: &'static str = "solving the 2x2: the fastest optimal solution for this robot";
    const NAME: &'static str = "2x2";
    const ANNOUNCE: Option<&'static str> = Some("the cube is a 2x2 ([run] cube_size = 2)");

    fn read(
        &self,
        photos: &[FacePhoto],
        (grid, sampling): (&GridChoice, &SampleOptions),
    ) -> Result<([Rgb; POCKET_STICKERS], FaceGrids), ScanError> {
        read_pocket_photos_and_grids(photos, grid, sampling)
    }

    fn classify(
        &self,
        readings: &[Rgb; POCKET_STICKERS],
        palette: &Palette,
        options: &ClassifyOptions,
    ) -> Result<PocketClassification, Unsure<PocketClassification>> {
        classify_pocket(readings, palette, options)
    }

    fn held(seen: &PocketClassification) -> FaceletCube {
        seen.facelets.to_3x3()
    }

    fn symbols_of(seen: &PocketClassification, held: &FaceletCube) -> String {
        PocketFacelets::from_3x3(held).to_symbols(&seen.scheme)
    }

    fn solve(
        &self,
        planner: &Planner,
        start: &RobotState,
        seen: &PocketClassification,
        budget: Budget,
        cancel: Cancel,
    ) -> Result<Plan, RunError> {
        let options = PocketAwareOptions {
            metric: Metric::Htm,
            budget,
            cancel,
            ..PocketAwareOptions::default()
        };
        solve_pocket_for_robot(planner, &self.0, start, &seen.facelets, &options)
            .map_err(|e| RunError::Solve(AwareError::Plan(e)))
    }
}
