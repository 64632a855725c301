//! Every recipe in recipes/ parses, validates and is listed in the checksums;
//! each class of mistake is reported at the right file, line and column.

use std::path::{Path, PathBuf};

use reprise_recipe::{Catalog, ChecksumStatus, Diagnostic, RecipeError};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn base() -> String {
    std::fs::read_to_string(root().join("recipes/hello-ceiling.toml")).unwrap()
}

/// Parses `text` as recipes/hello-ceiling.toml and returns its one error.
fn error_of(text: &str) -> Diagnostic {
    error_in("recipes/hello-ceiling.toml", text)
}

/// Parses `text` as the recipe file `file` and returns its one error.
fn error_in(file: &str, text: &str) -> Diagnostic {
    match reprise_recipe::parse(Path::new(file), text) {
        Ok(_) => panic!("the recipe was accepted"),
        Err(RecipeError::Invalid(mut d)) => {
            assert_eq!(d.len(), 1, "expected one error, got {d:#?}");
            d.remove(0)
        }
        Err(e) => panic!("{e}"),
    }
}

/// 1-based line and column of the first occurrence of `needle` after `after`.
fn position(text: &str, after: &str, needle: &str) -> (usize, usize) {
    let from = text.find(after).expect("anchor");
    let at = from + text[from..].find(needle).expect("needle");
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, col)
}

#[test]
fn every_recipe_parses_validates_and_matches_its_checksum() {
    let catalog = Catalog::new(root());
    let files = catalog.files().unwrap();
    let ids: Vec<String> = files
        .iter()
        .map(|f| f.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    assert!(ids.contains(&"hello-ceiling".to_string()), "{ids:?}");
    let sums = catalog.checksums().unwrap();
    for file in &files {
        let recipe = reprise_recipe::load(file).unwrap_or_else(|e| panic!("{e}"));
        assert!(!recipe.post.summary.is_empty());
        for figure in &recipe.figures {
            assert!(
                !figure.quote.trim().is_empty(),
                "{}: figure {} has no sentence",
                file.display(),
                figure.id
            );
        }
        assert_eq!(
            catalog.status(&sums, file).unwrap(),
            ChecksumStatus::Matches,
            "{} differs from checksums/recipes.sha256",
            file.display()
        );
    }
}

#[test]
fn unknown_key_is_located_with_a_suggestion() {
    let text = base().replacen("approx = true", "aprox = true", 1);
    let d = error_of(&text);
    assert_eq!((d.line, d.column), position(&text, "", "aprox = true"));
    assert_eq!(d.message, "unknown key `aprox` in [[figure]]");
    assert_eq!(d.help.as_deref(), Some("did you mean `approx`?"));
    assert!(d.expected.as_deref().unwrap().contains("approx"));
    assert_eq!(d.found, "aprox");
}

#[test]
fn wrong_type_names_what_was_expected() {
    let text = base().replacen("connections = 16", "connections = \"sixteen\"", 1);
    let d = error_of(&text);
    assert_eq!((d.line, d.column), position(&text, "", "\"sixteen\""));
    assert!(d.message.contains("wrong type"), "{}", d.message);
    assert!(
        d.expected.as_deref().unwrap().contains("u32"),
        "{:?}",
        d.expected
    );
}

#[test]
fn unknown_step_kind_suggests_the_right_one() {
    let text = base().replacen("kind = \"check\"", "kind = \"chek\"", 1);
    let d = error_of(&text);
    assert_eq!((d.line, d.column), position(&text, "", "\"chek\""));
    assert_eq!(d.message, "unknown step kind `chek`");
    assert_eq!(d.help.as_deref(), Some("did you mean `check`?"));
    assert!(d.expected.as_deref().unwrap().contains("sign_in"));
}

#[test]
fn dependency_on_a_missing_step_is_located_at_the_reference() {
    let text = base().replacen("after = [\"check\"]", "after = [\"chekc\"]", 1);
    let d = error_of(&text);
    assert_eq!((d.line, d.column), position(&text, "", "\"chekc\""));
    assert_eq!(d.message, "no step named `chekc`");
    assert_eq!(d.help.as_deref(), Some("did you mean `check`?"));
}

#[test]
fn claim_naming_a_missing_figure_is_located() {
    let text = base().replacen("figure = \"falcon-hello\"", "figure = \"falcon-hi\"", 1);
    let d = error_of(&text);
    assert_eq!((d.line, d.column), position(&text, "", "\"falcon-hi\""));
    assert_eq!(d.message, "no figure named `falcon-hi`");
}

#[test]
fn a_cycle_names_its_steps() {
    let text = base().replacen(
        "id = \"serve\"\nkind = \"serve\"",
        "id = \"serve\"\nkind = \"serve\"\nafter = [\"measure\"]",
        1,
    );
    let d = error_of(&text);
    assert!(d.message.contains("cycle"), "{}", d.message);
    for step in ["serve", "check", "measure"] {
        assert!(d.message.contains(step), "{}", d.message);
    }
    // Located at a reference that closes the cycle.
    assert!(
        ["\"serve\"", "\"check\"", "\"measure\""].contains(&d.found.as_str()),
        "{}",
        d.found
    );
}

#[test]
fn a_key_that_does_not_apply_to_the_step_kind_is_refused() {
    let text = base().replacen(
        "workload = \"hello\"\nafter = [\"serve\"]",
        "workload = \"hello\"\nlockfile = \"x.lock\"\nafter = [\"serve\"]",
        1,
    );
    let d = error_of(&text);
    assert_eq!(d.message, "`lockfile` does not apply to a `check` step");
    assert_eq!(
        (d.line, d.column),
        position(&text, "lockfile", "\"x.lock\"")
    );
}

#[test]
fn a_ratio_that_disagrees_with_its_figures_is_a_transcription_error() {
    let text = base().replacen("value = 1.96", "value = 2.5", 1);
    let d = error_of(&text);
    assert!(d.message.contains("says 2.5×"), "{}", d.message);
}

#[test]
fn the_rendered_error_shows_file_line_column_and_caret() {
    let text = base().replacen("kind = \"check\"", "kind = \"chek\"", 1);
    let err = reprise_recipe::parse(Path::new("recipes/hello-ceiling.toml"), &text).unwrap_err();
    let shown = err.to_string();
    let (line, col) = position(&text, "", "\"chek\"");
    assert!(
        shown.contains(&format!(
            "recipes/hello-ceiling.toml:{line}:{col}: unknown step kind `chek`"
        )),
        "{shown}"
    );
    assert!(shown.contains("^^^^^^"), "{shown}");
    assert!(shown.contains("help: did you mean `check`?"), "{shown}");
}

#[test]
fn a_key_the_claim_kind_does_not_take_is_refused() {
    let text = base().replacen(
        "figure = \"puma-hello\"\ntolerance",
        "figure = \"puma-hello\"\nnumerator = \"falcon-hello\"\ntolerance",
        1,
    );
    let d = error_of(&text);
    assert_eq!(
        d.message,
        "`numerator` does not apply to this kind of claim"
    );
    assert_eq!(
        (d.line, d.column),
        position(&text, "numerator =", "\"falcon-hello\"")
    );
}

/// The published campfire-falcon recipe with `edit` applied; its one error.
fn campfire_falcon_error(edit: impl Fn(&str) -> String) -> (String, Diagnostic) {
    let published = std::fs::read_to_string(root().join("recipes/campfire-falcon.toml")).unwrap();
    let text = edit(&published);
    assert_ne!(text, published, "the edit changed nothing");
    let error = error_in("recipes/campfire-falcon.toml", &text);
    (text, error)
}

#[test]
fn a_recipe_that_serves_campfire_on_an_unpinned_ruby_is_refused_at_its_version() {
    // What campfire-falcon said before: any Ruby, nothing for setup to
    // install, and a system Ruby bundles neither Campfire nor its emit.
    let (text, d) = campfire_falcon_error(|t| {
        t.replacen(
            "version = \"4.0.5\"\ncommand = [\"ruby\", \"--version\"]",
            "version = \"*\"\ncommand = [\"ruby\", \"--version\"]",
            1,
        )
    });
    assert_eq!(
        d.message,
        "lane `ruby` serves Campfire on toolchain `ruby`, whose version is `*`, any version"
    );
    assert_eq!(
        (d.line, d.column),
        position(&text, "name = \"ruby\"\nversion", "\"*\"")
    );

    // Pinned but with nothing to install it: still refused.
    let (_, d) = campfire_falcon_error(|t| t.replacen("mise = \"ruby@4.0.5\"\n", "", 1));
    assert_eq!(
        d.message,
        "lane `ruby` serves Campfire on toolchain `ruby`, whose version is pinned, but with nothing for `reprise setup` to install (`mise`)"
    );
}

#[test]
fn every_published_recipe_that_serves_campfire_pins_the_ruby_setup_installs() {
    for id in [
        "campfire-falcon",
        "campfire-nightly",
        "campfire-people",
        "campfire-runtimes",
    ] {
        let recipe = reprise_recipe::load(&root().join(format!("recipes/{id}.toml"))).unwrap();
        let ruby = recipe.toolchain("ruby").unwrap();
        assert!(!ruby.version.is_any(), "{id}");
        assert_eq!(ruby.mise.as_deref(), Some("ruby@4.0.5"), "{id}");
    }
}

#[test]
fn a_campfire_lane_in_a_container_takes_its_ruby_from_its_image() {
    // The image, pinned by its digest, carries the runtime: no mise.
    let published = std::fs::read_to_string(root().join("recipes/campfire-falcon.toml")).unwrap();
    let text = published
        .replacen("mise = \"ruby@4.0.5\"\n", "", 1)
        .replace(
            "allocator = \"jemalloc\"\n",
            "allocator = \"jemalloc\"\nplacement = \"container\"\nimage = \"localhost/ruby@sha256:0123\"\n",
        );
    reprise_recipe::parse(Path::new("recipes/campfire-falcon.toml"), &text)
        .unwrap_or_else(|e| panic!("{e}"));
}
