//! Where and how a lane is served: on this machine or another machine's
//! engine ([`placement`], [`remote_engine`]), the server process
//! ([`server_process`]), the CPUs it gets ([`cpu_split`]), the allocator it
//! is started with ([`allocator`]), single requests ([`http`]) and a web
//! app's signed-in session ([`signed_in`]).

pub mod allocator;
pub mod cpu_split;
pub mod http;
pub mod placement;
pub mod remote_engine;
pub mod server_process;
pub mod shape;
pub mod signed_in;
