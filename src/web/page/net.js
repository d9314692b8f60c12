// cubed's page: the cube drawn as a net (live, in a run's record and in the guide), the photos
// with the stickers read on them, and the moves of a solution. Served after app.js, as one script.

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
