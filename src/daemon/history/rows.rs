//! The run history's rows as the API's records: the queries that read them, column encodings (readings, confidences) both ways, image paths and URLs, and decoding that names the run and column of a bad value.

use crate::daemon::docs::{
    PhotoDoc, RunSummary, ScanRecord, SolutionRecord, StepTiming, StickerDoc,
};
use crate::daemon::history::error::HistoryError;
use cubed_core::error_chain::error_chain;
use rusqlite::types::FromSql;
use rusqlite::{params, Connection, Params, Row};
use std::collections::BTreeMap;
use std::path::{Component, Path};

/// Face letters in net order: face `f` owns stickers `f*9..f*9+9`.
pub(crate) const FACES: &str = "URFDLB";

/// Columns read by [`summary`], in `SELECT` form.
pub(crate) const SUMMARY_COLUMNS: &str =
    "id, started_ms, finished_ms, source, cube, outcome, moves, error, last_acked_move, \
     EXISTS (SELECT 1 FROM interruptions i WHERE i.run = runs.id AND i.resumed_by = 'abandoned') \
     AS abandoned";

/// Net position of a face letter.
pub(crate) fn face_index(face: char) -> Option<usize> {
    FACES.chars().position(|f| f == face)
}

/// Where the web layer serves a photo.
pub(crate) fn image_url(run: u64, attempt: u32, face: char) -> String {
    format!("/api/runs/{run}/images/{attempt}/{face}")
}

/// A photo's file, relative to the data directory (as stored).
pub(crate) fn image_relative_path(run: u64, attempt: u32, face: char) -> String {
    format!("images/{run}/{attempt}-{face}.png")
}

/// Where an earlier take of a photo, replaced when the face was taken again, is served.
pub(crate) fn retaken_url(run: u64, attempt: u32, face: char, take: u32) -> String {
    format!("{}/{take}", image_url(run, attempt, face))
}

/// An earlier take's file, relative to the data directory.
pub(crate) fn retaken_relative_path(run: u64, attempt: u32, face: char, take: u32) -> String {
    format!("images/{run}/{attempt}-{face}-take{take}.png")
}

/// Whether a stored relative path stays inside the data directory.
pub(crate) fn is_safe_relative(path: &str) -> bool {
    let path = Path::new(path);
    path.components().count() > 0 && path.components().all(|c| matches!(c, Component::Normal(_)))
}

/// Readings as 3 bytes (R, G, B) per sticker: 162 for a 3x3, 72 for a 2x2.
pub(crate) fn encode_readings(readings: &[[u8; 3]]) -> Vec<u8> {
    readings.concat()
}

/// Confidences as a JSON array; values JSON cannot hold are the strings "inf", "-inf", "nan".
pub(crate) fn encode_confidence(values: &[f32]) -> String {
    let items: Vec<String> = values
        .iter()
        .map(|&v| match v {
            v if v.is_finite() => format!("{v}"),
            v if v.is_nan() => "\"nan\"".to_string(),
            v if v > 0.0 => "\"inf\"".to_string(),
            _ => "\"-inf\"".to_string(),
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// Reads one column of one run's row; a missing or mistyped value names both.
pub(crate) struct Cols<'a, 'r> {
    pub row: &'a Row<'r>,
    pub run: i64,
    pub table: &'static str,
}

impl Cols<'_, '_> {
    pub(crate) fn get<T: FromSql>(&self, column: &'static str) -> Result<T, HistoryError> {
        self.row
            .get(column)
            .map_err(|e| self.bad(column, error_chain(&e)))
    }

    pub(crate) fn bad(&self, column: &'static str, message: String) -> HistoryError {
        HistoryError::BadRow {
            run: self.run,
            column: format!("{}.{column}", self.table),
            message,
        }
    }
}

/// A `runs` row selected with [`SUMMARY_COLUMNS`].
pub(crate) fn summary(row: &Row<'_>) -> Result<RunSummary, HistoryError> {
    let id: i64 = Cols {
        row,
        run: 0,
        table: "runs",
    }
    .get("id")?;
    let cols = Cols {
        row,
        run: id,
        table: "runs",
    };
    Ok(RunSummary {
        id: u64::try_from(id).map_err(|_| cols.bad("id", "negative run id".into()))?,
        started_ms: cols.get("started_ms")?,
        finished_ms: cols.get("finished_ms")?,
        source: cols.get("source")?,
        cube: cols.get("cube")?,
        outcome: cols.get("outcome")?,
        moves: cols.get("moves")?,
        error: cols.get("error")?,
        last_acked_move: cols.get("last_acked_move")?,
        abandoned: cols.get("abandoned")?,
    })
}

/// A `scans` row (attempt, readings, facelets, confidence, error), photos not yet attached.
pub(crate) fn scan(row: &Row<'_>, run: i64) -> Result<ScanRecord, HistoryError> {
    let cols = Cols {
        row,
        run,
        table: "scans",
    };
    let readings: Option<Vec<u8>> = cols.get("readings")?;
    let confidence: String = cols.get("confidence")?;
    Ok(ScanRecord {
        attempt: cols.get("attempt")?,
        images: Vec::new(),
        readings: (decode_readings(readings.as_deref()))
            .map_err(|e| cols.bad("readings", error_chain(&e)))?,
        facelets: cols.get("facelets")?,
        confidence: (decode_confidence(&confidence))
            .map_err(|e| cols.bad("confidence", error_chain(&e)))?,
        error: cols.get("error")?,
        label: String::new(),
        earlier: Vec::new(),
    })
}

/// The runs `sql` selects with [`SUMMARY_COLUMNS`].
pub(crate) fn query_summaries<P: Params>(
    conn: &Connection,
    sql: &str,
    params: P,
) -> Result<Vec<RunSummary>, HistoryError> {
    let failed = |e| HistoryError::sql("reading runs".into(), e);
    let mut stmt = conn.prepare_cached(sql).map_err(failed)?;
    let mut found = stmt.query(params).map_err(failed)?;
    let mut summaries = Vec::new();
    while let Some(row) = found.next().map_err(failed)? {
        summaries.push(summary(row)?);
    }
    Ok(summaries)
}

/// The rows of one run from `sql` (which takes the run id as ?1), each decoded by `decode`.
pub(crate) fn query_rows<T>(
    conn: &Connection,
    sql: &str,
    run: i64,
    decode: impl Fn(&Row<'_>) -> Result<T, HistoryError>,
) -> Result<Vec<T>, HistoryError> {
    let failed = |e| HistoryError::sql(format!("reading run {run}"), e);
    let mut stmt = conn.prepare_cached(sql).map_err(failed)?;
    let mut found = stmt.query(params![run]).map_err(failed)?;
    let mut decoded = Vec::new();
    while let Some(row) = found.next().map_err(failed)? {
        decoded.push(decode(row)?);
    }
    Ok(decoded)
}

/// An `images` row (attempt, face) as the attempt and its photo, stickers not yet attached.
pub(crate) fn photo(row: &Row<'_>, run: u64) -> Result<PhotoDoc, HistoryError> {
    let cols = Cols {
        row,
        run: run as i64,
        table: "images",
    };
    let attempt: u32 = cols.get("attempt")?;
    let face: String = cols.get("face")?;
    let face = single_face(&face).ok_or_else(|| cols.bad("face", format!("{face:?}")))?;
    let grid: Option<String> = cols.get("grid")?;
    let grid = match grid {
        Some(text) => Some(decode_grid(&text).ok_or_else(|| cols.bad("grid", text))?),
        None => None,
    };
    Ok(PhotoDoc {
        face,
        attempt,
        url: image_url(run, attempt, face),
        stickers: Vec::new(),
        grid,
        check: false,
    })
}

/// A photo's sticker box as stored: `[left, top, right, bottom]` in JSON.
pub(crate) fn encode_grid(grid: [f32; 4]) -> String {
    serde_json::to_string(&grid).unwrap_or_default()
}

/// A stored sticker box, if it is four numbers in order (a grid near an edge may reach a
/// little past it).
fn decode_grid(text: &str) -> Option<[f32; 4]> {
    let [left, top, right, bottom]: [f32; 4] = serde_json::from_str(text).ok()?;
    (left < right && top < bottom).then_some([left, top, right, bottom])
}

/// A `solutions` row.
pub(crate) fn solution(row: &Row<'_>, run: i64) -> Result<SolutionRecord, HistoryError> {
    let cols = Cols {
        row,
        run,
        table: "solutions",
    };
    let program: String = cols.get("program")?;
    Ok(SolutionRecord {
        attempt: cols.get("attempt")?,
        solution: cols.get("solution")?,
        moves: cols.get("moves")?,
        program: serde_json::from_str(&program)
            .map_err(|e| cols.bad("program", error_chain(&e)))?,
        planned_ms: cols.get("planned_ms")?,
        label: String::new(),
    })
}

/// A `steps` row.
pub(crate) fn step(row: &Row<'_>, run: i64) -> Result<StepTiming, HistoryError> {
    let cols = Cols {
        row,
        run,
        table: "steps",
    };
    Ok(StepTiming {
        name: cols.get("name")?,
        attempt: cols.get("attempt")?,
        started_ms: cols.get("started_ms")?,
        ms: cols.get("ms")?,
        label: String::new(),
    })
}

/// Scans by attempt, with each attempt's photos (net order) and their stickers; an attempt
/// with photos but no recorded scan still appears.
pub(crate) fn assemble_scans(scans: Vec<ScanRecord>, photos: Vec<PhotoDoc>) -> Vec<ScanRecord> {
    let mut by_attempt: BTreeMap<u32, ScanRecord> =
        scans.into_iter().map(|s| (s.attempt, s)).collect();
    for photo in photos {
        by_attempt
            .entry(photo.attempt)
            .or_insert_with(|| unscanned(photo.attempt))
            .images
            .push(photo);
    }
    let mut scans: Vec<ScanRecord> = by_attempt.into_values().collect();
    for scan in &mut scans {
        scan.images.sort_by_key(|p| face_index(p.face));
        let stickers: Vec<Vec<StickerDoc>> = scan
            .images
            .iter()
            .map(|p| face_stickers(scan, p.face))
            .collect();
        for (photo, stickers) in scan.images.iter_mut().zip(stickers) {
            photo.stickers = stickers;
        }
    }
    scans
}

fn unscanned(attempt: u32) -> ScanRecord {
    ScanRecord {
        attempt,
        images: Vec::new(),
        readings: Vec::new(),
        facelets: None,
        confidence: Vec::new(),
        error: None,
        label: String::new(),
        earlier: Vec::new(),
    }
}

/// The stickers of `face` (nine, or four of a 2x2) if the scan was classified, else none.
fn face_stickers(scan: &ScanRecord, face: char) -> Vec<StickerDoc> {
    let symbols: Vec<char> = scan.facelets.as_deref().unwrap_or("").chars().collect();
    let (Some(f), n) = (face_index(face), symbols.len()) else {
        return Vec::new();
    };
    if !(n == 54 || n == 24) || scan.readings.len() != n {
        return Vec::new();
    }
    let per = n / 6;
    (f * per..f * per + per)
        .map(|i| {
            let [r, g, b] = scan.readings[i];
            StickerDoc {
                symbol: symbols[i],
                rgb: format!("#{r:02x}{g:02x}{b:02x}"),
                confidence: scan.confidence.get(i).copied().unwrap_or(0.0),
            }
        })
        .collect()
}

fn single_face(text: &str) -> Option<char> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(face), None) if face_index(face).is_some() => Some(face),
        _ => None,
    }
}

/// What is wrong with a value the history holds (the run and column are said with it).
#[derive(Debug, thiserror::Error)]
enum ColumnValueError {
    /// The readings blob is not 54 or 24 RGB triples.
    #[error("{bytes} bytes, expected 162 (54 × RGB) or 72 (24 × RGB, a 2x2)")]
    ReadingsLength { bytes: usize },
    /// The confidences are not a JSON list.
    #[error(transparent)]
    ConfidenceNotJson(serde_json::Error),
    /// One confidence is neither a number nor "inf", "-inf" or "nan".
    #[error("{value} is not a confidence")]
    NotAConfidence { value: serde_json::Value },
}

fn decode_readings(bytes: Option<&[u8]>) -> Result<Vec<[u8; 3]>, ColumnValueError> {
    match bytes {
        None => Ok(Vec::new()),
        // 54 stickers of a 3x3, or 24 of a 2x2.
        Some(b) if b.len() == 54 * 3 || b.len() == 24 * 3 => {
            Ok(b.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect())
        }
        Some(b) => Err(ColumnValueError::ReadingsLength { bytes: b.len() }),
    }
}

fn decode_confidence(text: &str) -> Result<Vec<f32>, ColumnValueError> {
    let values: Vec<serde_json::Value> =
        serde_json::from_str(text).map_err(ColumnValueError::ConfidenceNotJson)?;
    values.iter().map(decode_confidence_value).collect()
}

fn decode_confidence_value(value: &serde_json::Value) -> Result<f32, ColumnValueError> {
    match (value.as_f64(), value.as_str()) {
        (Some(v), _) => Ok(v as f32),
        (_, Some("inf")) => Ok(f32::INFINITY),
        (_, Some("-inf")) => Ok(f32::NEG_INFINITY),
        (_, Some("nan")) => Ok(f32::NAN),
        _ => Err(ColumnValueError::NotAConfidence {
            value: value.clone(),
        }),
    }
}
