mod blocks_support;
use blocks_support::*;
use crossterm::event::KeyCode;
use tooldojo::content::lessons::{BlockKind, BlockSpec};
use tooldojo::tui::blocks::build;

#[test]
#[ignore]
fn show() {
    let mut p = build(
        &block(
            BlockKind::Predict,
            &[("fixture", "validator"), ("group", "parse")],
            "",
            BlockSpec::None,
        ),
        &env(),
    )
    .unwrap();
    press(
        p.as_mut(),
        &[
            ch('6'),
            key(KeyCode::Enter),
            key(KeyCode::Enter),
            key(KeyCode::Down),
            ch('1'),
            key(KeyCode::Enter),
            key(KeyCode::Enter),
        ],
    );
    println!("{}", render(p.as_ref(), 76, p.height(76)));
    println!("{}", render(p.as_ref(), 130, p.height(130)));
    let mut v = build(
        &block(
            BlockKind::Playground,
            &[("mode", "validator"), ("schema", "search_tickets")],
            "{\"query\": \"x\",\n \"page_size\": 0, \"zzz\": 1}",
            BlockSpec::None,
        ),
        &env(),
    )
    .unwrap();
    println!("{}", render(v.as_ref(), 76, v.height(76)));
    press(
        v.as_mut(),
        &[key(KeyCode::Enter), key(KeyCode::End), ch(',')],
    );
    println!("{}", render(v.as_ref(), 76, v.height(76)));
    println!("{}", render(v.as_ref(), 130, v.height(130)));
    let mut e = build(
        &block(
            BlockKind::Playground,
            &[("mode", "executor")],
            "",
            BlockSpec::None,
        ),
        &env(),
    )
    .unwrap();
    press(
        e.as_mut(),
        &[
            key(KeyCode::Tab),
            ch('j'),
            ch('j'),
            ch('j'),
            ch('j'),
            ch(' '),
        ],
    );
    println!("{}", render(e.as_ref(), 76, e.height(76)));
    println!("{}", render(e.as_ref(), 130, e.height(130)));
}
