//! What several sections check alike: a whole number within its key's range.

/// A whole number within `min..=max` (`default` when not given), in the type it is used as.
/// Read as TOML's own integer, so a negative or huge value is told the key's range.
pub(crate) fn whole_within<T: TryFrom<i64>>(
    value: Option<i64>,
    default: i64,
    (min, max): (i64, i64),
) -> Result<T, String> {
    let value = value.unwrap_or(default);
    match T::try_from(value) {
        Ok(whole) if (min..=max).contains(&value) => Ok(whole),
        _ => Err(format!("{value} is outside {min}..={max}")),
    }
}
