//! Work spread over the machine's cores: a map over a slice, its results in the slice's order,
//! on scoped threads (a large design's state graph and bounds take seconds on one core).

/// `f` of each item, in order, the items split into one contiguous part per core; on one
/// thread when there are fewer than `least_per_core` items for each.
pub(crate) fn map_on_cores<I: Sync, T: Send>(
    items: &[I],
    least_per_core: usize,
    f: impl Fn(&I) -> T + Sync,
) -> Vec<T> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = cores.min(items.len() / least_per_core.max(1)).max(1);
    if threads == 1 {
        return items.iter().map(&f).collect();
    }
    let part = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|scope| {
        let parts: Vec<_> = (items.chunks(part))
            .map(|items| scope.spawn(move || items.iter().map(f).collect::<Vec<T>>()))
            .collect();
        (parts.into_iter())
            .flat_map(|part| {
                part.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_results_come_in_the_items_order_whatever_the_split() {
        for n in [0usize, 1, 7, 100, 1001] {
            let items: Vec<usize> = (0..n).collect();
            for least in [1, 3, 1000] {
                let squares = map_on_cores(&items, least, |&i| i * i);
                assert_eq!(
                    squares,
                    items.iter().map(|i| i * i).collect::<Vec<_>>(),
                    "{n} {least}"
                );
            }
        }
    }
}
