//! One stepper channel at run time: its counted position, the move it is making
//! (a trapezoidal ramp or a constant-speed creep), and stepping it on time; homing, as a
//! sequence of those moves, is in [`homing`].

mod homing;

pub use homing::HomingWay;
use homing::Phase;

use crate::pins::Pins;
use crate::ramp::Ramp;
use firmware_protocol::message::{HomeSensor, SensorKind, Stepper};

/// What went wrong on a stepper (latched as a fault naming the actuator).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepperFault {
    /// Homing: the sensor was not found within `max_seek_deg` (or never released).
    HomeNotFound,
    /// An end-stop switch triggered during a motion.
    EndStopHit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Drive {
    Idle,
    Ramp {
        start_us: u64,
        ramp: Ramp,
        positive: bool,
        taken: u32,
    },
    Creep {
        next_us: u64,
        interval_us: u32,
        positive: bool,
        taken: u32,
        limit: u32,
        /// Stop (successfully) once the sensor reads this; `None`: run `limit` steps.
        until_active: Option<bool>,
    },
}

/// A stepper channel's run-time state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepperChannel {
    hw: Stepper,
    index: u8,
    /// Microsteps from home, counted from the pulses handed to the board.
    position: i64,
    drive: Drive,
    homing: Option<Phase>,
    /// A continuous rotation's homing: where it began, in the counted steps of then.
    homing_began: Option<i64>,
    /// The count is from a home found since power-up (or this setup): a limited rotation
    /// can turn back to its mark by it.
    counted_from_home: bool,
    /// An approach after [`Phase::Return`] that misses the sensor (steps lost) seeks it
    /// instead of giving up.
    seek_if_missed: bool,
    /// The time of the last ramp step handed to the board ahead of its time, until it
    /// has passed: the channel is busy (no new direction) until then.
    ahead_until: Option<u64>,
    /// The direction of those steps (for taking back the ones a stop cancels).
    ahead_positive: bool,
    /// A stop came while steps were scheduled ahead: ask the board for them back.
    cancel_pending: bool,
}

impl StepperChannel {
    /// A channel at position 0, idle.
    pub const fn new(hw: Stepper, index: u8) -> Self {
        StepperChannel {
            hw,
            index,
            position: 0,
            drive: Drive::Idle,
            homing: None,
            homing_began: None,
            counted_from_home: false,
            seek_if_missed: false,
            ahead_until: None,
            ahead_positive: false,
            cancel_pending: false,
        }
    }

    /// Counted position, microsteps.
    pub const fn position_steps(&self) -> i64 {
        self.position
    }

    /// Position in protocol units (quarter turns, flipper positions).
    pub const fn position_units(&self) -> i64 {
        self.hw.units_at(self.position)
    }

    /// Whether a move or homing is in progress, or steps handed ahead are still due.
    pub const fn busy(&self) -> bool {
        !matches!(self.drive, Drive::Idle) || self.homing.is_some() || self.ahead_until.is_some()
    }

    /// When the next step is due, µs.
    pub fn next_deadline(&self) -> Option<u64> {
        match self.drive {
            Drive::Idle => self.ahead_until,
            Drive::Ramp {
                start_us,
                ramp,
                taken,
                ..
            } => Some(start_us + ramp.step_time_us(taken + 1)),
            Drive::Creep { next_us, .. } => Some(next_us),
        }
    }

    /// Stops at once: no further step is issued, and those handed ahead are taken back
    /// at the next [`Self::service`]. The count stays exact.
    pub fn halt(&mut self) {
        self.drive = Drive::Idle;
        self.homing = None;
        self.cancel_pending |= self.ahead_until.is_some();
    }

    /// Stops as soon as the acceleration allows: a ramp continues down its deceleration
    /// curve from the speed it has reached; a creep (slow homing) stops at once.
    pub fn decelerate(&mut self, now_us: u64) {
        self.homing = None;
        let Drive::Ramp {
            ramp,
            positive,
            taken,
            ..
        } = self.drive
        else {
            self.drive = Drive::Idle;
            return;
        };
        let (v, a) = (
            u64::from(self.hw.max_steps_s()),
            u64::from(self.hw.accel_steps_s2()),
        );
        // Steps needed to stop from the speed at step `taken`: as many as it took to
        // get there while accelerating, v²/(2a) while cruising, what is left when
        // already decelerating.
        let left = u64::from(ramp.steps() - taken);
        let to_stop = u64::from(taken).min((v * v).div_ceil(2 * a)).min(left);
        if to_stop == 0 {
            self.drive = Drive::Idle;
            return;
        }
        // The second half of a triangle of 2·to_stop steps starts at that speed.
        let tail = Ramp::new((2 * to_stop) as u32, u32::MAX, self.hw.accel_steps_s2());
        let half = to_stop as u32;
        // Steps handed ahead still come: the tail follows the last of them.
        let from = self.ahead_until.map_or(now_us, |at| at.max(now_us));
        self.drive = Drive::Ramp {
            start_us: from.saturating_sub(tail.step_time_us(half)),
            ramp: tail,
            positive,
            taken: half,
        };
    }

    /// Starts a ramp to `units` position units; returns the move's duration in µs.
    pub fn move_to_units(&mut self, units: i64, now_us: u64, pins: &mut impl Pins) -> u64 {
        let target = self.hw.steps_for_units(units);
        self.move_to_steps(target, now_us, pins)
    }

    fn move_to_steps(&mut self, target: i64, now_us: u64, pins: &mut impl Pins) -> u64 {
        let distance = target - self.position;
        let steps = distance.unsigned_abs().min(u64::from(u32::MAX)) as u32;
        if steps == 0 {
            self.drive = Drive::Idle;
            return 0;
        }
        let positive = distance > 0;
        self.set_dir(positive, pins);
        let ramp = Ramp::new(steps, self.hw.max_steps_s(), self.hw.accel_steps_s2());
        self.drive = Drive::Ramp {
            start_us: now_us,
            ramp,
            positive,
            taken: 0,
        };
        ramp.duration_us()
    }

    fn creep(
        &mut self,
        now_us: u64,
        deg_s: u32,
        positive: bool,
        limit: u32,
        until_active: Option<bool>,
        pins: &mut impl Pins,
    ) {
        self.set_dir(positive, pins);
        let speed = self.hw.deg_to_steps(deg_s).max(1);
        let interval_us = (1_000_000 / speed).max(1);
        self.drive = Drive::Creep {
            next_us: now_us + u64::from(interval_us),
            interval_us,
            positive,
            taken: 0,
            limit,
            until_active,
        };
    }

    fn set_dir(&self, positive: bool, pins: &mut impl Pins) {
        pins.set_dir(self.index, positive != self.hw.invert_dir);
    }

    /// Issues every step due by `now_us`, and a ramp's steps due by `now_us + lead_us`
    /// to the board ahead of their time. `sensor_active` is the home sensor's level now
    /// (false without a sensor).
    pub fn service(
        &mut self,
        now_us: u64,
        lead_us: u64,
        sensor_active: bool,
        pins: &mut impl Pins,
    ) -> Result<(), StepperFault> {
        self.settle_ahead(now_us, pins);
        while let Some(due) = self.next_deadline() {
            // Ramp steps go to the board ahead of time; a creep steps only when due, its
            // sensor read first.
            let ahead = if matches!(self.drive, Drive::Ramp { .. }) {
                lead_us
            } else {
                0
            };
            if due > now_us + ahead || matches!(self.drive, Drive::Idle) {
                return Ok(());
            }
            if self.homing.is_none() && sensor_active && self.is_end_stop() {
                self.halt();
                self.settle_ahead(now_us, pins);
                return Err(StepperFault::EndStopHit);
            }
            if let Drive::Ramp { positive, .. } = self.drive {
                if due > now_us {
                    self.ahead_until = Some(due);
                    self.ahead_positive = positive;
                }
            }
            if self.step_once(due, sensor_active, pins)? {
                self.advance_homing(due, sensor_active, pins)?;
            }
        }
        Ok(())
    }

    /// Forgets the steps handed ahead once their time has passed; after a stop, takes
    /// back the ones the board had not issued.
    fn settle_ahead(&mut self, now_us: u64, pins: &mut impl Pins) {
        if self.cancel_pending {
            let dropped = i64::from(pins.cancel_steps(self.index));
            self.position -= if self.ahead_positive {
                dropped
            } else {
                -dropped
            };
            self.cancel_pending = false;
            self.ahead_until = None;
        }
        if self.ahead_until.is_some_and(|at| now_us >= at) {
            self.ahead_until = None;
        }
    }

    fn is_end_stop(&self) -> bool {
        matches!(
            self.hw.home,
            Some(HomeSensor {
                kind: SensorKind::EndStop,
                ..
            })
        )
    }

    /// One due step (or the end of a creep); true when the drive finished.
    fn step_once(
        &mut self,
        due: u64,
        sensor_active: bool,
        pins: &mut impl Pins,
    ) -> Result<bool, StepperFault> {
        match &mut self.drive {
            Drive::Idle => Ok(true),
            Drive::Ramp {
                ramp,
                positive,
                taken,
                ..
            } => {
                pins.step(self.index, due);
                *taken += 1;
                self.position += if *positive { 1 } else { -1 };
                let finished = *taken >= ramp.steps();
                if finished {
                    self.drive = Drive::Idle;
                }
                Ok(finished)
            }
            Drive::Creep {
                next_us,
                interval_us,
                positive,
                taken,
                limit,
                until_active,
            } => {
                if *until_active == Some(sensor_active) {
                    self.drive = Drive::Idle;
                    return Ok(true);
                }
                if *taken >= *limit {
                    let searching = until_active.is_some();
                    self.drive = Drive::Idle;
                    if searching && !self.seek_if_missed {
                        self.homing = None;
                        return Err(StepperFault::HomeNotFound);
                    }
                    return Ok(true);
                }
                pins.step(self.index, due);
                *taken += 1;
                self.position += if *positive { 1 } else { -1 };
                *next_us = due + u64::from(*interval_us);
                Ok(false)
            }
        }
    }
}
