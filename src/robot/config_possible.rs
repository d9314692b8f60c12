//! The checks of a robot design as a whole: keys that validate one at a time but leave a cube
//! unsupported, a face that can never be turned, or a face no camera can see.

use super::{ConfigError, Ctx};
use crate::cube::Face;
use crate::robot::graph::StateGraph;
use crate::robot::RobotModel;

impl Ctx<'_> {
    /// Designs that validate one key at a time but cannot work as a whole.
    pub(super) fn check_possible(&self, model: &RobotModel) -> Result<(), ConfigError> {
        if !model.supported(model.home().closed) {
            return Err(self.impossible(
                "[support]",
                "sets",
                "with every gripper closed the cube is in none of the support sets",
            ));
        }
        let graph = StateGraph::shared(model);
        for face in Face::ALL {
            if !graph.can_turn(face) {
                return Err(self.impossible(
                    "[[gripper]]",
                    "at",
                    format!(
                        "face {face} can never be turned: no state the grippers reach (their \
                         `at`, `range` and `[support]`) lets one of them turn it"
                    ),
                ));
            }
        }
        if !model.cameras.is_empty() {
            for face in Face::ALL {
                if !graph.can_see(model, face) {
                    return Err(self.impossible(
                        "[[camera]]",
                        "at",
                        format!(
                            "face {face} can never be shown to a camera with a clear view: no \
                             state the grippers reach (their `at`, `range` and `[support]`) \
                             turns it to a camera's `at` with nothing in the way"
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}
