//! Tests of the core: the import arrows between modules, lessons and their lint, the
//! orchestrator, the validator and executor against the fixtures, and property tests.

mod architecture;
mod fuzz_regressions;
mod house;
mod lessons;
mod lessons_lint;
mod orchestrator;
mod orchestrator_props;
mod orchestrator_speed;
mod validate_fixtures;
mod validate_props;
