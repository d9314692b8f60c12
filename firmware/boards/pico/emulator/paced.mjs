// The emulated chip's clock kept from running ahead of real time. rp2040js jumps its clock
// to the next alarm whenever the core sleeps (`wfi`): a firmware that sleeps between passes
// would then see its time race while the host's stood still, and its comms timeout would
// fire on a host that is keeping time. Here a sleeping chip waits on the wall clock for its
// next alarm instead. A chip that falls behind (it runs every instruction, at a fraction of
// the real chip's speed) is not let catch up by racing either: its lag is forgotten, so
// its time never passes faster than the wall clock's.
//
// It also ends a `wfi` executed with an interrupt already pending, as the ARM does (even one
// PRIMASK holds off, which is then taken once PRIMASK is cleared): rp2040js wakes a sleeping
// core only for an interrupt raised while it sleeps, and would sleep through that one to
// the next alarm. The firmware sleeps inside a critical section (so that no wake is lost
// between its check and its `wfi`), where a step's alarm can come due.
//
// It can act at one instruction too (`atEntry`): a test drives a pin the moment the CPU
// enters a function, which no timing from outside the chip can place.
//
// And it says when the chip keeps less than half of real time for seconds on end (a busy
// machine, or a design stepping faster than an emulator can follow): every motion then takes
// longer than the host planned, which a real Pico does not.

import { Simulator } from 'rp2040js';

const CYCLE_NANOS = 1e9 / 125e6;
/** Instructions run per turn of Node's event loop (the host's bytes arrive between turns). */
const SLICE = 100_000;
/** A chip behind the wall clock by more than this forgets its lag. */
const LAG_FORGIVEN_NANOS = 2e6;
/** Wall time over which the chip's pace is judged. */
const PACE_WINDOW_NANOS = 2e9;
/** A pace (emulated time over wall time) below this is said. */
const SLOW_PACE = 0.5;
/** A slow pace is said again at most this often. */
const SLOW_SAID_EVERY_NANOS = 30e9;

const wallNanos = () => Number(process.hrtime.bigint());

export class PacedSimulator extends Simulator {
  /** `onSlow(pace)` hears a window of wall time in which the chip kept less than half of it. */
  constructor(onSlow = () => {}) {
    super();
    /** The wall time and the emulated time last taken as equal. */
    this.anchor = null;
    this.onSlow = onSlow;
    /** The wall time and the emulated time the pace window began at. */
    this.window = null;
    /** The wall time a slow pace was last said at. */
    this.slowSaid = null;
    /** `{ address, action }`: `action()` runs once, before the instruction at `address`. */
    this.entry = null;
  }

  /** Runs `action()` once, the next time the CPU is about to execute the instruction at
   * `address` (a function's first, for its entry). */
  atEntry(address, action) {
    this.entry = { address, action };
  }

  /** Tells `onSlow` when the last window's pace was slow (and it was not said lately). */
  judgePace() {
    const wall = wallNanos();
    const emulated = this.clock.nanos;
    if (!this.window || wall - this.window.wall < PACE_WINDOW_NANOS) {
      this.window ??= { wall, emulated };
      return;
    }
    const pace = (emulated - this.window.emulated) / (wall - this.window.wall);
    this.window = { wall, emulated };
    if (pace < SLOW_PACE && (this.slowSaid === null || wall - this.slowSaid >= SLOW_SAID_EVERY_NANOS)) {
      this.slowSaid = wall;
      this.onSlow(pace);
    }
  }

  /** Emulated nanoseconds the chip may still go on by the wall clock (negative: none). */
  allowance() {
    const wall = wallNanos();
    const emulated = this.clock.nanos;
    if (!this.anchor || this.anchor.emulated + (wall - this.anchor.wall) - emulated > LAG_FORGIVEN_NANOS) {
      this.anchor = { wall, emulated };
    }
    return this.anchor.emulated + (wall - this.anchor.wall) - emulated;
  }

  execute() {
    const { rp2040, clock } = this;
    const { core } = rp2040;
    this.executeTimer = null;
    this.stopped = false;
    this.judgePace();
    for (let i = 0; i < SLICE && !this.stopped; i++) {
      if (!core.waiting) {
        if (this.entry !== null && core.PC === this.entry.address) {
          const { action } = this.entry;
          this.entry = null;
          action();
        }
        clock.tick(core.executeInstruction() * CYCLE_NANOS);
        continue;
      }
      if ((core.pendingInterrupts & core.enabledInterrupts) !== 0) {
        core.waiting = false;
        continue;
      }
      const toAlarm = clock.nanosToNextAlarm;
      const shortfall = toAlarm - this.allowance();
      if (shortfall > 0) {
        // Wait on the wall clock (Node's timers count whole milliseconds).
        this.executeTimer = setTimeout(() => this.execute(), Math.max(1, Math.floor(shortfall / 1e6)));
        return;
      }
      clock.tick(toAlarm);
    }
    if (!this.stopped) {
      this.executeTimer = setTimeout(() => this.execute(), 0);
    }
  }
}
