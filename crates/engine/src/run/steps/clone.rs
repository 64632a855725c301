//! `clone`: a recipe's source checked out at its pinned revision into
//! `sources/<into>`, through the git cache (see `crate::inputs::source`), from the
//! recipe's URL or the one the reader gave instead (`--source`).

use super::{Produced, StepFailure, StepInput, within};
use crate::inputs::source;

pub(crate) fn run(s: &StepInput, source_id: &str, into: &str) -> Result<Produced, StepFailure> {
    let ctx = s.ctx;
    let Some(src) = s.recipe.sources.iter().find(|src| src.id == *source_id) else {
        return Err(StepFailure::NoSource(source_id.to_string()));
    };
    let mut src = src.clone();
    if let Some(url) = ctx.source_overrides.get(source_id) {
        s.note(format!(
            "`{source_id}` from {url} instead of {} (--source): the revision is still checked",
            src.url
        ));
        src.url = url.clone();
    }
    let dest = within(&ctx.run.sources(), into)?;
    let commit = source::checkout(
        &ctx.data.git_cache(),
        &src,
        &dest,
        s.id(),
        &ctx.cancel,
        ctx.events,
    )?;
    Ok(Produced {
        commit: Some(commit),
        outputs: None,
    })
}
