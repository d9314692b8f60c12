//! A `--robot` value made a design file: a path, or a shipped design's name found in `config/robots/` here, else the copy built into the binary.

use cubed_files::named_file::{design_value, DesignValue};
use std::path::PathBuf;

/// The default robot design: `config/robots/four-arm.toml` here, else the copy built into the binary.
pub fn default_robot() -> PathBuf {
    shipped_design_file("four-arm.toml").unwrap_or_else(|| {
        std::path::Path::new(cubed_files::named_file::BUILT_IN).join("robots/four-arm.toml")
    })
}

/// A shipped design's `file`: in `config/robots/` here, else the copy built into the binary.
fn shipped_design_file(file: &str) -> Option<PathBuf> {
    cubed_files::named_file::shipped_design_under(std::path::Path::new("config"), file)
}

/// Why a `--robot` value names no design file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RobotDesignError {
    /// Neither a file here nor a shipped design's name.
    #[error("no file '{given}' here, and no shipped design of that name (shipped: {shipped})")]
    NotFound {
        given: String,
        /// The shipped designs' names, comma-separated.
        shipped: String,
    },
    /// A file named without its `.toml`.
    #[error("no file '{given}' here, but there is '{file}': give `--robot {file}`")]
    WithoutToml { given: String, file: String },
    /// A file name that is not here, though a shipped design has that name: the builder may
    /// mean an edited copy elsewhere, so the shipped one is not taken silently.
    #[error("no file '{given}' here (a copy you edited may be in another folder: give its path); for the shipped design of that name, give `--robot {name}`")]
    NotHere { given: String, name: String },
}

/// A `--robot` value: a path, or the name of a shipped design (`six-motor`), found in
/// `config/robots/` here, else built into the binary. A file name (`six-motor.toml`) that is
/// not here is refused, naming the shipped design it may mean.
pub fn robot_design(given: &str) -> Result<PathBuf, RobotDesignError> {
    let path = PathBuf::from(given);
    match design_value(given, &path, std::path::Path::new("config")) {
        DesignValue::File => Ok(path),
        DesignValue::Shipped(shipped) => Ok(shipped),
        DesignValue::ShippedFileNotThere { name } => Err(RobotDesignError::NotHere {
            given: given.to_string(),
            name,
        }),
        DesignValue::WithoutToml { value } => Err(RobotDesignError::WithoutToml {
            given: given.to_string(),
            file: value,
        }),
        DesignValue::Unknown => Err(RobotDesignError::NotFound {
            given: given.to_string(),
            shipped: cubed_files::named_file::built_in_design_names(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shipped_name_is_taken_but_its_file_name_only_when_the_file_is_here() {
        assert!(robot_design("six-motor").is_ok());
        let here = tempfile::tempdir().expect("temp dir");
        let missing = here.path().join("nowhere").join("six-motor.toml");
        // A path is taken as given (reading it says it is missing).
        assert_eq!(robot_design(missing.to_str().unwrap()), Ok(missing.clone()));
        assert_eq!(
            robot_design("six-motor.toml"),
            Err(RobotDesignError::NotHere {
                given: "six-motor.toml".into(),
                name: "six-motor".into()
            }),
            "run where no six-motor.toml is (the crate's root)"
        );
        let hobby = here.path().join("hobby");
        std::fs::write(here.path().join("hobby.toml"), "").expect("written");
        let said = robot_design(hobby.to_str().unwrap()).expect_err("no .toml");
        assert!(said.to_string().contains("give `--robot "), "{said}");
        assert!(said.to_string().contains("hobby.toml`"), "{said}");
        let unknown = robot_design("sixmotor.toml").expect_err("no such design");
        assert!(matches!(unknown, RobotDesignError::NotFound { .. }));
        assert!(unknown.to_string().contains("four-arm"), "{unknown}");
    }
}
