//! The floor for `tooldojo validate --jsonl`: a program that only reads the same JSON lines
//! and parses each into a `serde_json::Value`, nothing else. `benches/compare.py` times it
//! as a whole process next to the validators.
//!
//! Usage: `parse_baseline FILE` (or stdin). Prints how many lines parsed.

use std::io::{BufRead, BufReader, Read};

fn main() {
    let path = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let input: Box<dyn Read> = match path {
        Some(p) => Box::new(std::fs::File::open(&p).unwrap_or_else(|e| panic!("{p}: {e}"))),
        None => Box::new(std::io::stdin()),
    };
    let mut reader = BufReader::with_capacity(1 << 16, input);
    let mut line = String::new();
    let (mut ok, mut bad) = (0usize, 0usize);
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => match serde_json::from_str::<serde_json::Value>(&line) {
                Ok(v) => {
                    ok += usize::from(v.is_object());
                }
                Err(_) => bad += 1,
            },
            Err(e) => panic!("{e}"),
        }
    }
    println!("parsed {ok} objects, {bad} lines failed");
}
