//! Optimal pocket-cube solutions read off the distance tables: from any state, a turn that brings it one step closer, until solved; also every optimal solution, for choosing the one a robot does fastest.

use super::coord::{fixed_turns, state_index};
use super::model::PocketCube;
use super::tables::{Metric, PocketTables};
use crate::cube::Turn;
use std::sync::Arc;

/// Solves pocket cubes with shared tables. Cheap to clone.
#[derive(Clone)]
pub struct PocketSolver {
    tables: Arc<PocketTables>,
}

impl PocketSolver {
    pub fn new(tables: Arc<PocketTables>) -> PocketSolver {
        PocketSolver { tables }
    }

    /// The tables this solver reads.
    pub fn tables(&self) -> &PocketTables {
        &self.tables
    }

    /// The length of an optimal solution in `metric`.
    pub fn distance(&self, cube: &PocketCube, metric: Metric) -> u8 {
        self.tables.distances(metric)[state_index(cube)]
    }

    /// An optimal solution in `metric`, as turns of U, R and F (in the quarter-turn
    /// metric two equal quarter turns in a row are written as one half turn).
    pub fn solve(&self, cube: &PocketCube, metric: Metric) -> Vec<Turn> {
        let dist = self.tables.distances(metric);
        let mut state = state_index(cube);
        let mut steps = Vec::with_capacity(dist[state] as usize);
        while dist[state] > 0 {
            let closer = metric.steps().iter().copied().find_map(|m| {
                let n = self.tables.moves.next(state, m);
                (dist[n] + 1 == dist[state]).then_some((m, n))
            });
            let Some((m, n)) = closer else {
                unreachable!("a complete distance table has a closer neighbour for every state");
            };
            steps.push(m);
            state = n;
        }
        merge_quarters(&steps)
    }

    /// Up to `limit` distinct optimal solutions in `metric` (all of them when there are fewer).
    pub fn optimal_solutions(
        &self,
        cube: &PocketCube,
        metric: Metric,
        limit: usize,
    ) -> Vec<Vec<Turn>> {
        let mut found = Vec::new();
        let mut path = Vec::new();
        self.collect(state_index(cube), metric, &mut path, &mut found, limit);
        found
    }

    fn collect(
        &self,
        state: usize,
        metric: Metric,
        path: &mut Vec<usize>,
        found: &mut Vec<Vec<Turn>>,
        limit: usize,
    ) {
        let dist = self.tables.distances(metric);
        if found.len() >= limit {
            return;
        }
        if dist[state] == 0 {
            found.push(merge_quarters(path));
            return;
        }
        for &m in metric.steps() {
            let n = self.tables.moves.next(state, m);
            if dist[n] + 1 == dist[state] {
                path.push(m);
                self.collect(n, metric, path, found, limit);
                path.pop();
            }
        }
    }
}

/// The turns of a search path, a quarter turn repeated written as one half turn.
fn merge_quarters(steps: &[usize]) -> Vec<Turn> {
    let turns = fixed_turns();
    let mut out: Vec<Turn> = Vec::with_capacity(steps.len());
    for &m in steps {
        let t = turns[m];
        match out.last_mut() {
            Some(last) if last.face == t.face && last.quarters == t.quarters && t.quarters != 2 => {
                last.quarters = 2
            }
            _ => out.push(t),
        }
    }
    out
}

/// The length of a turn sequence in `metric`.
pub fn length_in(turns: &[Turn], metric: Metric) -> usize {
    match metric {
        Metric::Htm => turns.len(),
        Metric::Qtm => turns
            .iter()
            .map(|t| if t.quarters == 2 { 2 } else { 1 })
            .sum(),
    }
}
