//! Lower bounds that steer the planner's search: per design, the time from each state until a given cube face can be turned (or photographed).

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
        let until_turn = Face::ALL.map(|face| {
            let targets = (0..graph.states.len() as u32).filter(|&s| {
                graph
                    .edges(s)
                    .iter()
                    .any(|e| e.effect.turns.iter().flatten().any(|t| t.face == face))
            });
            backward(&reverse, graph.states.len(), targets)
        });
        let until_seen = Face::ALL.map(|face| {
            let targets = (0..graph.states.len() as u32).filter(|&s| {
                let state = &graph.states[s as usize];
                clear_cameras(model, state)
                    .any(|c| state.orientation.face_at(model.cameras[c].at) == face)
            });
            backward(&reverse, graph.states.len(), targets)
        });
        let turn_edges = || {
            (0..graph.states.len() as u32)
                .flat_map(|s| graph.edges(s))
                .filter(|e| !e.effect.keeps_faces())
        };
        let cheapest_turn = turn_edges().map(|e| e.ms).min().unwrap_or(0);
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

/// For each state, the steps into it that turn no face: `(from, ms)`.
fn reverse_keeping_faces(graph: &StateGraph) -> Vec<Vec<(u32, u32)>> {
    let mut reverse = vec![Vec::new(); graph.states.len()];
    for from in 0..graph.states.len() as u32 {
        for e in graph.edges(from).iter().filter(|e| e.effect.keeps_faces()) {
            reverse[e.to as usize].push((from, e.ms));
        }
    }
    reverse
}

fn backward(reverse: &[Vec<(u32, u32)>], n: usize, targets: impl Iterator<Item = u32>) -> Vec<u32> {
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
        for &(from, ms) in &reverse[s as usize] {
            let next = d + ms;
            if next < dist[from as usize] {
                dist[from as usize] = next;
                heap.push(Reverse((next, from)));
            }
        }
    }
    dist
}
