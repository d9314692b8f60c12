// Runs the cubed Pico firmware ELF, exactly as firmware/build.sh makes it, on the
// rp2040js emulator, with the robot around it modelled from the pins (machine.mjs) and
// its USB CDC port carried over this process's standard input and output, so that a
// test can bridge it to a pseudo-terminal and talk to it as to a real Pico.
//
//   node pico.mjs --elf FILE --machine WIRING.json [--trace FILE] [--seed N]
//   (no --trace: no pin is traced, and nothing grows on disk while it runs)
//   (WIRING.json: `cubed config wiring --design config/robots/four-arm.toml --format json`)
//
// Standard input, one command a line:
//   tx <hex>          bytes from the host to the firmware
//   pin <gpio> <0|1>  drive an input (the e-stop, the button; sensors follow the motors)
//   pin-at <function> <gpio> <0|1>
//                     drive it the next time the CPU enters <function>: the one function in
//                     the ELF's symbols whose name ends so (`Firmware>::next_deadline`)
//   unplug | plug     pull the USB cable, put it back (the board stays powered)
//   hang              the firmware stops making progress (the watchdog should reset it)
//   flush             write the trace out (if any), then answer "flushed <ns> <positions JSON>"
//   quit              stop
// Standard output, one line each:
//   connected <serial number>   enumerated and the port opened (again after a plug)
//   rx <ns> <hex>               bytes from the firmware to the host, and when
//   flushed ...                 see above
//   reset <ns>                  the watchdog reset the chip; it boots again (and enumerates)
//   error <text>                the emulated CPU failed; the process then exits 3
//   refused <text>              a command it cannot obey (a function the ELF does not name)

import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { PacedSimulator } from './paced.mjs';
import { bootFromElf, functionAddress } from './elf.mjs';
import { Machine } from './machine.mjs';
import { machineFromWiring } from './wiring.mjs';
import { CdcHost } from './usb-host.mjs';

const { values: args } = parseArgs({
  options: {
    elf: { type: 'string' },
    machine: { type: 'string' },
    trace: { type: 'string' },
    seed: { type: 'string', default: '1' },
  },
});
for (const key of ['elf', 'machine']) {
  if (!args[key]) {
    process.stderr.write(`pico.mjs: --${key} is required\n`);
    process.exit(2);
  }
}

/** mulberry32: a small seeded generator, so a seed gives the same motor positions. */
function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const say = (line) => process.stdout.write(line + '\n');
/** A bad argument (no such file, not an ELF, a machine file that is not JSON) is said
 * in one line, naming the file, and ends the run with status 2. */
function refuse(error) {
  process.stderr.write(`pico.mjs: ${error.message}\n`);
  process.exit(2);
}
let design;
try {
  design = machineFromWiring(JSON.parse(readFileSync(args.machine, 'utf8')));
} catch (error) {
  refuse(new Error(`--machine ${args.machine}: ${error.message}`));
}
const machine = new Machine(design, args.trace, seeded(Number(args.seed)));
const quiet = { debug() {}, info() {}, warn() {}, error: (tag, text) => process.stderr.write(`rp2040js ${tag}: ${text}\n`) };
/** The emulated time of the chips before this one (rp2040js cannot reset a chip: a reset is a new one). */
let timeBase = 0;
let plugged = true;
let chip = startChip(null);
watchForCrash();

const commands = createInterface({ input: process.stdin });
commands.on('line', obey);
commands.on('close', () => quit(0));

/** A chip running the firmware from power-on, or after a reset that left `carried` (the
 * watchdog's reason and scratch registers, which survive a reset). */
function startChip(carried) {
  const simulator = new PacedSimulator((pace) =>
    process.stderr.write(
      `pico.mjs: the emulated Pico keeps ${pace.toFixed(2)}x real time (this machine is busy, or the design steps faster than an emulator follows): motions take longer than planned, as a real Pico's would not\n`,
    ),
  );
  const { rp2040 } = simulator;
  rp2040.logger = quiet;
  const watchdog = rp2040.peripherals[0x40058];
  if (carried) {
    watchdog.reason = carried.reason;
    watchdog.scratchData.set(carried.scratch);
  }
  const now = () => timeBase + simulator.clock.nanos;
  const unwire = machine.attach(rp2040, now);
  const host = new CdcHost(rp2040.usbCtrl, {
    connected(serial) {
      machine.log(`U ${machine.now()} connected`);
      say(`connected ${serial ?? '(none)'}`);
    },
    data: (bytes) => say(`rx ${machine.now()} ${Buffer.from(bytes).toString('hex')}`),
    delivered: (count) => machine.log(`H ${machine.now()} ${count}`),
    log: (text) => process.stderr.write(`pico.mjs: ${text}\n`),
  });
  if (!plugged) host.unplug();
  const started = { simulator, rp2040, host, unwire, watchdog, resetting: false };
  // The watchdog resets the chip (a hang, or the panic handler's deliberate reset).
  watchdog.onWatchdogTrigger = () => {
    // rp2040js's watchdog alarm fires again at once while its counter stays at 0: stop it.
    watchdog.alarm.enable = false;
    watchdog.timer.enable = false;
    if (started.resetting) return;
    started.resetting = true;
    simulator.stop();
    setImmediate(() => reset(started));
  };
  try {
    bootFromElf(rp2040, args.elf);
  } catch (error) {
    refuse(error);
  }
  simulator.execute();
  return started;
}

function reset(old) {
  old.unwire();
  old.host.unplug();
  const at = machine.now();
  timeBase = at;
  const reason = old.watchdog.reason;
  machine.log(`U ${at} reset`);
  say(`reset ${at}`);
  chip = startChip({ reason, scratch: Uint32Array.from(old.watchdog.scratchData) });
}

/** The firmware stops making progress: the CPU spins on one instruction, interrupts off. */
function hang() {
  const spin = 0x20041000; // SRAM bank 4, which the firmware's memory map leaves unused
  chip.rp2040.writeUint16(spin, 0xe7fe); // b .
  chip.rp2040.core.PM = true;
  chip.rp2040.core.PC = spin;
  machine.log(`U ${machine.now()} hang`);
}

function obey(line) {
  const [command, ...rest] = line.trim().split(/\s+/);
  switch (command) {
    case 'tx':
      chip.host.send(Buffer.from(rest[0] ?? '', 'hex'));
      break;
    case 'pin':
      machine.drive(Number(rest[0]), rest[1] === '1');
      break;
    case 'pin-at':
      pinAtEntry(rest[0] ?? '', Number(rest[1]), rest[2] === '1');
      break;
    case 'unplug':
      machine.log(`U ${machine.now()} unplugged`);
      plugged = false;
      chip.host.unplug();
      break;
    case 'plug':
      machine.log(`U ${machine.now()} plugged`);
      plugged = true;
      chip.host.plugIn();
      break;
    case 'hang':
      hang();
      break;
    case 'flush':
      machine.drain(() => say(`flushed ${machine.now()} ${JSON.stringify(machine.positions())}`));
      break;
    case 'quit':
      quit(0);
      break;
    case '':
      break;
    default:
      process.stderr.write(`pico.mjs: unknown command '${command}'\n`);
  }
}

/** Drives input `gpio` the next time the CPU enters `function` (see the usage above). */
function pinAtEntry(function_, gpio, high) {
  let address;
  try {
    address = functionAddress(args.elf, function_);
  } catch (error) {
    say(`refused pin-at: ${error.message}`);
    return;
  }
  chip.simulator.atEntry(address, () => machine.drive(gpio, high));
}

/** A CPU outside flash and RAM, or in the HardFault handler, is reported and ends the run. */
function watchForCrash() {
  const check = () => {
    const { rp2040, resetting } = chip;
    if (resetting) return;
    const pc = rp2040.core.PC;
    const inCode = (pc >= 0x10000000 && pc < 0x10200000) || (pc >= 0x20000000 && pc < 0x20042000);
    if (!inCode || rp2040.core.IPSR === 3) {
      say(`error the CPU ${inCode ? 'took a HardFault' : 'left flash and RAM'} at pc 0x${pc.toString(16)}`);
      quit(3);
    }
  };
  setInterval(check, 50).unref();
}

function quit(code) {
  chip.simulator.stop();
  machine.drain(() => process.exit(code));
}
