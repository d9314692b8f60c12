//! The state graph of one design: every robot state reachable from home (with the cube loaded any way up) and every legal step between them, built once with the physics rules.

use super::model::{RobotModel, RobotState};
use super::physics::{Act, CubeMotion, Motions};
use cubed_core::cube::Turn;
use foldhash::HashMap;

pub(crate) mod build;
pub(crate) mod memory;

/// What an edge does to the cube in its own frame: up to two face turns
/// (solver turn indices, sorted) and whether the whole cube turns.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct Effect {
    pub turns: [Option<Turn>; 2],
    pub rotates: bool,
}

impl Effect {
    /// Whether the step turns no face.
    pub(crate) fn keeps_faces(&self) -> bool {
        self.turns[0].is_none()
    }

    fn of(motion: &CubeMotion, state: &RobotState) -> Effect {
        let mut turns = motion.turns.map(|t| {
            t.map(|(dir, q)| Turn {
                face: state.orientation.face_at(dir),
                quarters: q as u8,
            })
        });
        if turns[0].is_none() {
            turns.swap(0, 1);
        }
        Effect {
            turns,
            rotates: motion.rotation.is_some(),
        }
    }
}

/// A legal step from one state to another.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Edge {
    pub to: u32,
    /// Its time (a step takes at most a minute: 16 bits keep a large design's many edges
    /// small).
    ms: u16,
    /// Index into [`StateGraph::motions`].
    pub motions: u32,
    pub effect: Effect,
}

// A large design has tens of millions of edges.
const _: () = assert!(std::mem::size_of::<Edge>() <= 16);

impl Edge {
    /// The step's time, ms.
    pub(crate) fn ms(&self) -> u32 {
        u32::from(self.ms)
    }

    /// The step's time as stored.
    pub(crate) fn ms16(&self) -> u16 {
        self.ms
    }
}

/// All reachable states and the legal steps between them.
#[derive(Clone, Debug)]
pub(crate) struct StateGraph {
    pub states: Vec<RobotState>,
    /// How many of `states` (the first ones) are reachable from home itself; the others start
    /// from home with the cube loaded another way, copies of them turned.
    home_part: usize,
    index: HashMap<RobotState, u32>,
    offsets: Vec<u32>,
    pub(crate) edges: Vec<Edge>,
    pub motions: Vec<Motions>,
}

impl StateGraph {
    /// A graph of home alone (id 0), not yet explored: where every build starts.
    fn holding_home(model: &RobotModel) -> StateGraph {
        StateGraph {
            states: vec![model.home()],
            home_part: 0,
            index: [(model.home(), 0)].into_iter().collect(),
            offsets: vec![0],
            edges: Vec::new(),
            motions: Vec::new(),
        }
    }

    fn id_or_insert(&mut self, state: RobotState) -> u32 {
        if let Some(&id) = self.index.get(&state) {
            return id;
        }
        self.states.push(state);
        let id = self.states.len() as u32 - 1;
        self.index.insert(state, id);
        id
    }

    /// The id of a state, if it is reachable from home (the cube loaded any way up).
    pub(crate) fn id(&self, state: &RobotState) -> Option<u32> {
        self.index.get(state).copied()
    }

    /// Legal steps out of state `id`.
    pub(crate) fn edges(&self, id: u32) -> &[Edge] {
        let (a, b) = (self.offsets[id as usize], self.offsets[id as usize + 1]);
        &self.edges[a as usize..b as usize]
    }
}

/// Cameras whose view is clear in `state`.
pub(crate) fn clear_cameras<'a>(
    model: &'a RobotModel,
    state: &'a RobotState,
) -> impl Iterator<Item = usize> + 'a {
    (0..model.cameras.len()).filter(move |&c| {
        model.cameras[c]
            .needs_open
            .iter()
            .all(|&g| !state.is_closed(g))
    })
}

/// An edge's time: a step's, which the design's limit on each action keeps within 16 bits.
fn edge_ms(model: &RobotModel, m: &Motions) -> u16 {
    motions_ms(model, m).min(u32::from(u16::MAX)) as u16
}

/// Time of a motion step: its slowest action.
pub(crate) fn motions_ms(model: &RobotModel, m: &Motions) -> u32 {
    let grippers = model.grippers.iter().zip(m.acts).map(|(g, act)| match act {
        Act::Idle => 0,
        Act::Open => g.open_ms,
        Act::Close => g.close_ms,
        Act::Turn(q) => g.turn_ms(q),
    });
    let flip = m.flip.map_or(0, |f| model.flippers[f as usize].flip_ms);
    grippers.fold(flip, u32::max)
}

/// Keeps only the cheapest of steps with the same target and effect (the first of equals).
fn keep_cheapest<T>(edges: &mut Vec<(Edge, T)>) {
    edges.sort_by_key(|(e, _)| {
        (
            e.to,
            e.effect.turns.map(|t| t.map(|t| t.index())),
            e.effect.rotates,
            e.ms(),
        )
    });
    edges.dedup_by(|(later, _), (first, _)| later.to == first.to && later.effect == first.effect);
}

#[cfg(test)]
mod tests;
