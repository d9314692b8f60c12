//! The physics checker: which steps are legal and what they do to the cube. The planner, replay and the simulator all use these rules.
//!
//! A closed gripper that turns drives the layers it grips along its axis.
//! Every other closed gripper fixes what it holds: on the same axis its own
//! layers, across the axis all three layers (a layer grip) or the middle
//! layer (a centre cap). Jaws in motion may touch, so what they hold must
//! not move. Free layers go with their neighbours; a middle layer between
//! two outer layers that turn differently must be held. If nothing holds the
//! rest of the cube, it turns along only with a gripper that may carry it.

use super::direction::Direction;
use super::model::{Grip, RobotModel, RobotState, MAX_GRIPPERS};
use super::program::{Action, Step};
pub use super::violation::Violation;

/// What one gripper does in a step, in compact form.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) enum Act {
    #[default]
    Idle,
    Open,
    Close,
    Turn(i8),
}

/// A step without photos, in compact form: one act per gripper, at most one flip.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct Motions {
    pub acts: [Act; MAX_GRIPPERS],
    pub flip: Option<u8>,
}

/// What a legal step does to the cube in the robot frame: a whole-cube
/// rotation and/or face turns at directions (quarters 1..=3 in each face's own sense).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct CubeMotion {
    pub rotation: Option<(Direction, i8)>,
    pub turns: [Option<(Direction, i8)>; 2],
}

impl Motions {
    /// The step as actions.
    pub(crate) fn to_step(self) -> Step {
        let mut actions = Vec::new();
        for (g, act) in self.acts.iter().enumerate() {
            match *act {
                Act::Idle => {}
                Act::Open => actions.push(Action::Open(g)),
                Act::Close => actions.push(Action::Close(g)),
                Act::Turn(quarters) => actions.push(Action::Turn {
                    gripper: g,
                    quarters,
                }),
            }
        }
        actions.extend(self.flip.map(|f| Action::Flip(f as usize)));
        Step { actions }
    }

    /// The step's actions split into motions and photos (camera indices).
    pub(crate) fn of_step(
        model: &RobotModel,
        step: &Step,
    ) -> Result<(Motions, Vec<Action>), Violation> {
        let mut motions = Motions::default();
        let mut captures: Vec<Action> = Vec::new();
        for action in &step.actions {
            let (g, act) = match *action {
                Action::Open(g) => (g, Act::Open),
                Action::Close(g) => (g, Act::Close),
                Action::Turn { gripper, quarters } => (gripper, Act::Turn(quarters)),
                Action::Flip(f) if f >= model.flippers.len() => {
                    return Err(Violation::NoSuchFlipper { index: f })
                }
                Action::Flip(_) if motions.flip.is_some() => return Err(Violation::TwoFlips),
                Action::Flip(f) => {
                    motions.flip = Some(f as u8);
                    continue;
                }
                Action::Capture { camera, .. } => {
                    check_new_camera(model, &captures, camera)?;
                    captures.push(*action);
                    continue;
                }
            };
            if g >= model.grippers.len() {
                return Err(Violation::NoSuchGripper { index: g });
            }
            if motions.acts[g] != Act::Idle {
                return Err(Violation::RepeatedGripper { gripper: g });
            }
            motions.acts[g] = act;
        }
        Ok((motions, captures))
    }

    pub(crate) fn is_idle(&self) -> bool {
        self.flip.is_none() && self.acts.iter().all(|a| *a == Act::Idle)
    }
}

fn check_new_camera(
    model: &RobotModel,
    captures: &[Action],
    camera: usize,
) -> Result<(), Violation> {
    if camera >= model.cameras.len() {
        return Err(Violation::NoSuchCamera { index: camera });
    }
    let repeated = captures
        .iter()
        .any(|c| matches!(c, Action::Capture { camera: other, .. } if *other == camera));
    if repeated {
        return Err(Violation::RepeatedCamera { camera });
    }
    Ok(())
}

/// Checks a motion step against the rules; returns the robot's next state and the cube's motion.
pub(crate) fn step_motion(
    model: &RobotModel,
    state: &RobotState,
    m: &Motions,
) -> Result<(RobotState, CubeMotion), Violation> {
    if m.is_idle() {
        return Err(Violation::EmptyStep);
    }
    check_each_act(model, state, m)?;
    let motion = match m.flip {
        Some(f) => flip_motion(model, state, m, f as usize)?,
        None => layer_motion(model, state, m)?,
    };
    if !model.supported(held_through(model, state, m)) {
        return Err(Violation::Unsupported);
    }
    Ok((next_state(model, state, m, &motion), motion))
}

fn check_each_act(model: &RobotModel, state: &RobotState, m: &Motions) -> Result<(), Violation> {
    for (g, gripper) in model.grippers.iter().enumerate() {
        let closed = state.is_closed(g);
        match m.acts[g] {
            Act::Idle => {}
            Act::Open | Act::Close if !gripper.has_jaw => {
                return Err(Violation::NoJaw { gripper: g })
            }
            Act::Open if !closed => return Err(Violation::AlreadyOpen { gripper: g }),
            Act::Close if closed => return Err(Violation::AlreadyClosed { gripper: g }),
            Act::Open | Act::Close => {}
            Act::Turn(q) => {
                let angle = state.angles[g];
                if q == 0 || q.abs() > 2 || !gripper.reach.allows(angle, q) {
                    return Err(Violation::OutOfReach {
                        gripper: g,
                        angle,
                        quarters: q,
                    });
                }
            }
        }
    }
    Ok(())
}

/// Grippers closed through the whole step (bit mask): closed and not opening.
fn held_through(model: &RobotModel, state: &RobotState, m: &Motions) -> u16 {
    (0..model.grippers.len())
        .filter(|&g| state.is_closed(g) && m.acts[g] != Act::Open)
        .fold(0, |mask, g| mask | 1 << g)
}

fn flip_motion(
    model: &RobotModel,
    state: &RobotState,
    m: &Motions,
    f: usize,
) -> Result<CubeMotion, Violation> {
    let flipper = &model.flippers[f];
    if m.acts.iter().any(|a| *a != Act::Idle) {
        return Err(Violation::FlipNotAlone { flipper: f });
    }
    if let Some(&g) = flipper.needs_open.iter().find(|&&g| state.is_closed(g)) {
        return Err(Violation::FlipBlocked {
            flipper: f,
            gripper: g,
        });
    }
    Ok(CubeMotion {
        rotation: Some(flipper.rotation()),
        turns: [None, None],
    })
}

/// Layer indices along an axis: 0 = positive outer, 1 = middle, 2 = negative outer.
fn own_layers(grip: Grip, at: Direction) -> &'static [usize] {
    match (grip, at.is_positive()) {
        (Grip::TwoLayers, true) => &[0, 1],
        (Grip::TwoLayers, false) => &[1, 2],
        (_, true) => &[0],
        (_, false) => &[2],
    }
}

fn cross_layers(grip: Grip) -> &'static [usize] {
    match grip {
        Grip::Centre => &[1],
        Grip::Layer | Grip::TwoLayers => &[0, 1, 2],
    }
}

/// The layers along one axis: what fixes or drives each, and who touches it.
struct AxisLayers {
    value: [Option<i8>; 3],
    owner: [usize; 3],
    touched_by: [Option<usize>; 3],
    /// Two grippers that turn one layer together (they must turn in step).
    shared: Option<(usize, usize)>,
}

impl AxisLayers {
    fn assign(&mut self, layer: usize, value: i8, g: usize) -> Result<(), Violation> {
        match self.value[layer] {
            None => {
                self.value[layer] = Some(value);
                self.owner[layer] = g;
                Ok(())
            }
            Some(old) if old == value => {
                if value != 0 && self.owner[layer] != g {
                    self.shared = Some((self.owner[layer], g));
                }
                Ok(())
            }
            Some(old) => {
                let (turning, holder) = if old != 0 {
                    (self.owner[layer], g)
                } else {
                    (g, self.owner[layer])
                };
                Err(Violation::Jammed { turning, holder })
            }
        }
    }
}

fn drivers<'a>(
    model: &'a RobotModel,
    state: &RobotState,
    m: &Motions,
) -> impl Iterator<Item = usize> + 'a {
    let (state, acts) = (*state, m.acts);
    (0..model.grippers.len())
        .filter(move |&g| state.is_closed(g) && matches!(acts[g], Act::Turn(_)))
}

fn layer_motion(
    model: &RobotModel,
    state: &RobotState,
    m: &Motions,
) -> Result<CubeMotion, Violation> {
    let Some(first) = drivers(model, state, m).next() else {
        return Ok(CubeMotion::default());
    };
    let axis = model.grippers[first].at.axis();
    if let Some(second) = drivers(model, state, m).find(|&g| model.grippers[g].at.axis() != axis) {
        return Err(Violation::TwoAxes { first, second });
    }
    let layers = collect_layers(model, state, m, axis)?;
    let values = resolve_layers(model, state, m, &layers, first)?;
    if let Some((a, b)) = turned_together(&layers) {
        if !model.grippers[a].turns_in_step_with(&model.grippers[b]) {
            return Err(Violation::OutOfStep {
                first: a,
                second: b,
            });
        }
    }
    for (layer, toucher) in layers.touched_by.iter().enumerate() {
        if let (Some(holder), true) = (toucher, values[layer] != 0) {
            return Err(Violation::Jammed {
                turning: first,
                holder: *holder,
            });
        }
    }
    Ok(motion_of_layers(Direction::from_index(axis), values))
}

fn collect_layers(
    model: &RobotModel,
    state: &RobotState,
    m: &Motions,
    axis: usize,
) -> Result<AxisLayers, Violation> {
    let mut layers = AxisLayers {
        value: [None; 3],
        owner: [usize::MAX; 3],
        touched_by: [None; 3],
        shared: None,
    };
    for (g, gripper) in model.grippers.iter().enumerate() {
        let jaw_moving = matches!(m.acts[g], Act::Open | Act::Close);
        if !state.is_closed(g) && !jaw_moving {
            continue;
        }
        let on_axis = gripper.at.axis() == axis;
        let held = if on_axis {
            own_layers(gripper.grip, gripper.at)
        } else {
            cross_layers(gripper.grip)
        };
        // Signed, never modulo 4: +2 and -2 on one layer end alike but turn opposite ways.
        let value = match m.acts[g] {
            Act::Turn(q) if on_axis && gripper.at.is_positive() => q,
            Act::Turn(q) if on_axis => -q,
            _ => 0,
        };
        for &layer in held {
            if jaw_moving {
                layers.touched_by[layer] = Some(g);
            } else {
                layers.assign(layer, value, g)?;
            }
        }
    }
    Ok(layers)
}

fn resolve_layers(
    model: &RobotModel,
    state: &RobotState,
    m: &Motions,
    layers: &AxisLayers,
    first: usize,
) -> Result<[i8; 3], Violation> {
    let values = match layers.value {
        [Some(a), None, Some(b)] if a == b => [a, a, b],
        [Some(a), None, Some(b)] if a == 0 || b == 0 => [a, 0, b],
        [Some(_), None, Some(_)] => {
            return Err(Violation::MiddleNotHeld {
                first: layers.owner[0],
                second: layers.owner[2],
            })
        }
        [a, Some(mid), b] => [a.unwrap_or(mid), mid, b.unwrap_or(mid)],
        [Some(a), None, None] => [a; 3],
        [None, None, Some(b)] => [b; 3],
        [None, None, None] => [0; 3],
    };
    let outer_free = layers.value[0].is_none() || layers.value[2].is_none();
    let whole_turns = values[0] != 0 && values.iter().all(|&v| v == values[0]);
    let carried = drivers(model, state, m).any(|g| model.grippers[g].carries_cube);
    if outer_free && whole_turns && !carried {
        return Err(Violation::NothingHolds { gripper: first });
    }
    Ok(values)
}

/// Two grippers that turn one block of the cube between them: both drive one layer, or
/// they drive the two outer layers alike and the free middle goes with them. Unless they
/// turn in step, the faster turns its layer ahead of the rest.
fn turned_together(layers: &AxisLayers) -> Option<(usize, usize)> {
    match layers.value {
        [Some(a), None, Some(b)] if a == b && a != 0 => Some((layers.owner[0], layers.owner[2])),
        _ => layers.shared,
    }
}

fn motion_of_layers(positive: Direction, values: [i8; 3]) -> CubeMotion {
    let mid = values[1];
    let quarters = |q: i8| Some(q.rem_euclid(4)).filter(|&q| q != 0);
    CubeMotion {
        rotation: quarters(mid).map(|q| (positive, q)),
        turns: [
            quarters(values[0] - mid).map(|q| (positive, q)),
            quarters(mid - values[2]).map(|q| (positive.opposite(), q)),
        ],
    }
}

fn next_state(
    model: &RobotModel,
    state: &RobotState,
    m: &Motions,
    motion: &CubeMotion,
) -> RobotState {
    let mut next = *state;
    for (g, gripper) in model.grippers.iter().enumerate() {
        match m.acts[g] {
            Act::Idle => {}
            Act::Open | Act::Close => next.closed ^= 1 << g,
            Act::Turn(q) => next.angles[g] = gripper.reach.after(state.angles[g], q),
        }
    }
    if let Some((about, q)) = motion.rotation {
        next.orientation = state.orientation.rotated(about, q);
    }
    next
}
