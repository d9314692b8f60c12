//! The robot designs shipped with cubed (`config/robots/*.toml`, compiled into the binary): their names, and each loaded by name.

use crate::{load_robot, RobotModel};
use cubed_files::config_file::ConfigError;
use cubed_files::named_file::BUILT_IN;
use std::path::Path;

/// The shipped designs, by name (the tests walk them all; a simulator of one is named).
pub const SHIPPED_DESIGNS: [&str; 3] = ["four-arm", "turntable-flipper", "six-motor"];

/// The shipped design `name` (a file name in `config/robots` without `.toml`), loaded and validated from the copy
/// compiled in; another name is a read error that lists the shipped ones.
pub fn shipped_design(name: &str) -> Result<RobotModel, ConfigError> {
    load_robot(&Path::new(BUILT_IN).join(format!("robots/{name}.toml")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_design_loads_by_name_and_an_unknown_name_is_refused() {
        for name in SHIPPED_DESIGNS {
            let model = shipped_design(name).expect("a shipped design loads");
            assert!(
                !model.grippers.is_empty() || !model.flippers.is_empty(),
                "{name}"
            );
        }
        let error = shipped_design("five-arm").expect_err("no such design");
        assert!(error.to_string().contains("five-arm"), "{error}");
    }
}
