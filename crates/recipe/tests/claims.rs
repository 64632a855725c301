//! What a claim may compare: never a cell with itself; an ordering may say
//! when its lanes are level.

use std::path::Path;

use reprise_recipe::{Catalog, ClaimShape, Diagnostic, RecipeError};

fn hello_ceiling() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../recipes/hello-ceiling.toml");
    std::fs::read_to_string(root).unwrap()
}

/// hello-ceiling with one more figure, `again` (on `lane`), and `claim` appended.
fn with_claim(lane: &str, claim: &str) -> String {
    format!(
        "{}\n[[figure]]\nid = \"again\"\nlane = \"{lane}\"\nendpoint = \"/\"\nmetric = \"req_per_s\"\nvalue = 54000\nquote = \"The same cell, read twice.\"\n\n{claim}",
        hello_ceiling()
    )
}

fn claim<'a>(recipe: &'a reprise_recipe::Recipe, id: &str) -> &'a reprise_recipe::Claim {
    recipe.claims.iter().find(|c| c.id == id).unwrap()
}

fn errors_of(text: &str) -> Vec<Diagnostic> {
    match reprise_recipe::parse(Path::new("recipes/hello-ceiling.toml"), text) {
        Ok(_) => Vec::new(),
        Err(RecipeError::Invalid(d)) => d,
        Err(e) => panic!("{e}"),
    }
}

/// 1-based line and column of the first `needle` after `anchor`.
fn position(text: &str, anchor: &str, needle: &str) -> (usize, usize) {
    let from = text.find(anchor).expect("anchor");
    let at = from + text[from..].find(needle).expect("needle");
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

#[test]
fn a_ratio_of_a_cell_with_itself_is_refused_at_the_claim() {
    let text = with_claim(
        "puma",
        "[[claim]]\nid = \"self-ratio\"\nkind = \"ratio\"\nnumerator = \"puma-hello\"\ndenominator = \"again\"\nvalue = 1.0\ntolerance = 0.1\nquote = \"x\"\n",
    );
    let errors = errors_of(&text);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let d = &errors[0];
    assert_eq!(
        d.message,
        "claim `self-ratio` compares `puma-hello` with `again`, but both read one cell \
         (lane puma, endpoint /, req_per_s): the claim would compare a cell with itself"
    );
    assert_eq!(
        (d.line, d.column),
        position(&text, "id = \"self-ratio\"", "\"again\"")
    );
    let expected = d.expected.as_deref().unwrap_or_default();
    assert!(
        expected.contains("another lane, endpoint or metric") && expected.contains("not_runnable"),
        "{expected}"
    );
}

#[test]
fn an_ordering_of_a_cell_with_itself_is_refused_at_the_claim() {
    let text = with_claim(
        "puma",
        "[[claim]]\nid = \"self-order\"\nkind = \"ordering\"\norder = [\"falcon-hello\", \"puma-hello\", \"again\"]\nquote = \"x\"\n",
    );
    let errors = errors_of(&text);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let d = &errors[0];
    assert!(
        d.message
            .starts_with("claim `self-order` compares `puma-hello` with `again`"),
        "{}",
        d.message
    );
    assert_eq!(
        (d.line, d.column),
        position(&text, "id = \"self-order\"", "\"again\"")
    );
}

#[test]
fn figures_of_different_cells_may_be_compared() {
    let text = with_claim(
        "nginx",
        "[[claim]]\nid = \"other-cell\"\nkind = \"ordering\"\norder = [\"again\", \"puma-hello\"]\nquote = \"x\"\n",
    );
    assert_eq!(errors_of(&text), Vec::new());
}

#[test]
fn figures_of_a_lane_the_recipe_cannot_run_read_no_cell_and_may_share_one() {
    let text = with_claim(
        "published",
        "[[lane]]\nname = \"published\"\nwhy = \"x\"\nnot_runnable = \"published only\"\n\n\
         [[figure]]\nid = \"again-2\"\nlane = \"published\"\nendpoint = \"/\"\nmetric = \"req_per_s\"\nvalue = 50000\nquote = \"x\"\n\n\
         [[claim]]\nid = \"published-order\"\nkind = \"ordering\"\norder = [\"again\", \"again-2\"]\nquote = \"x\"\n",
    );
    assert_eq!(errors_of(&text), Vec::new());
}

#[test]
fn every_shipped_recipe_compares_no_cell_with_itself() {
    let catalog = Catalog::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    let refused: Vec<String> = catalog
        .files()
        .unwrap()
        .iter()
        .filter_map(|file| reprise_recipe::load(file).err())
        .map(|e| e.to_string())
        .collect();
    assert!(refused.is_empty(), "{}", refused.join("\n"));
}

#[test]
fn an_ordering_may_say_when_its_lanes_are_level() {
    let text = hello_ceiling().replacen(
        "order = [\"falcon-hello\", \"puma-hello\"]",
        "order = [\"falcon-hello\", \"puma-hello\"]\ntolerance = 0.1",
        1,
    );
    let recipe = reprise_recipe::parse(Path::new("recipes/hello-ceiling.toml"), &text).unwrap();
    let ordering = claim(&recipe, "falcon-above-puma");
    assert!(matches!(ordering.shape, ClaimShape::Ordering { .. }));
    assert_eq!(ordering.tolerance, Some(0.1));
    // Without one, the model leaves it to the verdicts' default.
    let recipe =
        reprise_recipe::parse(Path::new("recipes/hello-ceiling.toml"), &hello_ceiling()).unwrap();
    assert_eq!(claim(&recipe, "falcon-above-puma").tolerance, None);
}

#[test]
fn an_orderings_level_band_is_a_fraction() {
    let text = hello_ceiling().replacen(
        "order = [\"falcon-hello\", \"puma-hello\"]",
        "order = [\"falcon-hello\", \"puma-hello\"]\ntolerance = 1.5",
        1,
    );
    let errors = errors_of(&text);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0].message, "tolerance out of range");
    assert_eq!(
        (errors[0].line, errors[0].column),
        position(&text, "falcon-above-puma", "1.5")
    );
}
