//! Integration tests of the firmware core.
