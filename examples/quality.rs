//! Scratch: average length at fixed node budgets (machine-load independent).
use cubed::cube::random::random_cube;
use cubed::solver::*;
use rand::SeedableRng;
fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    let (t, _) =
        cubed::table_cache::load_or_build(std::path::Path::new("/tmp/cubedcache"), TableMode::Full);
    let s = Solver::new(std::sync::Arc::new(t));
    for &nodes in &args[1..] {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let (mut total, mut secs) = (0usize, 0f64);
        for _ in 0..args[0] {
            let c = random_cube(&mut rng);
            let o = SearchOptions {
                budget: std::time::Duration::from_secs(100),
                node_budget: Some(nodes),
                ..Default::default()
            };
            let mut best = 99;
            let st = s
                .search(&c, &o, |x| {
                    best = best.min(x.len());
                    Flow::Continue
                })
                .unwrap();
            total += best;
            secs += st.elapsed.as_secs_f64();
        }
        println!(
            "nodes {nodes}: avg {:.3}  ({:.1} us/cube-node-k)",
            total as f64 / args[0] as f64,
            secs / args[0] as f64 * 1e6 / (nodes as f64 / 1000.0)
        );
    }
}
