//! What several sections check alike: a whole number within its key's range.

/// Why a whole number was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum WholeNumberError {
    /// Outside the key's range (or the type it is used as).
    #[error("{value} is outside {min}..={max}")]
    OutOfRange { value: i64, min: i64, max: i64 },
}

/// A whole number within `min..=max` (`default` when not given), in the type it is used as.
/// Read as TOML's own integer, so a negative or huge value is told the key's range.
pub(crate) fn whole_within<T: TryFrom<i64>>(
    value: Option<i64>,
    default: i64,
    (min, max): (i64, i64),
) -> Result<T, WholeNumberError> {
    let value = value.unwrap_or(default);
    match T::try_from(value) {
        Ok(whole) if (min..=max).contains(&value) => Ok(whole),
        _ => Err(WholeNumberError::OutOfRange { value, min, max }),
    }
}
