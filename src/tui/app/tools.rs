//! The Your tools screen as a screen of the app: opened with `T` from the home screen (on
//! the file given with `--tools`, else on the shipped example) or at start with `--tools`;
//! its progress goes into the progress file under the tools file's content hash, and a run
//! it asks for opens in the trace player over it.

use super::{App, Screen, Update};
use crate::tools::{ToolSet, ToolsFile};
use crate::tui::tools::{ToolsScreen, ToolsUpdate};

/// The example the screen opens on when no tools file was given.
const EXAMPLE: &str = "tools/issue-tracker.json";

impl App {
    /// Keep `file` as the app's tools file and open the Your tools screen on it.
    pub fn start_tools(&mut self, file: ToolsFile) {
        self.tools_file = Some(file.clone());
        self.open_tools_file(file);
    }

    /// Open the Your tools screen on `file` over the screen on top, with its progress as
    /// other windows saved it too.
    pub fn open_tools_file(&mut self, file: ToolsFile) {
        let _ = self.look_at_progress();
        let key = file.set.hash.clone().unwrap_or_else(|| file.name.clone());
        let progress = self.progress.tools.get(&key).cloned();
        let screen = ToolsScreen::new(file, progress, self.demo);
        self.open_screen(Screen::Tools(Box::new(screen)));
    }

    /// `T`: the tools file given at start, else the shipped example.
    pub(super) fn open_tools(&mut self) -> Update {
        if let Some(file) = self.tools_file.clone() {
            self.open_tools_file(file);
            return Update::Redraw;
        }
        self.open_tools_example();
        Update::Redraw
    }

    /// The Your tools screen on the shipped example (a note on the title says how to load
    /// your own).
    pub fn open_tools_example(&mut self) {
        let read = self
            .env
            .content
            .fixtures
            .read(EXAMPLE)
            .map_err(|e| e.message)
            .and_then(|f| {
                ToolSet::from_text(&f.text, None).map_err(|e| format!("{}: {e}", f.display))
            });
        match read {
            Ok(set) => {
                self.open_tools_file(ToolsFile {
                    name: "issue-tracker.json".into(),
                    set: std::sync::Arc::new(set),
                });
                if let Screen::Tools(s) = &mut self.screen {
                    s.set_note("An example file: start with tooldojo --tools FILE for your own.");
                }
            }
            Err(e) => self.status = Some(e),
        }
    }

    /// The Your tools screen, when it is on top.
    pub fn tools_screen(&self) -> Option<&ToolsScreen> {
        match &self.screen {
            Screen::Tools(s) => Some(s),
            _ => None,
        }
    }

    /// What the Your tools screen said after a key.
    pub(super) fn tools_outcome(&mut self, out: ToolsUpdate) -> Update {
        match out {
            ToolsUpdate::None => Update::None,
            ToolsUpdate::Redraw => Update::Redraw,
            ToolsUpdate::Save => {
                if let Screen::Tools(s) = &self.screen {
                    self.progress
                        .tools
                        .insert(s.progress_key(), s.progress().clone());
                }
                Update::Save
            }
            ToolsUpdate::Leave => {
                self.close_screen();
                Update::Redraw
            }
            ToolsUpdate::Quit => Update::Quit,
            ToolsUpdate::Suspend => Update::Suspend,
            ToolsUpdate::Play(player) => {
                if let Screen::Tools(s) = &self.screen {
                    self.progress
                        .tools
                        .insert(s.progress_key(), s.progress().clone());
                }
                self.open_player(*player);
                Update::Save
            }
        }
    }
}
