// What this browser chose (kept in its localStorage, so it survives a reload): the table's
// colour, the card backs, larger cards, the left-handed layout, and the way Klondike is
// scored; and the Vegas bank, which adds up the Vegas scores of the deals played here.
const KEY = "cardtable.settings";
const BANK_KEY = "cardtable.vegas";
const BANK_TABLES = 200;  // the open deals the bank keeps apart; older ones are folded into its sum

// Each table colour: its felt and the darker edge. White text and the focus ring stay at
// least 4.5:1 on the edge colour and 3:1 on the felt (the colours were chosen for it).
export const FELTS = {
  green: ["Green", "#1f6b43", "#17543a"],
  blue: ["Blue", "#1d4f86", "#163c66"],
  red: ["Red", "#7d2430", "#5e1a24"],
  grey: ["Grey", "#44484f", "#30343a"],
  purple: ["Purple", "#4b2f77", "#37225a"],
};
// Card backs: the game's own colour, or one of these.
export const BACKS = {
  game: ["The game's own", null],
  blue: ["Blue", "#2a4d9b"],
  red: ["Red", "#a3242f"],
  green: ["Green", "#2f7d4f"],
  black: ["Black", "#2b2b2b"],
};
export const SIZES = { normal: "Normal", large: "Larger" };
const DEFAULTS = { felt: "green", back: "game", size: "normal", hand: "right", scoring: {} };

export function settings() {
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem(KEY) || "{}") || {}; } catch { saved = {}; }
  const out = { ...DEFAULTS, ...saved, scoring: { ...(saved.scoring || {}) } };
  if (!FELTS[out.felt]) out.felt = DEFAULTS.felt;
  if (!BACKS[out.back]) out.back = DEFAULTS.back;
  if (!SIZES[out.size]) out.size = DEFAULTS.size;
  if (!["left", "right"].includes(out.hand)) out.hand = DEFAULTS.hand;
  return out;
}

export function choose(changes) {
  const next = { ...settings(), ...changes };
  localStorage.setItem(KEY, JSON.stringify(next));
  applyTheme(next);
  return next;
}

// The page's colours follow the chosen felt (CSS variables on the root element).
export function applyTheme(s = settings()) {
  const [, felt, edge] = FELTS[s.felt];
  const root = document.documentElement;
  root.style.setProperty("--felt", felt);
  root.style.setProperty("--felt-dark", edge);
  root.dataset.felt = s.felt;
  root.dataset.size = s.size;
  root.dataset.hand = s.hand;
}

// The scoring chosen for a game (by name), among the game's scorings (the first by default).
export function chosenScore(table) {
  const all = table.scores || [];
  const name = settings().scoring[table.game];
  return all.find((s) => s.name === name) || all[0] || null;
}

// --- the Vegas bank ------------------------------------------------------------------------------
// Every deal shown here under a scoring with a bank counts its score once, as it stands now:
// the bank is the sum of the deals already folded in and the latest score of each open deal
// (a deal costs its $52 as soon as it is dealt). A deal restarted is folded in first, so the
// restart is a new deal that costs again.

function bankData() {
  try {
    const data = JSON.parse(localStorage.getItem(BANK_KEY) || "{}");
    return { sum: Number(data.sum) || 0, tables: data.tables && typeof data.tables === "object" ? data.tables : {},
      order: Array.isArray(data.order) ? data.order : [], done: Array.isArray(data.done) ? data.done : [] };
  } catch { return { sum: 0, tables: {}, order: [], done: [] }; }
}

function saveBank(data) { localStorage.setItem(BANK_KEY, JSON.stringify(data)); }

export function bank() {
  const data = bankData();
  return data.sum + Object.values(data.tables).reduce((a, b) => a + Number(b || 0), 0);
}

export function noteScore(tableId, value, ended) {
  // `ended`: the deal's score can no longer change (won, or left): it is folded into the sum.
  const data = bankData();
  if ((data.done || []).includes(tableId)) return;
  if (!(tableId in data.tables)) data.order.push(tableId);
  data.tables[tableId] = value;
  if (ended) {  // a finished deal's score no longer changes: fold it in
    data.sum += value; delete data.tables[tableId]; data.order = data.order.filter((id) => id !== tableId);
    data.done = [...(data.done || []), tableId].slice(-BANK_TABLES);
  }
  while (data.order.length > BANK_TABLES) {
    const old = data.order.shift();
    data.sum += Number(data.tables[old] || 0); delete data.tables[old];
  }
  saveBank(data);
}

export function restarted(tableId) {
  // A deal restarted: its score so far stays in the bank, and the deal dealt again costs again.
  const data = bankData();
  if (tableId in data.tables) {
    data.sum += Number(data.tables[tableId] || 0);
    delete data.tables[tableId];
    data.order = data.order.filter((id) => id !== tableId);
  }
  data.done = (data.done || []).filter((id) => id !== tableId);
  saveBank(data);
}

export function resetBank() { saveBank({ sum: 0, tables: {}, order: [], done: [] }); }
