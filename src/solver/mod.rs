//! Two-phase solver.
