//! The keys a serde struct takes, read from its own `Deserialize` (no list kept by hand beside it).

use serde::de::{Deserialize, Deserializer, Visitor};
use std::fmt;

/// The keys of the struct `T` as its `Deserialize` names them (serde's `fields`), or none when
/// `T` is not read as a struct (a map, an enum, a value read by hand).
pub fn field_names<T: for<'de> Deserialize<'de>>() -> &'static [&'static str] {
    let mut capture = Capture { fields: None };
    // Always refused: the capture reads no value, it only hears what the struct asks for.
    let _ = T::deserialize(&mut capture);
    capture.fields.unwrap_or(&[])
}

/// A deserializer that gives no value and keeps the field names a struct asks for.
struct Capture {
    fields: Option<&'static [&'static str]>,
}

/// The capture's only answer: no value here.
#[derive(Debug)]
struct NoValue;

impl fmt::Display for NoValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("field names only")
    }
}

impl std::error::Error for NoValue {}

impl serde::de::Error for NoValue {
    fn custom<M: fmt::Display>(_: M) -> Self {
        NoValue
    }
}

impl<'de> Deserializer<'de> for &mut Capture {
    type Error = NoValue;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, NoValue> {
        Err(NoValue)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, NoValue> {
        self.fields = Some(fields);
        Err(NoValue)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Section {
        port: String,
        #[serde(default)]
        baud: Option<u32>,
        #[serde(rename = "reconnect_secs")]
        reconnect: u32,
    }

    #[test]
    fn a_structs_keys_are_read_as_serde_names_them() {
        assert_eq!(field_names::<Section>(), ["port", "baud", "reconnect_secs"]);
        // Checked against serde's own refusal of an unknown key, which lists them too.
        let refused = toml::from_str::<Section>("x = 1")
            .err()
            .unwrap()
            .to_string();
        for key in field_names::<Section>() {
            assert!(refused.contains(&format!("`{key}`")), "{refused}");
        }
        // Not a struct: no keys.
        assert!(field_names::<u32>().is_empty());
        assert!(field_names::<std::collections::BTreeMap<String, u32>>().is_empty());
    }
}
