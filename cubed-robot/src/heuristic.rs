//! Lower bounds that steer the planner's search: per design, the time from each state until a given cube face can be turned (or photographed).

use super::cores::map_on_cores;
use super::graph::{clear_cameras, StateGraph};
use super::model::RobotModel;
use cubed_core::cube::Face;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Per-design lower bounds, computed once from the state graph.
#[derive(Clone, Debug)]
pub(crate) struct Bounds {
    /// `until_turn[face][state]`: least time before a step can turn `face` (steps in between turn no face).
    pub until_turn: [Vec<u32>; 6],
    /// `until_seen[face][state]`: least time before a camera with a clear view sees `face`.
    pub until_seen: [Vec<u32>; 6],
    /// The cheapest step that turns a face.
    pub cheapest_turn: u32,
    /// Least time between a face turn and the next turn of a face on another axis.
    pub axis_change: u32,
}

impl Bounds {
    /// Computes the bounds by backward Dijkstra over steps that turn no face.
    pub(crate) fn new(model: &RobotModel, graph: &StateGraph) -> Bounds {
        let reverse = reverse_keeping_faces(graph);
        // Twelve searches, each alone: on every core at once.
        let jobs: Vec<(Face, Until)> = (Face::ALL.into_iter())
            .map(|face| (face, Until::Turned))
            .chain(Face::ALL.into_iter().map(|face| (face, Until::Seen)))
            .collect();
        let mut found = map_on_cores(&jobs, 1, |&(face, until)| {
            let n = graph.states.len();
            let reached = |s: u32| match until {
                Until::Turned => (graph.edges(s).iter())
                    .any(|e| e.effect.turns.iter().flatten().any(|t| t.face == face)),
                Until::Seen => {
                    let state = &graph.states[s as usize];
                    clear_cameras(model, state)
                        .any(|c| state.orientation.face_at(model.cameras[c].at) == face)
                }
            };
            backward(&reverse, n, (0..n as u32).filter(|&s| reached(s)))
        })
        .into_iter();
        let until_turn: [Vec<u32>; 6] = std::array::from_fn(|_| found.next().unwrap_or_default());
        let until_seen: [Vec<u32>; 6] = std::array::from_fn(|_| found.next().unwrap_or_default());
        let turn_edges = || {
            (0..graph.states.len() as u32)
                .flat_map(|s| graph.edges(s))
                .filter(|e| !e.effect.keeps_faces())
        };
        let cheapest_turn = turn_edges().map(|e| e.ms()).min().unwrap_or(0);
        let axis_change = turn_edges()
            .flat_map(|e| {
                let axis = e.effect.turns[0].map_or(0, |t| t.face.index() % 3);
                let after = e.to as usize;
                let until = &until_turn;
                Face::ALL
                    .into_iter()
                    .filter(move |f| f.index() % 3 != axis)
                    .map(move |f| until[f.index()][after])
            })
            .min()
            .unwrap_or(0);
        Bounds {
            until_turn,
            until_seen,
            cheapest_turn,
            axis_change,
        }
    }
}

/// What a search of the bounds waits for.
#[derive(Clone, Copy)]
enum Until {
    /// A step that turns the face.
    Turned,
    /// A camera with a clear view of the face.
    Seen,
}

/// For each state, the steps into it that turn no face, all in three flat lists (a large
/// design has tens of millions: a list per state would double their memory).
pub(super) struct StepsInto {
    /// The steps into state `s` are `starts[s]..starts[s + 1]` of the others.
    starts: Vec<u32>,
    from: Vec<u32>,
    ms: Vec<u16>,
}

impl StepsInto {
    pub(super) fn steps_into(&self, state: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let (a, b) = (self.starts[state as usize], self.starts[state as usize + 1]);
        (a as usize..b as usize).map(|i| (self.from[i], u32::from(self.ms[i])))
    }
}

pub(super) fn reverse_keeping_faces(graph: &StateGraph) -> StepsInto {
    let n = graph.states.len();
    let keeping = |from: u32| graph.edges(from).iter().filter(|e| e.effect.keeps_faces());
    let mut starts = vec![0u32; n + 1];
    for from in 0..n as u32 {
        for e in keeping(from) {
            starts[e.to as usize + 1] += 1;
        }
    }
    for s in 0..n {
        starts[s + 1] += starts[s];
    }
    let total = starts[n] as usize;
    let (mut from_of, mut ms_of) = (vec![0u32; total], vec![0u16; total]);
    let mut next = starts.clone();
    for from in 0..n as u32 {
        for e in keeping(from) {
            let slot = &mut next[e.to as usize];
            (from_of[*slot as usize], ms_of[*slot as usize]) = (from, e.ms16());
            *slot += 1;
        }
    }
    StepsInto {
        starts,
        from: from_of,
        ms: ms_of,
    }
}

fn backward(reverse: &StepsInto, n: usize, targets: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut dist = vec![u32::MAX; n];
    let mut heap = BinaryHeap::new();
    for t in targets {
        dist[t as usize] = 0;
        heap.push(Reverse((0u32, t)));
    }
    while let Some(Reverse((d, s))) = heap.pop() {
        if d > dist[s as usize] {
            continue;
        }
        for (from, ms) in reverse.steps_into(s) {
            let next = d + ms;
            if next < dist[from as usize] {
                dist[from as usize] = next;
                heap.push(Reverse((next, from)));
            }
        }
    }
    dist
}
