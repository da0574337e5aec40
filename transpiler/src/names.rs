//! Fresh variable names for passes, in Paddle's style (`fill_constant_7.tmp_0`,
//! `_generated_var_3`), numbered past every name already in the program so
//! nothing collides.
use std::collections::{HashMap, HashSet};

use crate::model::Program;

#[derive(Debug)]
pub struct Namer {
    used: HashSet<String>,
    next: HashMap<String, usize>,
}

impl Namer {
    pub fn new(program: &Program) -> Self {
        let mut used = HashSet::new();
        for b in &program.blocks {
            used.extend(b.vars.iter().map(|v| v.name.clone()));
            for op in &b.ops {
                used.extend(
                    op.input_names()
                        .chain(op.output_names())
                        .map(str::to_string),
                );
            }
        }
        Namer {
            used,
            next: HashMap::new(),
        }
    }

    /// `key_N` for the first N whose name is free.
    pub fn fresh(&mut self, key: &str) -> String {
        self.fresh_with(key, "")
    }

    /// `key_N.tmp_0` for the first N whose name is free.
    pub fn fresh_tmp(&mut self, key: &str) -> String {
        self.fresh_with(key, ".tmp_0")
    }

    fn fresh_with(&mut self, key: &str, suffix: &str) -> String {
        let n = self.next.entry(format!("{key}{suffix}")).or_insert(0);
        loop {
            let name = format!("{key}_{n}{suffix}");
            *n += 1;
            if self.used.insert(name.clone()) {
                return name;
            }
        }
    }
}
