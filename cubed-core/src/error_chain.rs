//! One line for an error and its causes ("reading X: permission denied"), for the places that
//! show an error to a person without `anyhow`: the daemon's status, the web API, logs.

use std::error::Error;

/// The error's own text followed by each cause's, joined by ": ", as `anyhow` prints `{:#}`.
pub fn error_chain(error: &dyn Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        text.push_str(": ");
        text.push_str(&next.to_string());
        cause = next.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("reading the palette")]
    struct Outer(#[source] std::io::Error);

    #[test]
    fn each_cause_is_said_once_in_order() {
        let error = Outer(std::io::Error::other("permission denied"));
        assert_eq!(
            error_chain(&error),
            "reading the palette: permission denied"
        );
    }
}
