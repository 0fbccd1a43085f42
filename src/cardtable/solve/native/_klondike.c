/* The compiled Klondike core: the same depth-first search as cardtable.solve.search.depth_first
 * over cardtable.solve.spaces.KlondikeSpace (whole, cut to its first k children as Pruned does,
 * or restricted as cardtable.solve.spaces.EagerSpace does) or over
 * cardtable.solve.spaces.KlondikeClassSpace (whole or cut), position for position.
 *
 * The pure Python code is the reference; every rule here mirrors a line of it:
 *   - legal moves in the order of Klondike.legal_moves / Klondike.waste_moves,
 *   - the safe move of KlondikeSpace.safe_move,
 *   - the stock arrangements of KlondikeSpace._stock_plays, in their order,
 *   - the edges and scores of KlondikeSpace.children / _score, sorted stably by score,
 *   - the key of KlondikeSpace.key (stock, waste, foundations, redeals used and the
 *     multiset of (pile, face-down count) pairs), stored exactly (no lossy hash), and of
 *     KlondikeClassSpace.key, numbered exactly in one word when the numbers fit (class_number),
 *   - the node counting and budget checks of depth_first.
 *
 * A position is kept as one array of its 52 - (cards on foundations) cards: first the
 * talon T = waste + reversed(stock) (draws and redeals never change T, only where the waste
 * ends in it: p = len(waste)), then the seven tableau piles, bottom first.
 *
 * Python calls search(...) (see its docstring below); cardtable/solve/native/klondike.py is the
 * Python side.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_core.h"

enum { WASTE = 7, STOCK = 8, FOUNDATION = 9 };
enum { MODE_FULL = 0, MODE_PRUNED = 1, MODE_EAGER = 2 };
enum { MAX_USED = 4095 };   /* redeals used fit in two 6-bit key symbols */
enum { KEY_WORDS = 7 };     /* 70 six-bit symbols: at most 3 + 14 + 52 are used */

#define RANK(c) ((c) % 13 + 1)
#define SUIT(c) ((c) / 13)
#define RED(c) (SUIT(c) == 1 || SUIT(c) == 2)
#define KINGS ((uint64_t)1 << 12 | (uint64_t)1 << 25 | (uint64_t)1 << 38 | (uint64_t)1 << 51)

/* The cards that go on card t in a build (one rank lower, the other colour), as a mask. */
static inline uint64_t lower_cards(int t) {
    if (RANK(t) == 1) return 0;
    int r = RANK(t) - 2; /* their rank - 1 */
    return RED(t) ? (uint64_t)1 << r | (uint64_t)1 << (39 + r) : (uint64_t)1 << (13 + r) | (uint64_t)1 << (26 + r);
}

/* The cards a tableau pile with top card `top` takes, as a mask (-1: an empty pile, the kings). */
static inline uint64_t pile_takes(int top) { return top >= 0 ? lower_cards(top) : KINGS; }

typedef struct {
    uint8_t c[52];   /* talon T[0..nt), then piles 0..6 */
    uint8_t nt;      /* talon size (stock + waste) */
    uint8_t p;       /* waste size: the waste is T[0..p), its top T[p-1]; the stock is T[p..nt) reversed */
    uint8_t len[7];  /* pile sizes */
    uint8_t down[7]; /* face-down cards at the bottom of each pile */
    uint8_t found[4];
    uint16_t used;   /* redeals used */
} State;

typedef struct {
    int32_t score;  /* -KlondikeSpace score: lower first */
    uint32_t plen;  /* draws and redeals before the move (stock plays) */
    uint16_t ua;    /* redeals used after those draws and redeals (stock plays) */
    uint8_t src, dst, n;
    uint8_t pa;     /* waste size after those draws and redeals (stock plays) */
    uint8_t ssrc, sdst, sn; /* the switch made first (KlondikeClassSpace), sn cards; sn 0: none */
    uint64_t dkey;  /* the child's class number less its parent's, modulo 2**64 (compact) */
} Edge;

/* A stock play's draws and redeals (_stock_plays): plen of them leave p > 0 cards in the
 * waste, used redeals used; the waste top is then playable. */
typedef struct {
    uint32_t plen;
    uint16_t used;
    uint8_t p;
} Draws;

typedef struct {
    State s;
    uint64_t key; /* the position's class number (compact) */
    size_t e_begin;
    uint32_t e_count, e_next;
} Frame;

typedef struct {
    int draw, limit, freturn, mode;
    int classes; /* KlondikeClassSpace rather than KlondikeSpace */
    int cycle;   /* the class key merges the waste sizes of the stock's cycle (waste_digit) */
    long k;
    Widths widths; /* sample_outcomes: solve's narrow phases (pruned_widths) */
    Seen seen; /* keys of KEY_WORDS words (not compact) */
    /* compact: the class space with classes numbered in one word (class_number), seen1
     * holding the numbers; the weights of the number's digits, and each pile's bottom card
     * at the start (-1: empty) */
    int compact;
    Seen1 seen1;
    uint64_t w_found[4], w_pile[7], w_talon[52], w_waste, w_used;
    int start_bottom[7];
    /* the search path */
    Frame *frames;
    size_t nframes, cap_frames;
    Edge *edges;
    size_t nedges, cap_edges;
    Draws *draws; /* the stock plays of the position being expanded (stock_plays) */
    size_t ndraws, cap_draws;
    uint64_t drawn; /* the cards they bring to the waste top, as a mask */
    uint64_t *ekeys; /* per edge on the stack: its child's hash, then its KEY_WORDS key words;
                      * compact: its child's class number only */
    size_t cap_ekeys;
} Search;

enum { EKEY_WORDS = KEY_WORDS + 1 };

/* The waste size as the class key holds it: KlondikeClassSpace.key's rule. With unlimited
 * redeals (draw 3 here; draw 1 below), the waste sizes the stock's cycle passes through
 * from an empty waste (0, 3, 6, ..., and the whole talon) are one: from each of them draws and redeals reach
 * every other, changing nothing else, and the class space's children of such positions are
 * the same (the same stock plays, each to the same position; the other moves keep the waste
 * size, so their children are again on the cycle). Such a waste size is kept as 0; a waste
 * size off the cycle is kept as it is (never a multiple of 3 nor the talon's size). In draw 1
 * every size is on the cycle (its safe move of the waste top keeps a win, so a class may be
 * searched from any of its positions); limited redeals keep every size. */
static inline int waste_digit(const Search *S, int p, int nt) {
    return S->cycle && (p % S->draw == 0 || p == nt) ? 0 : p;
}

/* --- positions ------------------------------------------------------------------------- */

static void offsets(const State *s, int off[8]) {
    off[0] = s->nt;
    for (int i = 0; i < 7; i++) off[i + 1] = off[i] + s->len[i];
}

/* Take n cards at position pos out of the card array (total size tot) into out. */
static void take(uint8_t *c, int tot, int pos, int n, uint8_t *out) {
    memcpy(out, c + pos, n);
    memmove(c + pos, c + pos + n, tot - pos - n);
}

/* Put n cards in at position pos (the array holds tot cards before). */
static void put(uint8_t *c, int tot, int pos, int n, const uint8_t *in) {
    memmove(c + pos + n, c + pos, tot - pos);
    memcpy(c + pos, in, n);
}

static int total(const State *s) {
    int t = s->nt;
    for (int i = 0; i < 7; i++) t += s->len[i];
    return t;
}

/* Klondike.apply of a move src -> dst of n cards, in place (a waste play after the draws and
 * redeals that leave pa cards in the waste, ua redeals used). */
static void apply_move(State *out, int src, int dst, int n, int pa, int ua) {
    int off[8], tot = total(out);
    uint8_t cards[52];
    if (src == WASTE) {
        n = 1;
        out->p = (uint8_t)pa;
        out->used = (uint16_t)ua;
        take(out->c, tot, pa - 1, 1, cards);
        tot--;
        out->nt--;
        out->p--;
    } else if (src >= FOUNDATION) {
        int suit = src - FOUNDATION;
        n = 1;
        cards[0] = (uint8_t)(suit * 13 + out->found[suit] - 1);
        out->found[suit]--;
    } else {
        int i = src;
        offsets(out, off);
        take(out->c, tot, off[i + 1] - n, n, cards);
        tot -= n;
        out->len[i] -= n;
        if (out->len[i] && out->len[i] == out->down[i]) out->down[i]--;
    }
    if (dst == FOUNDATION) {
        out->found[SUIT(cards[0])]++;
    } else {
        offsets(out, off);
        put(out->c, tot, off[dst + 1], n, cards);
        out->len[dst] += n;
    }
}

/* Klondike.apply of an edge's moves: its switch, if any, then its move. */
static void apply_edge(const State *s, const Edge *e, State *out) {
    *out = *s;
    if (e->sn) apply_move(out, e->ssrc, e->sdst, e->sn, 0, 0);
    apply_move(out, e->src, e->dst, e->n, e->pa, e->ua);
}

static int is_won(const State *s) { return s->found[0] + s->found[1] + s->found[2] + s->found[3] == 52; }

/* The key: six-bit symbols (redeals used low and high, waste size, then the piles in a
 * canonical order as size, face-down count and cards, then the talon), padded with 63,
 * which no card or count makes. The foundations are not stored: the position holds every
 * card exactly once (checked when the search starts), so the cards missing from the array
 * are the foundations' cards. Equal keys <=> equal KlondikeSpace.key.
 * KlondikeClassSpace's key (classes): redeals used, waste size, the four foundations, the
 * piles in the same order as face-down count + 1 (0: empty) and those cards (the face-down
 * cards and the root), then the talon; the hanging cards are the ones left out. At most
 * 3 + 4 + 7 + 52 symbols. Equal keys <=> equal KlondikeClassSpace.key. */
static void make_key(const Search *S, const State *s, uint64_t key[KEY_WORDS]) {
    uint8_t sym[KEY_WORDS * 10];
    int off[8], order[7], bottom[7];
    offsets(s, off);
    for (int i = 0; i < 7; i++) {
        bottom[i] = s->len[i] ? s->c[off[i]] : 64; /* cards are unique: a pile's bottom card names it */
        int j = i;
        while (j > 0 && bottom[order[j - 1]] > bottom[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    int n = 0;
    sym[n++] = s->used & 63;
    sym[n++] = s->used >> 6;
    sym[n++] = (uint8_t)(S->classes ? waste_digit(S, s->p, s->nt) : s->p);
    if (S->classes) {
        memcpy(sym + n, s->found, 4);
        n += 4;
    }
    for (int k = 0; k < 7; k++) {
        int i = order[k];
        if (S->classes) {
            int kept = s->len[i] ? s->down[i] + 1 : 0;
            sym[n++] = (uint8_t)kept;
            memcpy(sym + n, s->c + off[i], kept);
            n += kept;
            continue;
        }
        sym[n++] = s->len[i];
        sym[n++] = s->down[i];
        memcpy(sym + n, s->c + off[i], s->len[i]);
        n += s->len[i];
    }
    /* the talon, the padding, then the symbols packed ten to a word (the first lowest) */
    memcpy(sym + n, s->c, s->nt);
    n += s->nt;
    memset(sym + n, 63, KEY_WORDS * 10 - n);
    for (int w = 0; w < KEY_WORDS; w++) {
        const uint8_t *q = sym + 10 * w;
        uint64_t word = 0;
        for (int j = 9; j >= 0; j--) word = (word << 6) | q[j];
        key[w] = word;
    }
}

/* --- class numbers --------------------------------------------------------------------- */

/* The class space's key as one number (compact), relative to the search's start: face-down
 * cards never move or come back, the piles keep their places in State, and the talon only
 * loses cards, so a class is fixed by
 *   - the foundations (digits 0..13),
 *   - which of the start's talon cards are left (a digit 0..1 each: the talon is the rest in
 *     the start's order) and the waste size (0..start talon size),
 *   - the redeals used (0..limit; with no limit they never change and are left out),
 *   - a digit per pile (pile_digit): its face-down count + 1 while it has face-down cards
 *     (its root is then the card above them, fixed by the count), 1 while its bottom card
 *     is its start's and not a king, else 0 (empty, or a king root).
 * That is every part of the class key: a root that is not a king never moves into an
 * empty pile, so a pile without face-down cards and a root other than a king has its
 * start's bottom card (digit 1); the kings on the tableau that are not such a root, nor
 * the root of a pile with face-down cards, are the roots of the piles of digit 0, the rest
 * of which are empty. So equal numbers are equal classes, and the other way round: the
 * numbering is exact, never a lossy hash. The number is the sum of each digit times its
 * weight; weights are products of the digits' ranges, so the numbers of the start's
 * classes lie below the product of all ranges, and the search is compact only when that
 * is at most UINT64_MAX (Seen1 stores number + 1). A move changes a few digits, so a
 * child's number is its parent's plus class_delta. */

static int pile_digit(const Search *S, const State *s, int i, int bottom) {
    if (s->down[i]) return s->down[i] + 1;
    return s->len[i] && bottom == S->start_bottom[i] && RANK(bottom) != 13;
}

/* The class number of s. */
static uint64_t class_number(const Search *S, const State *s) {
    int off[8];
    offsets(s, off);
    uint64_t k = (uint64_t)waste_digit(S, s->p, s->nt) * S->w_waste + s->used * S->w_used;
    for (int su = 0; su < 4; su++) k += s->found[su] * S->w_found[su];
    for (int t = 0; t < s->nt; t++) k += S->w_talon[s->c[t]];
    for (int i = 0; i < 7; i++) k += (uint64_t)pile_digit(S, s, i, s->len[i] ? s->c[off[i]] : -1) * S->w_pile[i];
    return k;
}

/* Whether the class numbers of a search from start fit one word: if so, the weights. */
static int number_classes(Search *S, const State *start) {
    uint64_t w = 1;
    int off[8];
    offsets(start, off);
#define DIGIT(weight, range)                       \
    do {                                           \
        if (w > UINT64_MAX / (uint64_t)(range))    \
            return 0;                              \
        (weight) = w;                              \
        w *= (uint64_t)(range);                    \
    } while (0)
    for (int su = 0; su < 4; su++) DIGIT(S->w_found[su], 14);
    for (int i = 0; i < 7; i++) {
        S->start_bottom[i] = start->len[i] ? start->c[off[i]] : -1;
        DIGIT(S->w_pile[i], start->down[i] + 2);
    }
    memset(S->w_talon, 0, sizeof S->w_talon);
    for (int t = 0; t < start->nt; t++) DIGIT(S->w_talon[start->c[t]], 2);
    DIGIT(S->w_waste, start->nt + 1);
    S->w_used = 0;
    if (S->limit >= 0) DIGIT(S->w_used, (S->limit > start->used ? S->limit : start->used) + 1);
#undef DIGIT
    return 1;
}

/* The class number of the child of s by the move (src, dst, n) (a waste play after the draws
 * and redeals that leave pa cards in the waste, ua redeals used), less the number of s,
 * modulo 2**64; s is the position the move is made from (after the edge's switch, which
 * keeps the class). Only the class space's moves: a pile move moves a root. */
static uint64_t class_delta(const Search *S, const State *s, int src, int dst, int n, int pa, int ua) {
    uint64_t d = 0;
    int card;
    if (src == WASTE) {
        card = s->c[pa - 1];
        d = (uint64_t)(waste_digit(S, pa - 1, s->nt - 1) - waste_digit(S, s->p, s->nt)) * S->w_waste +
            (uint64_t)(ua - s->used) * S->w_used - S->w_talon[card];
    } else if (src >= FOUNDATION) {
        int su = src - FOUNDATION;
        card = su * 13 + s->found[su] - 1;
        d = -S->w_found[su];
    } else {
        int i = src, base = s->len[i] - n, at = s->nt;
        for (int m = 0; m < i; m++) at += s->len[m];
        card = s->c[at + base];
        if (base == s->down[i]) { /* the root moves: a card is turned up, or the pile is emptied */
            int bottom = s->c[at], after = 0; /* emptied */
            if (s->down[i] > 1) after = s->down[i]; /* one face-down card fewer */
            if (s->down[i] == 1) after = bottom == S->start_bottom[i] && RANK(bottom) != 13; /* all up */
            d = (uint64_t)(after - pile_digit(S, s, i, bottom)) * S->w_pile[i];
        }
    }
    if (dst == FOUNDATION) d += S->w_found[SUIT(card)];
    return d;
}

/* --- children -------------------------------------------------------------------------- */

static Edge *edge_room(Search *S, size_t more) {
    Edge *e = room_for(S->edges, &S->cap_edges, S->nedges + more, sizeof *e, 4096);
    if (!e) return NULL;
    S->edges = e;
    return S->edges + S->nedges;
}

/* Push the edge (sw's switch, if any, then the move) from s (the position after the switch).
 * The child's class number is its parent's plus sw's dkey (0 for a switch, which keeps the
 * class; an emptying move's change for an emptying macro) plus the move's change. */
static int add_edge(Search *S, const State *s, int score, int src, int dst, int n, uint32_t plen, int pa, int ua,
                    const Edge *sw) {
    Edge *e = edge_room(S, 1);
    if (!e) return -1;
    e->ssrc = sw ? sw->src : 0;
    e->sdst = sw ? sw->dst : 0;
    e->sn = sw ? sw->n : 0;
    e->score = score;
    e->src = (uint8_t)src;
    e->dst = (uint8_t)dst;
    e->n = (uint8_t)n;
    e->plen = plen;
    e->pa = (uint8_t)pa;
    e->ua = (uint16_t)ua;
    e->dkey = S->compact ? (sw ? sw->dkey : 0) + class_delta(S, s, src, dst, n, pa, ua) : 0;
    S->nedges++;
    return 0;
}

/* KlondikeClassSpace's emptying macros (KlondikeClassSpace._add_edge): the root run of pile i,
 * which has no face-down card (its bottom is its start's and not a king), moved onto pile j,
 * empties pile i; the class space makes that move only together with each move of a king
 * into pile i that can follow it, in this order: a king root above face-down cards (its
 * run), a king from a foundation (foundation returns), a king the stock can bring up
 * (S->draws, in their order). Each is one edge: the emptying move as its switch, then the
 * king's move; score as the emptying move's. */
static int emptying_macros(Search *S, const State *s, int i, int j, int score) {
    Edge sw = {0};
    sw.src = (uint8_t)i;
    sw.dst = (uint8_t)j;
    sw.n = s->len[i];
    sw.dkey = S->compact ? class_delta(S, s, i, j, s->len[i], 0, 0) : 0;
    State s1 = *s;
    apply_move(&s1, i, j, sw.n, 0, 0);
    int off[8];
    offsets(&s1, off);
    for (int m = 0; m < 7; m++)
        if (m != i && s1.down[m] && RANK(s1.c[off[m] + s1.down[m]]) == 13)
            if (add_edge(S, &s1, score, m, i, s1.len[m] - s1.down[m], 0, 0, 0, &sw) < 0) return -1;
    for (int su = 0; su < 4 && S->freturn; su++)
        if (s1.found[su] == 13)
            if (add_edge(S, &s1, score, FOUNDATION + su, i, 1, 0, 0, 0, &sw) < 0) return -1;
    if (!(S->drawn & KINGS)) return 0;
    for (size_t a = 0; a < S->ndraws; a++) {
        const Draws *d = S->draws + a;
        if (RANK(s1.c[d->p - 1]) == 13)
            if (add_edge(S, &s1, score, WASTE, i, 1, d->plen, d->p, d->used, &sw) < 0) return -1;
    }
    return 0;
}

/* KlondikeSpace's tableau moves of s (off: its offsets, top: its piles' tops), in
 * legal_moves order: by source pile, then target pile, then count. */
static int tableau_moves(Search *S, const State *s, const int *off, const int *top) {
    const uint8_t *c = s->c;
    int where[52];
    for (int k = 0; k < 52; k++) where[k] = -1;
    for (int i = 0; i < 7; i++)
        for (int k = s->down[i]; k < s->len[i]; k++) where[c[off[i] + k]] = i * 32 + s->len[i] - k;
    int codes[64], ncodes = 0;
    for (int j = 0; j < 7; j++) {
        int cand[4], ncand = 0;
        if (top[j] >= 0) {
            int t = top[j];
            if (RANK(t) > 1)
                for (int su = 0; su < 4; su++)
                    if ((su == 1 || su == 2) != RED(t)) cand[ncand++] = su * 13 + RANK(t) - 2;
        } else {
            for (int su = 0; su < 4; su++) cand[ncand++] = su * 13 + 12;
        }
        for (int q = 0; q < ncand; q++) {
            int w = where[cand[q]];
            if (w >= 0 && (w >> 5) != j) {
                int code = (w >> 5) * 1024 + j * 32 + (w & 31), x = ncodes++;
                while (x > 0 && codes[x - 1] > code) {
                    codes[x] = codes[x - 1];
                    x--;
                }
                codes[x] = code;
            }
        }
    }
    for (int q = 0; q < ncodes; q++) {
        int i = codes[q] >> 10, j = (codes[q] >> 5) & 31, n = codes[q] & 31;
        int score = n == s->len[i] - s->down[i] ? (s->down[i] ? 90 : 20) : 10;
        if (add_edge(S, s, -score, i, j, n, 0, 0, 0, NULL) < 0) return -1;
    }
    return 0;
}

static int safe_card(const State *s, int c);

/* The moves of s in legal_moves order (waste plays left out), then every card draws and
 * redeals can bring to the waste top, played (_stock_plays): KlondikeSpace.children's
 * edges. For KlondikeClassSpace (classes), KlondikeClassSpace._class_moves: moves that only
 * rearrange hanging cards are left out, and with a switch sw made first (pile >= 0), only
 * the moves of pile's top card alone and the moves onto pile are kept. */
static int add_moves(Search *S, const State *s, const Edge *sw, int pile) {
    int off[8];
    offsets(s, off);
    const uint8_t *c = s->c;
    int top[7];
    /* As masks: the cards each pile takes (0 for a pile left out), and those that can go to
     * their foundations. */
    uint64_t takes[7], fits = 0, home = 0;
    for (int su = 0; su < 4; su++)
        if (s->found[su] < 13) home |= (uint64_t)1 << (su * 13 + s->found[su]);
    for (int j = 0; j < 7; j++) {
        top[j] = s->len[j] ? c[off[j + 1] - 1] : -1;
        takes[j] = pile >= 0 && j != pile ? 0 : pile_takes(top[j]);
        fits |= takes[j];
    }
    /* To a foundation from the piles. */
    for (int i = 0; i < 7; i++)
        if (top[i] >= 0 && (home >> top[i] & 1) && (pile < 0 || i == pile))
            if (add_edge(S, s, -100, i, FOUNDATION, 1, 0, 0, 0, sw) < 0) return -1;
    /* Tableau to tableau, by source pile, then target pile (then count). */
    if (S->classes) {
        /* Only a root's move changes the class: each pile's root run, onto each pile that takes
         * it (a king into an empty pile only from above face-down cards). */
        for (int i = 0; i < 7; i++) {
            if (!s->len[i]) continue;
            int x = c[off[i] + s->down[i]], n = s->len[i] - s->down[i], score = s->down[i] ? 90 : 20;
            int alone = i == pile && n == 1; /* after a switch: the pile's top card, anywhere */
            if (!(fits >> x & 1) && !alone) continue;
            for (int j = 0; j < 7; j++) {
                uint64_t t = !alone ? takes[j] : pile_takes(top[j]);
                if (j == i || !(t >> x & 1) || (top[j] < 0 && !s->down[i])) continue;
                if (!s->down[i]) { /* the move empties pile i: only with a king's move into it */
                    /* after a switch, the same class as the plain emptying onto the twin: none */
                    if (!sw && emptying_macros(S, s, i, j, -score) < 0) return -1;
                    continue;
                }
                if (add_edge(S, s, -score, i, j, n, 0, 0, 0, sw) < 0) return -1;
            }
        }
    } else if (tableau_moves(S, s, off, top) < 0) {
        return -1;
    }
    /* Foundation back to the tableau. */
    if (S->freturn)
        for (int su = 0; su < 4; su++) {
            int r = s->found[su], card = su * 13 + r - 1;
            /* The class space leaves out a card its safe move would send straight home
             * (KlondikeClassSpace._add_edge): one that safe_card passes. Only that card can be
             * the safe move there (a lower foundation makes no other card safe, and s has
             * none, or it would have no other child), and nothing can lie on it: for rank 3
             * or more the cards that could are home; a face-up ace would be s's safe move. */
            if (!r || !(fits >> card & 1) || (S->classes && safe_card(s, card))) continue;
            for (int j = 0; j < 7; j++)
                if (takes[j] >> card & 1)
                    if (add_edge(S, s, 0, FOUNDATION + su, j, 1, 0, 0, 0, sw) < 0) return -1;
        }
    /* Every card draws and redeals can bring to the waste top, played (S->draws). */
    if (pile >= 0) home = 0; /* after a switch, only moves onto the pile */
    if (!(S->drawn & (fits | home))) return 0; /* no stock play */
    for (size_t a = 0; a < S->ndraws; a++) {
        const Draws *d = S->draws + a;
        int w = c[d->p - 1], score = -60 + (int32_t)d->plen;
        if (home >> w & 1)
            if (add_edge(S, s, score - 40, WASTE, FOUNDATION, 1, d->plen, d->p, d->used, sw) < 0) return -1;
        if (!(fits >> w & 1)) continue;
        for (int j = 0; j < 7; j++)
            if (takes[j] >> w & 1)
                if (add_edge(S, s, score, WASTE, j, 1, d->plen, d->p, d->used, sw) < 0) return -1;
    }
    return 0;
}

/* The stock plays of s (_stock_plays, in their order) into S->draws: every waste size that
 * draws and redeals reach with a card on top, with the draws and redeals it takes; S->drawn
 * gets the cards they bring to the waste top. 0, or -1 when out of memory. */
static int stock_plays(Search *S, const State *s) {
    uint8_t seen[53];
    memset(seen, 0, sizeof seen);
    int p = s->p, used = s->used, nt = s->nt;
    S->ndraws = 0;
    S->drawn = 0;
    for (uint32_t plen = 0;; plen++) {
        if (seen[p]) break;
        seen[p] = 1;
        if (p > 0) {
            Draws *d = room_for(S->draws, &S->cap_draws, S->ndraws + 1, sizeof *d, 64);
            if (!d) return -1;
            S->draws = d;
            d += S->ndraws++;
            d->plen = plen;
            d->used = (uint16_t)used;
            d->p = (uint8_t)p;
            S->drawn |= (uint64_t)1 << s->c[p - 1];
        }
        if (p < nt) {
            p += S->draw;
            if (p > nt) p = nt;
        } else if (p > 0 && (S->limit < 0 || used < S->limit)) {
            p = 0;
            if (S->limit >= 0) {
                used++;
                memset(seen, 0, sizeof seen); /* positions with fewer redeals used never come back */
            }
        } else {
            break;
        }
    }
    return 0;
}

/* KlondikeSpace.safe_move's rule for a card going to its foundation (_safe, without the
 * check that it can go there). */
static int safe_card(const State *s, int c) {
    int r = RANK(c);
    if (r <= 2) return 1;
    const uint8_t *f = s->found;
    int o0 = RED(c) ? 0 : 1, o1 = RED(c) ? 3 : 2, same = 3 - SUIT(c);
    return f[o0] >= r - 1 && f[o1] >= r - 1 && f[same] >= r - 2;
}

#define PLAYABLE(s, c) ((s)->found[SUIT(c)] == RANK(c) - 1)
#define TYPE(c) (RANK(c) * 2 + RED(c))

/* KlondikeClassSpace.forced_move as (src, 1) of a foundation move; -1: none. */
static int forced_move(const Search *S, const State *s) {
    int off[8], hanging[28], counted = 0, best = -1, src = -1;
    offsets(s, off);
    if (S->draw == 1 && s->p) {
        int w = s->c[s->p - 1];
        if (PLAYABLE(s, w) && safe_card(s, w)) best = w, src = WASTE;
    }
    for (int i = 0; i < 7; i++) {
        if (!s->len[i]) continue;
        int t = s->c[off[i + 1] - 1];
        int below = (RANK(t) - 1) * 2 + !RED(t);
        if (!PLAYABLE(s, t) || !safe_card(s, t) || (best >= 0 && t > best)) continue;
        if (!counted) { /* the hanging cards' types, counted only once a candidate needs them */
            memset(hanging, 0, sizeof hanging);
            for (int m = 0; m < 7; m++)
                for (int k = s->down[m] + 1; k < s->len[m]; k++) hanging[TYPE(s->c[off[m] + k])]++;
            counted = 1;
        }
        if (!hanging[below]) best = t, src = i;
    }
    return src;
}

/* Push the children of s (KlondikeSpace.children or KlondikeClassSpace.children, then
 * Pruned's or EagerSpace's cut) onto the edge stack; their count in *count. */
static int children(Search *S, const State *s, uint32_t *count) {
    size_t begin = S->nedges;
    int off[8];
    offsets(s, off);
    const uint8_t *c = s->c;
    int top[7];
    for (int i = 0; i < 7; i++) top[i] = s->len[i] ? c[off[i + 1] - 1] : -1;
    int wtop = s->p ? c[s->p - 1] : -1;

    /* The safe move: foundation moves come first in legal_moves (waste, then piles). */
    int safe_src = -1;
    if (S->classes) {
        safe_src = forced_move(S, s);
    } else {
        if (wtop >= 0 && PLAYABLE(s, wtop) && S->draw == 1 && safe_card(s, wtop)) safe_src = WASTE;
        for (int i = 0; i < 7 && safe_src < 0; i++)
            if (top[i] >= 0 && PLAYABLE(s, top[i]) && safe_card(s, top[i])) safe_src = i;
    }
    if (safe_src >= 0) {
        if (add_edge(S, s, 0, safe_src, FOUNDATION, 1, 0, s->p, s->used, NULL) < 0) return -1;
    } else {
        if (stock_plays(S, s) < 0 || add_moves(S, s, NULL, -1) < 0) return -1;
        if (S->classes) {
            /* Switches: a covered face-up card whose twin is a pile's top is uncovered by
             * moving what lies on it onto the twin; then the moves it allows. Those are
             * (add_moves with the pile given): the card to its foundation, the card moved
             * if it is its pile's root (the class's moves move roots), or a card of the
             * type below moved onto it: a root (the switch keeps every pile's root), a
             * foundation's top or a card the stock plays bring up. A switch that allows
             * none of these adds no edge, and is skipped before it is made. */
            uint64_t onto = S->drawn;
            for (int i = 0; i < 7; i++)
                if (s->len[i]) onto |= (uint64_t)1 << c[off[i] + s->down[i]];
            for (int su = 0; su < 4 && S->freturn; su++)
                if (s->found[su]) onto |= (uint64_t)1 << (su * 13 + s->found[su] - 1);
            for (int i = 0; i < 7; i++)
                for (int k = s->down[i]; k < s->len[i] - 1; k++) {
                    int y = c[off[i] + k], twin = y + (3 - 2 * SUIT(y)) * 13, j = 0;
                    if (!PLAYABLE(s, y) && k != s->down[i] && !(lower_cards(y) & onto)) continue;
                    while (j < 7 && top[j] != twin) j++;
                    if (j == 7) continue;
                    Edge sw = {0};
                    sw.src = (uint8_t)i;
                    sw.dst = (uint8_t)j;
                    sw.n = (uint8_t)(s->len[i] - 1 - k);
                    State s1 = *s;
                    apply_move(&s1, i, j, sw.n, 0, 0);
                    if (add_moves(S, &s1, &sw, i) < 0) return -1;
                }
        }
        /* Stable sort by score (insertion sort: the stock plays come nearly in order). */
        Edge *e = S->edges + begin;
        size_t n = S->nedges - begin;
        for (size_t a = 1; a < n; a++) {
            Edge x = e[a];
            size_t b = a;
            while (b > 0 && e[b - 1].score > x.score) {
                e[b] = e[b - 1];
                b--;
            }
            e[b] = x;
        }
    }
    size_t n = S->nedges - begin;
    if (S->mode == MODE_EAGER) {
        /* Single moves that make progress: a card to a foundation or a card turned up. */
        Edge *e = S->edges + begin;
        size_t kept = 0;
        for (size_t a = 0; a < n; a++) {
            int src = e[a].src;
            int single = src != WASTE || e[a].plen == 0;
            int turns = src < 7 && s->len[src] > e[a].n && s->len[src] - e[a].n == s->down[src];
            if (single && (e[a].dst == FOUNDATION || turns)) e[kept++] = e[a];
        }
        if (kept) n = kept;
    } else if (S->mode == MODE_PRUNED && (size_t)S->k < n) {
        n = (size_t)S->k;
    }
    S->nedges = begin + n;
    *count = (uint32_t)n;
    return 0;
}

/* Push s's frame (s of class number key, when compact): its children, less those whose class
 * is already seen (seen_filter), each with its child's hash and key (compact: number) kept
 * for run. Dropping them here is what run would do when it came to them (a key once seen
 * stays seen), so the search is the same, position for position, but the lookups are made
 * together, their memory fetches overlapping. */
static int push_frame(Search *S, const State *s, uint64_t key) {
    Frame *f = room_for(S->frames, &S->cap_frames, S->nframes + 1, sizeof *f, 1024);
    if (!f) return -1;
    S->frames = f;
    f += S->nframes;
    f->s = *s;
    f->key = key;
    f->e_begin = S->nedges;
    f->e_next = 0;
    if (children(S, s, &f->e_count) < 0) return -1;
    size_t stride = S->compact ? 1 : EKEY_WORDS;
    uint64_t *k = room_for(S->ekeys, &S->cap_ekeys, S->nedges * stride, sizeof *k, 4096 * EKEY_WORDS);
    if (!k) return -1;
    S->ekeys = k;
    Edge *e = S->edges + f->e_begin;
    k += f->e_begin * stride;
    if (S->compact) {
        for (uint32_t a = 0; a < f->e_count; a++) {
            k[a] = key + e[a].dkey;
            seen1_prefetch(&S->seen1, k[a]);
        }
        f->e_count = (uint32_t)seen1_filter(&S->seen1, e, sizeof *e, k, f->e_count);
    } else {
        for (uint32_t a = 0; a < f->e_count; a++) {
            State child;
            apply_edge(s, e + a, &child);
            make_key(S, &child, k + a * EKEY_WORDS + 1);
            k[a * EKEY_WORDS] = hash_key(k + a * EKEY_WORDS + 1, KEY_WORDS);
            seen_prefetch(&S->seen, k[a * EKEY_WORDS]);
        }
        f->e_count = (uint32_t)seen_filter(&S->seen, e, sizeof *e, k, f->e_count);
    }
    S->nedges = f->e_begin + f->e_count;
    S->nframes++;
    return 0;
}

/* --- the search ------------------------------------------------------------------------ */

/* Whether the key of the edge at `at` (its child's, from push_frame) is seen; if not, the
 * slot to insert it at in *where (for child_insert). */
static int child_seen(const Search *S, size_t at, size_t *where) {
    if (S->compact) return seen1_find(&S->seen1, S->ekeys[at], where);
    const uint64_t *k = S->ekeys + at * EKEY_WORDS; /* the hash, then the key */
    return seen_find(&S->seen, k + 1, k[0], where);
}

/* Insert the key of the edge at `at` at the slot child_seen gave. 0, or -1 when out of memory. */
static int child_insert(Search *S, size_t at, size_t where) {
    if (S->compact) return seen1_insert(&S->seen1, S->ekeys[at], where);
    const uint64_t *k = S->ekeys + at * EKEY_WORDS;
    return seen_insert(&S->seen, k + 1, k[0], where);
}

static size_t seen_count(const Search *S) { return S->compact ? S->seen1.count : S->seen.count; }

/* Choose the seen set for a search from start (compact: the class space, numbered in one
 * word; *number is then start's) and make it, empty. 0, or -1 when out of memory. */
static int start_search(Search *S, const State *start, uint64_t *number) {
    S->compact = S->classes && number_classes(S, start);
    *number = S->compact ? class_number(S, start) : 0;
    return S->compact ? seen1_init(&S->seen1) : seen_init(&S->seen, KEY_WORDS);
}

/* depth_first, line for line. The GIL is released, and taken back now and then to let
 * Ctrl-C through. */
static int run(Search *S, const State *start, const Budget *B, long long *nodes_out) {
    size_t where = 0;
    long long nodes = 0;
    *nodes_out = 0;
    if (is_won(start)) return SOLVED;
    uint64_t number;
    if (start_search(S, start, &number) < 0) return NO_MEMORY;
    int stored;
    if (S->compact) {
        seen1_find(&S->seen1, number, &where);
        stored = seen1_insert(&S->seen1, number, where) == 0;
    } else {
        uint64_t key[KEY_WORDS];
        make_key(S, start, key);
        uint64_t h = hash_key(key, KEY_WORDS);
        seen_find(&S->seen, key, h, &where);
        stored = seen_insert(&S->seen, key, h, where) == 0;
    }
    if (!stored || push_frame(S, start, number) < 0) return NO_MEMORY;
    nodes = 1;
    int result = UNSOLVABLE;
    Unlocked u;
    release_gil(&u);
    while (S->nframes) {
        if (interrupted(&u)) {
            result = INTERRUPTED;
            break;
        }
        Frame *f = S->frames + S->nframes - 1;
        if (f->e_next < f->e_count) {
            size_t at = f->e_begin + f->e_next++;
            if (child_seen(S, at, &where)) continue;
            State child; /* only now: a child seen since push_frame needs no position */
            apply_edge(&f->s, S->edges + at, &child);
            if (is_won(&child)) {
                result = SOLVED;
                break;
            }
            if (over_budget(B, nodes, seen_count(S))) {
                result = UNKNOWN;
                break;
            }
            if (child_insert(S, at, where) < 0 || push_frame(S, &child, S->compact ? S->ekeys[at] : 0) < 0) {
                result = NO_MEMORY;
                break;
            }
            nodes++;
        } else {
            S->nedges = f->e_begin;
            S->nframes--;
        }
    }
    take_gil(&u);
    *nodes_out = nodes;
    return result;
}

/* Append the move (src, dst, n) to the list out; -1 (out released) on failure. */
static int append_move(PyObject *out, int src, int dst, int n) {
    PyObject *m = Py_BuildValue("(iii)", src, dst, n);
    if (!m || PyList_Append(out, m) < 0) {
        Py_XDECREF(m);
        Py_DECREF(out);
        return -1;
    }
    Py_DECREF(m);
    return 0;
}

/* The moves of the path on the stack (each frame's current edge: its switch, its draws
 * and redeals, its move), as (src, dst, n) triples. */
static PyObject *path_moves(Search *S) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (size_t d = 0; d < S->nframes; d++) {
        const Frame *f = S->frames + d;
        const Edge *e = S->edges + f->e_begin + f->e_next - 1;
        if (e->sn && append_move(out, e->ssrc, e->sdst, e->sn) < 0) return NULL;
        if (e->src == WASTE) {
            int p = f->s.p, nt = f->s.nt;
            for (uint32_t k = 0; k < e->plen; k++) {
                int drawn = p < nt;
                if (drawn) {
                    p += S->draw;
                    if (p > nt) p = nt;
                } else {
                    p = 0;
                }
                if (append_move(out, drawn ? STOCK : WASTE, drawn ? WASTE : STOCK, 0) < 0) return NULL;
            }
        }
        if (append_move(out, e->src, e->dst, e->n) < 0) return NULL;
    }
    return out;
}

static void search_free(Search *S) {
    seen_free(&S->seen);
    seen1_free(&S->seen1);
    free(S->frames);
    free(S->edges);
    free(S->ekeys);
    free(S->draws);
}

/* --- reading Python values ------------------------------------------------------------- */

static int read_ints(PyObject *seq, long *out, int count, long lo, long hi, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s must have %d items", what, count);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < lo || v > hi) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s out of range: %ld", what, v);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    return 0;
}

/* A KlondikeState's fields into a State; ValueError for a position the core does not take
 * (not exactly one deck, a face-up run that is not a build, more redeals than it counts). */
static int read_state(PyObject *stock, PyObject *waste, PyObject *found, PyObject *tableau, PyObject *down,
                      long used, State *s) {
    uint8_t st[52], cards[52];
    int nst, nw, have[52] = {0};
    long f[4], d[7];
    memset(s, 0, sizeof *s);
    if (used < 0 || used > MAX_USED) {
        PyErr_SetString(PyExc_ValueError, "redeals used out of range");
        return -1;
    }
    s->used = (uint16_t)used;
    nst = read_cards(stock, st, 52, 52, "the stock");
    nw = nst < 0 ? -1 : read_cards(waste, s->c, 52, 52, "the waste");
    if (nw < 0) return -1;
    if (nw + nst > 52) {
        PyErr_SetString(PyExc_ValueError, "too many cards");
        return -1;
    }
    for (int i = 0; i < nst; i++) s->c[nw + i] = st[nst - 1 - i];
    s->nt = (uint8_t)(nw + nst);
    s->p = (uint8_t)nw;
    if (read_ints(found, f, 4, 0, 13, "the foundations") < 0 || read_ints(down, d, 7, 0, 52, "the face-down counts") < 0)
        return -1;
    PyObject *piles = PySequence_Fast(tableau, "the tableau");
    if (!piles) return -1;
    if (PySequence_Fast_GET_SIZE(piles) != 7) {
        Py_DECREF(piles);
        PyErr_SetString(PyExc_ValueError, "the tableau must have 7 piles");
        return -1;
    }
    int tot = s->nt;
    for (int i = 0; i < 7; i++) {
        int n = read_cards(PySequence_Fast_GET_ITEM(piles, i), cards, 52, 52, "a tableau pile");
        if (n < 0) {
            Py_DECREF(piles);
            return -1;
        }
        if (tot + n > 52 || (n ? d[i] >= n : d[i] != 0)) {
            Py_DECREF(piles);
            PyErr_SetString(PyExc_ValueError, "a pile's size or face-down count is not supported");
            return -1;
        }
        for (int k = (int)d[i] + 1; k < n; k++)
            if (RANK(cards[k]) != RANK(cards[k - 1]) - 1 || RED(cards[k]) == RED(cards[k - 1])) {
                Py_DECREF(piles);
                PyErr_SetString(PyExc_ValueError, "a face-up run that is not a build");
                return -1;
            }
        memcpy(s->c + tot, cards, n);
        tot += n;
        s->len[i] = (uint8_t)n;
        s->down[i] = (uint8_t)d[i];
    }
    Py_DECREF(piles);
    for (int su = 0; su < 4; su++) {
        s->found[su] = (uint8_t)f[su];
        for (int r = 1; r <= f[su]; r++) have[su * 13 + r - 1]++;
    }
    for (int i = 0; i < tot; i++) have[s->c[i]]++;
    for (int k = 0; k < 52; k++)
        if (have[k] != 1) {
            PyErr_SetString(PyExc_ValueError, "the position does not hold each card of one deck exactly once");
            return -1;
        }
    return 0;
}

/* --- the module ------------------------------------------------------------------------ */

PyDoc_STRVAR(search_doc,
             "search(stock, waste, foundations, tableau, down, redeals_used, draw, redeals, foundation_return,\n"
             "       classes, mode, k, nodes, memory, seconds) -> (verdict, nodes, moves)\n\n"
             "depth_first over KlondikeSpace (classes false) or KlondikeClassSpace (classes true) from the\n"
             "position given by the KlondikeState fields.\n"
             "draw: 1 or 3; redeals: None (unlimited) or 0..4095; mode: 0 the whole space, 1 its\n"
             "first k children (Pruned), 2 EagerSpace (KlondikeSpace only);\n"
             "nodes, memory, seconds: the Budget (None: no limit). verdict is 'solved', 'unsolvable'\n"
             "or 'unknown'; moves are (src, dst, n) triples of KlondikeMove, draws and redeals included.\n"
             "ValueError for a position or options the core does not take.");

/* The search's options, as search() and children() both take them: S cleared, then set;
   -1 with a Python exception for options the core does not take. */
static int read_options(Search *S, int draw, int freturn, int classes, int mode, long k, PyObject *redeals) {
    memset(S, 0, sizeof *S);
    if (draw != 1 && draw != 3) {
        PyErr_SetString(PyExc_ValueError, "draw must be 1 or 3");
        return -1;
    }
    if (mode < MODE_FULL || mode > MODE_EAGER || k < 0) {
        PyErr_SetString(PyExc_ValueError, "bad mode");
        return -1;
    }
    S->draw = draw;
    S->freturn = freturn;
    S->classes = classes;
    S->mode = mode;
    S->k = k;
    S->limit = -1;
    S->cycle = classes && redeals == Py_None;
    if (redeals != Py_None) {
        long r = PyLong_AsLong(redeals);
        if (r == -1 && PyErr_Occurred()) return -1;
        if (r < 0 || r > MAX_USED) {
            PyErr_SetString(PyExc_ValueError, "redeals out of range");
            return -1;
        }
        S->limit = (int)r;
    }
    return 0;
}

static PyObject *py_search(PyObject *self, PyObject *args) {
    PyObject *stock, *waste, *found, *tableau, *down, *redeals, *nodes_o, *memory_o, *seconds_o;
    long used, k;
    int draw, freturn, classes, mode;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOliOppilOOO", &stock, &waste, &found, &tableau, &down, &used, &draw, &redeals,
                          &freturn, &classes, &mode, &k, &nodes_o, &memory_o, &seconds_o))
        return NULL;
    Search S;
    if (read_options(&S, draw, freturn, classes, mode, k, redeals) < 0) return NULL;
    Budget B;
    if (read_budget(nodes_o, memory_o, seconds_o, &B) < 0) return NULL;
    State start;
    if (read_state(stock, waste, found, tableau, down, used, &start) < 0) return NULL;

    long long nodes = 0;
    int result = run(&S, &start, &B, &nodes);
    PyObject *out = search_result(result, nodes, result == SOLVED ? path_moves(&S) : no_moves(result, 1));
    search_free(&S);
    return out;
}

PyDoc_STRVAR(children_doc,
             "children(stock, waste, foundations, tableau, down, redeals_used, draw, redeals, foundation_return,\n"
             "         classes, mode, k) -> [(moves, (stock, waste, foundations, tableau, down, redeals_used), number), ...]\n\n"
             "The children of one position as the search sees them, each with its class number in a\n"
             "search from that position (None: not numbered; see class_numbers), for tests.");

static PyObject *tuple_of(const uint8_t *c, int n, int reverse) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(c[reverse ? n - 1 - i : i]));
    return t;
}

static PyObject *state_tuple(const State *s) {
    int off[8];
    offsets(s, off);
    PyObject *piles = PyTuple_New(7), *down = PyTuple_New(7);
    if (!piles || !down) {
        Py_XDECREF(piles);
        Py_XDECREF(down);
        return NULL;
    }
    for (int i = 0; i < 7; i++) {
        PyTuple_SET_ITEM(piles, i, tuple_of(s->c + off[i], s->len[i], 0));
        PyTuple_SET_ITEM(down, i, PyLong_FromLong(s->down[i]));
    }
    return Py_BuildValue("(NN(iiii)NNi)", tuple_of(s->c + s->p, s->nt - s->p, 1), tuple_of(s->c, s->p, 0),
                         s->found[0], s->found[1], s->found[2], s->found[3], piles, down, s->used);
}

static PyObject *py_children(PyObject *self, PyObject *args) {
    PyObject *stock, *waste, *found, *tableau, *down, *redeals;
    long used, k;
    int draw, freturn, classes, mode;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOliOppil", &stock, &waste, &found, &tableau, &down, &used, &draw, &redeals,
                          &freturn, &classes, &mode, &k))
        return NULL;
    Search S;
    if (read_options(&S, draw, freturn, classes, mode, k, redeals) < 0) return NULL;
    State s;
    if (read_state(stock, waste, found, tableau, down, used, &s) < 0) return NULL;
    PyObject *out = NULL;
    uint64_t number;
    if (start_search(&S, &s, &number) < 0 || push_frame(&S, &s, number) < 0) { /* nothing seen: every child */
        PyErr_NoMemory();
    } else if ((out = PyList_New(0)) != NULL) {
        Frame *f = S.frames;
        for (f->e_next = 1; f->e_next <= f->e_count; f->e_next++) {
            State child;
            size_t at = f->e_begin + f->e_next - 1;
            apply_edge(&f->s, S.edges + at, &child);
            PyObject *item = Py_BuildValue("(NNN)", path_moves(&S), state_tuple(&child),
                                           S.compact ? PyLong_FromUnsignedLongLong(S.ekeys[at]) : Py_NewRef(Py_None));
            if (!item || PyList_Append(out, item) < 0) {
                Py_XDECREF(item);
                Py_CLEAR(out);
                break;
            }
            Py_DECREF(item);
        }
    }
    search_free(&S);
    return out;
}

PyDoc_STRVAR(class_numbers_doc,
             "class_numbers(stock, waste, foundations, tableau, down, redeals_used, draw, redeals, foundation_return,\n"
             "              positions) -> [int, ...] or None\n\n"
             "The class numbers a class-space search from the position given by the KlondikeState fields\n"
             "gives each of positions (KlondikeState tuples reached from it), or None when the numbers of\n"
             "that search do not fit one word (for tests).");

static PyObject *py_class_numbers(PyObject *self, PyObject *args) {
    PyObject *stock, *waste, *found, *tableau, *down, *redeals, *positions;
    long used;
    int draw, freturn;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOliOpO", &stock, &waste, &found, &tableau, &down, &used, &draw, &redeals,
                          &freturn, &positions))
        return NULL;
    Search S;
    if (read_options(&S, draw, freturn, 1, MODE_FULL, 0, redeals) < 0) return NULL;
    State start, s;
    if (read_state(stock, waste, found, tableau, down, used, &start) < 0) return NULL;
    if (!number_classes(&S, &start)) Py_RETURN_NONE;
    PyObject *fast = PySequence_Fast(positions, "the positions");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject *out = PyList_New(n);
    for (Py_ssize_t i = 0; out && i < n; i++) {
        PyObject *p = PySequence_Fast_GET_ITEM(fast, i);
        long u;
        if (!PyArg_ParseTuple(p, "OOOOOl", &stock, &waste, &found, &tableau, &down, &u) ||
            read_state(stock, waste, found, tableau, down, u, &s) < 0) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, PyLong_FromUnsignedLongLong(class_number(&S, &s)));
    }
    Py_DECREF(fast);
    return out;
}

/* --- can progress (cardtable.core.progress.can_progress) ------------------------------- */

/* The exact key of a position of one can_progress search, in three words. Every position the
 * search reaches has the start's face-down cards (turning one up is progress, which ends the
 * search) and a talon that is the start's less some cards, in the same order (a card leaves
 * the talon for good). So the key stores only what moves: the four foundations' heights, the
 * waste size and redeals used (word 0: 16 + 6 + 16 bits), then each pile's face-up run as its
 * length (4 bits) and, when not empty, its bottom card (6 bits) and for each card above it
 * which of the two suits of its colour it has (1 bit: rank and colour follow from the card
 * below); at most 7 x 10 + 45 bits. The talon is then the start's less the cards found
 * elsewhere. Equal keys <=> equal positions (among those with the start's face-down cards
 * and a talon taken from its talon: fixed_fits). Cheaper to make, hash and compare than
 * the 7 words of the general key, which were most of the search's time. */
enum { REACH_WORDS = 3 };

/* What every position of one can_progress search shares with its start (fixed_fits). */
typedef struct {
    int8_t at[52];         /* each card's place in the start's talon, -1: not in it */
    uint8_t down[7];       /* the start's face-down counts */
    uint8_t hidden[7][52]; /* and its face-down cards, pile by pile */
} Fixed;

static void fixed_from(const State *start, Fixed *f) {
    memset(f->at, -1, sizeof f->at);
    for (int i = 0; i < start->nt; i++) f->at[start->c[i]] = (int8_t)i;
    for (int i = 0, at = start->nt; i < 7; i++) {
        f->down[i] = start->down[i];
        memcpy(f->hidden[i], start->c + at, start->down[i]);
        at += start->len[i];
    }
}

/* Whether s has the start's face-down cards and a talon the start's less some cards, in
 * order: a position reach_key names (a target that is not one cannot be reached). */
static int fixed_fits(const Fixed *f, const State *s) {
    for (int i = 0, last = -1; i < s->nt; i++) {
        int a = f->at[s->c[i]];
        if (a <= last) return 0;
        last = a;
    }
    for (int i = 0, at = s->nt; i < 7; i++) {
        if (s->down[i] != f->down[i] || memcmp(f->hidden[i], s->c + at, s->down[i])) return 0;
        at += s->len[i];
    }
    return 1;
}

static void reach_key(const State *s, uint64_t key[REACH_WORDS]) {
    key[0] = (uint64_t)s->found[0] | (uint64_t)s->found[1] << 4 | (uint64_t)s->found[2] << 8 |
             (uint64_t)s->found[3] << 12 | (uint64_t)s->p << 16 | (uint64_t)s->used << 22;
    uint64_t w[2] = {0, 0};
    int n = 0; /* bits written to w */
#define PUT(v, bits)                                                          \
    do {                                                                      \
        uint64_t v_ = (v);                                                    \
        if (n < 64) {                                                         \
            w[0] |= v_ << n;                                                  \
            if (n + (bits) > 64) w[1] |= v_ >> (64 - n);                      \
        } else {                                                              \
            w[1] |= v_ << (n - 64);                                           \
        }                                                                     \
        n += (bits);                                                          \
    } while (0)
    for (int i = 0, at = s->nt; i < 7; i++) {
        int up = s->len[i] - s->down[i];
        const uint8_t *run = s->c + at + s->down[i];
        PUT((uint64_t)up, 4);
        if (up) {
            PUT((uint64_t)run[0], 6);
            uint64_t suits = 0;
            for (int k = 1; k < up; k++) suits |= (uint64_t)(run[k] < 26) << (k - 1); /* suit 0 or 1 */
            PUT(suits, up - 1);
        }
        at += s->len[i];
    }
#undef PUT
    key[1] = w[0];
    key[2] = w[1];
}

enum { PROGRESS = 1, NO_PROGRESS = 0, AT_LIMIT = -1, OUT_OF_MEMORY = -2 };

typedef struct {
    Seen seen;
    Seen *targets; /* positions that count as progress when reached (NULL: none) */
    State *stack[2]; /* the positions to expand: [0] first, then [1] (after foundation returns) */
    size_t n[2], cap[2];
    long long limit;
} Reach;

/* A child of the search (not progress: the caller checked): seen, else counted and pushed
 * on stack `later` (1: expanded only when stack 0 is empty). 0, AT_LIMIT when it would be the
 * limit's first position past, OUT_OF_MEMORY. */
static int reach_child(Reach *R, const State *child, int later) {
    uint64_t key[REACH_WORDS];
    size_t where;
    reach_key(child, key);
    uint64_t h = hash_key(key, REACH_WORDS);
    if (R->targets && R->targets->count && seen_find(R->targets, key, h, &where)) return PROGRESS;
    if (seen_find(&R->seen, key, h, &where)) return 0;
    if ((long long)R->seen.count >= R->limit) return AT_LIMIT;
    if (seen_insert(&R->seen, key, h, where) < 0) return OUT_OF_MEMORY;
    State *stack = room_for(R->stack[later], &R->cap[later], R->n[later] + 1, sizeof *stack, 1024);
    if (!stack) return OUT_OF_MEMORY;
    R->stack[later] = stack;
    R->stack[later][R->n[later]++] = *child;
    return 0;
}

/* can_progress over Klondike.legal_moves and Klondike.apply: PROGRESS when a sequence of
 * legal moves from start reaches a position with more cards on the foundations, fewer face
 * down (Klondike.progress), fewer in the talon or fewer piles on a card other than a king
 * (Klondike.one_way), NO_PROGRESS when the positions reachable without it are
 * all seen (at most limit of them, start included), AT_LIMIT when there are more, or
 * OUT_OF_MEMORY. The answer does not depend on the order the positions are explored in. */
static int reach(const State *start, int draw, int redeal_limit, int freturn, long long limit, Seen *targets) {
    int base_f = start->found[0] + start->found[1] + start->found[2] + start->found[3];
    Reach R;
    memset(&R, 0, sizeof R);
    R.limit = limit;
    R.targets = targets;
    int result = NO_PROGRESS;
    if (seen_init(&R.seen, REACH_WORDS) < 0) {
        seen_free(&R.seen);
        return OUT_OF_MEMORY;
    }
    {
        uint64_t key[REACH_WORDS];
        size_t where = 0;
        reach_key(start, key);
        uint64_t h = hash_key(key, REACH_WORDS);
        seen_find(&R.seen, key, h, &where);
        R.stack[0] = room_for(NULL, &R.cap[0], 1, sizeof *R.stack[0], 1024);
        if (!R.stack[0] || seen_insert(&R.seen, key, h, where) < 0) result = OUT_OF_MEMORY;
        else R.stack[0][R.n[0]++] = *start;
    }
    while (result == NO_PROGRESS && (R.n[0] || R.n[1])) {
        int from = R.n[0] ? 0 : 1;
        State here = R.stack[from][--R.n[from]], child;
        int off[8], top[7];
        offsets(&here, off);
        uint64_t takes[7], any = 0; /* the cards each pile takes on top (a bit a card), and all of them */
        for (int i = 0; i < 7; i++) {
            top[i] = here.len[i] ? here.c[off[i + 1] - 1] : -1;
            any |= takes[i] = pile_takes(top[i]);
        }
        int w = here.p ? here.c[here.p - 1] : -1;
        /* A card out of the waste, home or onto a pile: progress (Klondike.one_way: the
         * talon never takes it back). */
        if (w >= 0 && (here.found[SUIT(w)] == RANK(w) - 1 || any >> w & 1)) {
            result = PROGRESS;
            break;
        }
        /* A card to a foundation: progress when the foundations hold as many cards as at the
         * start (fewer: a card came back from a foundation, and this puts one back). */
        int home = here.found[0] + here.found[1] + here.found[2] + here.found[3] == base_f;
        for (int i = 0; i < 7 && result == NO_PROGRESS; i++) {
            if (top[i] < 0 || here.found[SUIT(top[i])] != RANK(top[i]) - 1) continue;
            if (home || (here.len[i] > 1 && here.len[i] - 1 == here.down[i]) ||
                (here.len[i] == 1 && !here.down[i] && RANK(top[i]) != 13)) {
                result = PROGRESS; /* more cards home, a card turned up, or a pile emptied of a non-king */
                break;
            }
            child = here;
            apply_move(&child, i, FOUNDATION, 1, 0, 0);
            int r = reach_child(&R, &child, 0);
            if (r) result = r;
        }
        if (result != NO_PROGRESS) break;
        /* A foundation's top card back to the tableau (fewer cards home: not progress). Its
         * positions wait on the second stack, expanded when the first is empty: these moves
         * multiply the positions, and progress is most often found without them. */
        for (int su = 0; su < 4 && freturn && result == NO_PROGRESS; su++) {
            int r = here.found[su];
            if (!r) continue;
            int card = su * 13 + r - 1;
            for (int j = 0; j < 7 && result == NO_PROGRESS; j++) {
                if (!(takes[j] >> card & 1)) continue;
                child = here;
                apply_move(&child, FOUNDATION + su, j, 1, 0, 0);
                int q = reach_child(&R, &child, 1);
                if (q) result = q;
            }
        }
        /* Tableau to tableau: a face-up card and the cards above it. Leaving a face-down
         * card on top turns it up: progress. */
        for (int i = 0; i < 7 && result == NO_PROGRESS; i++)
            for (int k = here.down[i]; k < here.len[i] && result == NO_PROGRESS; k++) {
                int c = here.c[off[i] + k];
                if (!(any >> c & 1)) continue; /* no pile takes it (the usual case) */
                for (int j = 0; j < 7; j++) {
                    if (j == i || !(takes[j] >> c & 1)) continue;
                    if (k == here.down[i] && (here.down[i] || RANK(c) != 13)) {
                        result = PROGRESS; /* a card turned up, or a pile emptied of a non-king */
                        break;
                    }
                    child = here;
                    apply_move(&child, i, j, here.len[i] - k, 0, 0);
                    int r = reach_child(&R, &child, 0);
                    if (r) {
                        result = r;
                        break;
                    }
                }
            }
        if (result != NO_PROGRESS) break;
        /* The stock: draw, or redeal. */
        if (here.p < here.nt) {
            child = here;
            int k = here.nt - here.p < draw ? here.nt - here.p : draw;
            child.p = (uint8_t)(here.p + k);
            int r = reach_child(&R, &child, 0);
            if (r) result = r;
        } else if (here.p && (redeal_limit < 0 || here.used < redeal_limit)) {
            child = here;
            child.p = 0;
            if (redeal_limit >= 0) child.used++;
            int r = reach_child(&R, &child, 0);
            if (r) result = r;
        }
    }
    seen_free(&R.seen);
    free(R.stack[0]);
    free(R.stack[1]);
    return result;
}

PyDoc_STRVAR(can_progress_doc,
             "can_progress(stock, waste, foundations, tableau, down, redeals_used, draw, redeals, foundation_return,\n"
             "             limit, targets=()) -> 1, 0 or -1\n\n"
             "cardtable.core.progress.can_progress of Klondike from the position given by the KlondikeState\n"
             "fields: 1 when progress is reachable, 0 when the positions reachable without it (at most\n"
             "limit) hold none, -1 when there are more than limit of them. targets: positions (KlondikeState\n"
             "tuples) whose reaching ends the search with 1 (see cardtable.solve.native.klondike).\n"
             "Positions after a foundation return are expanded once no other is left to expand.\n"
             "ValueError for a position or options the core does not take; MemoryError.");

static PyObject *py_can_progress(PyObject *self, PyObject *args) {
    PyObject *stock, *waste, *found, *tableau, *down, *redeals, *targets = NULL;
    long used;
    long long limit;
    int draw, freturn;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOliOpL|O", &stock, &waste, &found, &tableau, &down, &used, &draw, &redeals,
                          &freturn, &limit, &targets))
        return NULL;
    Search S;
    if (read_options(&S, draw, freturn, 0, MODE_FULL, 0, redeals) < 0) return NULL;
    State start, s;
    if (read_state(stock, waste, found, tableau, down, used, &start) < 0) return NULL;
    Fixed fixed;
    fixed_from(&start, &fixed);
    Seen known;
    if (seen_init(&known, REACH_WORDS) < 0) {
        seen_free(&known);
        return PyErr_NoMemory();
    }
    if (targets) {
        PyObject *fast = PySequence_Fast(targets, "the targets");
        if (!fast) {
            seen_free(&known);
            return NULL;
        }
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); i++) {
            PyObject *t = PySequence_Fast_GET_ITEM(fast, i);
            long u;
            uint64_t key[REACH_WORDS];
            size_t where = 0;
            if (!PyArg_ParseTuple(t, "OOOOOl", &stock, &waste, &found, &tableau, &down, &u) ||
                read_state(stock, waste, found, tableau, down, u, &s) < 0) {
                Py_DECREF(fast);
                seen_free(&known);
                return NULL;
            }
            if (!fixed_fits(&fixed, &s)) continue; /* the search cannot reach it */
            reach_key(&s, key);
            uint64_t h = hash_key(key, REACH_WORDS);
            if (!seen_find(&known, key, h, &where) && seen_insert(&known, key, h, where) < 0) {
                Py_DECREF(fast);
                seen_free(&known);
                return PyErr_NoMemory();
            }
        }
        Py_DECREF(fast);
    }
    int result;
    Py_BEGIN_ALLOW_THREADS;
    result = reach(&start, S.draw, S.limit, S.freturn, limit, &known);
    Py_END_ALLOW_THREADS;
    seen_free(&known);
    if (result == OUT_OF_MEMORY) return PyErr_NoMemory();
    return PyLong_FromLong(result);
}

/* --- sampled evaluation (the honest player, cardtable.bots.honest) ----------------------- */

/* Klondike.apply of one move of the rules (src, dst, n) to s, in place: draws and redeals
 * included (the caller checked the move is legal). */
static int apply_rules_move(State *s, int src, int dst, int n, int draw, int limit) {
    /* The checks keep a move that is not legal here from breaking the position's arrays (the
     * caller promised legal moves: a building rule is not checked, only what the arrays need). */
    int off[8], card = -1;
    offsets(s, off);
    if (src == STOCK) {
        if (dst != WASTE || s->p >= s->nt) return -1;
    } else if (dst == STOCK) {
        if (src != WASTE || s->p != s->nt || !s->nt || (limit >= 0 && s->used >= limit)) return -1;
    } else if (src == WASTE) {
        if (!s->p || n != 1) return -1;
        card = s->c[s->p - 1];
    } else if (src >= FOUNDATION) {
        if (src > FOUNDATION + 3 || !s->found[src - FOUNDATION] || n != 1 || dst >= 7) return -1;
    } else {
        if (src >= 7 || n < 1 || n > s->len[src] - s->down[src] || dst == src) return -1;
        card = s->c[off[src + 1] - n];
    }
    if (dst == FOUNDATION && (card < 0 || n != 1 || RANK(card) != s->found[SUIT(card)] + 1)) return -1;
    if (src != STOCK && dst != STOCK && dst != FOUNDATION && dst >= 7) return -1;
    if (src == STOCK) {
        int p = s->p + draw;
        s->p = (uint8_t)(p > s->nt ? s->nt : p);
    } else if (dst == STOCK) {
        s->p = 0;
        if (limit >= 0) s->used++;
    } else {
        apply_move(s, src, dst, n, s->p, s->used);
    }
    return 0;
}

/* cardtable.solve.solve's search of the class space within `nodes` positions, from s: its
 * narrow phases (the first k children of every position for each k of options->widths in
 * turn, each within one part in widths.n + 1 of the nodes) and then the complete search
 * with the rest. SOLVED, UNSOLVABLE (proved by the complete search), UNKNOWN or NO_MEMORY. */
static int solve_within(const Search *options, const State *s, long long nodes) {
    long long quick = nodes / (options->widths.n + 1), spent = 0;
    Budget B;
    memset(&B, 0, sizeof B);
    B.has_nodes = 1;
    for (int w = 0; w < options->widths.n && quick > 1; w++) {
        Search S = *options;
        S.mode = MODE_PRUNED;
        S.k = (long)options->widths.k[w];
        B.max_nodes = quick;
        long long used = 0;
        int r = run(&S, s, &B, &used);
        search_free(&S);
        spent += used;
        if (r == SOLVED || r == NO_MEMORY || r == INTERRUPTED) return r;
    }
    Search S = *options;
    S.mode = MODE_FULL;
    S.k = 0;
    B.max_nodes = nodes - spent;
    long long used = 0;
    int r = run(&S, s, &B, &used);
    search_free(&S);
    return r;
}

PyDoc_STRVAR(sample_outcomes_doc,
             "sample_outcomes(stock, waste, foundations, tableau, down, redeals_used, draw, redeals, foundation_return,\n"
             "            widths, unseen, lines, first, count, seed, nodes) -> [bytes, ...]\n\n"
             "The honest player's sampled evaluation (cardtable.bots.honest). The position is given by the\n"
             "KlondikeState fields; unseen holds a truth value for each of its face-down places in\n"
             "Rules.face_down's order (the stock bottom first, then piles 1-7 bottom first): the cards of\n"
             "the places marked true are dealt among those places at random in each sample (samples first\n"
             "to first + count - 1 of seed: sample k is the same in every call). In each sample, each line\n"
             "(a list of legal moves as (src, dst, n) triples, draws and redeals included, that turns up no\n"
             "card before its last move) is played and the position after it solved as\n"
             "cardtable.solve.solve does within nodes positions (no time limit; solve's narrow phases of the\n"
             "widths, at most eight, in turn, then the complete search). For each line, bytes: one\n"
             "per sample, 1 won, 2 proved lost, 0 unknown. ValueError for a position or options the core\n"
             "does not take, or a line that is not a list of moves.");

/* PlayLine for sample_rounds: the line's moves, then solve_within. */
static int play_line(const void *options, void *position, const uint8_t (*moves)[3], Py_ssize_t n, long long nodes,
                     int *best) {
    const Search *o = options;
    *best = -1; /* (no progress told: an unknown sample is 0) */
    State *s = position;
    for (Py_ssize_t m = 0; m < n; m++)
        if (apply_rules_move(s, moves[m][0], moves[m][1], moves[m][2], o->draw, o->limit) < 0) return BAD_LINE;
    return solve_within(o, s, nodes);
}

static PyObject *py_sample_outcomes(PyObject *self, PyObject *args) {
    PyObject *stock, *waste, *found, *tableau, *down, *redeals, *widths, *unseen, *lines;
    long used;
    int draw, freturn;
    long long first, count, nodes;
    unsigned long long seed;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOliOpOOOLLKL", &stock, &waste, &found, &tableau, &down, &used, &draw, &redeals,
                          &freturn, &widths, &unseen, &lines, &first, &count, &seed, &nodes))
        return NULL;
    Search options;
    if (read_options(&options, draw, freturn, 1, MODE_FULL, 0, redeals) < 0 || read_widths(widths, &options.widths) < 0)
        return NULL;
    State base;
    if (read_state(stock, waste, found, tableau, down, used, &base) < 0) return NULL;
    /* The face-down places in Rules.face_down's order (the stock from its bottom, then each
     * pile's face-down cards), as byte offsets into a State. */
    size_t places[52], hidden[52];
    int nplaces = 0, off[8];
    offsets(&base, off);
    for (int i = 0; i < base.nt - base.p; i++) places[nplaces++] = offsetof(State, c) + (size_t)(base.nt - 1 - i);
    for (int k = 0; k < 7; k++)
        for (int j = 0; j < base.down[k]; j++) places[nplaces++] = offsetof(State, c) + (size_t)(off[k] + j);
    int nhidden = read_unseen(unseen, places, nplaces, hidden);
    Lines L;
    if (nhidden < 0 || read_lines(lines, &L, FOUNDATION + 3, FOUNDATION, 52) < 0) return NULL;
    PyObject *out =
        sample_rounds(&base, sizeof base, hidden, nhidden, &L, first, count, (uint64_t)seed, nodes, play_line, &options);
    lines_free(&L);
    return out;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, search_doc},
    {"children", py_children, METH_VARARGS, children_doc},
    {"class_numbers", py_class_numbers, METH_VARARGS, class_numbers_doc},
    {"can_progress", py_can_progress, METH_VARARGS, can_progress_doc},
    {"sample_outcomes", py_sample_outcomes, METH_VARARGS, sample_outcomes_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "cardtable.solve.native._klondike",
    "The compiled Klondike search core (see cardtable.solve.native).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__klondike(void) { return PyModule_Create(&module); }
