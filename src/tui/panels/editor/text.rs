//! The filter editor's inputs as text: a filter's values written as an input shows them
//! (escaped, `!value` hidden, `(none)` absent), and read back into conditions, types, time
//! bounds and the retry status.

use super::HIDDEN_LABEL;
use crate::event::{EventType, Field};
use crate::filter::{Condition, Filter, TimeBound};

/// A field's conditions as an input writes them: the wanted value, then the hidden ones.
pub fn field_text(filter: &Filter, field: Field) -> String {
    let mut conditions: Vec<&Condition> = filter
        .conditions
        .iter()
        .filter(|c| c.field == field)
        .collect();
    conditions.sort_by_key(|c| c.negate);
    conditions
        .iter()
        .map(|c| {
            let value = written(c);
            if c.negate { format!("!{value}") } else { value }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A condition's value as an input writes it: escaped, or `(none)` for the field absent (read
/// back by [`condition`]).
fn written(condition: &Condition) -> String {
    condition
        .value
        .as_deref()
        .map_or(crate::text::NONE.to_string(), escape)
}

/// A value with its commas escaped, as an input writes it.
pub(super) fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace(',', "\\,")
}

/// The items of an input, split at commas not escaped, unescaped and trimmed; empty ones left
/// out.
pub fn items(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut item = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => item.extend(chars.next()),
            ',' => out.push(std::mem::take(&mut item)),
            c => item.push(c),
        }
    }
    out.push(item);
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

/// The conditions an input's text asks of `field`: at most one wanted value, any number of
/// hidden ones (`!value`); `(none)` is the absence of the field.
pub fn conditions_of(field: Field, text: &str) -> Result<Vec<Condition>, String> {
    let mut out = Vec::new();
    for item in items(text) {
        let (negate, value) = match item.strip_prefix('!') {
            Some(rest) => (true, rest.trim()),
            None => (false, item.as_str()),
        };
        out.push(condition(field, value, negate)?);
    }
    if out.iter().filter(|c| !c.negate).count() > 1 {
        return Err(format!(
            "{field}: one value can be wanted (an event has one {field}); hide others with !value"
        ));
    }
    Ok(out)
}

/// One value of `field` as an input writes it (`(none)`: the field absent), or why it is not
/// one (a code that is not a number).
fn condition(field: Field, value: &str, negate: bool) -> Result<Condition, String> {
    let value = (value != crate::text::NONE).then(|| value.to_string());
    if field.is_number()
        && let Some(v) = &value
        && v.parse::<i64>().is_err()
    {
        return Err(format!("{field}: {v:?} is not a number"));
    }
    Ok(Condition {
        field,
        value,
        negate,
    })
}

/// A value hidden whole as its input writes it: each field's value, `field=value`, separated by
/// commas (`type=client.join.failed, code=4006, error=ICEFailure`).
pub fn hidden_input_text(group: &[Condition]) -> String {
    group
        .iter()
        .map(|c| {
            let op = if c.negate { "!=" } else { "=" };
            format!("{}{op}{}", c.field.name(), written(c))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The values of a value hidden whole, read from its input's text (see [`hidden_input_text`]).
pub fn hidden_of(text: &str) -> Result<Vec<Condition>, String> {
    items(text)
        .iter()
        .map(|item| {
            let Some((name, value)) = item.split_once('=') else {
                return Err(format!(
                    "{HIDDEN_LABEL}: {item:?} is not field=value (empty the input to show \
                     these events again)"
                ));
            };
            let (name, negate) = match name.strip_suffix('!') {
                Some(name) => (name, true),
                None => (name, false),
            };
            let field = Field::named(name)
                .ok_or_else(|| format!("{HIDDEN_LABEL}: no field is named {:?}", name.trim()))?;
            condition(field, value.trim(), negate).map_err(|why| format!("{HIDDEN_LABEL}: {why}"))
        })
        .collect()
}

/// `filter` with `field`'s conditions replaced by those of `text`.
pub fn with_field(filter: &Filter, field: Field, text: &str) -> Result<Filter, String> {
    let conditions = conditions_of(field, text)?;
    let mut filter = filter.clone();
    filter.conditions.retain(|c| c.field != field);
    for c in conditions {
        filter.add(c);
    }
    Ok(filter)
}

/// `filter` with the types of `text` (aliases or names; `!join` hides joins), in place of the
/// types selected, hidden or required before (a group's `type=`).
pub fn with_types(filter: &Filter, text: &str) -> Result<Filter, String> {
    let mut filter = filter.clone();
    filter.types.clear();
    filter.conditions.retain(|c| c.field != Field::Type);
    for item in items(text) {
        let (negate, name) = match item.strip_prefix('!') {
            Some(rest) => (true, rest.trim()),
            None => (false, item.as_str()),
        };
        let kind = EventType::from_arg(name).map_err(|e| format!("type: {e}"))?;
        if negate {
            filter.add(Condition::not(Field::Type, Some(kind.name().to_string())));
        } else if !filter.types.contains(&kind) {
            filter.types.push(kind);
        }
    }
    filter.types.sort();
    Ok(filter)
}

/// A time bound as typed (RFC 3339, or a duration back from now such as `30m`); the one in
/// force when the text is the same, so that applying the editor again moves nothing.
pub fn time_bound(
    name: &str,
    text: &str,
    current: Option<&TimeBound>,
) -> Result<Option<TimeBound>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    if let Some(bound) = current.filter(|b| b.text == text) {
        return Ok(Some(bound.clone()));
    }
    crate::time::parse_time_bound(text, crate::time::now_nanos())
        .map(|nanos| {
            Some(TimeBound {
                text: text.to_string(),
                nanos,
            })
        })
        .map_err(|e| format!("{name}: {e}"))
}

/// The retry status an input names: `final`, `retried`, or either when it is empty.
pub(super) fn status_of(text: &str) -> Result<Option<bool>, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "" => Ok(None),
        "final" => Ok(Some(true)),
        "retried" => Ok(Some(false)),
        other => Err(format!(
            "status: {other:?} is neither final nor retried (empty: both)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_split_at_commas_not_escaped_and_hidden_ones_start_with_a_bang() {
        assert_eq!(items(" web , !ios,, a\\,b "), ["web", "!ios", "a,b"]);
        let c = conditions_of(Field::Sdk, "web, !flutter, !(none)").unwrap();
        assert_eq!(
            c,
            [
                Condition::is(Field::Sdk, "web"),
                Condition::not(Field::Sdk, Some("flutter".into())),
                Condition::not(Field::Sdk, None),
            ]
        );
        assert!(conditions_of(Field::Sdk, "web, ios").is_err());
        assert!(conditions_of(Field::Code, "40x6").is_err());
        // What an input shows reads back as the same conditions.
        let mut f = Filter::default();
        for c in conditions_of(Field::Device, "!Pixel 7\\, Pro, Galaxy").unwrap() {
            f.add(c);
        }
        assert_eq!(field_text(&f, Field::Device), "Galaxy, !Pixel 7\\, Pro");
        assert_eq!(
            with_field(&f, Field::Device, &field_text(&f, Field::Device)),
            Ok(f)
        );
    }

    #[test]
    fn a_value_hidden_whole_reads_back_from_its_input_as_it_was() {
        let group = vec![
            Condition::is(Field::Code, "4006"),
            Condition::not(Field::Device, Some("Pixel 7, Pro".into())),
            Condition {
                field: Field::ErrorName,
                value: None,
                negate: false,
            },
        ];
        let text = hidden_input_text(&group);
        assert_eq!(text, "code=4006, device!=Pixel 7\\, Pro, error=(none)");
        assert_eq!(hidden_of(&text), Ok(group));
        assert_eq!(hidden_of(" "), Ok(Vec::new()));
        assert!(hidden_of("code=40o6").unwrap_err().contains("not a number"));
        assert!(hidden_of("colour=red").unwrap_err().contains("no field"));
        assert!(hidden_of("web").unwrap_err().contains("field=value"));
    }
}
