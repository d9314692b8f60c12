//! The Pico firmware exactly as `firmware/build.sh pico` builds it, running on the
//! rp2040js emulator (`firmware/boards/pico/emulator`, Node), its USB CDC port bridged to
//! a real pseudo-terminal behind a by-id style symlink, so that `cubed exec` and the link
//! talk to it as to a Pico on a cable. The emulator models the motors and sensors from
//! the pins and traces every edge on the emulated clock ([`trace`]).
//!
//! Needs Node, the emulator's `npm ci` and the ELF; without them each test says so
//! loudly and passes, unless `CUBED_REQUIRE_FIRMWARE=1` (firmware/ci.sh sets it).

mod daemon;
pub(crate) mod emulator;
mod exec;
mod offline;
mod reconnect;
mod safety;
mod session;
mod setup;
mod sim_cmd;
mod timing;
mod trace;
mod uf2;
mod wake;
