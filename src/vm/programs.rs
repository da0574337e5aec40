//! What a script's programs become when fluidc writes or runs them: the
//! startup program merged into block 0 (one self-contained program), and
//! Paddle's feed and fetch ops.
use fluidc_transpiler::{AttrValue, Op, Program, Var, VarKind};

/// `main` with `startup`'s ops first in block 0 (and the variables only
/// the startup program declares), so the one program initializes its own
/// parameters and global variables. Paddle would run the startup program
/// separately first; fluidc merges only a flat one.
pub fn merge_startup(mut main: Program, startup: Program) -> Result<Program, String> {
    if startup.blocks.len() > 1 {
        return Err(
            "the startup program has control flow; fluidc merges only a flat startup program"
                .into(),
        );
    }
    if let Some(init) = startup.blocks.into_iter().next() {
        let global = &mut main.blocks[0];
        for v in init.vars {
            if global.var(&v.name).is_none() {
                global.vars.push(v);
            }
        }
        global.ops.splice(0..0, init.ops);
    }
    Ok(main)
}

/// Adds Paddle's feed and fetch ops and their holder variables. Paddle's
/// executor adds them to the op descs directly, so they carry `col` only
/// (no defaults filled, unlike ops the Python API appends).
pub fn add_feed_fetch(program: &mut Program, feed: &[String], fetch: &[String]) {
    let global = &mut program.blocks[0];
    if !feed.is_empty() {
        let mut holder = Var::plain("feed", VarKind::FeedMinibatch);
        holder.persistable = Some(true);
        global.vars.insert(0, holder);
        // Paddle's executor prepends each feed op in turn, so the last
        // column comes first.
        for (col, name) in feed.iter().enumerate() {
            let op = Op::new("feed")
                .input("X", &["feed"])
                .output("Out", &[name])
                .attr("col", AttrValue::Int(col as i32));
            global.ops.insert(0, op);
        }
    }
    if !fetch.is_empty() {
        let mut holder = Var::plain("fetch", VarKind::FetchList);
        holder.persistable = Some(true);
        global.vars.insert(0, holder);
        for (col, name) in fetch.iter().enumerate() {
            let op = Op::new("fetch")
                .input("X", &[name])
                .output("Out", &["fetch"])
                .attr("col", AttrValue::Int(col as i32));
            global.ops.push(op);
        }
    }
}
