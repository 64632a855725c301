//! One module per subcommand, plus how the CLI finds the recipes.

pub mod check;
pub mod checksums;
pub mod clean;
pub mod community;
pub mod compare;
pub mod digest;
pub mod history;
pub mod load;
pub mod logout;
pub mod preflight;
pub mod probe;
pub mod recipes;
pub mod report;
pub mod run;
pub mod runs;
pub mod setup;
pub mod share;
pub mod show;
pub mod validate;
pub mod verdict;

use std::path::Path;
use std::process::ExitCode;

use reprise_session::{LoadedRecipe, Session};

/// Exit code for bad input (a recipe that does not parse, an unknown id).
pub const BAD_INPUT: u8 = 2;

/// The session the commands call: the recipes of `REPRISE_ROOT`, else of the
/// nearest folder above the working directory that has `recipes/`, else of
/// the checkout this binary was built from; the data dir; sharing settings.
pub fn session() -> Session {
    Session::from_env_or(Path::new(env!("CARGO_MANIFEST_DIR")))
}

/// Loads a recipe by id or path, printing located errors on failure.
pub fn load_recipe(session: &Session, id_or_path: &str) -> Result<LoadedRecipe, ExitCode> {
    session.load_recipe(id_or_path).map_err(|e| {
        say!("{}", error_text(&e));
        ExitCode::from(BAD_INPUT)
    })
}

/// Where the lanes are served, as `reprise run` and `reprise preflight` take
/// it: another machine's Docker Engine API, and images given to lanes.
#[derive(clap::Args)]
pub struct ServerHostArgs {
    /// Serve the lanes on another machine through its Docker Engine API
    /// (Docker or Podman): tcp://HOST:PORT, always with TLS and client
    /// certificates; the load generators run here and target HOST only.
    /// Every lane runs there as a container of its image.
    #[arg(long, value_name = "tcp://HOST:PORT")]
    pub server_host: Option<String>,
    /// The client certificates for --server-host: a folder holding ca.pem,
    /// cert.pem and key.pem (default: DOCKER_CERT_PATH, else ~/.docker).
    #[arg(long, value_name = "DIR", requires = "server_host")]
    pub server_certs: Option<std::path::PathBuf>,
    /// Run a lane in a container of this image (LANE=IMAGE, repeatable),
    /// whatever the recipe names; recorded as a deviation. Pin it by digest
    /// (NAME@sha256:…) to know what ran.
    #[arg(long = "image", value_name = "LANE=IMAGE", value_parser = parse_image)]
    pub images: Vec<(String, String)>,
}

impl ServerHostArgs {
    /// The images given to the lanes, by lane.
    pub fn images(&self) -> std::collections::BTreeMap<String, String> {
        self.images.iter().cloned().collect()
    }

    /// Gives the lanes their images and, with --server-host, places every
    /// lane there; a bad flag is printed and answers the exit code.
    pub fn place(
        &self,
        recipe: &mut reprise_recipe::Recipe,
    ) -> Result<reprise_engine::LaneHost, ExitCode> {
        reprise_session::run::place_lanes(
            recipe,
            self.server_host.as_deref(),
            self.server_certs.as_deref(),
            &self.images(),
        )
        .map_err(|e| {
            say!("{}", error_text(&e));
            ExitCode::from(BAD_INPUT)
        })
    }
}

/// `LANE=IMAGE`.
fn parse_image(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .filter(|(lane, image)| !lane.is_empty() && !image.is_empty())
        .map(|(lane, image)| (lane.to_string(), image.to_string()))
        .ok_or_else(|| format!("`{text}` is not LANE=IMAGE"))
}

/// A session error as the terminal shows it: a recipe's located diagnostic
/// as it is, anything else after `error: `.
pub fn error_text(e: &reprise_session::SessionError) -> String {
    match e {
        reprise_session::SessionError::Recipe(e) => e.to_string(),
        other => format!("error: {other}"),
    }
}

/// A path as the CLI prints it: through the one escaping function, so
/// that a path from the environment (`REPRISE_DATA_DIR`, a flag) cannot
/// act on the terminal.
pub(crate) fn shown_path(path: &std::path::Path) -> String {
    reprise_recipe::shown::escaped(&path.display().to_string()).into_owned()
}
