//! `cubed run`, `cubed dry-run` and the control commands as a user runs them, one submodule per concern: dry runs, a run's config and address refused at start, and a run served and controlled.

mod dry_run;
mod run_and_control;
mod start_refusals;
