//! One piece of work per part, each part on a thread of its own (the first on the caller's), the results in part order.

/// Calls `work` on every part at once, the first part on this thread and each other on a
/// scoped thread of its own; the results in the parts' order, whatever order they finish in.
/// A panic in any part is raised again here.
pub fn each_on_its_thread<P: Sync, T: Send>(parts: &[P], work: impl Fn(&P) -> T + Sync) -> Vec<T> {
    let Some((first, others)) = parts.split_first() else {
        return Vec::new();
    };
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> = (others.iter())
            .map(|part| scope.spawn(move || work(part)))
            .collect();
        let mut results = vec![work(first)];
        for handle in handles {
            match handle.join() {
                Ok(result) => results.push(result),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        results
    })
}

#[cfg(test)]
mod tests {
    use super::each_on_its_thread;

    #[test]
    fn results_come_in_the_parts_order_and_none_is_lost() {
        let parts: Vec<u64> = (0..6).collect();
        let results = each_on_its_thread(&parts, |&p| (p, std::thread::current().id()));
        assert_eq!(results.iter().map(|r| r.0).collect::<Vec<_>>(), parts);
        assert_eq!(results[0].1, std::thread::current().id());
        assert!(results[1..].iter().all(|r| r.1 != results[0].1));
    }

    #[test]
    fn no_parts_give_no_results() {
        assert!(each_on_its_thread(&[] as &[u8], |_| 1).is_empty());
    }
}
