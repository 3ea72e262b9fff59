//! Thin entry point: install error reporting, hand over to the CLI. Memory comes from
//! mimalloc: a JSON-lines run keeps thousands of compiled schemas, each many small
//! allocations, and mimalloc keeps them closer together and frees them faster.
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    if let Err(err) = color_eyre::install() {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "tooldojo: could not install error reporting: {err}"
        );
    }
    tooldojo::cli::main()
}
