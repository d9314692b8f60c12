//! The real host link against the simulated robot over real pseudo-terminals, one submodule per concern: scenario runs through faults on the line, e-stop, button and homing events, and refused handshakes.

mod refused_handshakes;
mod scenario_runs;
mod stop_button_and_homing;
