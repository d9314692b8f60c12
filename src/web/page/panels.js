// cubed's page: the History, Colours and Guide panels (a run's record, calibration, solving by
// hand). Served after app.js and net.js, as one script.

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
    // The outcome first after the number: on a phone the table scrolls, and it matters most.
    const cells = [['outcome', outcomeWords(r.outcome, r.abandoned)], ['', when(r.started_ms)], ['', r.source],
      ['', r.cube || ''], ['', r.moves ?? '']];
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
  const interruptions = d.interruptions || [];
  interruptions.forEach((i, n) => {
    // A Reset abandons the run: recorded as the interruption's end "by" abandoned; an e-stop
    // pressed while the run waited for its link ends it there (the next one overtakes it).
    const next = interruptions[n + 1];
    const after = !i.resumed_ms ? (i.waiting ? 'waiting: press Resume, or Reset to abandon the run'
      : next ? 'overtaken by the next interruption (' + next.cause + ')' : 'not resumed')
      : i.resumed_by === 'abandoned' ? 'abandoned (reset) ' + when(i.resumed_ms)
        : i.resumed_by === 'rebooted' ? 'back ' + when(i.resumed_ms) + ', to a restarted firmware (below)'
        : 'resumed ' + when(i.resumed_ms) + ' (' + i.resumed_by + ')';
    box.appendChild(wordsEl('p', 'notice interruption', 'interrupted ' + when(i.at_ms) + ' (' + i.cause + '): ' + i.advice + ' · ' + after));
  });
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
    drawNet(box.appendChild(el('div', 'net-box')), scan.facelets, { empty: unreadWords(s) });
  }
  if (d.calibration) {
    box.appendChild(el('h3', '', 'calibration'));
    drawCalibration(box.appendChild(el('div', 'calibration')), d.calibration);
  }
  for (const sol of d.solutions) {
    const line = box.appendChild(el('p', 'moves', (sol.label || 'round ' + sol.attempt) + ' (' + sol.moves + ' moves, planned ' +
      (sol.planned_ms / 1000).toFixed(1) + ' s): '));
    drawMoves(line.appendChild(el('span')), sol.solution.split(' ').filter(Boolean));
  }
  if (d.steps.length) {
    const table = box.appendChild(el('table'));
    table.appendChild(el('tr')).append(el('th', '', 'step'), el('th', '', 'round'), el('th', '', 'seconds'));
    for (const st of d.steps) {
      table.appendChild(el('tr')).append(el('td', '', st.name), el('td', '', st.label || 'round ' + st.attempt), el('td', '', (st.ms / 1000).toFixed(1)));
    }
    const total = d.steps.reduce((sum, st) => sum + st.ms, 0);
    table.appendChild(el('tr', 'total')).append(el('td', '', 'in all'), el('td'), el('td', '', (total / 1000).toFixed(1)));
  }
  // The record opens below the list: brought into view, and read out from its heading.
  heading.tabIndex = -1;
  box.scrollIntoView({ block: 'start' });
  heading.focus({ preventScroll: true });
}

// Why a scan of run `s` has no cube, in `cubed history`'s words.
function unreadWords(s) {
  if (s.source === 'calibration') return CALIBRATION_PHOTOS;
  return s.outcome == null ? 'not read yet (the run is under way)' : 'not read (the run stopped before it was)';
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
  if (doc) drawCalibration($('calibration'), doc);
}

// The Colours tab's calibration after a reload, or one made elsewhere (`cubed calibrate` on
// the daemon, another page): the newest that succeeded, with its run.
async function loadLastCalibration() {
  let last;
  try {
    last = await api('GET', '/api/calibration');
  } catch (e) {
    if (!calibrating) $('calibration').textContent = 'the last calibration: ' + e.message;
    return;
  }
  if (calibrating || !last) return; // the answer to this page's Calibrate is drawn by it
  const box = $('calibration');
  box.textContent = '';
  const heading = box.appendChild(el('p', 'small', 'the last calibration: '));
  const link = heading.appendChild(el('a', '', 'run ' + last.run));
  link.href = '#run-' + last.run;
  if (last.finished_ms) heading.appendChild(document.createTextNode(', ' + when(last.finished_ms)));
  drawCalibration(box, last.calibration);
}

// What a calibration made (`doc`, as POST /api/calibrate answers it): each colour's ΔE00 before
// and after, what the figures mean, what to mend, and where the palette was saved.
function drawCalibration(box, doc) {
  const table = box.appendChild(el('table', 'calibration-table'));
  table.appendChild(el('tr')).append(el('th', '', 'colour'), el('th', '', 'ΔE00 before'), el('th', '', 'ΔE00 after'));
  doc.palette.forEach((c, i) => {
    table.appendChild(el('tr')).append(el('td', '', c.name),
      el('td', '', (doc.before[i] ?? NaN).toFixed(1)), el('td', '', (doc.after[i] ?? NaN).toFixed(1)));
  });
  box.appendChild(el('p', 'small', 'ΔE00: how far each colour\'s stickers are, on average, ' +
    'from the old and the new reference colour (about 1 is just noticeable; under 3 is a close match). ' +
    'A large "before" says the old palette no longer fitted this light or camera; the new one is used from now on.'));
  // What to mend before the palette is trusted (uneven light, a mirroring camera, a lamp too bright).
  for (const warning of doc.warnings || []) box.appendChild(wordsEl('p', 'notice', warning));
  box.appendChild(el('p', 'small', 'saved to ' + doc.saved_to));
}

// ---- Guide mode -----------------------------------------------------------

// Whether `facelets` (54 or 24 symbols, URFDLB) is a solved cube: each face one colour.
function isSolvedCube(facelets) {
  const per = facelets.length / 6;
  for (let f = 0; f < 6; f++) {
    const face = facelets.slice(f * per, (f + 1) * per);
    if ([...face].some((c) => c !== face[0])) return false;
  }
  return true;
}

// The last cube the robot read that was not solved (a run's first scan, or a rescan after a
// slipped turn or a resumption): what a person would solve by hand. A solved run's check
// scan is no use to them, so the runs before are looked through, newest first.
async function lastUnsolvedScan() {
  if (status && status.facelets && !status.facelets_guessed && !isSolvedCube(status.facelets)) {
    return status.facelets;
  }
  const runs = await api('GET', '/api/runs?limit=20');
  for (const r of runs) {
    const d = await api('GET', '/api/runs/' + r.id);
    const read = d.scans.filter((s) => s.facelets && !s.error && !isSolvedCube(s.facelets));
    if (read.length) return read[read.length - 1].facelets;
  }
  return null;
}

// The Guide's "Use the last scan": the last cube the robot read unsolved, typed in.
async function useLastScan() {
  let facelets;
  try {
    facelets = await lastUnsolvedScan();
  } catch (e) {
    showError('the last scan: ' + e.message);
    return;
  }
  if (facelets) $('guide-input').value = facelets;
  else showError('no scan of an unsolved cube yet: let the robot read one, or type the stickers');
}

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
