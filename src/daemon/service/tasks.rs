//! Guide mode, the daemon's job without the robot: a solution for a person to follow, turn by turn, for a 3x3, or for a 2x2 (24 stickers, an optimal solution) whichever size the daemon runs.

use crate::daemon::api::Refusal;
use crate::daemon::docs::GuideDoc;
use crate::daemon::ThreeSolver;
use cubed_core::cube::{holding_words, move_in_words, singmaster, states_after, woolley};
use cubed_core::cube::{parse_cube, ColourScheme, FaceOrder, Move};
use cubed_core::error_chain::error_chain;
use cubed_core::pocket::stickers::STICKERS as POCKET_STICKERS;
use cubed_core::pocket::{parse_pocket, Metric, PocketFormat, PocketSolver};
use std::sync::Arc;
use std::time::Duration;

/// Solves a cube typed by a person and lists the cube after each turn: 24 stickers are a 2x2
/// (solved optimally, half-turn metric; by the daemon's own 2x2 solver, `pocket`, when it runs
/// one), 54 a 3x3 (a 2x2 daemon's 3x3 solver loaded at the first).
pub(crate) async fn guide(
    solver: ThreeSolver,
    pocket: Option<Arc<PocketSolver>>,
    facelets: String,
) -> Result<GuideDoc, Refusal> {
    let text = facelets.trim().to_string();
    let stickers = text.chars().filter(|c| !c.is_whitespace()).count();
    match pocket {
        Some(pocket) if stickers == POCKET_STICKERS => guide_pocket(pocket, text).await,
        None if stickers == POCKET_STICKERS => guide_pocket(guide_only_pocket().await, text).await,
        Some(_) if stickers != 54 => Err(Refusal::bad_request(format!(
            "wrong length: {stickers} stickers, a 2x2 has 24 (this daemon runs a 2x2; a 3x3's 54 are guided too)"
        ))),
        _ => guide_three(solver, text).await,
    }
}

/// A 2x2 solver for a daemon that runs a 3x3, built at its first 2x2 guide (well under a
/// second) and kept.
async fn guide_only_pocket() -> Arc<PocketSolver> {
    static BUILT: tokio::sync::OnceCell<Arc<PocketSolver>> = tokio::sync::OnceCell::const_new();
    Arc::clone(
        BUILT
            .get_or_init(crate::daemon::cube_size::pocket_solver)
            .await,
    )
}

async fn guide_three(solver: ThreeSolver, text: String) -> Result<GuideDoc, Refusal> {
    let (cube, scheme, cubies) = parse_cube(&text, FaceOrder::Urfdlb, None)
        .map_err(|e| Refusal::bad_request(error_chain(&e)))?;
    let solver = solver.get().await;
    let turns =
        tokio::task::spawn_blocking(move || solver.solve(&cubies, Duration::from_millis(500)))
            .await
            .map_err(|e| Refusal::unavailable(format!("solver task: {}", error_chain(&e))))?
            .map_err(|e| Refusal::bad_request(error_chain(&e)))?;
    let moves: Vec<Move> = turns.iter().map(|&t| Move::Turn(t)).collect();
    let states = states_after(cube, &moves, |c, m| c.apply(m), |c| c.to_symbols(&scheme));
    let hold = holding_words(3, &scheme);
    Ok(guide_doc((text, hold), &moves, states, &scheme))
}

/// A 2x2's guide: an optimal solution (the fixed corner D, L, B stays put), refused with the
/// stickers named when no 2x2 could look like that.
async fn guide_pocket(solver: Arc<PocketSolver>, text: String) -> Result<GuideDoc, Refusal> {
    let format = PocketFormat::Facelets(FaceOrder::Urfdlb);
    let (facelets, scheme, cube) = parse_pocket(&text, format, None)
        .map_err(|e| Refusal::bad_request(format!("not a 2x2: {}", error_chain(&e))))?;
    let turns = tokio::task::spawn_blocking(move || solver.solve(&cube, Metric::Htm))
        .await
        .map_err(|e| Refusal::unavailable(format!("solver task: {}", error_chain(&e))))?;
    let moves: Vec<Move> = turns.iter().map(|&t| Move::Turn(t)).collect();
    let states = states_after(
        facelets,
        &moves,
        |c, m| c.apply(m),
        |c| c.to_symbols(&scheme),
    );
    let hold = holding_words(2, &scheme);
    Ok(guide_doc((text, hold), &moves, states, &scheme))
}

fn guide_doc(
    (facelets, hold): (String, String),
    moves: &[Move],
    states: Vec<String>,
    scheme: &ColourScheme,
) -> GuideDoc {
    GuideDoc {
        faces: scheme.symbols.iter().collect(),
        facelets,
        hold,
        solution: moves.iter().map(|&m| singmaster(m)).collect(),
        woolley: (moves.iter())
            .map(|&m| woolley(m).unwrap_or_else(|_| singmaster(m)))
            .collect(),
        words: moves.iter().map(|&m| move_in_words(m)).collect(),
        states,
    }
}
