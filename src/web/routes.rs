//! The REST handlers and the API's error body (`{"error": {"kind", "reason"}}`): daemon refusals, history errors and bad input mapped to HTTP statuses.

use super::missing_photo::{photo_file_gone, why_no_photo, PhotoAsked};
use super::state::AppState;
use crate::daemon::docs::{CalibrationDoc, GuideDoc, LastCalibration, RunSummary};
use crate::daemon::{HistoryError, Refusal, RefusalKind, RunDetail, StartSource, StatusDoc};
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use cubed_core::error_chain::error_chain;
use serde::{Deserialize, Serialize};

/// Default and largest `limit` of `GET /api/runs`.
pub(crate) const DEFAULT_RUNS: usize = 50;
pub(crate) const MAX_RUNS: usize = 1000;

/// An error answer: a status and `{"error": {"kind": ..., "reason": ...}}`.
#[derive(Debug)]
pub(super) struct ApiError {
    status: StatusCode,
    kind: &'static str,
    reason: String,
}

/// The JSON body of an error answer (also read back by the client).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub(crate) struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub(crate) struct ErrorDetail {
    pub kind: String,
    pub reason: String,
}

impl ApiError {
    pub(super) fn new(status: StatusCode, kind: &'static str, reason: String) -> ApiError {
        ApiError {
            status,
            kind,
            reason,
        }
    }

    fn bad_request(reason: String) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad_request", reason)
    }

    fn not_found(reason: String) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", reason)
    }

    fn internal(reason: String) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", reason)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorDetail {
                kind: self.kind.to_string(),
                reason: self.reason,
            },
        };
        let mut response = (self.status, Json(body)).into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            // What HTTP says a 401 carries: the scheme the token goes in.
            let challenge = header::HeaderValue::from_static("Bearer realm=\"cubed\"");
            (response.headers_mut()).insert(header::WWW_AUTHENTICATE, challenge);
        }
        response
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> ApiError {
        let (status, kind) = match r.kind {
            RefusalKind::Conflict => (StatusCode::CONFLICT, "conflict"),
            RefusalKind::BadRequest => (StatusCode::BAD_REQUEST, "bad_request"),
            RefusalKind::Unavailable => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
        };
        ApiError::new(status, kind, r.reason)
    }
}

impl From<HistoryError> for ApiError {
    fn from(e: HistoryError) -> ApiError {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "history",
            error_chain(&e),
        )
    }
}

/// Largest request body taken (the biggest, a guide request, is ~100 bytes).
pub(super) const MAX_BODY: usize = 16 * 1024;

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        if r.status() == StatusCode::PAYLOAD_TOO_LARGE {
            return ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too_large",
                format!("request body: larger than {MAX_BODY} bytes"),
            );
        }
        ApiError::bad_request(format!("request body: {}", r.body_text()))
    }
}

impl From<PathRejection> for ApiError {
    fn from(r: PathRejection) -> ApiError {
        ApiError::bad_request(r.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> ApiError {
        let text = r.body_text();
        let detail = text
            .strip_prefix("Failed to deserialize query string: ")
            .unwrap_or(&text)
            .replace("unknown variant", "unknown value");
        ApiError::bad_request(format!("query string not accepted: {detail}"))
    }
}

type ApiResult<T> = Result<Json<T>, ApiError>;

/// Runs a (blocking, SQLite) history call off the async threads; a panic there is a 500, not a lost connection.
async fn history<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, HistoryError> + Send + 'static,
) -> Result<T, ApiError> {
    match tokio::task::spawn_blocking(f).await {
        Ok(result) => Ok(result?),
        Err(e) => Err(ApiError::internal(format!(
            "reading the run history failed: {}",
            error_chain(&e)
        ))),
    }
}

pub(super) async fn status(State(app): State<AppState>) -> Json<StatusDoc> {
    Json(app.handle.status())
}

/// `POST /api/start` answers `{"run": id}`.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Started {
    pub run: u64,
}

/// `POST /api/start?source=cli`: who asked, as the run history records it (`web` by default).
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub(super) struct StartQuery {
    source: Option<AskedBy>,
}

#[derive(Deserialize, Debug, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum AskedBy {
    Web,
    Cli,
}

pub(super) async fn start(
    State(app): State<AppState>,
    query: Result<Query<StartQuery>, QueryRejection>,
) -> ApiResult<Started> {
    let Query(query) = query?;
    let source = match query.source {
        Some(AskedBy::Cli) => StartSource::Cli,
        Some(AskedBy::Web) | None => StartSource::Web,
    };
    let run = app.handle.start(source).await?;
    Ok(Json(Started { run }))
}

/// Stop, e-stop and reset answer with the status after the request was taken.
pub(super) async fn stop(State(app): State<AppState>) -> ApiResult<StatusDoc> {
    app.handle.stop().await?;
    Ok(Json(app.handle.status()))
}

pub(super) async fn estop(State(app): State<AppState>) -> ApiResult<StatusDoc> {
    app.handle.estop().await?;
    Ok(Json(app.handle.status()))
}

pub(super) async fn reset(State(app): State<AppState>) -> ApiResult<StatusDoc> {
    app.handle.reset().await?;
    Ok(Json(app.handle.status()))
}

/// `POST /api/resume` goes on with the interrupted run and answers `{"run": id}`.
pub(super) async fn resume(State(app): State<AppState>) -> ApiResult<Started> {
    let run = app.handle.resume().await?;
    Ok(Json(Started { run }))
}

pub(super) async fn calibrate(State(app): State<AppState>) -> ApiResult<CalibrationDoc> {
    Ok(Json(app.handle.calibrate().await?))
}

/// `GET /api/calibration`: the newest calibration that succeeded, with its run, or `null`.
pub(super) async fn last_calibration(
    State(app): State<AppState>,
) -> ApiResult<Option<LastCalibration>> {
    let handle = app.handle.clone();
    Ok(Json(history(move || handle.last_calibration()).await?))
}

/// `{"facelets": "…"}`: the cube's stickers, face by face (URFDLB), as `cubed solve` takes them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct GuideRequest {
    facelets: String,
}

pub(super) async fn guide(
    State(app): State<AppState>,
    body: Result<Json<serde_json::Map<String, serde_json::Value>>, JsonRejection>,
) -> ApiResult<GuideDoc> {
    // An object, never a list taken field by field.
    let Json(object) = body?;
    let request: GuideRequest = serde_json::from_value(serde_json::Value::Object(object))
        .map_err(|e| ApiError::bad_request(format!("request body: {e}")))?;
    Ok(Json(app.handle.guide(request.facelets).await?))
}

#[derive(Deserialize)]
pub(super) struct RunsQuery {
    /// Read as text, so a bad value is named as the API's own words say.
    limit: Option<String>,
    /// Only runs older than this one (the next page: the last id of the page before).
    before: Option<String>,
}

/// A whole number from `text`, a path segment or query value named `what`, or a 400 that
/// says what was expected (`expected`: "a run number, as in /api/runs/12").
fn number<T: std::str::FromStr>(what: &str, text: &str, expected: &str) -> Result<T, ApiError> {
    text.parse()
        .map_err(|_| ApiError::bad_request(format!("{what} `{text}` is not {expected}")))
}

/// A run or scan number from a path: a whole number too large for any record names no record
/// (a 404 saying `missing`), anything else that is not a number is a 400 as for `number`.
fn record_number<T: std::str::FromStr>(
    what: &str,
    text: &str,
    expected: &str,
    missing: impl FnOnce() -> String,
) -> Result<T, ApiError> {
    number(what, text, expected).map_err(|e| {
        if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            ApiError::not_found(missing())
        } else {
            e
        }
    })
}

pub(super) async fn runs(
    State(app): State<AppState>,
    query: Result<Query<RunsQuery>, QueryRejection>,
) -> ApiResult<Vec<RunSummary>> {
    let Query(query) = query?;
    let allowed = format!("a number of runs from 1 to {MAX_RUNS}");
    let limit = match query.limit.as_deref() {
        None => DEFAULT_RUNS,
        Some(text) => number("limit", text, &allowed)?,
    };
    if !(1..=MAX_RUNS).contains(&limit) {
        return Err(ApiError::bad_request(format!(
            "limit `{limit}` is not {allowed}"
        )));
    }
    let before: Option<u64> = match query.before.as_deref() {
        None => None,
        Some(text) => Some(number("before", text, RUN_NUMBER)?),
    };
    let handle = app.handle.clone();
    Ok(Json(history(move || handle.runs(limit, before)).await?))
}

pub(super) async fn run(
    State(app): State<AppState>,
    id: Result<Path<String>, PathRejection>,
) -> ApiResult<RunDetail> {
    let Path(id) = id?;
    let id: u64 = record_number("run", &id, RUN_NUMBER, || format!("there is no run {id}"))?;
    let handle = app.handle.clone();
    match history(move || handle.run(id)).await? {
        Some(detail) => Ok(Json(detail)),
        None => Err(ApiError::not_found(format!("there is no run {id}"))),
    }
}

pub(super) async fn image(
    State(app): State<AppState>,
    path: Result<Path<(String, String, String)>, PathRejection>,
) -> Result<Response, ApiError> {
    let Path((run, attempt, face)) = path?;
    let (run, attempt, face) = photo_key(&run, &attempt, &face)?;
    let handle = app.handle.clone();
    let file = history(move || handle.image(run, attempt, face)).await?;
    let asked = PhotoAsked {
        run,
        attempt,
        face,
        take: None,
    };
    // Taken again while its scan runs (stickers in doubt): never shown from a cache.
    png(&app, asked, file, "no-cache").await
}

/// An earlier take of a photo, replaced when its face was taken again.
pub(super) async fn earlier_image(
    State(app): State<AppState>,
    path: Result<Path<(String, String, String, String)>, PathRejection>,
) -> Result<Response, ApiError> {
    let Path((run, attempt, face, take)) = path?;
    let (run, attempt, face) = photo_key(&run, &attempt, &face)?;
    let take: u32 = record_number(
        "take",
        &take,
        "a take number (1 is a face's first photo in that scan, as in /api/runs/12/images/0/U/1)",
        || format!("run {run} has no take {take} of photo {attempt}/{face}"),
    )?;
    let handle = app.handle.clone();
    let file = history(move || handle.earlier_image(run, (attempt, face, take))).await?;
    let asked = PhotoAsked {
        run,
        attempt,
        face,
        take: Some(take),
    };
    png(&app, asked, file, "max-age=3600").await
}

/// A photo's run, scan and face, from the path's words.
fn photo_key(run: &str, attempt: &str, face: &str) -> Result<(u64, u32, char), ApiError> {
    let run: u64 = record_number("run", run, RUN_NUMBER, || format!("there is no run {run}"))?;
    let attempt: u32 = record_number(
        "scan",
        attempt,
        "a scan number (the run's round: 0 is its first scan, as in /api/runs/12/images/0/U)",
        || format!("run {run} has no scan {attempt}"),
    )?;
    Ok((run, attempt, face_letter(face)?))
}

/// The PNG in `file`, kept by caches as `cache` says, or a 404 saying why `asked` has none.
async fn png(
    app: &AppState,
    asked: PhotoAsked,
    file: Option<std::path::PathBuf>,
    cache: &'static str,
) -> Result<Response, ApiError> {
    let Some(file) = file else {
        let handle = app.handle.clone();
        let record = history(move || handle.run(asked.run)).await?;
        return Err(ApiError::not_found(why_no_photo(asked, record.as_ref())));
    };
    match tokio::fs::read(&file).await {
        Ok(bytes) => Ok((
            [
                (header::CONTENT_TYPE, "image/png"),
                (header::CACHE_CONTROL, cache),
            ],
            bytes,
        )
            .into_response()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(ApiError::not_found(photo_file_gone(asked, &file)))
        }
        Err(e) => Err(ApiError::internal(format!(
            "reading {}: {}",
            file.display(),
            error_chain(&e)
        ))),
    }
}

/// What a run id in a path must be.
const RUN_NUMBER: &str = "a run number (a whole number, as in /api/runs/12)";

/// One of `URFDLB`.
fn face_letter(text: &str) -> Result<char, ApiError> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if "URFDLB".contains(c) => Ok(c),
        _ => Err(ApiError::bad_request(format!(
            "face \"{text}\" is not one of U R F D L B"
        ))),
    }
}

pub(super) async fn not_found() -> ApiError {
    ApiError::not_found("no such page or API route".to_string())
}

pub(super) async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this route does not take that method (actions are POST, reading is GET)".to_string(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_map_to_statuses() {
        for (refusal, status, kind) in [
            (Refusal::conflict("busy"), 409, "conflict"),
            (Refusal::bad_request("bad"), 400, "bad_request"),
            (Refusal::unavailable("gone"), 503, "unavailable"),
        ] {
            let e = ApiError::from(refusal);
            assert_eq!((e.status.as_u16(), e.kind), (status, kind));
        }
    }

    #[test]
    fn faces_are_single_letters() {
        assert_eq!(face_letter("U").ok(), Some('U'));
        for bad in ["", "u", "X", "UR"] {
            assert!(face_letter(bad).is_err(), "{bad:?}");
        }
    }
}
