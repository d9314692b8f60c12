// cubed: the robot's page. Plain JS, no build step, nothing loaded from elsewhere.
// Live status over the WebSocket /api/events; actions are POSTs to /api/*.
'use strict';

const $ = (id) => document.getElementById(id);
const FACES = ['U', 'R', 'F', 'D', 'L', 'B'];
const DEFAULT_COLOURS = { U: '#eeeeee', R: '#c41e3a', F: '#009e60', D: '#ffd500', L: '#ff5800', B: '#0051ba' };
const BUSY = ['scanning', 'solving', 'executing', 'verifying', 'paused'];
// Stickers whose calibrated chance of being right is below the daemon's `[vision]
// min_confidence` are marked on the photos (this, from a daemon that does not say it).
const UNSURE = 0.9;
const unsureBelow = () => (status && status.min_confidence) || UNSURE;
const TOKEN_KEY = 'cubed-token';

let status = null; // the last StatusDoc pushed
let guideDoc = null; // the GuideDoc being followed
let guideAt = 0; // moves of it done
let shownPhotos = ''; // what the photo panel shows (to redraw only on change)
let shownPalette = '';

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

// Puts the daemon's `text` into `box` as words: a span between backticks (how the daemon marks
// a command or a setting, as in Markdown) becomes a <code>; an unmatched backtick stays as it
// is. Built from text nodes only: the daemon's text is never read as HTML.
function putWords(box, text) {
  box.textContent = '';
  const parts = String(text ?? '').split('`');
  parts.forEach((part, i) => {
    const inside = i % 2 === 1;
    if (inside && i < parts.length - 1) box.appendChild(el('code', '', part));
    else if (inside || part) box.appendChild(document.createTextNode((inside ? '`' : '') + part));
  });
  return box;
}

// A new element showing the daemon's `text` as words (see putWords).
const wordsEl = (tag, className, text) => putWords(el(tag, className), text);

// ---- Token and requests ---------------------------------------------------

(function takeTokenFromUrl() {
  const url = new URL(location.href);
  const t = url.searchParams.get('token');
  if (t) {
    sessionStorage.setItem(TOKEN_KEY, t);
    url.searchParams.delete('token');
    history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
})();

// `path` with the token in its query, for what a browser fetches without our headers
// (photos, the event socket); reads need the token when the daemon listens beyond loopback.
function withToken(path) {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) return path;
  return path + (path.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token);
}

// Calls the API; resolves to the JSON answer, or throws an Error with the daemon's reason.
// Never asks anything itself (an e-stop press must not wait on a dialog): a 401 shows the
// token form beside the page, and the caller shows the error.
async function api(method, path, body) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = 'Bearer ' + token;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new Error('cannot reach the daemon (' + e.message + ')');
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = null; }
  if (res.status === 401) askForToken(token ? 'that token was refused; try again' : '');
  if (!res.ok) {
    const reason = data && data.error ? data.error.reason : (text || res.statusText);
    throw new Error(reason + ' (HTTP ' + res.status + ')');
  }
  return data;
}

// Shows the token form (the page loaded on an address beyond the robot's own machine).
function askForToken(why) {
  $('token-why').textContent = why || '';
  $('token-form').hidden = false;
}

// Loads the page's data once the daemon lets us read: asks for the token first if it must.
async function begin() {
  let first = null;
  try {
    // Shown at once, before the WebSocket's first push (or without it, behind a proxy).
    first = await api('GET', '/api/status');
    render(first);
  } catch (e) {
    if (!$('token-form').hidden) {
      $('conn').textContent = 'this robot needs its access token';
      $('conn').className = 'conn down';
      $('token-input').focus();
      return;
    }
  }
  // Reads need no token here, but every button does, the emergency stop too: ask now, so
  // that its first press stops the robot.
  if (first && first.actions_need_token && !sessionStorage.getItem(TOKEN_KEY)) {
    askForToken('the buttons, the emergency stop too, need it');
    $('token-input').focus();
    follow();
    return;
  }
  $('token-form').hidden = true;
  follow();
}

// Follows the address and the daemon's events, once however often the token is given.
let following = false;
function follow() {
  if (following) return;
  following = true;
  followAddress();
  connect();
}

function takeToken(e) {
  e.preventDefault();
  const given = $('token-input').value.trim();
  if (!given) return;
  sessionStorage.setItem(TOKEN_KEY, given);
  $('token-input').value = '';
  clearError();
  begin();
}

function showError(message) {
  putWords($('error-text'), message);
  $('error').hidden = false;
}

function clearError() {
  $('error').hidden = true;
  $('error-text').textContent = '';
}

// An action the user asked for: its answer, or null after showing why it failed.
async function act(method, path, body) {
  try {
    const answer = await api(method, path, body);
    clearError();
    return answer;
  } catch (e) {
    showError(e.message);
    return null;
  }
}

// ---- Colours and the cube net ---------------------------------------------

// Whether a "#rrggbb" colour is dark enough to need white letters on it.
function isDark(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.45;
}

function paletteBySymbol() {
  const m = {};
  for (const c of (status && status.palette) || []) m[c.symbol] = c.rgb;
  return m;
}

// Colour of each symbol of `facelets`: the palette's own symbols, or else by the
// face each symbol stands for: `faces` (the symbol of U, R, F, D, L, B, as the
// guide's answer gives them), else the face whose centre shows it; a 2x2 has no
// centres: without `faces`, its back-left-bottom corner (stickers D3, L3, B4)
// names D, L, B only.
function colourer(facelets, faces) {
  const bySymbol = paletteBySymbol();
  if ([...facelets].every((s) => s in bySymbol)) return (s) => bySymbol[s];
  const byFace = {};
  for (const c of (status && status.palette) || []) byFace[c.face] = c.rgb;
  const m = {};
  const namer = facelets.length === 24 ? { D: 14, L: 18, B: 23 } : null;
  FACES.forEach((f, k) => {
    const at = namer ? namer[f] : 9 * k + 4;
    const symbol = faces && faces.length === 6 ? faces[k] : facelets[at];
    if (symbol !== undefined) m[symbol] = byFace[f] || DEFAULT_COLOURS[f];
  });
  return (s) => m[s] || '#888';
}

// Stickers a side: 3, or 2 for a 2x2 (24 stickers). A 2x2's sticker i of a face
// sits where a 3x3's corner sticker of that face does.
const sideOf = (facelets) => (facelets.length === 24 ? 2 : 3);
const gridPlace = (side, i) => (side === 3 ? [Math.floor(i / 3), i % 3] : [2 * Math.floor(i / 2), 2 * (i % 2)]);

// Sticker geometry: x right, y up, z towards the viewer. Each face is read row by
// row as seen from outside, U with B at its top, D with F at its top.
const NORMAL = { U: [0, 1, 0], D: [0, -1, 0], F: [0, 0, 1], B: [0, 0, -1], R: [1, 0, 0], L: [-1, 0, 0] };
function place(face, r, c) {
  const a = c - 1, b = r - 1;
  switch (face) {
    case 'U': return [a, 1, b];
    case 'D': return [a, -1, -b];
    case 'F': return [a, -b, 1];
    case 'B': return [-a, -b, -1];
    case 'R': return [1, -b, -a];
    default: return [-1, -b, a]; // L
  }
}
// Whole-cube turns that bring the chosen side to the front.
const VIEW = {
  F: (p) => p,
  R: ([x, y, z]) => [-z, y, x],
  B: ([x, y, z]) => [-x, y, -z],
  L: ([x, y, z]) => [z, y, -x],
  U: ([x, y, z]) => [x, -z, y],
  D: ([x, y, z]) => [x, z, -y],
};
const same = (p, q) => p[0] === q[0] && p[1] === q[1] && p[2] === q[2];
const faceOfNormal = (n) => FACES.find((f) => same(NORMAL[f], n));
function cellAt(face, p, side = 3) {
  for (let i = 0; i < side * side; i++) if (same(place(face, ...gridPlace(side, i)), p)) return i;
  return 0;
}

// Draws `facelets` (URFDLB, 54, or 24 for a 2x2) as a net: U above F; L F R B in a
// row; D below F. opts.view: the side shown as front; opts.turning: the face to outline.
function drawNet(box, facelets, opts = {}) {
  box.textContent = '';
  if (!facelets || (facelets.length !== 54 && facelets.length !== 24)) {
    box.appendChild(el('span', 'small', opts.empty || 'no cube read yet'));
    return;
  }
  const side = sideOf(facelets);
  const per = side * side;
  const turn = VIEW[opts.view || 'F'];
  const colour = colourer(facelets, opts.faces);
  const net = el('div', 'net' + (opts.large ? ' large' : '') + (side === 2 ? ' pocket' : ''));
  const cells = {};
  for (const f of FACES) {
    const face = el('div', 'face pos-' + f);
    cells[f] = [];
    for (let i = 0; i < per; i++) cells[f].push(face.appendChild(el('div', 'cell')));
    net.appendChild(face);
  }
  FACES.forEach((face, k) => {
    const to = faceOfNormal(turn(NORMAL[face]));
    const div = cells[to][0].parentNode;
    div.dataset.face = face;
    if (face === opts.turning) div.classList.add('turning');
    for (let i = 0; i < per; i++) {
      const symbol = facelets[per * k + i];
      const cell = cells[to][cellAt(to, turn(place(face, ...gridPlace(side, i))), side)];
      cell.style.background = colour(symbol);
      cell.title = face + ' ' + (i + 1) + ': ' + symbol;
      if (i === 4 && opts.labels) cell.textContent = face;
    }
  });
  box.appendChild(net);
}

// The six photos (the latest attempt of each face) with the colours read drawn over them;
// `none` says why there are none.
// `labelled`: the photos' scan is named above them (a run's record), so captions name the face
// only; on the robot's panel they say which scan a photo is from, as the run's record names it.
function drawPhotos(box, photos, none = 'no photos yet', labelled = false) {
  box.textContent = '';
  const latest = {};
  for (const p of photos || []) if (!latest[p.face] || p.attempt >= latest[p.face].attempt) latest[p.face] = p;
  const colour = paletteBySymbol();
  for (const f of FACES) {
    const p = latest[f];
    if (!p) continue;
    const fig = el('figure', 'photo');
    // The caption above the photo, never over its stickers.
    const scan = labelled || p.attempt === 0 ? '' : p.check ? ' (check)' : ' (scan again)';
    fig.appendChild(el('figcaption', '', f + scan));
    const frame = fig.appendChild(el('div', 'frame'));
    const img = el('img');
    img.alt = 'photo of face ' + f;
    img.src = withToken(p.url);
    img.addEventListener('error', () => { img.hidden = true; });
    frame.appendChild(img);
    const overlay = frame.appendChild(el('div', 'overlay' + (p.stickers.length === 4 ? ' pocket' : '')));
    if (p.grid) cropToGrid(img, overlay, p.grid);
    p.stickers.forEach((s) => {
      const unsure = s.confidence < unsureBelow();
      const mark = overlay.appendChild(el('div', 'mark' + (unsure ? ' unsure' : ''), s.symbol + (unsure ? '?' : '')));
      mark.style.background = colour[s.symbol] || s.rgb;
      mark.style.color = isDark(colour[s.symbol] || s.rgb) ? '#fff' : '#000';
      mark.title = 'read ' + s.symbol + ' (sampled ' + s.rgb + ', ' + (100 * s.confidence).toFixed(2) + ' % sure)';
    });
    box.appendChild(fig);
  }
  if (!box.childElementCount) box.appendChild(el('span', 'small', none));
}

// Why a past run shows no photos: pruned by the history's limits, or never taken.
function prunedWords(pruned) {
  if (!pruned) return 'no photos';
  return 'photos removed ' + when(pruned.at_ms) + ' to keep the history within [history] keep_runs and max_photo_mb';
}

// Shows the part of the photo where the stickers were found (with a little around it), so that
// the colours read are drawn over the stickers they were read from.
function cropToGrid(img, overlay, [left, top, right, bottom]) {
  const margin = 0.06; // around the stickers, as a share of their box
  const width = (right - left) * (1 + 2 * margin), height = (bottom - top) * (1 + 2 * margin);
  const x = left - (right - left) * margin, y = top - (bottom - top) * margin;
  img.classList.add('cropped');
  Object.assign(img.style, {
    width: 100 / width + '%', height: 100 / height + '%',
    left: -100 * x / width + '%', top: -100 * y / height + '%',
  });
  overlay.style.inset = 100 * margin / (1 + 2 * margin) + '%';
}

// Each move its own element that never breaks inside; lines break only at the spaces between
// moves. `done`: how many are done (the next is marked as the one now); none when not given.
function drawMoves(box, moves, done = -1) {
  box.textContent = '';
  moves.forEach((m, i) => {
    if (i > 0) box.appendChild(document.createTextNode(' '));
    box.appendChild(el('span', 'move' + (i < done ? ' done' : i === done ? ' now' : ''), m));
  });
}

// ---- Live status ----------------------------------------------------------

function seconds(ms) {
  const s = Math.ceil(ms / 1000);
  return s < 60 ? s + ' s' : Math.floor(s / 60) + ' min ' + (s % 60) + ' s';
}

function render(s) {
  // An error said of another state or run (a double click, a refusal mid-run) is stale now.
  if (status && (status.state !== s.state || status.run !== s.run)) clearError();
  status = s;
  reachable = true;
  const state = $('state');
  const busy = BUSY.includes(s.state);
  // A Stop taken stays said until the run reaches its step boundary (the move under way ends).
  const stopping = busy && s.stopping;
  state.textContent = s.state.replace('_', s.state === 'needs_attention' ? ' ' : '-') + (stopping ? ' (stopping)' : '');
  state.className = 'state ' + s.state;
  putWords($('message'), s.message);
  $('notice').hidden = !s.notice;
  putWords($('notice'), s.notice || '');
  // Shown while the link is not simply open and there is something to say about it.
  const link = s.link || { state: 'closed', problem: null, line: '' };
  $('link').hidden = link.state === 'open' || !link.problem;
  putWords($('link'), link.line);
  // The robot's e-stop button, while it is held or its stop waits for a Reset.
  $('estop-button').hidden = !s.estop_button;
  putWords($('estop-button'), s.estop_button ? s.estop_button.line : '');
  $('devices').textContent = 'robot: ' + s.robot + ' · camera: ' + s.camera
    + (s.cube_size ? ' · cube: ' + s.cube_size : '') + (s.run ? ' · run ' + s.run : '');
  const waiting = s.state === 'e_stopped' || s.state === 'needs_attention';
  $('start').disabled = busy || waiting;
  $('stop').disabled = !busy || stopping;
  $('stop').textContent = stopping ? 'Stopping…' : 'Stop';
  // Calibration is a run of its own: not while another runs or waits, nor twice at once.
  $('calibrate').disabled = busy || waiting || calibrating;
  $('reset').hidden = !(waiting || s.state === 'faulted');
  // Offered only when the daemon would take it: a run waits for a person (not an e-stop
  // between runs, nor a run still stopping).
  $('resume').hidden = s.resumable == null;

  const p = s.progress;
  $('progress-text').textContent = p ? 'move ' + p.moves_done + ' of ' + p.moves : '';
  $('progress-bar').hidden = !p;
  // The bar counts what its text counts (moves); the firmware's commands go in its tooltip.
  if (p) {
    $('progress-bar').value = p.moves ? p.moves_done / p.moves : 0;
    $('progress-bar').title = p.commands ? 'command ' + p.commands_done + ' of ' + p.commands : '';
  }
  $('progress-eta').textContent = p && busy && p.eta_ms > 0 ? 'ETA ' + seconds(p.eta_ms) : '';
  drawMoves($('solution'), s.solution, p ? p.moves_done : 0);
  drawNet($('net'), s.facelets);
  $('net-guess').hidden = !(s.facelets && s.facelets_guessed);

  const photosKey = JSON.stringify(s.photos);
  if (photosKey !== shownPhotos) {
    shownPhotos = photosKey;
    drawPhotos($('photos'), s.photos);
  }
  const paletteKey = JSON.stringify(s.palette);
  if (paletteKey !== shownPalette) {
    shownPalette = paletteKey;
    drawPalette();
  }
}

// How a run ended, in the words the daemon's log and the command line use.
function outcomeWords(outcome, abandoned) {
  const words = { already_solved: 'already solved', estopped: 'e-stopped', waiting: 'waiting for Resume', unverified: 'unverified: look at the cube' }[outcome] || outcome || 'running';
  return abandoned ? words + ', abandoned (reset)' : words;
}

function log(message, atMs) {
  const list = $('log');
  const when = atMs ? new Date(atMs) : new Date();
  const line = wordsEl('li', '', message);
  line.insertBefore(document.createTextNode(when.toLocaleTimeString() + '  '), line.firstChild);
  list.insertBefore(line, list.firstChild);
  while (list.childElementCount > 24) list.removeChild(list.lastChild);
}

let backoff = 500;
// Whether the daemon answered last (its status is what the page shows).
let reachable = true;

// The daemon gone: what the page last heard is no state to act on. Only the e-stop stays (it
// says, if pressed, to use the robot's own button).
function showUnreachable() {
  if (!reachable) return;
  reachable = false;
  $('state').textContent = 'no connection';
  $('state').className = 'state unknown';
  putWords($('message'), 'the daemon cannot be reached: what is shown below is from before; if the robot must stop, press its own emergency stop button');
  for (const id of ['start', 'stop', 'resume', 'reset', 'calibrate']) $(id).disabled = true;
}

function connect() {
  const ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + withToken('/api/events'));
  ws.addEventListener('open', () => {
    backoff = 500;
    $('log').textContent = ''; // the daemon sends its last lines first
    $('conn').textContent = 'live';
    $('conn').className = 'conn';
    loadHistory();
  });
  ws.addEventListener('message', (m) => {
    let event;
    try { event = JSON.parse(m.data); } catch (e) { return; }
    if (event.type === 'status') render(event);
    else if (event.type === 'log') log(event.message, event.at_ms);
    else if (event.type === 'run_finished') {
      log('run ' + event.run + ' finished: ' + outcomeWords(event.outcome, event.abandoned), event.at_ms);
      loadHistory();
    }
  });
  ws.addEventListener('close', () => {
    $('conn').textContent = 'no connection to the daemon; retrying in ' + seconds(backoff);
    $('conn').className = 'conn down';
    showUnreachable();
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 10000);
  });
}

// ---- History --------------------------------------------------------------

const when = (ms) => (ms ? new Date(ms).toLocaleString() : '');

async function loadHistory() {
  let runs;
  try {
    runs = await api('GET', '/api/runs?limit=50');
  } catch (e) {
    $('history-status').textContent = 'run history unavailable: ' + e.message;
    return;
  }
  $('history-status').textContent = runs.length ? '' : 'no runs yet';
  $('runs-scroll').hidden = !runs.length;
  const body = $('runs').tBodies[0];
  body.textContent = '';
  for (const r of runs) {
    const row = el('tr', 'run-row');
    row.dataset.outcome = r.outcome || 'running';
    row.dataset.run = r.id;
    // The run's number is a link to its record's address (to copy or share).
    const link = el('a', '', r.id);
    link.href = '#run-' + r.id;
    row.appendChild(el('td')).appendChild(link);
    const cells = [['', when(r.started_ms)], ['', r.source], ['', r.cube || ''],
      ['outcome', outcomeWords(r.outcome, r.abandoned)], ['', r.moves ?? '']];
    for (const [cls, text] of cells) row.appendChild(el('td', cls, text));
    row.appendChild(wordsEl('td', '', r.error || ''));
    row.addEventListener('click', (e) => {
      if (!e.target.closest('a')) location.hash = 'run-' + r.id; // the link goes there itself
    });
    body.appendChild(row);
  }
}

let runAsked = 0; // counts the records asked for, so that only the last one asked is shown

// Shows run `id`'s record below the list (the page at #run-ID).
async function showRun(id) {
  const box = $('run-detail');
  const asked = ++runAsked;
  let d;
  try {
    d = await api('GET', '/api/runs/' + id);
  } catch (e) {
    if (asked === runAsked) showError('run ' + id + ': ' + e.message);
    return;
  }
  if (asked !== runAsked) return; // the address moved on meanwhile
  box.textContent = '';
  box.hidden = false;
  const close = box.appendChild(el('button', 'small-btn close', 'close'));
  close.type = 'button';
  close.addEventListener('click', () => { location.hash = 'history'; });
  const s = d.summary;
  const heading = box.appendChild(el('h2', '', 'Run ' + s.id + ': ' + outcomeWords(s.outcome, s.abandoned)));
  box.appendChild(wordsEl('p', 'small', 'started ' + when(s.started_ms) + (s.finished_ms ? ', finished ' + when(s.finished_ms) : '') +
    ' · from ' + s.source + (s.cube ? ' · ' + s.cube : '') + (s.moves != null ? ' · ' + s.moves + ' moves' : '') + (s.error ? ' · ' + s.error : '')));
  // Each interruption (e-stop, fault, lost link, firmware restart) and how the run went on.
  for (const i of d.interruptions || []) {
    // A Reset abandons the run: recorded as the interruption's end "by" abandoned.
    const after = !i.resumed_ms ? (i.waiting ? 'waiting: press Resume, or Reset to abandon the run' : 'not resumed')
      : i.resumed_by === 'abandoned' ? 'abandoned (reset) ' + when(i.resumed_ms)
        : i.resumed_by === 'rebooted' ? 'back ' + when(i.resumed_ms) + ', to a restarted firmware (below)'
        : 'resumed ' + when(i.resumed_ms) + ' (' + i.resumed_by + ')';
    box.appendChild(wordsEl('p', 'notice interruption', 'interrupted ' + when(i.at_ms) + ' (' + i.cause + '): ' + i.advice + ' · ' + after));
  }
  for (const scan of d.scans) {
    box.appendChild(el('h3', '', scan.label || 'round ' + scan.attempt));
    if (scan.error) box.appendChild(wordsEl('p', 'notice', scan.error));
    if (scan.error && scan.facelets) box.appendChild(el('p', 'small', 'best guess, not given:'));
    drawPhotos(box.appendChild(el('div', 'photos')), scan.images, prunedWords(d.photos_pruned), true);
    if ((scan.earlier || []).length) {
      // The photos this scan took again (stickers in doubt): what the camera first saw.
      const earlier = box.appendChild(el('p', 'small earlier', 'taken again, the earlier takes: '));
      scan.earlier.forEach((p, i) => {
        if (i) earlier.appendChild(document.createTextNode(', '));
        const link = earlier.appendChild(el('a', '', p.face + ' take ' + p.take));
        link.href = withToken(p.url);
        link.target = '_blank';
      });
    }
    drawNet(box.appendChild(el('div', 'net-box')), scan.facelets, { empty: 'the cube was not read' });
  }
  for (const sol of d.solutions) {
    const line = box.appendChild(el('p', 'moves', (sol.label || 'round ' + sol.attempt) + ' (' + sol.moves + ' moves, planned ' +
      (sol.planned_ms / 1000).toFixed(1) + ' s): '));
    drawMoves(line.appendChild(el('span')), sol.solution.split(' ').filter(Boolean));
  }
  if (d.steps.length) {
    const table = box.appendChild(el('table'));
    table.appendChild(el('tr')).append(el('th', '', 'step'), el('th', '', 'of'), el('th', '', 's'));
    for (const st of d.steps) {
      table.appendChild(el('tr')).append(el('td', '', st.name), el('td', '', st.label || 'round ' + st.attempt), el('td', '', (st.ms / 1000).toFixed(1)));
    }
  }
  // The record opens below the list: brought into view, and read out from its heading.
  heading.tabIndex = -1;
  box.scrollIntoView({ block: 'start' });
  heading.focus({ preventScroll: true });
}

// ---- Colours and calibration ----------------------------------------------

function drawPalette() {
  const box = $('palette');
  box.textContent = '';
  for (const c of (status && status.palette) || []) {
    const sw = box.appendChild(el('div', 'swatch'));
    sw.appendChild(el('span', 'chip')).style.background = c.rgb;
    sw.appendChild(el('span', '', c.name + ' · ' + c.symbol + ' · face ' + c.face));
  }
}

let calibrating = false; // a calibration asked for and not yet answered

async function calibrate() {
  $('calibration').textContent = 'calibrating…';
  calibrating = true;
  $('calibrate').disabled = true;
  const doc = await act('POST', '/api/calibrate');
  calibrating = false;
  if (status) render(status);
  $('calibration').textContent = '';
  if (!doc) return;
  const table = $('calibration').appendChild(el('table'));
  table.appendChild(el('tr')).append(el('th', '', 'colour'), el('th', '', 'ΔE before'), el('th', '', 'ΔE after'));
  doc.palette.forEach((c, i) => {
    table.appendChild(el('tr')).append(el('td', '', c.name),
      el('td', '', (doc.before[i] ?? NaN).toFixed(1)), el('td', '', (doc.after[i] ?? NaN).toFixed(1)));
  });
  $('calibration').appendChild(el('p', 'small', 'saved to ' + doc.saved_to));
}

// ---- Guide mode -----------------------------------------------------------

async function guideSolve() {
  const facelets = $('guide-input').value.replace(/\s+/g, '');
  // Not asked twice while the first answer is on its way (a 2x2's tables may be built first).
  $('guide-solve').disabled = true;
  const doc = await act('POST', '/api/guide', { facelets }).finally(() => { $('guide-solve').disabled = false; });
  if (!doc) {
    // Refused: an earlier cube's steps would look like this one's answer.
    guideDoc = null;
    $('guide-steps').hidden = true;
    return;
  }
  guideDoc = doc;
  guideAt = 0;
  $('guide-steps').hidden = false;
  renderGuide();
  // The keys step through it from here (← →, or Enter on Next).
  if (!$('guide-next').disabled) $('guide-next').focus();
}

function renderGuide() {
  if (!guideDoc) return;
  const n = guideDoc.solution.length;
  const i = guideAt;
  // Before the first turn: how to hold the cube (a 2x2 by the corner that never moves).
  const hold = i === 0 && guideDoc.hold ? guideDoc.hold + '; then ' : '';
  $('guide-step').textContent = n === 0 ? 'already solved'
    : i < n ? hold + 'step ' + (i + 1) + ' of ' + n + ': ' + guideDoc.solution[i] + ' (' + guideDoc.woolley[i] + ')'
        + (guideDoc.words && guideDoc.words[i] ? ': ' + guideDoc.words[i] : '')
      : 'solved after ' + n + ' steps';
  $('guide-prev').disabled = i === 0;
  $('guide-next').disabled = i >= n;
  drawMoves($('guide-moves'), guideDoc.solution.map((m, k) => m + ' (' + guideDoc.woolley[k] + ')'), i);
  drawNet($('guide-net'), guideDoc.states[i], {
    view: $('guide-view').value, turning: i < n ? guideDoc.solution[i][0] : null, labels: true, large: true,
    faces: guideDoc.faces,
  });
}

function guideStep(delta) {
  if (!guideDoc) return;
  guideAt = Math.max(0, Math.min(guideDoc.solution.length, guideAt + delta));
  renderGuide();
}

// ---- Wiring ---------------------------------------------------------------

// The page's addresses: #robot, #history, #guide, #colours (a tab, each a link), and #run-12
// (run 12's record, in History), so a person can bookmark or share one. No element has one of
// these ids, so following one never scrolls the page. Anything else is the robot's panel.
const TABS = ['robot', 'history', 'guide', 'colours'];

function addressed() {
  let address = location.hash.slice(1);
  try { address = decodeURIComponent(address); } catch (e) { /* as typed */ }
  const run = /^run-(\d+)$/.exec(address);
  return { tab: run ? 'history' : TABS.includes(address) ? address : 'robot', run: run ? Number(run[1]) : null };
}

// Shows tab `tab` (its panel, the tab marked open).
function showTab(tab) {
  for (const b of document.querySelectorAll('.tab')) {
    const open = b.dataset.tab === tab;
    b.classList.toggle('active', open);
    if (open) b.setAttribute('aria-current', 'page');
    else b.removeAttribute('aria-current');
  }
  for (const p of document.querySelectorAll('.panel')) p.hidden = p.id !== tab + '-panel';
}

// Shows what the address names, with its data: the tab, and in History the run's record.
function followAddress() {
  const { tab, run } = addressed();
  showTab(tab);
  if (tab === 'history') loadHistory();
  if (run !== null) {
    showRun(run);
  } else {
    runAsked++; // a record still on its way is not shown
    $('run-detail').hidden = true;
  }
}

document.addEventListener('DOMContentLoaded', () => {
  // The tabs are links to their addresses: following one (a click, back, forward, or an address
  // typed) changes the fragment.
  window.addEventListener('hashchange', followAddress);
  showTab(addressed().tab);
  $('start').addEventListener('click', () => act('POST', '/api/start'));
  $('stop').addEventListener('click', () => act('POST', '/api/stop'));
  $('estop').addEventListener('click', async () => {
    try {
      await api('POST', '/api/estop');
      clearError();
    } catch (e) {
      // Not taken by a daemon that cannot be reached: the robot's own button is the way.
      const unreached = e.message.startsWith('cannot reach the daemon');
      showError(e.message + (unreached ? ': the robot did not stop; press its own emergency stop button' : ''));
    }
  });
  $('reset').addEventListener('click', () => act('POST', '/api/reset'));
  $('resume').addEventListener('click', () => act('POST', '/api/resume'));
  $('error-close').addEventListener('click', clearError);
  $('history-refresh').addEventListener('click', loadHistory);
  $('calibrate').addEventListener('click', calibrate);
  $('guide-solve').addEventListener('click', guideSolve);
  $('guide-input').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      guideSolve();
    }
  });
  $('guide-next').addEventListener('click', () => guideStep(1));
  $('guide-prev').addEventListener('click', () => guideStep(-1));
  $('guide-view').addEventListener('change', renderGuide);
  $('guide-last').addEventListener('click', () => {
    if (status && status.facelets) $('guide-input').value = status.facelets;
    else showError('there is no scan yet: let the robot read a cube, or type the stickers');
  });
  document.addEventListener('keydown', (e) => {
    if ($('guide-panel').hidden || ['TEXTAREA', 'INPUT', 'SELECT'].includes(e.target.tagName)) return;
    if (e.key === 'ArrowRight') guideStep(1);
    else if (e.key === 'ArrowLeft') guideStep(-1);
  });
  $('token-form').addEventListener('submit', takeToken);
  begin();
});
