//! Thin entry point: install error reporting, hand over to the CLI.
use std::process::ExitCode;

fn main() -> ExitCode {
    if let Err(err) = color_eyre::install() {
        eprintln!("tooldojo: could not install error reporting: {err}");
    }
    tooldojo::cli::main()
}
