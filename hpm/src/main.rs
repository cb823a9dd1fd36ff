//! `hpm`: the hpmagent command-line tool. The subcommands live in `cli/`.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
