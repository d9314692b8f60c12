//! Tests of reading the six faces from photos: sizes and colour checked (the odd photo named), the same picture twice refused, a grid given for one face, photos turned a quarter.

use super::*;

#[test]
fn a_photo_of_another_size_is_refused_naming_its_face() {
    let photos: Vec<FacePhoto> = Face::ALL
        .iter()
        .map(|&face| FacePhoto {
            face,
            image_rotation: 0,
            image: if face == Face::L {
                RgbImage::new(320, 240)
            } else {
                RgbImage::new(640, 480)
            },
        })
        .collect();
    let grid = GridChoice::Fixed(FaceGrid::square(10.0, 10.0, 150.0));
    let err = read_photos(&photos, &grid, &SampleOptions::default()).expect_err("refused");
    assert!(
        matches!(err, ScanError::WrongSize { face: Face::L, .. }),
        "{err:?}"
    );
    let words = err.to_string();
    for said in [
        "face L",
        "320x240",
        "5 of the 6 are 640x480",
        "--corners \"L=x,y",
    ] {
        assert!(words.contains(said), "{said}: {words}");
    }
}

fn sized(size: impl Fn(Face) -> (u32, u32)) -> Vec<FacePhoto> {
    (Face::ALL.iter())
        .map(|&face| FacePhoto {
            face,
            image_rotation: 0,
            image: RgbImage::new(size(face).0, size(face).1),
        })
        .collect()
}

#[test]
fn one_picture_given_for_two_faces_is_refused_naming_both() {
    use crate::camera::image_dir::ImageDirCamera;
    let dir = tempfile::tempdir().expect("temp dir");
    for (n, face) in Face::ALL.iter().enumerate() {
        RgbImage::from_pixel(4, 4, image::Rgb([n as u8 * 40; 3]))
            .save(dir.path().join(format!("{face}.png")))
            .expect("save");
    }
    let mut camera = ImageDirCamera::open(dir.path()).expect("open");
    assert_eq!(
        capture_faces(&mut camera, &plain_plan())
            .expect("six")
            .len(),
        6
    );
    std::fs::copy(dir.path().join("U.png"), dir.path().join("F.png")).expect("copy");
    let mut camera = ImageDirCamera::open(dir.path()).expect("open");
    let err = capture_faces(&mut camera, &plain_plan()).expect_err("U twice");
    assert!(
        matches!(
            err,
            ScanError::SamePhoto {
                first: Face::U,
                second: Face::F
            }
        ),
        "{err:?}"
    );
}

#[test]
fn a_photo_without_colour_is_refused_naming_its_face() {
    let mut photos = sized(|_| (8, 8));
    for (n, photo) in photos.iter_mut().enumerate() {
        photo.image = RgbImage::from_pixel(8, 8, image::Rgb([200, 40 * n as u8, 30]));
    }
    photos[2].image = RgbImage::from_pixel(8, 8, image::Rgb([120, 121, 119]));
    let err = read_photos(&photos, &GridChoice::Auto, &SampleOptions::default())
        .expect_err("F has no colour");
    assert!(matches!(err, ScanError::NoColour(Face::F)), "{err:?}");
}

#[test]
fn the_odd_size_is_named_even_when_it_is_the_first_photo() {
    let photos = sized(|f| if f == Face::U { (100, 82) } else { (1000, 820) });
    let all: Vec<&FacePhoto> = photos.iter().collect();
    let fixed = GridChoice::Fixed(FaceGrid::square(1.0, 1.0, 9.0));
    check_sizes(&all, &GridChoice::Auto).expect("each photo's grid found, at its size");
    let err = check_sizes(&all, &fixed).expect_err("refused");
    assert!(
        matches!(
            err,
            ScanError::WrongSize {
                face: Face::U,
                width: 1000,
                ..
            }
        ),
        "{err:?}"
    );
}

/// A face of nine `colour` stickers, 40-pixel cells at (left, top) on grey, dark gaps.
fn face_at(left: u32, top: u32, colour: [u8; 3]) -> RgbImage {
    crate::grid::finder::tests::drawn_face(left, top, 40, |_, _| colour)
}

#[test]
fn a_grid_given_for_one_face_is_read_there_and_the_others_are_found() {
    let colours = [
        [200, 40, 200],
        [200, 30, 30],
        [30, 160, 60],
        [230, 220, 40],
        [240, 120, 20],
        [30, 60, 200],
    ];
    let photos: Vec<FacePhoto> = (Face::ALL.iter().zip(colours))
        .map(|(&face, colour)| {
            let (left, top) = if face == Face::F {
                (220, 150)
            } else {
                (60, 40)
            };
            FacePhoto {
                face,
                image_rotation: 0,
                image: face_at(left, top, colour),
            }
        })
        .collect();
    let f_grid = FaceGrid::square(220.0, 150.0, 120.0);
    let mut given = [None; 6];
    given[Face::F.index()] = Some(f_grid);
    let choice = GridChoice::PerFace(given);
    assert_eq!(choice.given_faces(), vec![Face::F]);
    let (readings, grids) =
        read_photos_and_grids(&photos, &choice, &SampleOptions::default()).expect("read");
    assert_eq!(grids[Face::F.index()], f_grid, "F's grid as given");
    let u = grids[Face::U.index()].corners[0];
    assert!(
        (u[0] - 60.0).abs() < 6.0 && (u[1] - 40.0).abs() < 6.0,
        "U found: {u:?}"
    );
    for (face, colour) in Face::ALL.iter().zip(colours) {
        let nine = &readings[face.index() * 9..face.index() * 9 + 9];
        let off = |r: &Rgb| (0..3).any(|c| r[c].abs_diff(colour[c]) > 20);
        assert!(!nine.iter().any(off), "{face}: {nine:?} against {colour:?}");
    }
    // The same grid given for every face misses the stickers of all but F.
    let everywhere = GridChoice::Fixed(f_grid);
    let wrong = read_photos(&photos, &everywhere, &SampleOptions::default());
    let u_read = wrong.map(|r| r[4]);
    assert!(
        !matches!(u_read, Ok(r) if r == [200, 40, 200]),
        "{u_read:?}"
    );
}

#[test]
fn photos_turned_a_quarter_are_one_size_unless_the_grid_is_fixed() {
    let photos = sized(|f| if f == Face::U { (640, 480) } else { (480, 640) });
    let all: Vec<&FacePhoto> = photos.iter().collect();
    check_sizes(&all, &GridChoice::Auto).expect("upright photos from a turned camera");
    let mut given = [None; 6];
    given[Face::U.index()] = Some(FaceGrid::square(1.0, 1.0, 9.0));
    check_sizes(&all, &GridChoice::PerFace(given)).expect("U's own grid at its own size");
    let fixed = GridChoice::Fixed(FaceGrid::square(1.0, 1.0, 9.0));
    let err = check_sizes(&all, &fixed).expect_err("a fixed grid needs one size");
    assert!(
        matches!(err, ScanError::WrongSize { face: Face::U, .. }),
        "{err:?}"
    );
}
