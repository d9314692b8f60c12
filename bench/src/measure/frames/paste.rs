//! A face photographed by the simulated camera, pasted into a scene: where it goes (its size, place and small turn, drawn), the face cut out along its true outline and scaled, turned and moved there (bilinear, its edge blended), and where its corners land: the truth the finder is judged against.

use super::elements::between;
use cubed::vision::camera::sim::SimCamera;
use cubed::vision::grid::face_grid::FaceGrid;
use image::RgbImage;
use rand_chacha::ChaCha8Rng;

/// Where a face goes in the frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    /// The face's centre in the frame.
    pub centre: [f32; 2],
    /// The face's side in the frame, pixels (the simulated camera's nominal face scaled to it).
    pub side: f32,
    /// The turn, degrees (positive: clockwise as seen, image y down).
    pub degrees: f32,
}

impl Placement {
    /// A face about a fifth to a third of the frame's width, turned up to 10 degrees either
    /// way, anywhere it fits whole with a margin.
    pub fn draw(rng: &mut ChaCha8Rng, (width, height): (u32, u32)) -> Placement {
        let (w, h) = (width as f32, height as f32);
        let side = w * between(rng, 0.2, 1.0 / 3.0);
        let degrees = between(rng, -10.0, 10.0);
        // Half the turned face's extent, and a margin for the grippers' first pixels.
        let reach = side * 0.5 * (degrees.to_radians().cos() + degrees.to_radians().sin().abs());
        let margin = reach + 12.0;
        let centre = [
            between(rng, margin, (w - margin).max(margin + 1.0)),
            between(rng, margin, (h - margin).max(margin + 1.0)),
        ];
        Placement {
            centre,
            side,
            degrees,
        }
    }

    /// Frame pixels per photo pixel.
    fn scale(&self) -> f32 {
        let nominal = SimCamera::nominal_grid().corners;
        self.side / (nominal[1][0] - nominal[0][0])
    }

    /// The frame point where photo point `p` lands.
    pub fn to_frame(&self, p: [f32; 2]) -> [f32; 2] {
        let c = nominal_centre();
        let (sin, cos) = self.degrees.to_radians().sin_cos();
        let k = self.scale();
        let (dx, dy) = ((p[0] - c[0]) * k, (p[1] - c[1]) * k);
        [
            self.centre[0] + cos * dx - sin * dy,
            self.centre[1] + sin * dx + cos * dy,
        ]
    }

    /// The photo point that lands on frame point `q`.
    fn photo_point(&self, q: [f32; 2]) -> [f32; 2] {
        let c = nominal_centre();
        let (sin, cos) = self.degrees.to_radians().sin_cos();
        let k = self.scale();
        let (dx, dy) = (q[0] - self.centre[0], q[1] - self.centre[1]);
        [
            c[0] + (cos * dx + sin * dy) / k,
            c[1] + (-sin * dx + cos * dy) / k,
        ]
    }
}

/// The centre of the simulated camera's nominal face.
fn nominal_centre() -> [f32; 2] {
    let c = SimCamera::nominal_grid().corners;
    [(c[0][0] + c[2][0]) / 2.0, (c[0][1] + c[2][1]) / 2.0]
}

/// Pastes the face of `photo` (its true outline `outline`, in photo pixels) into `frame` as
/// `placement` says; returns the face's corners in the frame.
pub fn paste_face(
    frame: &mut RgbImage,
    (photo, outline): (&RgbImage, &FaceGrid),
    placement: &Placement,
) -> FaceGrid {
    let corners = outline.corners.map(|p| placement.to_frame(p));
    let (x0, y0, x1, y1) = covering(frame, &corners);
    let k = placement.scale();
    for y in y0..y1 {
        for x in x0..x1 {
            let p = placement.photo_point([x as f32 + 0.5, y as f32 + 0.5]);
            // Signed distance inside the outline, in frame pixels: the edge blends over one.
            let coverage = (inside_distance(&outline.corners, p) * k + 0.5).clamp(0.0, 1.0);
            if coverage <= 0.0 {
                continue;
            }
            let seen = bilinear(photo, p[0] - 0.5, p[1] - 0.5);
            let old = frame.get_pixel(x, y).0;
            let mixed: [u8; 3] = std::array::from_fn(|c| {
                (seen[c] * coverage + old[c] as f32 * (1.0 - coverage)).round() as u8
            });
            frame.put_pixel(x, y, image::Rgb(mixed));
        }
    }
    FaceGrid { corners }
}

/// The frame's pixel box covering `corners`, widened by two pixels.
fn covering(frame: &RgbImage, corners: &[[f32; 2]; 4]) -> (u32, u32, u32, u32) {
    let least = |k: usize| corners.iter().map(|p| p[k]).fold(f32::INFINITY, f32::min);
    let most = |k: usize| {
        corners
            .iter()
            .map(|p| p[k])
            .fold(f32::NEG_INFINITY, f32::max)
    };
    let clip = |v: f32, limit: u32| (v.max(0.0) as u32).min(limit);
    (
        clip(least(0) - 2.0, frame.width()),
        clip(least(1) - 2.0, frame.height()),
        clip(most(0) + 3.0, frame.width()),
        clip(most(1) + 3.0, frame.height()),
    )
}

/// How far `p` lies inside the convex quadrilateral `quad` (TL, TR, BR, BL, clockwise as seen),
/// in its own pixels: negative outside.
fn inside_distance(quad: &[[f32; 2]; 4], p: [f32; 2]) -> f32 {
    (0..4)
        .map(|k| {
            let (a, b) = (quad[k], quad[(k + 1) % 4]);
            let (ex, ey) = (b[0] - a[0], b[1] - a[1]);
            (ex * (p[1] - a[1]) - ey * (p[0] - a[0])) / ex.hypot(ey)
        })
        .fold(f32::INFINITY, f32::min)
}

/// The photo's colour at (x, y) in pixel-centre coordinates, bilinear, the edge pixels repeated.
fn bilinear(photo: &RgbImage, x: f32, y: f32) -> [f32; 3] {
    let (w, h) = (photo.width() as i64, photo.height() as i64);
    let (x0, y0) = (x.floor() as i64, y.floor() as i64);
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let at = |x: i64, y: i64| {
        let p = photo
            .get_pixel(x.clamp(0, w - 1) as u32, y.clamp(0, h - 1) as u32)
            .0;
        p.map(f32::from)
    };
    let (a, b, c, d) = (
        at(x0, y0),
        at(x0 + 1, y0),
        at(x0, y0 + 1),
        at(x0 + 1, y0 + 1),
    );
    std::array::from_fn(|k| {
        let top = a[k] * (1.0 - fx) + b[k] * fx;
        let bottom = c[k] * (1.0 - fx) + d[k] * fx;
        top * (1.0 - fy) + bottom * fy
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_placement_maps_the_photo_and_back_and_keeps_the_face_in_the_frame() {
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        for _ in 0..50 {
            let placement = Placement::draw(&mut rng, (1920, 1080));
            assert!((384.0..=640.0).contains(&placement.side), "{placement:?}");
            assert!(placement.degrees.abs() <= 10.0, "{placement:?}");
            let p = [200.0, 300.0];
            let back = placement.photo_point(placement.to_frame(p));
            assert!((back[0] - p[0]).abs() < 1e-3 && (back[1] - p[1]).abs() < 1e-3);
            for [x, y] in SimCamera::nominal_grid()
                .corners
                .map(|c| placement.to_frame(c))
            {
                assert!(
                    x > 0.0 && y > 0.0 && x < 1920.0 && y < 1080.0,
                    "{placement:?}"
                );
            }
        }
    }

    #[test]
    fn a_pasted_face_lands_on_its_corners_and_leaves_the_rest() {
        let photo = RgbImage::from_pixel(640, 480, image::Rgb([200, 30, 30]));
        let outline = SimCamera::nominal_grid();
        let mut frame = RgbImage::from_pixel(1920, 1080, image::Rgb([10, 200, 10]));
        let placement = Placement {
            centre: [900.0, 500.0],
            side: 450.0,
            degrees: 0.0,
        };
        let grid = paste_face(&mut frame, (&photo, &outline), &placement);
        assert_eq!(grid.corners[0], [675.0, 275.0]);
        assert_eq!(grid.corners[2], [1125.0, 725.0]);
        assert_eq!(frame.get_pixel(900, 500).0, [200, 30, 30]);
        assert_eq!(frame.get_pixel(680, 280).0, [200, 30, 30]);
        assert_eq!(frame.get_pixel(670, 280).0, [10, 200, 10]);
    }
}
