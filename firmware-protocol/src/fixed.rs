//! `FixedList`: a fixed-capacity, allocation-free list used inside messages.

use core::ops::Deref;

use crate::Error;

/// Up to `N` items stored inline. Equality and `Debug` look only at the items in use,
/// so two lists with the same items are equal whatever the unused slots hold.
#[derive(Clone, Copy)]
pub struct FixedList<T: Copy + Default, const N: usize> {
    items: [T; N],
    len: usize,
}

impl<T: Copy + Default, const N: usize> FixedList<T, N> {
    /// An empty list.
    pub fn new() -> Self {
        FixedList {
            items: [T::default(); N],
            len: 0,
        }
    }

    /// A list holding a copy of `items`; fails if there are more than `N`.
    /// `field` names the list in the error.
    pub fn from_slice(items: &[T], field: &'static str) -> Result<Self, Error> {
        let mut list = Self::new();
        for &item in items {
            list.push(item, field)?;
        }
        Ok(list)
    }

    /// Appends an item; fails (naming `field`) if the list is full.
    pub fn push(&mut self, item: T, field: &'static str) -> Result<(), Error> {
        let slot = self.items.get_mut(self.len).ok_or(Error::BadValue {
            field,
            value: (N + 1) as i64,
        })?;
        *slot = item;
        self.len += 1;
        Ok(())
    }

    /// The items in use.
    pub fn as_slice(&self) -> &[T] {
        &self.items[..self.len]
    }

    /// Maximum number of items.
    pub const fn capacity(&self) -> usize {
        N
    }
}

impl<T: Copy + Default, const N: usize> Default for FixedList<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for FixedList<T, N> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for FixedList<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for FixedList<T, N> {}

impl<T: Copy + Default + core::fmt::Debug, const N: usize> core::fmt::Debug for FixedList<T, N> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_until_full() {
        let mut list: FixedList<u8, 2> = FixedList::new();
        assert!(list.is_empty());
        list.push(1, "items").expect("first");
        list.push(2, "items").expect("second");
        assert_eq!(
            list.push(3, "items"),
            Err(Error::BadValue {
                field: "items",
                value: 3
            })
        );
        assert_eq!(list.as_slice(), &[1, 2]);
        assert_eq!(list.capacity(), 2);
    }

    #[test]
    fn equality_ignores_unused_slots() {
        let a: FixedList<u8, 3> = FixedList {
            items: [1, 9, 9],
            len: 1,
        };
        let b: FixedList<u8, 3> = FixedList::from_slice(&[1], "b").expect("fits");
        assert_eq!(a, b);
    }
}
