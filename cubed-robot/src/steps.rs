//! Every legal step out of a robot state, found without trying every combination: what the
//! closed grippers and the jaws do decides the cube's motion (checked by the physics rules),
//! and an open gripper's turn changes only its own angle, so it is added afterwards.
//!
//! A design's state graph is built from these steps; on a design with many jaws, trying each
//! combination of every gripper's options with the physics rules took most of the build.

use super::model::{RobotModel, RobotState};
use super::physics::{step_motion, Act, CubeMotion, Motions};

/// A legal step: what each gripper and flipper does, the state after it and what it does to
/// the cube, and its place in the order of [`motion_options`]' combinations (gripper 0's
/// option changing fastest, then the flips), which the state graph keeps so that ties
/// between equally quick steps are always settled the same way.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LegalStep {
    pub motions: Motions,
    pub after: RobotState,
    pub motion: CubeMotion,
    pub rank: u64,
}

/// Every legal step out of `state`, in no particular order (sort by `rank` for the order of
/// combinations).
pub(crate) fn legal_steps(model: &RobotModel, state: &RobotState, out: &mut Vec<LegalStep>) {
    let combos = Combos::new(model, state);
    let n = combos.options.len();
    // What decides the cube's motion: a closed gripper's every option, an open one's jaw.
    let core: Vec<usize> = (0..n)
        .map(|g| match state.is_closed(g) {
            true => combos.options[g].len(),
            false => combos.options[g].len().min(2),
        })
        .collect();
    let mut choice = vec![0usize; n];
    loop {
        let m = combos.motions(&choice);
        if let Some((after, motion)) = core_step(model, state, &m) {
            let core = LegalStep {
                motions: m,
                after,
                motion,
                rank: combos.rank(&choice),
            };
            combos.with_free_turns(model, state, &choice, core, out);
        }
        if !advance(&mut choice, &core) {
            break;
        }
    }
    for flip in 0..model.flippers.len() {
        let m = Motions {
            flip: Some(flip as u8),
            ..Motions::default()
        };
        if let Ok((after, motion)) = step_motion(model, state, &m) {
            let rank = combos.all() + flip as u64;
            out.push(LegalStep {
                motions: m,
                after,
                motion,
                rank,
            });
        }
    }
}

/// The state after the closed grippers' and the jaws' acts `m`, and the cube's motion; for no
/// act at all, the state itself, if what holds the cube now holds it (open grippers may
/// still turn).
fn core_step(
    model: &RobotModel,
    state: &RobotState,
    m: &Motions,
) -> Option<(RobotState, CubeMotion)> {
    if m.is_idle() {
        return model
            .supported(state.closed)
            .then_some((*state, CubeMotion::default()));
    }
    // Cheap pre-checks of two of the rules (most combinations fail one).
    let opening = (0..model.grippers.len())
        .filter(|&g| m.acts[g] == Act::Open)
        .fold(0u16, |mask, g| mask | 1 << g);
    if !turns_on_one_axis(model, state, m) || !model.supported(state.closed & !opening) {
        return None;
    }
    step_motion(model, state, m).ok()
}

/// Each gripper's options from one state, and each one's place value in a combination's rank.
struct Combos {
    options: Vec<Vec<Act>>,
    /// The product of the option counts of the grippers before each; then of all of them.
    strides: Vec<u64>,
}

impl Combos {
    fn new(model: &RobotModel, state: &RobotState) -> Combos {
        let options = motion_options(model, state);
        let mut strides = vec![1u64];
        for opts in &options {
            let last = strides.last().copied().unwrap_or(1);
            strides.push(last * opts.len() as u64);
        }
        Combos { options, strides }
    }

    fn all(&self) -> u64 {
        self.strides.last().copied().unwrap_or(1)
    }

    fn motions(&self, choice: &[usize]) -> Motions {
        let mut m = Motions::default();
        for (g, &c) in choice.iter().enumerate() {
            m.acts[g] = self.options[g][c];
        }
        m
    }

    fn rank(&self, choice: &[usize]) -> u64 {
        choice
            .iter()
            .zip(&self.strides)
            .map(|(&c, &s)| c as u64 * s)
            .sum()
    }

    /// Pushes `core` with every combination of turns of the open grippers it leaves idle (and
    /// `core` alone, unless it does nothing).
    fn with_free_turns(
        &self,
        model: &RobotModel,
        state: &RobotState,
        core_choice: &[usize],
        core: LegalStep,
        out: &mut Vec<LegalStep>,
    ) {
        // An open gripper's options: Idle, Close, then its turns.
        let free: Vec<usize> = (0..self.options.len())
            .filter(|&g| !state.is_closed(g) && core_choice[g] == 0 && self.options[g].len() > 2)
            .collect();
        let sizes: Vec<usize> = free.iter().map(|&g| self.options[g].len() - 1).collect();
        let core_idle = core.motions.is_idle();
        let mut turn = vec![0usize; free.len()];
        loop {
            let mut step = core;
            for (&g, &t) in free.iter().zip(&turn).filter(|(_, &t)| t > 0) {
                let option = t + 1;
                let Act::Turn(quarters) = self.options[g][option] else {
                    continue;
                };
                step.motions.acts[g] = Act::Turn(quarters);
                step.rank += option as u64 * self.strides[g];
                let gripper = &model.grippers[g];
                step.after.angles[g] = gripper.reach.after(state.angles[g], quarters);
            }
            if !(core_idle && turn.iter().all(|&t| t == 0)) {
                out.push(step);
            }
            if !advance(&mut turn, &sizes) {
                break;
            }
        }
    }
}

/// Each gripper's options from `state`: idle, its jaw opening or closing, turning within
/// reach.
pub(crate) fn motion_options(model: &RobotModel, state: &RobotState) -> Vec<Vec<Act>> {
    (model.grippers.iter().enumerate())
        .map(|(g, gripper)| {
            let mut acts = vec![Act::Idle];
            if gripper.has_jaw {
                acts.push(if state.is_closed(g) {
                    Act::Open
                } else {
                    Act::Close
                });
            }
            acts.extend(gripper.turn_options(state.angles[g]).map(Act::Turn));
            acts
        })
        .collect()
}

/// Cheap pre-check: closed grippers that turn all share one axis.
pub(crate) fn turns_on_one_axis(model: &RobotModel, state: &RobotState, m: &Motions) -> bool {
    let mut axes = 0u8;
    for (g, gripper) in model.grippers.iter().enumerate() {
        if state.is_closed(g) && matches!(m.acts[g], Act::Turn(_)) {
            axes |= 1 << gripper.at.axis();
        }
    }
    axes.count_ones() <= 1
}

/// The next combination (the first digit fastest); false after the last.
pub(crate) fn advance(choice: &mut [usize], sizes: &[usize]) -> bool {
    for (c, &size) in choice.iter_mut().zip(sizes) {
        *c += 1;
        if *c < size {
            return true;
        }
        *c = 0;
    }
    false
}
