//! The gripper planner: the cheapest program that performs a solution's face turns on a given design, and the naive baseline.
//!
//! The solution is first cut into axis blocks: maximal runs of turns on one
//! axis (opposite faces commute), with turns of the same face merged. The
//! search then runs over (progress × robot state): progress is the block
//! and the quarter turns still owed to each of its two faces, so a block's
//! turns can be done in either order, together in one step where the
//! hardware allows it, or a half turn as two quarter turns.

use super::blocks::{axis_blocks, block_turns, Block, BlockMemo};
use super::graph::memory::{MemoryLimit, TooManyStates};
use super::graph::{Edge, Effect, StateGraph};
use super::heuristic::Bounds;
use super::model::{RobotModel, RobotState};
use super::program::Program;
use super::search::{cheapest_path_widening, Space, Succ};
use cubed_core::cube::Turn;
use cubed_core::solver::axial::AxialSolver;
use std::sync::atomic::AtomicU64;
use std::sync::Arc;

/// How many nodes the search expands at most per layer, by default (`usize::MAX`: exact).
pub(crate) const DEFAULT_PER_LAYER: usize = 80;

/// Why no program could be planned.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    #[error("the start state is not one the robot '{robot}' can reach from home")]
    UnknownStart { robot: String },
    #[error("robot '{robot}' found no way to perform the moves (from block {block} on)")]
    NoPlan { robot: String, block: usize },
    #[error("robot '{robot}' found no way to show all six faces to its cameras")]
    NoScan { robot: String },
    #[error("robot '{robot}' cannot turn '{turn}' {repeats} times in a row from home, so some cubes cannot be solved: check the `range` and `jaw` of the grippers that can turn that face (a gripper without a jaw must be able to turn its face all the way round)")]
    CannotRepeat {
        robot: String,
        turn: String,
        repeats: usize,
    },
    #[error("robot '{robot}' turns faces by their centre caps ({grippers}), and a 2x2 has none: it cannot hold or turn a 2x2 (a design whose grippers hold its layers can: `grips = \"layer\"` or `\"two-layers\"`, as the shipped four-arm and turntable-flipper designs do)")]
    NoCentreCaps { robot: String, grippers: String },
    #[error(transparent)]
    TooManyStates(#[from] TooManyStates),
}

/// A planned program and what it does.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Plan {
    pub program: Program,
    /// The face turns performed, canonical (same-face turns merged), in solution order.
    pub solution: Vec<Turn>,
    pub start: RobotState,
    pub end: RobotState,
    pub total_ms: u32,
    pub face_turns: usize,
    pub cube_rotations: usize,
    /// Nodes the search expanded (for benchmarks).
    pub expanded: usize,
}

/// Plans programs for one design; build once, plan many times.
#[derive(Clone, Debug)]
pub struct Planner {
    pub(crate) model: RobotModel,
    /// Every state reachable from home, built from `model`.
    pub(crate) graph: Arc<StateGraph>,
    /// Lower bounds of the search, built from `graph`.
    pub(crate) bounds: Arc<Bounds>,
    pub(crate) per_layer: usize,
    /// Memo of [`Planner::estimate`] (blocks planned alone), shared by clones.
    pub(crate) memo: Arc<BlockMemo>,
    /// Recent time of robot-aware solving's planning stage (µs, a moving average; 0: none
    /// yet), shared by clones: a time budget keeps that much back for it.
    pub(crate) planning_us: Arc<AtomicU64>,
    /// The axial search priced in this design's block times, where it prices them exactly
    /// (see [`Planner::with_axial`]): robot-aware solving then searches with it.
    pub(crate) axial: Option<Arc<AxialSolver>>,
}

/// The search space of one solution: layer = block × quarters owed to each face (16 per block).
struct SolutionSpace<'a> {
    graph: &'a StateGraph,
    bounds: &'a Bounds,
    blocks: &'a [Block],
}

impl SolutionSpace<'_> {
    fn start_layer(&self, block: usize) -> u32 {
        match self.blocks.get(block) {
            Some(b) => (block * 16 + b.quarters[0] as usize * 4 + b.quarters[1] as usize) as u32,
            None => (block * 16) as u32,
        }
    }

    /// The layer after a step with `effect` from `layer`, if the step fits the solution.
    fn advance(&self, layer: u32, effect: &Effect) -> Option<u32> {
        if effect.keeps_faces() {
            return Some(layer);
        }
        let block_index = layer as usize / 16;
        let block = self.blocks.get(block_index)?;
        let mut owed = [(layer / 4 % 4) as u8, (layer % 4) as u8];
        for turn in effect.turns.iter().flatten() {
            let side = block.faces.iter().position(|&f| f == turn.face)?;
            if owed[side] == 0 {
                return None;
            }
            owed[side] = (owed[side] + 4 - turn.quarters) % 4;
        }
        Some(match owed {
            [0, 0] => self.start_layer(block_index + 1),
            [a, b] => (block_index * 16) as u32 + a as u32 * 4 + b as u32,
        })
    }
}

impl Space for SolutionSpace<'_> {
    fn layers(&self) -> usize {
        self.blocks.len() * 16 + 1
    }

    fn is_goal(&self, layer: u32) -> bool {
        layer as usize == self.blocks.len() * 16
    }

    fn successors(&self, layer: u32, state: u32, out: &mut Vec<Succ>) {
        for (i, edge) in self.graph.edges(state).iter().enumerate() {
            if let Some(next) = self.advance(layer, &edge.effect) {
                out.push(Succ {
                    layer: next,
                    state: edge.to,
                    ms: edge.ms(),
                    via: i as u32,
                });
            }
        }
    }

    fn bound(&self, layer: u32, state: u32) -> u32 {
        let block_index = layer as usize / 16;
        let Some(block) = self.blocks.get(block_index) else {
            return 0;
        };
        let owed = [layer / 4 % 4, layer % 4];
        let until = (0..2)
            .filter(|&i| owed[i] != 0)
            .map(|i| self.bounds.until_turn[block.faces[i].index()][state as usize])
            .min()
            .unwrap_or(0);
        if until == u32::MAX {
            return u32::MAX;
        }
        let later = (self.blocks.len() - block_index - 1) as u32;
        until
            + self.bounds.cheapest_turn
            + later * (self.bounds.axis_change + self.bounds.cheapest_turn)
    }
}

impl Planner {
    /// The state graph's id of `start`, or an error naming the robot.
    pub(crate) fn start_id(&self, start: &RobotState) -> Result<u32, PlanError> {
        self.graph.id(start).ok_or_else(|| PlanError::UnknownStart {
            robot: self.model.name.clone(),
        })
    }

    /// The robot design this planner plans for.
    pub fn model(&self) -> &RobotModel {
        &self.model
    }

    /// How many states of the robot (with the cube held each way) the planner searches.
    pub fn state_count(&self) -> usize {
        self.graph.states.len()
    }

    /// The planner of a design, without a limit on its memory (the shipped designs take tens of
    /// megabytes at most; a builder's design goes through [`Planner::checked`]).
    pub fn new(model: RobotModel) -> Planner {
        Self::within(model, MemoryLimit::None)
            .unwrap_or_else(|unlimited| unreachable!("{unlimited}"))
    }

    /// The planner of a design loaded from a file: its state graph and bounds within `limit`,
    /// and every face turn either way, again and again, planned from home.
    pub fn checked(model: RobotModel, limit: MemoryLimit) -> Result<Planner, PlanError> {
        let planner = Self::within(model, limit)?;
        planner.check_every_turn()?;
        Ok(planner)
    }

    /// The planner of a design, its state graph and bounds within `limit`.
    pub fn within(model: RobotModel, limit: MemoryLimit) -> Result<Planner, TooManyStates> {
        let graph = StateGraph::shared(&model, limit)?;
        let bounds = Arc::new(Bounds::new(&model, &graph));
        Ok(Planner {
            model,
            graph,
            bounds,
            per_layer: DEFAULT_PER_LAYER,
            memo: Arc::default(),
            planning_us: Arc::default(),
            axial: None,
        })
    }

    /// The axial search robot-aware solving uses, if this design has one.
    pub fn axial(&self) -> Option<&Arc<AxialSolver>> {
        self.axial.as_ref()
    }

    /// The design's home state.
    pub fn home(&self) -> RobotState {
        self.model.home()
    }

    /// The cheapest program (within the search's beam) that performs `solution` from `start`.
    pub fn plan(&self, start: &RobotState, solution: &[Turn]) -> Result<Plan, PlanError> {
        let blocks = axis_blocks(solution);
        self.plan_blocks(start, &blocks)
    }

    /// The baseline: each face turn planned alone from the state the previous one left.
    pub fn plan_naive(&self, start: &RobotState, solution: &[Turn]) -> Result<Plan, PlanError> {
        let mut total = self.empty_plan(*start);
        for turn in solution {
            let part = self.plan_blocks(&total.end, &axis_blocks(&[*turn]))?;
            total.program.steps.extend(part.program.steps);
            total.solution.extend(part.solution);
            total.end = part.end;
            total.total_ms += part.total_ms;
            total.face_turns += part.face_turns;
            total.cube_rotations += part.cube_rotations;
            total.expanded += part.expanded;
        }
        Ok(total)
    }

    fn empty_plan(&self, start: RobotState) -> Plan {
        Plan {
            program: Program::default(),
            solution: Vec::new(),
            start,
            end: start,
            total_ms: 0,
            face_turns: 0,
            cube_rotations: 0,
            expanded: 0,
        }
    }

    pub(super) fn plan_blocks(
        &self,
        start: &RobotState,
        blocks: &[Block],
    ) -> Result<Plan, PlanError> {
        let start_id = self.start_id(start)?;
        let space = SolutionSpace {
            graph: &self.graph,
            bounds: &self.bounds,
            blocks,
        };
        let no_plan = || PlanError::NoPlan {
            robot: self.model.name.clone(),
            block: 0,
        };
        let (path, total_ms, stats) =
            cheapest_path_widening(&space, space.start_layer(0), start_id, self.per_layer)
                .ok_or_else(no_plan)?;
        let mut plan = self.empty_plan(*start);
        plan.solution = block_turns(blocks);
        let mut from = start_id;
        for node in &path {
            let edge = self.graph.edges(from)[node.via as usize];
            self.record(&mut plan, &edge);
            from = node.state;
        }
        plan.end = self.graph.states[from as usize];
        plan.total_ms = total_ms;
        plan.expanded = stats.expanded;
        Ok(plan)
    }

    fn record(&self, plan: &mut Plan, edge: &Edge) {
        plan.program
            .steps
            .push(self.graph.motions[edge.motions as usize].to_step());
        plan.face_turns += edge.effect.turns.iter().flatten().count();
        plan.cube_rotations += usize::from(edge.effect.rotates);
    }
}
