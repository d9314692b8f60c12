//! What is wrong with a TOML file a person wrote, naming the file, section, key and line.

/// What is wrong with a file a person wrote (a robot design, `cubed.toml`, a palette): each names the file, and the section, key and line where it can.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{file}: cannot read the file")]
    Read {
        file: String,
        source: std::io::Error,
    },
    #[error("{file}: {section} (line {line}): {message}")]
    Syntax {
        file: String,
        section: String,
        line: usize,
        message: String,
    },
    #[error("{file}: {section}: key '{key}': {problem}")]
    Invalid {
        file: String,
        section: String,
        key: String,
        problem: String,
    },
    #[error("{file}: {words}")]
    WrongKind { file: String, words: String },
    #[error("{file}: {section}: key '{key}': impossible design: {problem}")]
    Impossible {
        file: String,
        section: String,
        key: String,
        problem: String,
    },
}
