//! Tests of the app and its blocks: off-screen snapshots, scripted keys, the real binary in tmux.

mod blocks_support;
mod player_support;
#[path = "../shared/mod.rs"]
mod shared;
mod tui_common;

mod audit_app;
mod blocks_fixtures;
mod blocks_measure;
mod blocks_polish;
mod blocks_present;
mod blocks_real;
mod blocks_stage;
mod blocks_text;
mod blocks_trace;
mod course_tmux;
mod help_keys;
mod home_room;
mod keybar_80;
mod left_rows;
mod paste;
mod player;
mod player_app;
mod player_hostile;
mod player_props;
mod player_snapshots;
mod player_sources;
mod player_tmux;
mod present_app;
mod rehearse_app;
mod rehearse_tmux;
mod rehearse_write;
mod stage_app;
mod stage_course;
mod stage_scroll;
mod stage_snapshots;
mod stage_tmux;
mod stage_walk;
mod tools_app;
mod tools_snapshots;
mod tui_app;
mod tui_faults;
mod tui_hostile;
mod tui_snapshots;
mod tui_state_faults;
mod tui_tmux;
