mod blocks_support;
use blocks_support::*;
use tooldojo::tui::blocks::build;

#[test]
#[ignore]
fn heights() {
    let env = env();
    let lessons = tooldojo::content::lessons::load_all(&env.content).unwrap();
    for lesson in &lessons {
        for page in &lesson.pages {
            for item in &page.items {
                if let tooldojo::content::lessons::Item::Block(b) = item {
                    let w = build(b, &env).unwrap();
                    let h = w.height(76);
                    if h > 21 || std::env::var("ALL").is_ok() {
                        println!(
                            "{} line {} {:?} {:?} h={h}",
                            lesson.id, b.line, b.kind, b.options
                        );
                    }
                    if std::env::var("SHOW").is_ok_and(|v| v == format!("{}:{}", lesson.id, b.line))
                    {
                        println!("{}", render(w.as_ref(), 76, h));
                    }
                }
            }
        }
    }
}
