//! What a run is made from: git sources ([`source`]), tree digests
//! ([`tree_digest`]), per-runtime lockfiles ([`lockfile`]), the seed
//! database ([`database`]) and the toolchains mise installs ([`mise`]).

pub mod database;
pub mod lockfile;
pub mod mise;
pub mod source;
pub mod tree_digest;
