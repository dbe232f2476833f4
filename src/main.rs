fn main() -> std::process::ExitCode {
    lectern::run()
}
