//! A published recipe with the substitutions a machine forces: each entry
//! replaces the recipe's own whole, or is added, or (`[[remove]]`) is left
//! out, each saying why; a mistake in the file is located in it, and what
//! the post published cannot be substituted.

use std::path::{Path, PathBuf};

use reprise_recipe::{Action, Change, RecipeError, Substitution, substitute};

fn published(id: &str) -> (PathBuf, String) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../recipes/{id}.toml"));
    let text = std::fs::read_to_string(&file).unwrap();
    (file, text)
}

fn substituted(text: &str) -> Result<(reprise_recipe::Recipe, Vec<Substitution>), RecipeError> {
    let (file, recipe) = published("campfire-falcon");
    substitute(&file, &recipe, &[(Path::new("here.toml"), text)])
}

const SEED: &str = r#"
[[source]]
because = "The mirror holds Campfire at af801ff, not the post's ed0f9a5."
id = "campfire"
url = "https://github.com/basecamp/once-campfire"
rev = "af801ff9577b131006293a38da4b6c28acf24962"
purpose = "Campfire's Rails source."

[[step]]
because = "campfire-oracle is not in Roundhouse at the mirror's revision."
id = "seed"
kind = "command"
command = ["true"]
after = ["clone-campfire"]
why = "Seeded later, through the app's own pages."

[[file]]
because = "Added: the seed through the app's pages."
path = "seed.rb"
why = "Seeds through HTTP."
content = "puts 1\n"

[[remove]]
because = "Debian's Ruby gems come built: nothing is compiled."
toolchain = "cc"
"#;

#[test]
fn entries_are_replaced_in_place_added_at_the_end_and_left_out_each_with_why() {
    let (original, _) = published("campfire-falcon");
    let before = reprise_recipe::load(&original).unwrap();
    let (recipe, done) = substituted(SEED).unwrap_or_else(|e| panic!("{e}"));
    let words: Vec<String> = done.iter().map(|s| s.to_string()).collect();
    assert_eq!(
        words,
        [
            "source `campfire` replaced",
            "file `seed.rb` added",
            "step `seed` replaced",
            "toolchain `cc` left out",
        ]
    );
    assert_eq!(
        done[3].because,
        "Debian's Ruby gems come built: nothing is compiled."
    );
    assert_eq!(done[3].lane(), None);
    assert_eq!(done[1].change, Change::Added);
    // The replaced step keeps its place among the steps.
    let ids =
        |r: &reprise_recipe::Recipe| r.steps.iter().map(|s| s.id.to_string()).collect::<Vec<_>>();
    assert_eq!(ids(&recipe), ids(&before));
    let seed = recipe.steps.iter().find(|s| s.id == "seed").unwrap();
    assert!(matches!(&seed.action, Action::Command(c) if c.command == ["true"]));
    assert_eq!(
        recipe.sources[0].rev.as_ref().map(|r| r.as_str()),
        Some("af801ff9577b131006293a38da4b6c28acf24962")
    );
    assert!(recipe.toolchains.iter().all(|t| t.name != "cc"));
    assert_eq!(recipe.toolchains.len(), before.toolchains.len() - 1);
    // What the post published is the post's.
    assert_eq!(recipe.figures.len(), before.figures.len());
    assert_eq!(recipe.claims.len(), before.claims.len());
    // The recipe is still the published file: a run digests that one.
    assert_eq!(recipe.file, original);
}

fn first_error(text: &str) -> reprise_recipe::Diagnostic {
    match substituted(text) {
        Err(RecipeError::Invalid(d)) => d[0].clone(),
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("accepted:\n{text}"),
    }
}

#[test]
fn an_entry_without_why_is_an_error_where_it_is_written() {
    let text = "\n\n[[lane]]\nname = \"ruby\"\nwhy = \"x\"\n";
    let d = first_error(text);
    assert_eq!(d.file, Path::new("here.toml"));
    assert_eq!((d.line, d.column), (3, 1), "{d}");
    assert!(d.message.contains("does not say why"), "{d}");
}

#[test]
fn a_key_the_recipe_does_not_have_is_located_with_its_likely_spelling() {
    let text = "[[lane]]\nbecause = \"y\"\nname = \"ruby\"\nwhy = \"x\"\ncomand = [\"puma\"]\n";
    let d = first_error(text);
    assert_eq!(
        (d.file.as_path(), d.line),
        (Path::new("here.toml"), 5),
        "{d}"
    );
    assert_eq!(d.help.as_deref(), Some("did you mean `command`?"), "{d}");
}

#[test]
fn what_the_post_published_cannot_be_substituted() {
    for table in ["figure", "claim", "machine", "post"] {
        let text = format!("[[{table}]]\nbecause = \"y\"\nid = \"x\"\n");
        let d = first_error(&text);
        assert_eq!(
            (d.file.as_path(), d.line),
            (Path::new("here.toml"), 1),
            "{d}"
        );
        assert!(d.message.contains(table), "{table}: {d}");
    }
}

#[test]
fn leaving_out_what_the_recipe_lacks_names_what_it_has() {
    let text = "[[remove]]\nbecause = \"y\"\nstep = \"add-falcn\"\n";
    let d = first_error(text);
    assert_eq!((d.line, d.column), (3, 8), "{d}");
    assert_eq!(d.help.as_deref(), Some("did you mean `add-falcon`?"), "{d}");
    let two = "[[remove]]\nbecause = \"y\"\nworkload = \"campfire\"\nstep = \"seed\"\n";
    assert!(first_error(two).message.contains("one entry"));
    // A lane stays: the post's figures name it; --lane chooses what runs.
    let lane = "[[remove]]\nbecause = \"y\"\nlane = \"ruby-falcon\"\n";
    let d = first_error(lane);
    assert_eq!((d.line, d.column), (3, 8), "{d}");
    assert!(d.help.as_deref().unwrap().contains("--lane"), "{d}");
}

#[test]
fn a_recipe_the_substitutions_break_is_said_as_substituted() {
    // The serve step waits on `bundle`: leaving it out leaves the wait dangling.
    let text = "[[remove]]\nbecause = \"No RubyGems here.\"\nstep = \"bundle\"\n";
    let d = first_error(text);
    assert!(
        d.file
            .to_string_lossy()
            .ends_with("campfire-falcon.toml as here.toml substitutes it"),
        "{}",
        d.file.display()
    );
    assert!(d.message.contains("bundle"), "{d}");
    assert!(d.source_line.contains("bundle"), "{d}");
}

#[test]
fn files_apply_one_after_another_each_entry_named_with_its_file() {
    let (file, recipe) = published("campfire-falcon");
    let machine = "[[file]]\nbecause = \"A helper this machine needs.\"\npath = \"helper.sh\"\nwhy = \"x\"\ncontent = \"true\\n\"\n";
    let own = "[[file]]\nbecause = \"This recipe's version of it.\"\npath = \"helper.sh\"\nwhy = \"x\"\ncontent = \"exit 0\\n\"\n";
    let (recipe_after, done) = substitute(
        &file,
        &recipe,
        &[
            (Path::new("machine.toml"), machine),
            (Path::new("own.toml"), own),
        ],
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let helper = recipe_after
        .files
        .iter()
        .find(|f| f.path == "helper.sh")
        .unwrap();
    assert_eq!(helper.content, "exit 0\n", "the later file's entry stands");
    assert_eq!(
        done.iter()
            .map(|d| (d.to_string(), d.file.display().to_string()))
            .collect::<Vec<_>>(),
        [
            (
                "file `helper.sh` added".to_string(),
                "machine.toml".to_string()
            ),
            (
                "file `helper.sh` replaced".to_string(),
                "own.toml".to_string()
            ),
        ]
    );
    // A mistake is located in the file that makes it.
    let wrong = own.replace("content", "contnt");
    match substitute(
        &file,
        &recipe,
        &[
            (Path::new("machine.toml"), machine),
            (Path::new("own.toml"), &wrong),
        ],
    ) {
        Err(RecipeError::Invalid(d)) => assert_eq!(d[0].file, Path::new("own.toml"), "{}", d[0]),
        other => panic!("{:?}", other.map(|_| ())),
    }
}
