//! The daemon's other jobs: calibration from a scan of a solved cube (a recorded run that moves the robot) and guide mode (a solution for a person to follow, turn by turn; no robot).

use super::api::{CalibrationDoc, GuideDoc, Refusal};
use super::board::palette_doc;
use super::context::RunContext;
use super::cube_size::RunCube;
use super::pipeline::home;
use super::run_error::RunError;
use super::scanning::capture_scan;
use crate::atomic_file::write_atomically;
use crate::cube::notation::{singmaster, woolley};
use crate::cube::Face;
use crate::cube::{parse_cube, FaceOrder, Move};
use crate::error_chain::error_chain;
use crate::solver::Solver;
use crate::vision::calibrate::calibrate;
use crate::vision::pocket_sample::{read_pocket_photos, solved_pocket_as_nine};
use crate::vision::sample::SampleOptions;
use crate::vision::scan::read_photos;
use std::sync::Arc;
use std::time::Duration;

/// Scans the (solved) cube in the robot and recalibrates the palette from it; the new palette
/// is written to the data directory (atomically) and used from now on.
pub(crate) async fn calibrate_run(ctx: &mut RunContext) -> Result<CalibrationDoc, RunError> {
    home(ctx).await?;
    ctx.board.set(
        super::api::DaemonState::Scanning,
        "calibrating: photographing a solved cube",
    );
    let photos = capture_scan(ctx, 0, &Face::ALL).await?;
    let options = SampleOptions::default();
    let readings = match ctx.settings.cube {
        RunCube::Three => read_photos(&photos, &ctx.rig.grid, &options),
        RunCube::Pocket(_) => read_pocket_photos(&photos, &ctx.rig.grid, &options)
            .map(|four| solved_pocket_as_nine(&four)),
    }
    .map_err(RunError::Unreadable)?;
    let calibration = calibrate(&readings, &ctx.rig.palette).map_err(RunError::Calibrate)?;
    let file = ctx.rig.calibrated_file.clone();
    write_atomically(&file, calibration.palette.to_toml().as_bytes()).map_err(|source| {
        RunError::WritePalette {
            path: file.clone(),
            source,
        }
    })?;
    ctx.rig.palette = calibration.palette.clone();
    ctx.rig.palette_file = file.clone();
    let palette = palette_doc(&calibration.palette);
    ctx.board.update(|s| s.palette = palette.clone());
    Ok(CalibrationDoc {
        palette,
        before: calibration.colours.iter().map(|c| c.before).collect(),
        after: calibration.colours.iter().map(|c| c.after).collect(),
        saved_to: file.display().to_string(),
    })
}

/// Solves a cube typed by a person and lists the cube after each turn.
pub(crate) async fn guide(solver: Arc<Solver>, facelets: String) -> Result<GuideDoc, Refusal> {
    let text = facelets.trim().to_string();
    let (cube, scheme, cubies) = parse_cube(&text, FaceOrder::Urfdlb, None)
        .map_err(|e| Refusal::bad_request(error_chain(&e)))?;
    let turns =
        tokio::task::spawn_blocking(move || solver.solve(&cubies, Duration::from_millis(500)))
            .await
            .map_err(|e| Refusal::unavailable(format!("solver task: {}", error_chain(&e))))?
            .map_err(|e| Refusal::bad_request(error_chain(&e)))?;
    let moves: Vec<Move> = turns.iter().map(|&t| Move::Turn(t)).collect();
    let mut states = vec![cube.to_symbols(&scheme)];
    let mut now = cube;
    for &m in &moves {
        now = now.apply(m);
        states.push(now.to_symbols(&scheme));
    }
    Ok(GuideDoc {
        facelets: text,
        solution: moves.iter().map(|&m| singmaster(m)).collect(),
        woolley: moves
            .iter()
            .map(|&m| woolley(m).unwrap_or_else(|_| singmaster(m)))
            .collect(),
        states,
    })
}
