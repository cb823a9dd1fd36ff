fn main() {
    eprintln!("rvm: not built yet");
    std::process::exit(2);
}
