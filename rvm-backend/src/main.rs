//! The `rvm` launcher.
fn main() {
    // Arguments as the OS gives them: paths may be any bytes, and what must be text is checked.
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let opts = match rvm_backend::parse_args(&args) {
        Ok(o) => o,
        Err(e) if e.usage => {
            eprintln!("rvm: {}\n{}", e.message, rvm_backend::USAGE);
            std::process::exit(2);
        }
        Err(e) => {
            eprintln!("rvm: error: {}", e.message);
            std::process::exit(2);
        }
    };
    let code = rvm_backend::run(opts);
    std::process::exit(code);
}
