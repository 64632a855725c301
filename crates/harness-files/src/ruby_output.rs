//! Numbers and JSON as Ruby prints them. The harness's files are written by
//! Ruby (`JSON.pretty_generate`, `Float#to_s`, `format("%.2f")`), so a file
//! Reprise writes for the harness's tools is byte for byte what Ruby would
//! write only if its numbers are printed Ruby's way: `480.0`, `1.0e+16`,
//! `1.0e-05`, and `%.2f` of `2.675` is `2.68`.

use serde_json::{Number, Value};

/// `Float#to_s`: the shortest digits that read back as `v`, in fixed
/// notation from 1e-4 up to 1e16 (exclusive), in Ruby's exponent form
/// (`1.0e+16`) outside it.
pub fn float_to_s(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let sign = if v.is_sign_negative() { "-" } else { "" };
    if v == 0.0 {
        return format!("{sign}0.0");
    }
    let (digits, decpt) = shortest(v.abs());
    let body = if 0 < decpt && decpt <= 15 {
        let decpt = decpt as usize;
        if digits.len() <= decpt {
            format!("{digits}{}.0", "0".repeat(decpt - digits.len()))
        } else {
            format!("{}.{}", &digits[..decpt], &digits[decpt..])
        }
    } else if -4 < decpt && decpt <= 0 {
        format!("0.{}{digits}", "0".repeat((-decpt) as usize))
    } else {
        let rest = if digits.len() > 1 { &digits[1..] } else { "0" };
        format!("{}.{rest}e{:+03}", &digits[..1], decpt - 1)
    };
    format!("{sign}{body}")
}

/// The shortest round-trip digits of a positive finite `v`, and where the
/// decimal point goes: `v = 0.DIGITS × 10^decpt`.
fn shortest(v: f64) -> (String, i32) {
    // `{:e}` prints the shortest digits that read back as `v`: `1.2345e4`.
    let s = format!("{v:e}");
    let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let exponent: i32 = exponent.parse().unwrap_or(0);
    (digits, exponent + 1)
}

/// Ruby's `format("%.Nf", v)` for a Float. Ruby rounds the exact binary
/// value, except where the shortest decimal that reads back as `v` is a
/// tie at the rounding digit: that rounds half to even on the decimal
/// (`2.675` → `2.68`, `2.665` → `2.66`). With no digit kept before the
/// rounding position (`0.005` at two places) it compares the exact value.
pub fn format_fixed(v: f64, places: usize) -> String {
    if !v.is_finite() || v == 0.0 {
        return format!("{v:.places$}");
    }
    let (digits, decpt) = shortest(v.abs());
    // Digits kept: those before the point and `places` after it.
    let keep = decpt + places as i32;
    let is_tie = keep >= 1
        && (keep as usize) < digits.len()
        && digits.as_bytes()[keep as usize] == b'5'
        && digits.len() == keep as usize + 1;
    if !is_tie {
        return format!("{v:.places$}");
    }
    let kept = &digits[..keep as usize];
    let last = kept.as_bytes()[kept.len() - 1] - b'0';
    let mut n: u128 = kept.parse().unwrap_or(0);
    if last % 2 == 1 {
        n += 1;
    }
    // n × 10^(decpt - keep) = n / 10^places.
    let text = format!("{n:0>width$}", width = places + 1);
    let (int, frac) = text.split_at(text.len() - places);
    let sign = if v < 0.0 { "-" } else { "" };
    if places == 0 {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    }
}

/// A JSON number as Ruby prints it after `JSON.parse`: an integer as is, a
/// float by `Float#to_s`.
pub fn number(n: &Number) -> String {
    if n.is_f64() {
        float_to_s(n.as_f64().unwrap_or(0.0))
    } else {
        n.to_string()
    }
}

/// One JSON object with its keys in the order Ruby's hash keeps them (the
/// order they were inserted), which a `serde_json::Map` does not keep.
pub type Object<'a> = Vec<(&'a str, Value)>;

/// `JSON.pretty_generate(array_of_hashes)`: two-space indents,
/// `"key": value`, an empty array as `[]`, no final newline.
pub fn pretty_generate(rows: &[Object<'_>]) -> String {
    if rows.is_empty() {
        return "[]".into();
    }
    let mut out = String::from("[\n");
    for (i, row) in rows.iter().enumerate() {
        if row.is_empty() {
            out.push_str("  {}");
        } else {
            out.push_str("  {\n");
            for (j, (k, v)) in row.iter().enumerate() {
                out.push_str("    ");
                out.push_str(&string(k));
                out.push_str(": ");
                write(v, 2, &mut out);
                out.push_str(if j + 1 < row.len() { ",\n" } else { "\n" });
            }
            out.push_str("  }");
        }
        out.push_str(if i + 1 < rows.len() { ",\n" } else { "\n" });
    }
    out.push(']');
    out
}

fn write(value: &Value, depth: usize, out: &mut String) {
    let indent = |d: usize| "  ".repeat(d);
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&number(n)),
        Value::String(s) => out.push_str(&string(s)),
        Value::Array(items) if items.is_empty() => out.push_str("[]"),
        Value::Array(items) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&indent(depth + 1));
                write(item, depth + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&indent(depth));
            out.push(']');
        }
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Object(map) => {
            out.push_str("{\n");
            for (i, (k, v)) in map.iter().enumerate() {
                out.push_str(&indent(depth + 1));
                out.push_str(&string(k));
                out.push_str(": ");
                write(v, depth + 1, out);
                out.push_str(if i + 1 < map.len() { ",\n" } else { "\n" });
            }
            out.push_str(&indent(depth));
            out.push('}');
        }
    }
}

/// A JSON string as Ruby's generator escapes it: quote, backslash and
/// control characters, nothing else (serde_json escapes the same set).
fn string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}
