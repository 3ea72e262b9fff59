//! Rebuild when lessons or fixtures change: `include_dir!` embeds them, but cargo does not
//! see new or edited files in those directories without this.
fn main() {
    println!("cargo:rerun-if-changed=lessons");
    println!("cargo:rerun-if-changed=fixtures");
}
