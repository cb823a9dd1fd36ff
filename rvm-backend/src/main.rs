//! The `rvm` launcher.
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opts = match rvm_backend::parse_args(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("rvm: {e}\n{}", rvm_backend::USAGE);
            std::process::exit(2);
        }
    };
    let code = rvm_backend::run(opts);
    std::process::exit(code);
}
