//! Tests of the core: the import arrows between modules, the house rules (file and function
//! sizes), lessons, their lint and their own words against the seeds, the orchestrator, the
//! validator and executor against the fixtures, exact numbers, the JSON Schema Test Suite's
//! format, the format checkers against the suite's `optional/format`, property tests, and
//! inputs the fuzz targets found.

mod architecture;
mod audit_planted;
mod exact_numbers;
mod formats_suite;
mod fuzz_regressions;
mod gen_calls;
mod house;
mod json_schema_suite;
mod lesson_facts;
mod lessons;
mod lessons_copy;
mod lessons_lint;
mod orchestrator;
mod orchestrator_props;
mod orchestrator_speed;
mod realworld_tools;
mod realworld_traps;
mod realworld_validator;
#[path = "../shared/mod.rs"]
mod shared;
mod validate_differential;
mod validate_fixtures;
mod validate_props;
mod validate_real_props;
