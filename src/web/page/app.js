// cubed: the robot's page. Plain JS, no build step, nothing loaded from elsewhere.
// Live status over the WebSocket /api/events; actions are POSTs to /api/*. This part owns the
// requests, the live status and the wiring; net.js draws the cube, panels.js the other panels
// (the daemon serves the three as one script, /app.js, in that order).
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

// What a calibration's photos are, where a scan's cube would be (`cubed history`'s words).
const CALIBRATION_PHOTOS = 'photographed for calibration (a solved cube: its colours, not a cube to read)';

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
      showConn('this robot needs its access token', 'conn down', false);
      $('token-input').focus();
      return;
    }
  }
  // A token refused before this one said so in place of the connection's state: back to it.
  showConn(connection.text, connection.className);
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

// The event stream's state ('live', 'no connection …'), kept so that a word said in its place
// (a token refused) can give way to it again.
let connection = { text: 'connecting…', className: 'conn' };
function showConn(text, className, kept = true) {
  if (kept) connection = { text, className };
  $('conn').textContent = text;
  $('conn').className = className;
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
  // Not said twice: an idle daemon's message is often the link's problem itself.
  $('link').hidden = link.state === 'open' || !link.problem || s.message.includes(link.problem);
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
  // No ETA while the run waits for its link: nothing moves that it could count down.
  $('progress-eta').textContent = p && busy && s.state !== 'paused' && p.eta_ms > 0 ? 'ETA ' + seconds(p.eta_ms) : '';
  drawMoves($('solution'), s.solution, p ? p.moves_done : 0);
  drawNet($('net'), s.facelets, { empty: s.calibrating_run ? CALIBRATION_PHOTOS : undefined });
  $('net-guess').hidden = !(s.facelets && s.facelets_guessed);
  $('net-unread').hidden = !(s.facelets && s.facelets_unread && !s.facelets_guessed);

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
    showConn('live', 'conn');
    loadHistory();
    loadLastCalibration();
  });
  ws.addEventListener('message', (m) => {
    let event;
    try { event = JSON.parse(m.data); } catch (e) { return; }
    if (event.type === 'status') render(event);
    else if (event.type === 'log') log(event.message, event.at_ms);
    else if (event.type === 'run_finished') {
      log('run ' + event.run + ' finished: ' + outcomeWords(event.outcome, event.abandoned), event.at_ms);
      loadHistory();
      if (event.outcome === 'calibrated') loadLastCalibration();
    }
  });
  ws.addEventListener('close', () => {
    showConn('no connection to the daemon; retrying in ' + seconds(backoff), 'conn down');
    showUnreachable();
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 10000);
  });
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
  $('guide-last').addEventListener('click', useLastScan);
  document.addEventListener('keydown', (e) => {
    if ($('guide-panel').hidden || ['TEXTAREA', 'INPUT', 'SELECT'].includes(e.target.tagName)) return;
    if (e.key === 'ArrowRight') guideStep(1);
    else if (e.key === 'ArrowLeft') guideStep(-1);
  });
  $('token-form').addEventListener('submit', takeToken);
  begin();
});
