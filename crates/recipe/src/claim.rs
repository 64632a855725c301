//! Claims: what the post concludes from its figures, in a form a verdict can
//! judge — an absolute value, a ratio between two cells, an ordering, a spread.

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::diagnostic::Problem;
use crate::name::Name;

/// A conclusion of the post, built on its figures, with a tolerance.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
pub struct Claim {
    pub id: Name,
    /// The post's own words.
    pub quote: String,
    /// Relative tolerance, e.g. 0.15 for ±15%. Required but for orderings;
    /// on an ordering (optional) the level band: lanes within ±tolerance of
    /// each other are level, and the ordering does not hold between them.
    /// `None` on an ordering leaves the verdicts' default band (±5%).
    pub tolerance: Option<f64>,
    /// Whether its throughput figures are read as ceilings, what each server
    /// can do at most (the default): a lane that sat idle part of a run then
    /// decides nothing. `ceiling = false`: the claim is about the rate at
    /// the workload's load.
    pub ceiling: bool,
    #[serde(flatten)]
    pub shape: ClaimShape,
}

/// What kind of statement a claim makes.
#[derive(Clone, Debug, Serialize, ts_rs::TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClaimShape {
    /// The figure's value holds (judged only on a matching machine).
    Absolute { figure: Name },
    /// numerator / denominator ≈ value (judged on any machine).
    Ratio {
        numerator: Name,
        denominator: Name,
        value: f64,
    },
    /// The figures rank in this order, best first.
    Ordering { order: Vec<Name> },
    /// The figure's runs spread by this much (relative, e.g. 0.117).
    Spread { figure: Name, value: f64 },
}

impl ClaimShape {
    /// Every figure the claim rests on.
    pub fn figures(&self) -> Vec<&Name> {
        match self {
            ClaimShape::Absolute { figure } | ClaimShape::Spread { figure, .. } => vec![figure],
            ClaimShape::Ratio {
                numerator,
                denominator,
                ..
            } => vec![numerator, denominator],
            ClaimShape::Ordering { order } => order.iter().collect(),
        }
    }

    /// The figure whose published number the claim is judged against, where
    /// it is judged against one: an absolute claim's. A ratio carries its
    /// own number; an ordering and a spread need none. The judge and what a
    /// preflight says a run can judge both ask this.
    pub fn judged_against_published(&self) -> Option<&Name> {
        match self {
            ClaimShape::Absolute { figure } => Some(figure),
            _ => None,
        }
    }

    pub fn kind(&self) -> ClaimKind {
        match self {
            ClaimShape::Absolute { .. } => ClaimKind::Absolute,
            ClaimShape::Ratio { .. } => ClaimKind::Ratio,
            ClaimShape::Ordering { .. } => ClaimKind::Ordering,
            ClaimShape::Spread { .. } => ClaimKind::Spread,
        }
    }
}

/// The kinds of claim, as recipes name them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum ClaimKind {
    Absolute,
    Ratio,
    Ordering,
    Spread,
}

impl ClaimKind {
    pub fn name(self) -> &'static str {
        match self {
            ClaimKind::Absolute => "absolute",
            ClaimKind::Ratio => "ratio",
            ClaimKind::Ordering => "ordering",
            ClaimKind::Spread => "spread",
        }
    }
}

impl std::fmt::Display for ClaimKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawClaim {
    id: Name,
    kind: Spanned<ClaimKind>,
    quote: String,
    tolerance: Option<Spanned<f64>>,
    figure: Option<Name>,
    numerator: Option<Name>,
    denominator: Option<Name>,
    value: Option<Spanned<f64>>,
    order: Option<Spanned<Vec<Name>>>,
    ceiling: Option<bool>,
}

impl RawClaim {
    pub(crate) fn into_claim(self) -> Result<Claim, Vec<Problem>> {
        let span = self.kind.span();
        let mut problems = Vec::new();
        let mut missing = Vec::new();
        let mut need = |present: bool, what: &str, expected: &str| {
            if !present {
                missing.push(Problem::new(
                    span.clone(),
                    what.to_string(),
                    Some(expected.to_string()),
                ));
            }
        };
        let kind = *self.kind.get_ref();
        let tolerance = self.tolerance.as_ref().map(|t| *t.get_ref());
        if !matches!(kind, ClaimKind::Ordering) {
            need(
                tolerance.is_some(),
                "this claim needs a `tolerance`",
                "a relative tolerance such as 0.15 (±15%)",
            );
        }
        if let Some(t) = &self.tolerance
            && !(0.0..1.0).contains(t.get_ref())
        {
            problems.push(Problem::new(
                t.span(),
                "tolerance out of range".into(),
                Some("a fraction between 0 and 1, e.g. 0.15".into()),
            ));
        }
        // Keys present, so those the kind does not take can be pointed at.
        let present: Vec<(&str, std::ops::Range<usize>)> = [
            ("figure", self.figure.as_ref().map(Name::span)),
            ("numerator", self.numerator.as_ref().map(Name::span)),
            ("denominator", self.denominator.as_ref().map(Name::span)),
            ("value", self.value.as_ref().map(Spanned::span)),
            ("order", self.order.as_ref().map(Spanned::span)),
        ]
        .into_iter()
        .filter_map(|(key, span)| span.map(|s| (key, s)))
        .collect();
        let takes: &[&str] = match kind {
            ClaimKind::Absolute => &["figure"],
            ClaimKind::Ratio => &["numerator", "denominator", "value"],
            ClaimKind::Ordering => &["order"],
            ClaimKind::Spread => &["figure", "value"],
        };
        let unused = present.into_iter().filter(|(key, _)| !takes.contains(key));
        let shape = match kind {
            ClaimKind::Absolute => {
                need(
                    self.figure.is_some(),
                    "an absolute claim needs `figure`",
                    "the id of the [[figure]] it asserts",
                );
                self.figure.map(|figure| ClaimShape::Absolute { figure })
            }
            ClaimKind::Ratio => {
                need(
                    self.numerator.is_some(),
                    "a ratio claim needs `numerator`",
                    "the id of a [[figure]]",
                );
                need(
                    self.denominator.is_some(),
                    "a ratio claim needs `denominator`",
                    "the id of a [[figure]]",
                );
                need(
                    self.value.is_some(),
                    "a ratio claim needs `value`",
                    "the published ratio, e.g. 3.6",
                );
                match (self.numerator, self.denominator, self.value) {
                    (Some(numerator), Some(denominator), Some(value)) => Some(ClaimShape::Ratio {
                        numerator,
                        denominator,
                        value: value.into_inner(),
                    }),
                    _ => None,
                }
            }
            ClaimKind::Ordering => {
                let enough = self.order.as_ref().is_some_and(|o| o.get_ref().len() >= 2);
                need(
                    enough,
                    "an ordering claim needs `order` with two or more figures",
                    "figure ids, best first",
                );
                self.order.filter(|_| enough).map(|o| ClaimShape::Ordering {
                    order: o.into_inner(),
                })
            }
            ClaimKind::Spread => {
                need(
                    self.figure.is_some(),
                    "a spread claim needs `figure`",
                    "the id of the [[figure]] whose runs spread",
                );
                need(
                    self.value.is_some(),
                    "a spread claim needs `value`",
                    "the relative spread, e.g. 0.117",
                );
                self.figure
                    .zip(self.value)
                    .map(|(figure, value)| ClaimShape::Spread {
                        figure,
                        value: value.into_inner(),
                    })
            }
        };
        problems.extend(missing);
        for (key, key_span) in unused {
            problems.push(Problem::new(
                key_span,
                format!("`{key}` does not apply to this kind of claim"),
                Some("absolute: figure; ratio: numerator, denominator, value; ordering: order; spread: figure, value".into()),
            ));
        }
        match shape {
            Some(shape) if problems.is_empty() => Ok(Claim {
                id: self.id,
                quote: self.quote,
                tolerance,
                ceiling: self.ceiling.unwrap_or(true),
                shape,
            }),
            _ => Err(problems),
        }
    }
}
