//! The scan plan: the cheapest program that shows all six faces to the cameras, each photo recording the face seen and its rotation in the image.

use super::graph::clear_cameras;
use super::model::RobotState;
use super::planner::{PlanError, Planner};
use super::program::{Action, Program, Step};
use super::replay::view;
use super::search::{cheapest_path_widening, Space, Succ};
use cubed_core::cube::Face;

const CAPTURE: u32 = u32::MAX;
const ALL_SEEN: u32 = 0b11_1111;

/// A scan program and what it photographs.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ScanPlan {
    pub program: Program,
    pub start: RobotState,
    pub end: RobotState,
    pub total_ms: u32,
    /// `(camera, face, image_rotation)` of each photo, in order.
    pub photos: Vec<(usize, Face, u8)>,
}

/// Layer = bit mask of the faces photographed so far.
struct ScanSpace<'a> {
    planner: &'a Planner,
}

impl ScanSpace<'_> {
    /// The photos worth taking in `state`: clear cameras that see a face not yet seen.
    fn new_photos(&self, seen: u32, state: u32) -> Vec<Action> {
        let model = &self.planner.model;
        let robot = &self.planner.graph.states[state as usize];
        let mut photos: Vec<Action> = Vec::new();
        for camera in clear_cameras(model, robot) {
            let (face, image_rotation) = view(model, robot.orientation, camera);
            let taken = photos
                .iter()
                .any(|p| matches!(p, Action::Capture { face: f, .. } if *f == face));
            if seen & (1 << face.index()) == 0 && !taken {
                photos.push(Action::Capture {
                    camera,
                    face,
                    image_rotation,
                });
            }
        }
        photos
    }
}

fn faces_of(photos: &[Action]) -> u32 {
    photos.iter().fold(0, |mask, p| match p {
        Action::Capture { face, .. } => mask | 1 << face.index(),
        _ => mask,
    })
}

impl Space for ScanSpace<'_> {
    fn layers(&self) -> usize {
        ALL_SEEN as usize + 1
    }

    fn is_goal(&self, layer: u32) -> bool {
        layer == ALL_SEEN
    }

    fn successors(&self, seen: u32, state: u32, out: &mut Vec<Succ>) {
        let photos = self.new_photos(seen, state);
        if !photos.is_empty() {
            let ms = Step {
                actions: photos.clone(),
            }
            .ms(&self.planner.model);
            out.push(Succ {
                layer: seen | faces_of(&photos),
                state,
                ms,
                via: CAPTURE,
            });
        }
        for (i, edge) in self.planner.graph.edges(state).iter().enumerate() {
            if edge.effect.keeps_faces() {
                out.push(Succ {
                    layer: seen,
                    state: edge.to,
                    ms: edge.ms(),
                    via: i as u32,
                });
            }
        }
    }

    fn bound(&self, seen: u32, state: u32) -> u32 {
        let until_seen = &self.planner.bounds.until_seen;
        let unseen = Face::ALL
            .into_iter()
            .filter(|f| seen & (1 << f.index()) == 0);
        let until = unseen.map(|f| until_seen[f.index()][state as usize]).max();
        let capture = self
            .planner
            .model
            .cameras
            .iter()
            .map(|c| c.capture_ms)
            .min()
            .unwrap_or(0);
        until.map_or(0, |u| u.saturating_add(capture))
    }
}

impl Planner {
    /// The cheapest program (within the search's limits) that photographs all six faces from `start`.
    pub fn plan_scan(&self, start: &RobotState) -> Result<ScanPlan, PlanError> {
        let start_id = self.start_id(start)?;
        let space = ScanSpace { planner: self };
        let no_plan = || PlanError::NoScan {
            robot: self.model.name.clone(),
        };
        let (path, total_ms, _) =
            cheapest_path_widening(&space, 0, start_id, self.per_layer).ok_or_else(no_plan)?;
        let mut plan = ScanPlan {
            program: Program::default(),
            start: *start,
            end: *start,
            total_ms,
            photos: Vec::new(),
        };
        let (mut seen, mut from) = (0, start_id);
        for node in &path {
            let step = if node.via == CAPTURE {
                let photos = space.new_photos(seen, from);
                plan.photos
                    .extend(photos.iter().filter_map(crate::replay::capture_record));
                Step { actions: photos }
            } else {
                let edge = self.graph.edges(from)[node.via as usize];
                self.graph.motions[edge.motions as usize].to_step()
            };
            plan.program.steps.push(step);
            (seen, from) = (node.layer, node.state);
        }
        plan.end = self.graph.states[from as usize];
        Ok(plan)
    }
}
