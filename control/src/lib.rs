//! The hpmagent control protocol: one JSON request per line, one JSON reply per line, over a Unix
//! socket private to the user. The agent (in HotSpot or in the research VM) runs a [`Server`]; `hpm`
//! uses a [`Client`]. See [`protocol`] for the commands.

pub mod client;
pub mod paths;
pub mod protocol;
pub mod server;

pub use client::Client;
pub use protocol::{Command, ErrorCode, Reply};
pub use server::{Handler, Server, ServerConfig};
