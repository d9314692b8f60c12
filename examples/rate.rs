use cubed::cube::random::random_cube;
use cubed::solver::*;
use rand::SeedableRng;
use std::time::Duration;
fn main() {
    let (t, _) =
        cubed::table_cache::load_or_build(std::path::Path::new("/tmp/cubedcache"), TableMode::Full);
    let s = Solver::new(std::sync::Arc::new(t));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let (mut nodes, mut secs, mut sols, mut p2s, mut p2n) = (0u64, 0f64, 0usize, 0u64, 0u64);
    for _ in 0..20 {
        let c = random_cube(&mut rng);
        let st = s
            .search(
                &c,
                &SearchOptions {
                    budget: Duration::from_millis(100),
                    ..Default::default()
                },
                |_| Flow::Continue,
            )
            .unwrap();
        nodes += st.nodes;
        secs += st.elapsed.as_secs_f64();
        sols += st.solutions;
        p2s += st.phase2_starts;
        p2n += st.phase2_nodes;
    }
    println!(
        "{:.2} M nodes/s, {} solutions, phase2 starts {:.2} M/s, phase2 nodes {:.2} M/s",
        nodes as f64 / secs / 1e6,
        sols,
        p2s as f64 / secs / 1e6,
        p2n as f64 / secs / 1e6
    );
}
