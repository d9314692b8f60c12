//! Stopping: the e-stop latched (the host's command or the switch), and every channel halted or decelerated with the queue flushed.

use super::{Channel, FaultCause, Firmware};
use firmware_protocol::message::{Event, Fault, FaultFlags};
use firmware_protocol::Message;

impl<'b> Firmware<'b> {
    /// Stops every motor now, flushes the queue and latches the e-stop.
    pub(crate) fn emergency_stop(&mut self, cause: FaultCause) {
        let already = self.latched.any(FaultFlags::ESTOP);
        self.stop_and_flush();
        self.homed = 0;
        self.latched = FaultFlags(self.latched.0 | FaultFlags::ESTOP);
        if !already {
            self.cause = Some(cause);
        }
        if cause == FaultCause::EStopCommand {
            self.ack();
        }
        if self.link.in_session() && !already {
            self.notify(&Message::Event(Event::Fault(Fault::EStopLatched)));
        }
    }
    /// Halts every channel and empties the queue; an interrupted command leaves the
    /// firmware unhomed.
    pub(crate) fn stop_and_flush(&mut self) {
        self.stop_every_channel(false);
    }

    /// Stops every channel, the steppers at once or down their deceleration ramps, and
    /// empties the queue; an interrupted command leaves the firmware unhomed.
    pub(crate) fn stop_every_channel(&mut self, decelerating: bool) {
        if self.running.take().is_some() {
            self.homed = 0;
        }
        let now = self.now_us;
        for channel in self.channels.iter_mut() {
            match channel {
                Channel::Stepper(stepper) if decelerating => stepper.decelerate(now),
                Channel::Stepper(stepper) => stepper.halt(),
                Channel::Servo(servo) => servo.halt(),
                Channel::None => {}
            }
        }
        self.queue.clear();
    }
}
