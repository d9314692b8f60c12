//! Homing a stepper channel: how it treats where it stands, and the phases (return,
//! clear, seek, back off, approach, offset) it runs through as a sequence of moves.

use super::{Drive, StepperChannel, StepperFault};
use crate::pins::Pins;
use firmware_protocol::message::{HomeSensor, SensorKind};

/// How a stepper's homing treats where it stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HomingWay {
    /// A continuous rotation: it ends on the quarter turn nearest where it began.
    Continuous,
    /// A rotation with a limited range (a jaw's wiring turns with it): once its count is
    /// known, it turns back the way it came to its mark, never on round the turn.
    Limited,
    /// Anything else (a flipper's cam): it seeks its sensor in the configured direction.
    Seek,
}

/// Homing phases, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Phase {
    /// A limited rotation whose count is known: creep back to just short of its sensor's
    /// trigger point (on the side the seek comes from), then approach.
    Return,
    /// Sensor active at the start: move off it first.
    Clear,
    /// Fast towards the sensor.
    Seek,
    /// Away from it by `backoff_deg`.
    BackOff,
    /// Slowly back onto it.
    Approach,
    /// Ramp from the trigger point to position 0.
    Offset,
}

/// The step `grid`'s multiple nearest `steps` (ties go up).
const fn nearest_multiple(steps: i64, grid: i64) -> i64 {
    (steps + grid / 2).div_euclid(grid) * grid
}

impl StepperChannel {
    /// Starts homing (see [`HomeSensor`]); without a sensor, ramps to the counted 0.
    /// A continuous rotation has no end to keep to: it ends on the position unit (the
    /// quarter turn) nearest where it began, counted from its sensor, and calls that 0,
    /// so a face or a turntable it drives is left as it was found (squared). A limited
    /// rotation homed before turns back to its hall sensor the way it came.
    pub fn start_homing(
        &mut self,
        now_us: u64,
        sensor_active: bool,
        way: HomingWay,
        pins: &mut impl Pins,
    ) {
        pins.set_enable(self.index, true);
        self.homing_began = (way == HomingWay::Continuous).then_some(self.position);
        self.seek_if_missed = false;
        match self.hw.home {
            None => {
                self.homing = None;
                self.move_to_steps(0, now_us, pins);
            }
            Some(home)
                if way == HomingWay::Limited
                    && self.counted_from_home
                    && home.kind == SensorKind::Hall =>
            {
                self.return_to_mark(home, now_us, sensor_active, pins);
            }
            Some(home) => {
                let phase = if sensor_active {
                    Phase::Clear
                } else {
                    Phase::Seek
                };
                self.enter(phase, home, now_us, pins);
            }
        }
    }

    /// [`Phase::Return`]: back to the back-off point before the sensor's trigger, by the
    /// count; from there the approach finds the sensor as a seek would have.
    fn return_to_mark(
        &mut self,
        home: HomeSensor,
        now_us: u64,
        sensor_active: bool,
        pins: &mut impl Pins,
    ) {
        let backoff = i64::from(self.hw.deg_to_steps(home.backoff_deg.into()).max(1));
        let trigger = -i64::from(home.offset_steps);
        let before_trigger = match home.seek_positive {
            true => trigger - backoff,
            false => trigger + backoff,
        };
        self.homing = Some(Phase::Return);
        let distance = before_trigger - self.position;
        let steps = distance.unsigned_abs().min(u64::from(u32::MAX)) as u32;
        // A creep at the seek speed, as a seek would have been: no steps handed ahead, so the
        // approach that follows reads the sensor where the motor is.
        if steps > 0 {
            self.creep(
                now_us,
                home.seek_deg_s.into(),
                distance > 0,
                steps,
                None,
                pins,
            );
        } else {
            // Already there: on with the phase the sensor's level calls for.
            let next = self.phase_after_return(sensor_active);
            self.enter(next, home, now_us, pins);
        }
    }

    /// What follows [`Phase::Return`]: off the sensor first if it reads active there, else
    /// the approach (which seeks if it misses the sensor).
    fn phase_after_return(&mut self, sensor_active: bool) -> Phase {
        if sensor_active {
            return Phase::Clear;
        }
        self.seek_if_missed = true;
        Phase::Approach
    }

    fn enter(&mut self, phase: Phase, home: HomeSensor, now_us: u64, pins: &mut impl Pins) {
        self.homing = Some(phase);
        let toward = home.seek_positive;
        let seek_limit = self.hw.deg_to_steps(home.max_seek_deg.into());
        let backoff = self.hw.deg_to_steps(home.backoff_deg.into()).max(1);
        match phase {
            Phase::Return => {}
            Phase::Clear => self.creep(
                now_us,
                home.seek_deg_s.into(),
                !toward,
                seek_limit,
                Some(false),
                pins,
            ),
            Phase::Seek => self.creep(
                now_us,
                home.seek_deg_s.into(),
                toward,
                seek_limit,
                Some(true),
                pins,
            ),
            Phase::BackOff => {
                self.creep(now_us, home.seek_deg_s.into(), !toward, backoff, None, pins)
            }
            Phase::Approach => self.creep(
                now_us,
                home.approach_deg_s.into(),
                toward,
                2 * backoff,
                Some(true),
                pins,
            ),
            Phase::Offset => {
                // The trigger point is `offset_steps` before home.
                let trigger = -i64::from(home.offset_steps);
                let home_at = self.homing_began.map_or(0, |began| {
                    self.unit_nearest(trigger - (self.position - began), trigger)
                });
                self.position = trigger - home_at;
                self.move_to_steps(0, now_us, pins);
            }
        }
    }

    /// Where a continuous rotation that began at `began` (steps from its sensor's home)
    /// stops: the position unit nearest `began`, as the turn of it nearest `near`
    /// (positions a whole revolution apart are the same angle).
    fn unit_nearest(&self, began: i64, near: i64) -> i64 {
        let rev = self.hw.steps_per_rev() as i64;
        let unit = self.hw.steps_for_units(1).max(1);
        let angle = nearest_multiple(began, unit);
        angle + nearest_multiple(near - angle, rev)
    }

    pub(super) fn advance_homing(
        &mut self,
        now_us: u64,
        sensor_active: bool,
        pins: &mut impl Pins,
    ) -> Result<(), StepperFault> {
        let (Some(phase), Some(home)) = (self.homing, self.hw.home) else {
            self.homing = None;
            return Ok(());
        };
        let missed = core::mem::replace(&mut self.seek_if_missed, false);
        let next = match phase {
            Phase::Return => self.phase_after_return(sensor_active),
            // Not where the count said (steps lost): found as from an unknown place.
            Phase::Approach if missed && !sensor_active => Phase::Seek,
            Phase::Clear => Phase::Seek,
            Phase::Seek => Phase::BackOff,
            Phase::BackOff if sensor_active => {
                self.homing = None;
                return Err(StepperFault::HomeNotFound);
            }
            Phase::BackOff => Phase::Approach,
            Phase::Approach => Phase::Offset,
            Phase::Offset => {
                self.homing = None;
                self.counted_from_home = true;
                return Ok(());
            }
        };
        self.enter(next, home, now_us, pins);
        if next == Phase::Offset && !matches!(self.drive, Drive::Ramp { .. }) {
            self.homing = None;
            self.counted_from_home = true;
        }
        Ok(())
    }
}
