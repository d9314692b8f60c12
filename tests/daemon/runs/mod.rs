//! Whole runs, one submodule per concern: a run's life and record, photos in doubt taken again, and photos read from a folder.

mod folders;
mod lifecycle;
mod recapture;
