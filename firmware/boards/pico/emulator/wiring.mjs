// The machine around the chip from a robot design's wiring, as
// `cubed config wiring --design FILE --format json` prints it: the same description the
// host sends the firmware at connect, read here as a builder reads it to wire the robot
// (which pin each stepper's STEP and DIR, each hall sensor and each servo is on), so that
// a firmware driving the wrong pin moves nothing here.

/** A magnet covers this many microsteps either side of its hall sensor: the emulated
 * robot's own physics, not the design's. */
const HALL_HALF_WIDTH = 20;

const lowMeansActive = (signal) => signal.active === 'low';

/** The machine description `Machine` takes. */
export function machineFromWiring(doc) {
  if (!Array.isArray(doc.actuators) || !doc.board) {
    throw new Error('not a wiring document (no "actuators" and "board"): make one with `cubed config wiring --format json`');
  }
  const steppers = doc.actuators
    .filter((a) => a.kind === 'stepper')
    .map((a) => {
      if (!a.home) throw new Error(`${a.name}: the emulated robot needs a home sensor on every stepper`);
      return {
        actuator: a.index,
        name: a.name,
        step: a.step,
        dir: a.dir,
        dir_inverted: a.invert_dir,
        hall: a.home.pin,
        hall_active_high: a.home.active === 'high',
        microsteps_per_rev: a.microsteps_per_rev,
        hall_half_width: HALL_HALF_WIDTH,
      };
    });
  const servos = doc.actuators
    .filter((a) => a.kind === 'servo')
    .map((a) => ({ actuator: a.index, name: a.name, pin: a.pin }));
  // Each is optional, as on a real board: drivers without an ENABLE pin are always on; an
  // e-stop or start button not fitted is no switch at all (its pin, if any, floats or
  // reads its pull, as the chip's pads say).
  const { enable, estop, button } = doc.board;
  return {
    steppers,
    servos,
    enable: enable ? { pin: enable.pin, active_low: lowMeansActive(enable) } : null,
    // A switch at rest reads its inactive level.
    estop: estop ? { pin: estop.pin, released: lowMeansActive(estop) } : null,
    button: button ? { pin: button.pin, released: lowMeansActive(button) } : null,
  };
}
