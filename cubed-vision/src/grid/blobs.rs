//! The sticker squares of a photo: a brightness threshold (Otsu's), and the blobs of a mask that look like upright or turned stickers, with their centres.

/// A blob centre and its (column, row) index in the lattice, each -1..=1.
pub(crate) type LatticePoint = ([f32; 2], [i32; 2]);

/// A sticker-like blob: centre and side in working pixels.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Blob {
    pub(crate) centre: [f32; 2],
    pub(crate) side: f32,
}

/// Otsu's threshold of a histogram of 0..=255 values.
pub(crate) fn otsu(values: &[u8]) -> u8 {
    let mut hist = [0f64; 256];
    for &v in values {
        hist[v as usize] += 1.0;
    }
    let total = values.len() as f64;
    let sum_all: f64 = hist.iter().enumerate().map(|(i, h)| i as f64 * h).sum();
    let (mut best, mut best_t, mut weight0, mut sum0) = (0.0, 0u8, 0.0, 0.0);
    for (t, &h) in hist.iter().enumerate() {
        weight0 += h;
        sum0 += t as f64 * h;
        let weight1 = total - weight0;
        if weight0 == 0.0 || weight1 == 0.0 {
            continue;
        }
        let (m0, m1) = (sum0 / weight0, (sum_all - sum0) / weight1);
        let between = weight0 * weight1 * (m0 - m1).powi(2);
        if between > best {
            (best, best_t) = (between, t as u8);
        }
    }
    best_t
}

/// Connected regions of `mask` that look like a sticker: an upright one fills
/// its bounding box, one at any angle has the second moments of a filled,
/// roughly square shape.
pub(crate) fn square_blobs(mask: &[bool], w: usize, h: usize) -> Vec<Blob> {
    let mut seen = vec![false; mask.len()];
    let mut blobs = Vec::new();
    let mut stack = Vec::new();
    for start in 0..mask.len() {
        if !mask[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut moments = Moments::default();
        let (mut min, mut max) = ([usize::MAX; 2], [0usize; 2]);
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            moments.add(x as f64, y as f64);
            min = [min[0].min(x), min[1].min(y)];
            max = [max[0].max(x), max[1].max(y)];
            let neighbours = [
                (x > 0, i.wrapping_sub(1)),
                (x + 1 < w, i + 1),
                (y > 0, i.wrapping_sub(w)),
                (y + 1 < h, i + w),
            ];
            for (ok, j) in neighbours {
                if ok && mask[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        if let Some(blob) =
            upright_sticker(moments.n, min, max, w).or_else(|| moments.sticker_like(w))
        {
            blobs.push(blob);
        }
    }
    blobs
}

/// The region as a blob if it looks like an upright sticker: roughly square
/// and filling its bounding box (centre and side from the box).
fn upright_sticker(
    area: f64,
    min: [usize; 2],
    max: [usize; 2],
    image_width: usize,
) -> Option<Blob> {
    let (bw, bh) = ((max[0] - min[0] + 1) as f32, (max[1] - min[1] + 1) as f32);
    let squarish = bw / bh > 0.6 && bh / bw > 0.6;
    let filled = area as f32 / (bw * bh) > 0.65;
    (squarish && filled && area >= 20.0 && bw < image_width as f32 / 2.5).then_some(Blob {
        centre: [
            (min[0] + max[0]) as f32 / 2.0,
            (min[1] + max[1]) as f32 / 2.0,
        ],
        side: (bw + bh) / 2.0,
    })
}

/// Pixel count and first and second moments of a region.
#[derive(Default)]
struct Moments {
    n: f64,
    x: f64,
    y: f64,
    xx: f64,
    yy: f64,
    xy: f64,
}

impl Moments {
    fn add(&mut self, x: f64, y: f64) {
        self.n += 1.0;
        self.x += x;
        self.y += y;
        self.xx += x * x;
        self.yy += y * y;
        self.xy += x * y;
    }

    /// The region as a sticker blob at any angle, if it looks like one. A filled a x b
    /// rectangle at any angle has covariance eigenvalues a²/12 and b²/12, so
    /// its area is 12·sqrt(det): a roughly square (sides within 0.6 of each
    /// other) region whose area is at least 0.65 of that is taken, as the
    /// bounding-box test did for upright stickers.
    fn sticker_like(&self, image_width: usize) -> Option<Blob> {
        if self.n < 20.0 {
            return None;
        }
        let (mx, my) = (self.x / self.n, self.y / self.n);
        let (sxx, syy) = (self.xx / self.n - mx * mx, self.yy / self.n - my * my);
        let sxy = self.xy / self.n - mx * my;
        let (half_trace, det) = ((sxx + syy) / 2.0, sxx * syy - sxy * sxy);
        let spread = (half_trace * half_trace - det).max(0.0).sqrt();
        let (large, small) = (half_trace + spread, half_trace - spread);
        if det <= 0.0 || small / large < 0.36 {
            return None;
        }
        let fill = self.n / (12.0 * det.sqrt());
        let side = self.n.sqrt() as f32;
        (fill > 0.65 && side < image_width as f32 / 2.5).then_some(Blob {
            centre: [mx as f32, my as f32],
            side,
        })
    }
}
