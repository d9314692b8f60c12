//! Calibration, a recorded run that moves the robot: the solved cube photographed (again a stop darker while the light washed out a face and the camera can), its colours made the palette, written to the data directory and used from now on, and what it made kept with the run.

use crate::daemon::board::palette_doc;
use crate::daemon::cube_size::RunCube;
use crate::daemon::docs::CalibrationDoc;
use crate::daemon::run::capture::{at_normal_exposure, Purpose};
use crate::daemon::run::context::RunContext;
use crate::daemon::run::error::RunError;
use crate::daemon::run::pipeline::{home, photograph, photograph_again};
use cubed_core::cube::Face;
use cubed_files::atomic_file::write_atomically;
use cubed_vision::camera::{Exposure, Retake};
use cubed_vision::light::colour::Rgb;
use cubed_vision::read::calibrate::{calibrate, washed_out_faces, CalibrateError, Calibration};
use cubed_vision::scan::pocket::{read_pocket_photos_and_grids, solved_pocket_as_nine};
use cubed_vision::scan::read_photos_and_grids;
use cubed_vision::scan::FacePhoto;

/// Scans the (solved) cube in the robot and recalibrates the palette from it; the new palette
/// is written to the data directory (atomically) and used from now on.
pub(crate) async fn calibrate_run(ctx: &mut RunContext) -> Result<CalibrationDoc, RunError> {
    home(ctx).await?;
    ctx.board.set(
        crate::daemon::docs::DaemonState::Scanning,
        "calibrating: photographing a solved cube",
    );
    let taken = readings_not_washed_out(ctx).await?;
    // Colours the light washed out would be calibrated wrong: refused, naming the light.
    if !taken.washed_out.is_empty() {
        return Err(RunError::CalibrateWashedOut {
            faces: face_letters(&taken.washed_out),
            rounds: taken.rounds,
        });
    }
    let calibration = (taken.calibrated.as_ref()).map_err(|e| RunError::Calibrate(e.clone()))?;
    let warnings = what_to_mend(calibration, &taken);
    for line in &warnings {
        tracing::warn!("{line}");
        ctx.board.log(line.clone());
    }
    let file = ctx.rig.calibrated_file.clone();
    write_atomically(&file, calibration.palette.to_toml().as_bytes()).map_err(|source| {
        RunError::WritePalette {
            path: file.clone(),
            source,
        }
    })?;
    ctx.rig.palette = calibration.palette.clone();
    ctx.rig.palette_file = file.clone();
    ctx.rig.calibrated_palette_written();
    let palette = palette_doc(&calibration.palette);
    ctx.board.update(|s| s.palette = palette.clone());
    let doc = CalibrationDoc {
        palette,
        before: calibration.colours.iter().map(|c| c.before).collect(),
        after: calibration.colours.iter().map(|c| c.after).collect(),
        saved_to: file.display().to_string(),
        warnings,
    };
    // Kept with the run: its record shows the figures, and the page's Colours tab the last.
    ctx.note(ctx.history.record_calibration(ctx.run, &doc));
    Ok(doc)
}

/// What the solved cube's readings made, and how they were taken.
struct Taken {
    /// The exposure of the photos they come from.
    exposure: Exposure,
    /// Faces the light still washed out in those photos.
    washed_out: Vec<Face>,
    /// Rounds of photographing again.
    rounds: u32,
    /// The palette calibrated from them, or why not.
    calibrated: Result<Calibration, CalibrateError>,
}

/// The palette calibrated from photos of the solved cube the light washed out no face of: while it did (a
/// webcam's roll-off pressed two colours together), all six faces are
/// photographed again a stop darker, as many rounds as `[vision] recaptures` allows and the
/// camera can (a folder of photos cannot). All six, so that every colour is taken in the
/// same light: a scan's own darker photos are read against it as its normal ones are.
async fn readings_not_washed_out(ctx: &mut RunContext) -> Result<Taken, RunError> {
    let mut photos =
        photograph(ctx, (0, Purpose::Scanning), &at_normal_exposure(&Face::ALL)).await?;
    let allowed = match ctx.rig.camera_retake {
        Retake::Exposure => ctx.settings.recaptures,
        _ => 0,
    };
    let (mut exposure, mut rounds) = (Exposure::NORMAL, 0);
    loop {
        let readings = read_solved(ctx, &photos)?;
        let washed_out = washed_out_faces(&readings, &ctx.rig.palette);
        let calibrated = calibrate(&readings, &ctx.rig.palette);
        // A sticker the light may have changed (clipped, astray on a clipped face) is told
        // from another colour's by photographing darker too.
        let astray = calibrated
            .as_ref()
            .err()
            .and_then(|e| e.face_clipped_astray());
        let too_bright = match astray {
            Some(face) if washed_out.is_empty() => vec![face],
            _ => washed_out.clone(),
        };
        let darker = exposure.darker();
        if too_bright.is_empty() || rounds == allowed || darker == exposure {
            return Ok(Taken {
                exposure,
                washed_out,
                rounds,
                calibrated,
            });
        }
        (exposure, rounds) = (darker, rounds + 1);
        let again: Vec<(Face, Exposure)> = Face::ALL.iter().map(|&f| (f, exposure)).collect();
        let why = format!(
            "the light washed out {}, too bright to take colours from",
            face_letters(&too_bright)
        );
        photos = photograph_again(ctx, (0, Purpose::Scanning), (&again, &why), photos).await?;
    }
}

/// The 54 readings of the solved cube in `photos` (a 2x2's stickers stand in for a 3x3's);
/// the faces read on a grid lent by the others are logged.
fn read_solved(ctx: &RunContext, photos: &[FacePhoto]) -> Result<[Rgb; 54], RunError> {
    let options = ctx.rig.sampling();
    let (readings, grids) = match ctx.settings.cube {
        RunCube::Three => read_photos_and_grids(photos, &ctx.rig.grid, &options),
        RunCube::Pocket(_) => read_pocket_photos_and_grids(photos, &ctx.rig.grid, &options)
            .map(|(four, grids)| (solved_pocket_as_nine(&four), grids)),
    }
    .map_err(RunError::Unreadable)?;
    if let Some(words) = grids.lent_words() {
        ctx.board.log(words);
    }
    Ok(readings)
}

/// What the person should mend: a light too bright (calibrated darker), a camera that
/// mirrors, colours spread by uneven light.
fn what_to_mend(calibration: &Calibration, taken: &Taken) -> Vec<String> {
    let mut words = Vec::new();
    if taken.exposure != Exposure::NORMAL {
        words.push(format!(
            "calibration: taken {} than the camera's exposure, the light being too bright for it; scans take such faces darker too, but a dimmer lamp reads more surely",
            taken.exposure.words()
        ));
    }
    if let Some(looks) = &calibration.mirrored {
        words.push(format!(
            "calibration: the colours sit as on no cube that can be held ({looks}): a camera \
             that mirrors its picture would do that; if so, fix it and calibrate again"
        ));
    }
    for wide in calibration.wide_spreads() {
        words.push(format!(
            "calibration: {wide}: light the cube evenly, without glare, and calibrate again"
        ));
    }
    words
}

/// "U, R": faces by their letters.
fn face_letters(faces: &[Face]) -> String {
    let letters: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
    letters.join(", ")
}
