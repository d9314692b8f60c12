//! Long-running decoder fuzzer: random and mutated byte streams through the streaming
//! decoder, checked against the one-shot decoder, re-encoding and both session helpers.
//!
//! `cargo run --release -p firmware-protocol --example fuzz_decoder -- [CASES] [SEED]`
//! (defaults: 1,000,000 cases, seed 1). Any disagreement or panic aborts with the case.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::Instant;

use common::{check_stream, golden_bodies, golden_stream, wire_with_valid_crc, StreamStats};

/// xorshift64*: small, fast, deterministic.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, bound: usize) -> usize {
        if bound == 0 {
            0
        } else {
            (self.next() % bound as u64) as usize
        }
    }
}

/// Random bytes; zeros are made common so that many short frames appear.
fn random_stream(rng: &mut Rng) -> Vec<u8> {
    let len = rng.below(400);
    let zero_one_in = 2 + rng.below(60);
    (0..len)
        .map(|_| match rng.below(zero_one_in) {
            0 => 0,
            _ => rng.next() as u8,
        })
        .collect()
}

/// One to four golden frames, then one to four mutations.
fn mutated_stream(rng: &mut Rng, frames: &[Vec<u8>]) -> Vec<u8> {
    let mut bytes: Vec<u8> = (0..1 + rng.below(4))
        .flat_map(|_| frames[rng.below(frames.len())].clone())
        .collect();
    for _ in 0..1 + rng.below(4) {
        mutate(rng, &mut bytes);
    }
    bytes
}

/// A golden frame body with one to three mutations and a correct CRC, so that the
/// payload parsers (not just COBS and the CRC check) see hostile input.
fn mutated_body(rng: &mut Rng, bodies: &[Vec<u8>]) -> Vec<u8> {
    let mut body = bodies[rng.below(bodies.len())].clone();
    for _ in 0..1 + rng.below(3) {
        mutate(rng, &mut body);
    }
    wire_with_valid_crc(&body)
}

fn mutate(rng: &mut Rng, bytes: &mut Vec<u8>) {
    if bytes.is_empty() {
        bytes.push(rng.next() as u8);
        return;
    }
    let at = rng.below(bytes.len());
    match rng.below(6) {
        0 => bytes[at] ^= 1 << rng.below(8),
        1 => bytes[at] = rng.next() as u8,
        2 => bytes.truncate(at),
        3 => bytes.insert(at, rng.next() as u8),
        4 => {
            bytes.remove(at);
        }
        _ => {
            let end = (at + 1 + rng.below(40)).min(bytes.len());
            let copy = bytes[at..end].to_vec();
            let to = rng.below(bytes.len() + 1);
            bytes.splice(to..to, copy);
        }
    }
}

fn random_cuts(rng: &mut Rng, len: usize) -> Vec<usize> {
    let mut cuts: Vec<usize> = (0..rng.below(4)).map(|_| rng.below(len + 1)).collect();
    cuts.sort_unstable();
    cuts
}

fn argument(index: usize, default: u64) -> u64 {
    match std::env::args().nth(index) {
        None => default,
        Some(text) => text.replace('_', "").parse().unwrap_or_else(|_| {
            eprintln!("usage: fuzz_decoder [CASES] [SEED]  (got {text:?})");
            std::process::exit(2)
        }),
    }
}

fn main() {
    let cases = argument(1, 1_000_000);
    let mut rng = Rng(argument(2, 1).max(1));
    let frames = golden_stream();
    let bodies = golden_bodies();
    let mut stats = StreamStats::default();
    let mut by_mode = [0u64; 3];
    let started = Instant::now();
    for case in 0..cases {
        let mode = rng.below(3);
        by_mode[mode] += 1;
        let bytes = match mode {
            0 => random_stream(&mut rng),
            1 => mutated_stream(&mut rng, &frames),
            _ => mutated_body(&mut rng, &bodies),
        };
        let cuts = random_cuts(&mut rng, bytes.len());
        let outcome = std::panic::catch_unwind(|| {
            let mut case_stats = StreamStats::default();
            check_stream(&bytes, &cuts, &mut case_stats);
            case_stats
        });
        match outcome {
            Ok(case_stats) => merge(&mut stats, case_stats),
            Err(_) => {
                eprintln!("case {case} failed; bytes: {}", common::to_hex(&bytes));
                std::process::exit(1);
            }
        }
    }
    report(cases, by_mode, &stats, started.elapsed().as_secs_f64());
}

fn merge(total: &mut StreamStats, case: StreamStats) {
    total.bytes += case.bytes;
    total.frames += case.frames;
    for (kind, count) in case.errors {
        *total.errors.entry(kind).or_default() += count;
    }
}

fn report(cases: u64, by_mode: [u64; 3], stats: &StreamStats, seconds: f64) {
    let [random, mutated, bodies] = by_mode;
    println!("cases:          {cases}");
    println!("  random byte streams             {random}");
    println!("  mutated golden wire streams     {mutated}");
    println!("  mutated golden bodies, CRC kept {bodies}");
    println!("bytes fed:      {}", stats.bytes);
    println!("frames decoded: {}", stats.frames);
    let errors: u64 = stats.errors.values().sum();
    println!("errors:         {errors}");
    for (kind, count) in &stats.errors {
        println!("  {kind:<22} {count}");
    }
    println!("panics:         0");
    println!("time:           {seconds:.1} s");
}
