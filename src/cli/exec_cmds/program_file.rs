//! `cubed exec --program FILE`: a program document `cubed plan --format json` wrote, read, checked against the robot it was planned for and replayed on its model before anything is sent.

use super::{no_start_given, ExecArgs, Streamed};
use crate::robot::{Orientation, Planner, Program, ProgramDoc};
use cubed_core::error_chain::error_chain;
use std::path::Path;

/// The program in the document at `path`, or why it cannot run on `planner`'s robot (a file
/// that cannot be read is the input's fault, as a bad one is).
pub(super) fn read(
    args: &ExecArgs,
    planner: &Planner,
    design: &Path,
    path: &Path,
) -> Result<Streamed, String> {
    no_start_given(
        args,
        "a program document runs as it was planned; give --start to `cubed plan` instead",
    )?;
    let text = cubed_files::named_file::read_text(path, cubed_files::named_file::TEXT_LIMIT)
        .map_err(|e| format!("{}: {}", path.display(), error_chain(&e)))?;
    let doc: ProgramDoc =
        serde_json::from_str(&text).map_err(|e| not_a_program_doc(path, &text, &e))?;
    let holdings = [
        ("starts_held", &doc.starts_held),
        ("ends_held", &doc.ends_held),
    ];
    for (key, held) in holdings {
        let Some(held) = held else { continue };
        if let Err(why) = crate::cli::plan_cmds::orientation_held(held) {
            return Err(format!("{}: {key} '{held}': {why}", path.display()));
        }
    }
    if let Some(held) = doc
        .starts_held
        .as_deref()
        .filter(|h| *h != crate::cli::plan_cmds::HOME_HOLDING)
    {
        eprintln!(
            "cubed exec: {} was planned for the cube put in with {held} (up, then front): it runs as planned, so put the cube in that way",
            path.display()
        );
    }
    if doc.robot != planner.model().name {
        return Err(format!(
            "{}: this program was planned for robot '{}', not '{}' ({}): give --robot with its design file",
            path.display(),
            doc.robot,
            planner.model().name,
            design.display()
        ));
    }
    doc.to_program(planner.model())
        .map_err(|e| format!("{}: {}", path.display(), error_chain(&e)))
        .and_then(|program| checked(path, planner, program))
        .map(|(program, end)| Streamed {
            program,
            // A document from before it said so: its end, put in U up and F to the front.
            ends_held: doc.ends_held.or(Some(end.holding())),
            by_hand: false,
            planned: None,
        })
}

/// Why a `--program` file was refused: the JSON's own error, and when the file is no JSON at
/// all (`cubed plan`'s text, say), what a program file is.
fn not_a_program_doc(path: &Path, text: &str, error: &serde_json::Error) -> String {
    let json = text.trim_start().starts_with('{');
    format!(
        "{}: {}{}",
        path.display(),
        error_chain(error),
        if json {
            ""
        } else {
            " (not JSON: a program file is what `cubed plan … --format json` writes; its text output is for reading, and `--actions` takes actions written by hand)"
        }
    )
}

/// The program, and how it leaves a cube put in at home, if the robot model allows every
/// step from home; else the first illegal step (counted from 1) and why, before anything is
/// sent.
fn checked(
    path: &Path,
    planner: &Planner,
    program: Program,
) -> Result<(Program, Orientation), String> {
    let cube = cubed_core::cube::FaceletCube::default();
    match crate::robot::replay(planner.model(), planner.home(), &cube, &program) {
        Ok(replay) => Ok((program, replay.end.robot.orientation)),
        Err(illegal) => Err(format!(
            "{}: refusing to run: step {} ({}) is illegal on robot '{}': {}",
            path.display(),
            illegal.step + 1,
            illegal.action,
            planner.model().name,
            illegal.reason
        )),
    }
}
