//! How the rig re-homes after an interruption: which actuators' positions are lost and whether a
//! motion may have been cut (from how a program ended), and homing in the order of the
//! planner's recovery plan, from the positions the firmware reports for the rest.

use super::{Rig, RigError, LOOKAHEAD, LOST_ALL};
use crate::link::{LinkError, StreamError};
use crate::robot::{plan_recovery, MotionGroup, RecoveryInput, Role};
use firmware_protocol::message::Fault;

/// The actuators a command moves (bit per actuator).
fn actuators_of(group: &MotionGroup) -> u16 {
    match group {
        MotionGroup::Home { mask, .. } => *mask,
        MotionGroup::Motion(motion) => {
            (motion.actions.iter()).fold(0, |mask, a| mask | 1 << (a.actuator() % 16))
        }
        MotionGroup::Dwell { .. } => 0,
    }
}

/// Planned time of the plan's jaw openings (its motions; homing is timed by the firmware).
fn opening_ms(model: &crate::robot::RobotModel, plan: &crate::robot::RecoveryPlan) -> u64 {
    let opening = |grippers: u16| {
        (model.grippers.iter().enumerate())
            .filter(|(g, _)| grippers & (1 << g) != 0)
            .map(|(_, gripper)| u64::from(gripper.open_ms))
            .max()
            .unwrap_or(0)
    };
    (plan.steps.iter())
        .map(|step| match *step {
            crate::robot::RecoveryStep::Open { grippers } => opening(grippers),
            _ => 0,
        })
        .sum()
}

/// The actuator a fault names, if it names one.
fn fault_actuator(fault: &Fault) -> Option<u8> {
    match *fault {
        Fault::Stall { actuator }
        | Fault::Limit { actuator }
        | Fault::HomeNotFound { actuator } => Some(actuator),
        _ => None,
    }
}

impl Rig {
    /// What the host knows before re-homing: the positions the firmware reports, except
    /// those lost (all of them after a new session or a reboot).
    async fn recovery_input(&self) -> RecoveryInput {
        let lost_all = RecoveryInput::all_lost(&self.model);
        let Some(link) = self.link.as_ref().filter(|_| self.lost != LOST_ALL) else {
            return lost_all;
        };
        let Ok(status) = link.status().await else {
            return lost_all;
        };
        let mut input = RecoveryInput::from_positions(&self.map, &self.model, &status.positions);
        for (gripper, rotation) in input.rotations.iter_mut().enumerate() {
            let index = self.map.index_of(Role::Rotation { gripper });
            if index.is_none_or(|i| self.lost & (1 << i) != 0) {
                *rotation = None;
            }
        }
        input
    }

    /// Re-homes every actuator in the recovery plan's order; `news` sees the link's events.
    pub(super) async fn home_by_plan(
        &mut self,
        mut news: impl FnMut(&crate::link::LinkEvent),
    ) -> Result<(), RigError> {
        let input = self.recovery_input().await;
        let plan = plan_recovery(&self.model, &input)?;
        tracing::info!(
            "re-homing ({}): {}",
            input.describe(&self.model),
            plan.describe(&self.model).join("; ")
        );
        self.plan_motion(opening_ms(&self.model, &plan));
        let first_move_id = self.take_move_ids(plan.steps.len());
        let groups = plan.encode(&self.map, first_move_id)?;
        let never = std::future::pending();
        self.stream(&groups, (&|| false, never), |_, event| news(event))
            .await
            .map_err(RigError::Home)?;
        self.robot_state = Some(self.model.home());
        self.positions = Some(self.map.positions_at(&self.model.home()));
        self.lost = 0;
        self.motion_in_doubt = false;
        Ok(())
    }

    /// Drops what the link reported about the interrupted program (refusals of commands that
    /// were in flight, a late `MoveDone`); true if the link itself ended meanwhile.
    pub(super) fn link_ended_meanwhile(&mut self) -> bool {
        let Some(link) = self.link.as_mut() else {
            return false;
        };
        let stale = link.take_waiting_events();
        if !stale.is_empty() {
            tracing::debug!("before re-homing, dropped stale link events {stale:?}");
        }
        stale
            .iter()
            .any(|e| matches!(e, crate::link::LinkEvent::Stopped { .. }))
    }

    /// Whether the last interruption came while commands were running or queued.
    pub(crate) fn motion_in_doubt(&self) -> bool {
        self.motion_in_doubt
    }

    /// After a program ended early: which positions are lost and whether a motion may have
    /// been cut. `unfinished` are the commands not reported done; `heard` whether the link
    /// answered at all (a link already closed took none of them).
    pub(super) fn note_interruption(
        &mut self,
        error: &StreamError,
        unfinished: &[MotionGroup],
        heard: bool,
    ) {
        if matches!(error, StreamError::Stopped { .. }) {
            return;
        }
        let took_some = heard || !matches!(error, StreamError::Link(LinkError::Closed));
        if took_some && !unfinished.is_empty() {
            self.motion_in_doubt = true;
            for group in unfinished.iter().take(LOOKAHEAD + 1) {
                self.lost |= actuators_of(group);
            }
        }
        match error {
            StreamError::Fault { fault, .. } => {
                if let Some(actuator) = fault_actuator(fault) {
                    self.lost |= 1 << (actuator % 16);
                }
            }
            StreamError::Link(LinkError::FirmwareRebooted { .. }) => self.lost = LOST_ALL,
            _ => {}
        }
    }
}
