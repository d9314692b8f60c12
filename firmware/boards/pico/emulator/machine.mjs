// The robot around the emulated Pico, modelled from its pins alone: each stepper's
// position counts the STEP rising edges its driver takes (only while ENABLE is active),
// in the sense its DIR pin gives; each hall sensor's output follows that position; each
// servo's pulse width is measured from its PWM pin. Every edge and input change goes to
// the trace with its time on the emulator's clock (ns), never wall time.
//
// Trace lines:  E <ns> <gpio> <0|1>   an output edge (step, dir, enable)
//               S <ns> <gpio> <µs>    a servo pulse ended, its width
//               I <ns> <gpio> <0|1>   an input level set (a sensor, the e-stop, the button)
//               U <ns> <what>         the USB cable (unplugged, plugged, connected), the chip
//                                     (hang, reset)
//               H <ns> <count>        bytes from the host handed to the firmware

import { createWriteStream } from 'node:fs';
import { GPIOPinState } from 'rp2040js';

const high = (state) => state === GPIOPinState.High;
const isOutput = (state) => state === GPIOPinState.High || state === GPIOPinState.Low;

export class Machine {
  /**
   * @param design the machine description (`machineFromWiring` of a design's wiring)
   * @param tracePath where the trace goes (none: nothing is traced)
   * @param random a function giving [0, 1): where each motor starts
   */
  constructor(design, tracePath, random) {
    this.design = design;
    this.trace = tracePath ? createWriteStream(tracePath) : null;
    this.pending = [];
    this.enabled = false;
    this.stepsWhileDisabled = 0;
    this.clock = () => 0;
    this.steppers = design.steppers.map((stepper) => ({
      ...stepper,
      position: Math.floor(random() * stepper.microsteps_per_rev),
      forward: false,
      sensorLevel: null,
    }));
    // The switches fitted, at rest; a pin of the design with none floats (see `watchPulls`).
    this.levels = new Map(
      [design.estop, design.button].filter(Boolean).map((s) => [s.pin, s.released]),
    );
  }

  /**
   * Wires the machine to a chip (the first, or one just reset): its pins are inputs
   * again, so the drivers' ENABLE, pulled up on the board, is off until the firmware
   * drives it. `clock` gives the trace's time in ns. Returns a function that unwires it.
   */
  attach(rp2040, clock) {
    this.rp2040 = rp2040;
    this.clock = clock;
    this.enabled = !this.design.enable;
    if (this.design.enable && this.attachedBefore) {
      // A chip reset lets go of every pin: the pull-up switches the drivers off now, and the
      // trace says so (the last level it showed was the old firmware's).
      const { pin, active_low: activeLow } = this.design.enable;
      this.log(`E ${this.now()} ${pin} ${activeLow ? 1 : 0}`);
    }
    this.attachedBefore = true;
    const unwire = [this.watchEnable(), ...this.steppers.flatMap((s) => this.watchStepper(s))];
    unwire.push(...this.watchPulls());
    unwire.push(...this.design.servos.map((servo) => this.watchServo(servo)));
    for (const stepper of this.steppers) {
      stepper.sensorLevel = null;
      this.updateSensor(stepper);
    }
    for (const [pin, level] of this.levels) this.setInput(pin, level);
    return () => unwire.forEach((remove) => remove());
  }

  now() {
    return Math.round(this.clock());
  }

  log(line) {
    if (!this.trace) return;
    this.pending.push(line);
    if (this.pending.length >= 4096) this.flushTrace();
  }

  flushTrace() {
    if (this.pending.length) this.trace.write(this.pending.join('\n') + '\n');
    this.pending = [];
  }

  /** Writes everything traced so far, then calls `done`. */
  drain(done) {
    // A write's callback runs once its bytes are in the file, after every write before
    // it: only then may a reader trust the file to hold everything traced.
    if (!this.trace) {
      setImmediate(done);
      return;
    }
    const text = this.pending.length ? this.pending.join('\n') + '\n' : '\n';
    this.pending = [];
    this.trace.write(text, () => done());
  }

  /** Listens to a pin's level; a pin the chip does not have (a design may name GPIO 30
   * or 31) carries nothing, and the firmware refuses it at connect, as a real board does. */
  listen(pin, listener) {
    const gpio = this.rp2040.gpio[pin];
    return gpio ? gpio.addListener(listener) : () => {};
  }

  /**
   * Every pin nothing of the machine drives (no sensor, no switch fitted) reads what its
   * pad's pull-up or pull-down makes it, as a real chip's does: an e-stop input the
   * firmware pulls up, with no switch on it, reads high.
   */
  watchPulls() {
    const halls = new Set(this.steppers.map((s) => s.hall));
    const pins = [...Array(this.rp2040.gpio.length).keys()].filter((pin) => !halls.has(pin));
    return pins.map((pin) => this.listen(pin, (state) => {
      if (this.levels.has(pin)) return; // a switch, or something driving it from outside
      if (state === GPIOPinState.InputPullUp) this.setInput(pin, true);
      if (state === GPIOPinState.InputPullDown) this.setInput(pin, false);
    }));
  }

  watchEnable() {
    if (!this.design.enable) return () => {};
    const { pin, active_low: activeLow } = this.design.enable;
    return this.listen(pin, (state) => {
      if (!isOutput(state)) return;
      this.enabled = high(state) !== activeLow;
      this.log(`E ${this.now()} ${pin} ${high(state) ? 1 : 0}`);
    });
  }

  watchStepper(stepper) {
    const dir = this.listen(stepper.dir, (state) => {
      if (!isOutput(state)) return;
      stepper.forward = high(state) !== Boolean(stepper.dir_inverted);
      this.log(`E ${this.now()} ${stepper.dir} ${high(state) ? 1 : 0}`);
    });
    const step = this.listen(stepper.step, (state, old) => {
      if (!isOutput(state)) return;
      this.log(`E ${this.now()} ${stepper.step} ${high(state) ? 1 : 0}`);
      if (high(state) && !high(old)) this.takeStep(stepper);
    });
    return [dir, step];
  }

  takeStep(stepper) {
    if (!this.enabled) {
      this.stepsWhileDisabled++;
      return;
    }
    stepper.position += stepper.forward ? 1 : -1;
    this.updateSensor(stepper);
  }

  /** A hall switch over a magnet at position 0: active within the half width. */
  updateSensor(stepper) {
    const revolution = stepper.microsteps_per_rev;
    const angle = ((stepper.position % revolution) + revolution) % revolution;
    const near = angle <= stepper.hall_half_width || angle >= revolution - stepper.hall_half_width;
    const level = stepper.hall_active_high ? near : !near;
    if (level !== stepper.sensorLevel) {
      stepper.sensorLevel = level;
      this.setInput(stepper.hall, level);
    }
  }

  /**
   * Something outside drives `pin` to `level` from now on (a switch pressed, a driver's
   * DIAG output): it stays so across a chip reset, and its pad's pull no longer counts.
   */
  drive(pin, level) {
    this.levels.set(pin, level);
    this.setInput(pin, level);
  }

  /** Drives an input; a switch's level (e-stop, button) stays across a chip reset. */
  setInput(pin, level) {
    if (this.levels.has(pin)) this.levels.set(pin, level);
    this.rp2040.gpio[pin]?.setInputValue(level);
    this.log(`I ${this.now()} ${pin} ${level ? 1 : 0}`);
  }

  watchServo(servo) {
    let rose = null;
    return this.listen(servo.pin, (state, old) => {
      if (!isOutput(state)) return;
      if (high(state) && !high(old)) rose = this.now();
      if (!high(state) && high(old) && rose !== null) {
        this.log(`S ${this.now()} ${servo.pin} ${Math.round((this.now() - rose) / 1000)}`);
      }
    });
  }

  /** Each stepper's modelled position, in microsteps, by actuator. */
  positions() {
    return Object.fromEntries(this.steppers.map((s) => [s.actuator, s.position]));
  }
}
