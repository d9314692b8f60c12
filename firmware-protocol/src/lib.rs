//! Wire format between the cubed host and the robot firmware (`no_std`, no alloc).
#![no_std]
