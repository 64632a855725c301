//! `reprise compare RUN_A RUN_B`: the cells of two stored runs side by
//! side, with B ÷ A.

use std::process::ExitCode;

use clap::Args as ClapArgs;
use reprise_history::compare;
use reprise_recipe::reading::number;

use crate::table::Table;

#[derive(ClapArgs)]
pub struct Args {
    /// The run to compare against (a run id from `reprise history`).
    run_a: String,
    /// The run compared.
    run_b: String,
}

pub fn run(args: Args) -> ExitCode {
    let history = match super::history::open(&super::session()) {
        Ok(h) => h,
        Err(code) => return code,
    };
    let (a, b) = match (history.load(&args.run_a), history.load(&args.run_b)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            say!("error: {e}");
            return ExitCode::from(super::BAD_INPUT);
        }
    };
    println!(
        "A = {} ({}), B = {} ({})\n",
        a.run.id, a.run.recipe, b.run.id, b.run.recipe
    );
    let mut table = Table::new(&["lane", "endpoint", "metric", "A", "B", "B / A"]);
    let shown = |v: Option<f64>| v.map_or("no data".into(), |v| number((v * 10.0).round() / 10.0));
    for row in compare(&a, &b) {
        table.row(vec![
            row.key.lane.clone(),
            row.key.endpoint.clone().unwrap_or_else(|| "—".into()),
            format!("{} ({})", row.key.metric().name(), row.key.metric().unit()),
            shown(row.a),
            shown(row.b),
            row.ratio.map_or("—".into(), |r| format!("{r:.2}×")),
        ]);
    }
    print!("{}", table.render(0));
    ExitCode::SUCCESS
}
