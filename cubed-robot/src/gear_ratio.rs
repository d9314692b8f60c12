//! A motion table's `gear = [motor revolutions, output revolutions]` as written: two whole numbers; a ratio written with decimals (`[5.18, 1]`, as gearboxes are sold) is refused with the same ratio in whole numbers to write instead.

use serde::Deserialize;

/// The `gear` list as the design file writes it (numbers of either kind, checked here so
/// that a decimal gets its whole-number form rather than the parser's "expected an integer").
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(transparent)]
pub(crate) struct GearToml(Vec<toml::Value>);

impl Default for GearToml {
    /// Direct drive: one motor revolution per output revolution.
    fn default() -> Self {
        GearToml::from([1, 1].as_slice())
    }
}

impl From<&[i64]> for GearToml {
    fn from(terms: &[i64]) -> Self {
        GearToml(terms.iter().map(|&t| toml::Value::Integer(t)).collect())
    }
}

impl GearToml {
    /// The two whole numbers, or what is wrong with the list in words.
    pub(crate) fn pair(&self) -> Result<(i64, i64), String> {
        let written = || {
            let terms: Vec<String> = self.0.iter().map(ToString::to_string).collect();
            format!("[{}]", terms.join(", "))
        };
        let [motor, output] = &self.0[..] else {
            return Err(format!(
                "{} is not a pair; expected [motor revolutions, output revolutions], e.g. [3, 1] for a 3:1 reduction",
                written()
            ));
        };
        if let (Some(motor), Some(output)) = (motor.as_integer(), output.as_integer()) {
            return Ok((motor, output));
        }
        let number = |v: &toml::Value| v.as_float().or(v.as_integer().map(|i| i as f64));
        let whole = (number(motor).zip(number(output))).and_then(|(m, o)| in_whole_numbers(m, o));
        Err(match whole {
            Some((m, o)) => format!(
                "{} is not two whole numbers: write the same ratio as [{m}, {o}] (motor revolutions, output revolutions)",
                written()
            ),
            None => format!(
                "{} is not two whole numbers; expected [motor revolutions, output revolutions], e.g. [3, 1] for a 3:1 reduction",
                written()
            ),
        })
    }
}

/// `motor:output` as the smallest whole numbers with that ratio, when both have at most six
/// decimals and are above zero.
fn in_whole_numbers(motor: f64, output: f64) -> Option<(u64, u64)> {
    if !(motor > 0.0 && output > 0.0 && motor.is_finite() && output.is_finite()) {
        return None;
    }
    let scale = (0..=6).map(|k| 10f64.powi(k)).find(|s| {
        [motor * s, output * s]
            .iter()
            .all(|v| (v - v.round()).abs() < 1e-6)
    })?;
    let (m, o) = (
        (motor * scale).round() as u64,
        (output * scale).round() as u64,
    );
    let divisor = gcd(m, o);
    Some((m / divisor, o / divisor))
}

fn gcd(a: u64, b: u64) -> u64 {
    match b {
        0 => a.max(1),
        _ => gcd(b, a % b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gear(text: &str) -> Result<(i64, i64), String> {
        #[derive(Deserialize)]
        struct Motion {
            gear: GearToml,
        }
        toml::from_str::<Motion>(&format!("gear = {text}"))
            .expect("a list")
            .gear
            .pair()
    }

    #[test]
    fn a_ratio_with_decimals_is_said_in_whole_numbers() {
        assert_eq!(gear("[3, 1]"), Ok((3, 1)));
        let said = gear("[5.18, 1]").unwrap_err();
        assert!(said.contains("write the same ratio as [259, 50]"), "{said}");
        let said = gear("[13.7, 2.5]").unwrap_err();
        assert!(said.contains("as [137, 25]"), "{said}");
        let said = gear("[\"3\", 1]").unwrap_err();
        assert!(
            said.starts_with("[\"3\", 1] is not two whole numbers; expected"),
            "{said}"
        );
        assert!(gear("[3, 1, 2]")
            .unwrap_err()
            .contains("[3, 1, 2] is not a pair"));
        assert_eq!(in_whole_numbers(0.1234567, 1.0), None);
        assert_eq!(GearToml::default().pair(), Ok((1, 1)));
    }
}
