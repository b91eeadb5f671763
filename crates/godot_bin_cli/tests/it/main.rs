//! The `godot-bin` binary's tests: packets (`cli`), resources, scenes and ConfigFiles
//! (`resources`), and the README's shell blocks run as written (`readme`).

use godot_bin_testkit as support;

mod cli;
mod configs;
mod edit;
mod pack;
mod readme;
mod resources;
mod saves;
mod upgrade;
