// The card art: every face and back drawn as SVG in code (nothing fetched), by card family
// (a face's `kind`, as the server sends it: french, kings-keys, deserto; another family is
// drawn as its text); a back in the colour the table names (its `back`).
// Cards overlap in fanned piles, so what tells a card apart (rank and suit, number and
// item, kind) sits in its top strip, large enough to read at 28 px wide.
export const CARD_RATIO = 1.4; // height / width: a viewBox of 100 x 140

const RANKS = ["", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RANK_NAMES = ["", "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king"];
const SUITS = { C: ["♣", "#1b1b1b", "clubs"], D: ["♦", "#c8102e", "diamonds"], H: ["♥", "#c8102e", "hearts"], S: ["♠", "#1b1b1b", "spades"] };
const COURTS = { 11: "J", 12: "Q", 13: "K" };
// Each colour: band, tint, ink, its name, its kingdom, and the colour of the number on the band
// (at least 4.5:1 against it: dark on the yellow band, white on the others).
const KK_COLOURS = { Y: ["#f2c230", "#fff7d6", "#6b5200", "yellow", "sun", "#1d1d1b"], R: ["#b3261e", "#fde3de", "#7a1608", "red", "mountain", "#ffffff"], G: ["#2e7d32", "#e2f3e3", "#174d1e", "green", "forest", "#ffffff"], B: ["#2f6fc4", "#e0ebfa", "#0e3366", "blue", "ocean", "#ffffff"] };
const KK_ITEMS = { K: "keys", A: "axes", S: "shields", C: "coins" };
const DESERT = { O: ["Oasis", "#cdeef5", "#1f6f80"], V: ["Vizier", "#eadcf7", "#5b2a86"], T: ["Thief", "#e1e1e1", "#2b2b2b"], G: ["Treasure", "#fbe9a6", "#8a5a00"] };

const svg = (body) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 140" width="100%" height="100%">${body}</svg>`;
const frame = (fill = "#fffdf7", stroke = "#5a5a5a", width = 1.5) =>
  `<rect x="1" y="1" width="98" height="138" rx="8" fill="${fill}" stroke="${stroke}" stroke-width="${width}"/>`;
const text = (x, y, size, colour, value, anchor = "start", weight = 700, font = "Georgia, 'DejaVu Serif', serif") =>
  `<text x="${x}" y="${y}" font-size="${size}" font-family="${font}" font-weight="${weight}" fill="${colour}" text-anchor="${anchor}">${value}</text>`;

// The four King's Keys items, each drawn in a 40 x 40 box.
const ITEM_SHAPES = {
  K: (c) => `<circle cx="11" cy="20" r="7.5" fill="none" stroke="${c}" stroke-width="4"/><path d="M18 20h19M31 20v8M36 20v6" stroke="${c}" stroke-width="4" fill="none" stroke-linecap="round"/>`,
  A: (c) => `<path d="M9 37L27 8" stroke="${c}" stroke-width="4" stroke-linecap="round"/><path d="M22 5c9-1 16 6 15 15c-7 1-13-3-17-9z" fill="${c}"/>`,
  S: (c) => `<path d="M20 3l15 5v11c0 9-6 15-15 19c-9-4-15-10-15-19V8z" fill="${c}"/><path d="M20 10v21M12 18h16" stroke="#fff" stroke-width="3"/>`,
  C: (c) => `<circle cx="20" cy="20" r="16" fill="${c}"/><circle cx="20" cy="20" r="10" fill="none" stroke="#fff" stroke-width="2.5"/><text x="20" y="25" font-size="13" text-anchor="middle" fill="#fff" font-family="system-ui, sans-serif" font-weight="700">$</text>`,
};
const item = (key, colour, x, y, scale) => `<g transform="translate(${x} ${y}) scale(${scale})">${ITEM_SHAPES[key](colour)}</g>`;

// The four emblems of the desert cards (oasis, vizier, thief, treasure), in a 60 x 60 box.
const EMBLEMS = {
  O: (c) => `<path d="M30 58V26" stroke="#7a4b1c" stroke-width="5"/><path d="M30 26C22 14 10 14 4 20C14 18 22 20 30 26C24 12 30 4 40 2C34 10 32 18 30 26C38 16 50 16 56 22C46 20 38 22 30 26" fill="${c}"/><ellipse cx="30" cy="58" rx="24" ry="4" fill="#4fb3c8"/>`,
  V: (c) => `<ellipse cx="30" cy="16" rx="16" ry="10" fill="${c}"/><circle cx="30" cy="12" r="3" fill="#f2c94c"/><circle cx="30" cy="30" r="9" fill="#d9a77a"/><path d="M12 60c0-14 8-22 18-22s18 8 18 22z" fill="${c}"/>`,
  T: (c) => `<circle cx="30" cy="22" r="14" fill="${c}"/><rect x="16" y="17" width="28" height="7" rx="3" fill="#f4f4f4"/><circle cx="24" cy="20.5" r="2" fill="${c}"/><circle cx="36" cy="20.5" r="2" fill="${c}"/><path d="M12 60c0-13 8-21 18-21s18 8 18 21z" fill="${c}"/><path d="M44 34l12-12" stroke="#9aa" stroke-width="3"/>`,
  G: (c) => `<rect x="6" y="24" width="48" height="30" rx="3" fill="${c}"/><path d="M6 24c0-12 48-12 48 0z" fill="#b07a1a"/><rect x="26" y="30" width="8" height="10" fill="#f2c94c"/><circle cx="16" cy="18" r="3" fill="#e23"/><circle cx="44" cy="17" r="3" fill="#2a6"/><circle cx="30" cy="12" r="3" fill="#36c"/>`,
};

function french(face) {
  const [symbol, colour] = SUITS[face.suit];
  const rank = RANKS[face.rank];
  let centre;
  if (COURTS[face.rank]) {
    centre = `<rect x="20" y="44" width="60" height="80" rx="4" fill="none" stroke="${colour}" stroke-width="2"/>` +
      text(50, 98, 44, colour, COURTS[face.rank], "middle") + text(50, 118, 20, colour, symbol, "middle", 400, "'DejaVu Sans', sans-serif");
  } else {
    centre = text(50, 110, face.rank === 1 ? 64 : 50, colour, symbol, "middle", 400, "'DejaVu Sans', sans-serif");
  }
  // The rank in the card's first 30 units (of 100), what a fanned waste leaves in view: a 10 is narrowed to fit.
  const fit = rank.length > 1 ? ` textLength="25" lengthAdjust="spacingAndGlyphs"` : "";
  const rankText = `<text class="rank" x="4" y="32" font-size="${rank.length > 1 ? 30 : 34}" font-family="'DejaVu Sans', system-ui, sans-serif" font-weight="700" fill="${colour}"${fit}>${rank}</text>`;
  return svg(frame() + rankText +
    text(96, 32, 32, colour, symbol, "end", 400, "'DejaVu Sans', sans-serif") + centre);
}

function kingsKeys(face) {
  const [band, tint, ink, , kingdom, number] = KK_COLOURS[face.colour];
  return svg(frame(tint, band, 6) +
    `<rect x="4" y="4" width="92" height="34" rx="5" fill="${band}"/>` +
    `<text class="number" x="8" y="34" font-size="34" font-family="'DejaVu Sans', system-ui, sans-serif" font-weight="800" fill="${number}">${face.number}</text>` +
    item(face.item, number, 54, 7, 0.72) +
    item(face.item, ink, 22, 50, 1.4) +
    text(50, 130, 13, ink, `${kingdom} · ${face.colour}`, "middle", 600, "system-ui, sans-serif"));
}

function desert(face) {
  const [name, tint, ink] = DESERT[face.text];
  return svg(frame(tint, ink, 2) + text(6, 32, 32, ink, face.text, "start", 800, "'DejaVu Sans', system-ui, sans-serif") +
    `<g transform="translate(20 42)">${EMBLEMS[face.text](ink)}</g>` + text(50, 126, 15, ink, name, "middle", 700, "system-ui, sans-serif"));
}

const escapeText = (s) => String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function plain(face) {
  // A card of a family this page has no art for: its text, large.
  return svg(frame() + text(50, 84, 36, "#1b1b1b", escapeText(face.text), "middle", 700, "'DejaVu Sans', system-ui, sans-serif"));
}

// The art of each card family, and the words a screen reader says for a card of it.
const FAMILIES = {
  french: [french, (face) => `${RANK_NAMES[face.rank]} of ${SUITS[face.suit][2]}`],
  "kings-keys": [kingsKeys, (face) => `${KK_COLOURS[face.colour][3]} ${face.number} of ${KK_ITEMS[face.item]}`],
  deserto: [desert, (face) => DESERT[face.text][0].toLowerCase()],
};
const family = (face) => FAMILIES[face.kind] || [plain, (f) => f.text];

const cache = new Map();

export function cardSVG(face) {
  const key = `${face.kind}:${face.text}`;
  if (!cache.has(key)) cache.set(key, family(face)[0](face));
  return cache.get(key);
}

export function backSVG(colour = "#2a4d9b") {
  const key = `back:${colour}`;
  if (!cache.has(key)) {
    const id = `in-${colour.replace(/[^0-9a-z]/gi, "")}`;
    let lattice = "";
    for (let i = -140; i < 100; i += 12) lattice += `M${i} 8L${i + 132} 140M${i + 140} 8L${i + 8} 140`;
    cache.set(key, svg(frame(colour, "#fff", 2) +
      `<rect x="7" y="7" width="86" height="126" rx="5" fill="none" stroke="#ffffff88" stroke-width="1.5"/>` +
      `<clipPath id="${id}"><rect x="9" y="9" width="82" height="122" rx="4"/></clipPath>` +
      `<path d="${lattice}" stroke="#ffffff40" stroke-width="1.6" clip-path="url(#${id})"/>`));
  }
  return cache.get(key);
}

export function cardLabel(face) {
  return family(face)[1](face);
}
