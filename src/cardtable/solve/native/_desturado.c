/* The native core of the Desturado solver: cardtable.solve.native._desturado.
 *
 * The same depth-first search as cardtable.solve.search.depth_first over
 * cardtable.solve.spaces.DesturadoSpace (optionally the eager filter of
 * cardtable.solve.spaces.EagerSpace, optionally only the first k children as
 * cardtable.solve.search.Pruned), exploring exactly the same positions in the
 * same order, with the same node counting and budget checks. The pure Python
 * code is the reference; cardtable.solve.native.desturado is the Python side.
 *
 * Exactness, point by point:
 * - legal moves in Desturado.legal_moves order (source: columns, then hand
 *   spaces; target: columns, then hand spaces), with rules 1-6;
 * - DesturadoSpace.children: moves into an empty place other than the first
 *   empty one of its kind left out, the same scores, sorted by (-gain, index);
 * - EagerSpace: only the moves that raise (cards in the hand, -face-down cards)
 *   in some component, if there are any;
 * - Pruned: the first k of those;
 * - the key of DesturadoSpace.key stored exactly (no lossy hash): every column
 *   as (face-down cards, unit bottom, unit top), every hand stack as (bottom,
 *   top), both multisets sorted. A column's face-down cards are always a prefix
 *   of the same column's face-down cards at the start (cards only leave the
 *   face-down part, from its top), and the cards are distinct, so the
 *   face-down part is identified by (column, count): one byte.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_core.h"

#define MAX_COLS 5
#define MAX_HAND 5
#define MAX_PLACES (MAX_COLS + MAX_HAND)
#define MAX_CARDS 52
#define MAX_MOVES 72 /* at most 5 * 9 from columns + 5 * 4 from the hand = 65 */
#define KEY_WORDS 4  /* 3 bytes a column + 2 a hand stack: at most 25, zero-padded */
#define HAND_CODE 5  /* place code of the first hand space (desturado.HAND) */

typedef struct {
    uint8_t len[MAX_PLACES]; /* cards in each place: columns, then hand spaces */
    uint8_t down[MAX_COLS];  /* face-down cards at the bottom of each column */
    uint8_t cards[MAX_CARDS]; /* every place's cards bottom first, place after place */
} State;

typedef struct {
    State s;
    uint8_t moves[MAX_MOVES]; /* children still to try: src * 16 + dst (place indices) */
    uint8_t n;                /* children */
    uint8_t next;             /* the next child to try */
    uint8_t via;              /* the move that led here (not for the start) */
} Level;

typedef struct {
    int ncols, nhand, nplaces;
    uint8_t fit[MAX_CARDS * MAX_CARDS]; /* fit[bottom * 52 + top] */
    uint64_t fitmask[MAX_CARDS];        /* bit top of fitmask[bottom]: fit[bottom * 52 + top] */
    long long turn_up, per_card, to_hand, into_space, into_column, merge;
    int eager;
    int prune; /* leave out the children desturado_lost proves lost (DesturadoProofSpace) */
    long long k; /* children kept per position; < 0: all */
    uint8_t base[MAX_COLS]; /* face-down ids of column i: base[i] + 1 .. base[i] + start down */
    Seen seen; /* keys of (3 * ncols + 2 * nhand) bytes, zero-padded to whole words */
    /* The path. */
    Level *levels;
    size_t depth, levels_cap;
} Ctx;

/* --- positions ------------------------------------------------------------------ */

static void offsets(const Ctx *c, const State *s, int *off) {
    int o = 0;
    for (int p = 0; p < c->nplaces; p++) {
        off[p] = o;
        o += s->len[p];
    }
    off[c->nplaces] = o;
}

static int is_won(const Ctx *c, const State *s) {
    for (int i = 0; i < c->ncols; i++)
        if (s->len[i]) return 0;
    return 1;
}

/* Desturado.apply: the unit at place src goes onto place dst. */
static void apply_move(const Ctx *c, const State *s, int src, int dst, State *o) {
    int off[MAX_PLACES + 1];
    offsets(c, s, off);
    int start, n;
    memcpy(o->len, s->len, sizeof o->len);
    memcpy(o->down, s->down, sizeof o->down);
    if (src < c->ncols) {
        int d = s->down[src];
        start = off[src] + d;
        n = s->len[src] - d;
        if (d) o->down[src] = (uint8_t)(d - 1);
    } else {
        start = off[src];
        n = s->len[src];
    }
    o->len[src] = (uint8_t)(s->len[src] - n);
    o->len[dst] = (uint8_t)(s->len[dst] + n);
    uint8_t *w = o->cards;
    for (int p = 0; p < c->nplaces; p++) {
        int keep = o->len[p] - (p == dst ? n : 0);
        memcpy(w, s->cards + off[p], (size_t)keep);
        w += keep;
        if (p == dst) {
            memcpy(w, s->cards + start, (size_t)n);
            w += n;
        }
    }
}

/* DesturadoSpace.key, in a canonical byte form (module comment), zero-padded to KEY_WORDS words. */
static void make_key(const Ctx *c, const State *s, uint64_t key[KEY_WORDS]) {
    uint32_t col[MAX_COLS];
    uint32_t hand[MAX_HAND];
    int o = 0;
    for (int i = 0; i < c->ncols; i++) {
        int n = s->len[i];
        if (!n) {
            col[i] = 0xFFFFFFu;
        } else {
            int d = s->down[i];
            uint32_t id = d ? (uint32_t)(c->base[i] + d) : 0u;
            col[i] = (id << 16) | ((uint32_t)s->cards[o + d] << 8) | s->cards[o + n - 1];
        }
        o += n;
    }
    for (int h = 0; h < c->nhand; h++) {
        int n = s->len[c->ncols + h];
        hand[h] = n ? ((uint32_t)s->cards[o] << 8) | s->cards[o + n - 1] : 0xFFFFu;
        o += n;
    }
    for (int i = 1; i < c->ncols; i++)
        for (int j = i; j > 0 && col[j - 1] > col[j]; j--) {
            uint32_t t = col[j];
            col[j] = col[j - 1];
            col[j - 1] = t;
        }
    for (int i = 1; i < c->nhand; i++)
        for (int j = i; j > 0 && hand[j - 1] > hand[j]; j--) {
            uint32_t t = hand[j];
            hand[j] = hand[j - 1];
            hand[j - 1] = t;
        }
    memset(key, 0, sizeof(uint64_t) * KEY_WORDS);
    uint8_t *w = (uint8_t *)key;
    for (int i = 0; i < c->ncols; i++) {
        *w++ = (uint8_t)(col[i] >> 16);
        *w++ = (uint8_t)(col[i] >> 8);
        *w++ = (uint8_t)col[i];
    }
    for (int h = 0; h < c->nhand; h++) {
        *w++ = (uint8_t)(hand[h] >> 8);
        *w++ = (uint8_t)hand[h];
    }
}

/* cardtable.solve.lost.desturado_lost: whether the matching bound proves s lost. The cards
 * that must still move as the bottom of their unit or stack (M: every face-down card, every
 * column's unit bottom, every hand stack's bottom) against the cards nothing lies on for good
 * (T: every face-down card, every column's top, every hand stack's top); x may take t when x
 * fits on t and t is not x's own unit or stack. Lost when fewer than |M| - hand spaces of M
 * can be matched to distinct cards of T (see the Python function for the proof). */
static int lost(const Ctx *c, const State *s) {
    uint8_t m_card[MAX_CARDS], m_own[MAX_CARDS]; /* m_own: the card of x's own top (255: none) */
    uint64_t adj[MAX_CARDS], open = 0;
    int nm = 0, o = 0;
    for (int i = 0; i < c->ncols; i++) {
        int n = s->len[i];
        if (n) {
            int d = s->down[i];
            for (int k = 0; k < d; k++) {
                m_card[nm] = s->cards[o + k];
                m_own[nm++] = 255;
                open |= 1ULL << s->cards[o + k];
            }
            m_card[nm] = s->cards[o + d];
            m_own[nm++] = s->cards[o + n - 1];
            open |= 1ULL << s->cards[o + n - 1];
        }
        o += n;
    }
    for (int h = 0; h < c->nhand; h++) {
        int n = s->len[c->ncols + h];
        if (n) {
            m_card[nm] = s->cards[o];
            m_own[nm++] = s->cards[o + n - 1];
            open |= 1ULL << s->cards[o + n - 1];
        }
        o += n;
    }
    int need = nm - c->nhand;
    if (need <= 0) return 0;
    /* Open cards are distinct cards, so a bit per card code stands for each. */
    for (int i = 0; i < nm; i++) {
        uint64_t own = 1ULL << m_card[i];
        if (m_own[i] != 255) own |= 1ULL << m_own[i];
        adj[i] = c->fitmask[m_card[i]] & open & ~own;
    }
    /* A greedy matching first (each bottom the first free open card it may take), then
     * augmenting paths from the bottoms it left: a largest matching, up to need. */
    uint8_t owner[64];
    uint64_t matched = 0;
    int size = 0, left[MAX_CARDS], nleft = 0;
    for (int i = 0; i < nm; i++) {
        uint64_t free_ = adj[i] & ~matched;
        if (free_) {
            int t = __builtin_ctzll(free_);
            owner[t] = (uint8_t)i;
            matched |= 1ULL << t;
            size++;
        } else {
            left[nleft++] = i;
        }
    }
    if (size >= need) return 0;
    int st_i[MAX_CARDS + 1], st_t[MAX_CARDS + 1];
    for (int u = 0; u < nleft; u++) {
        if (size + (nleft - u) < need) return 1; /* even matching all the rest falls short */
        uint64_t seen = 0;
        int sp = 0;
        st_i[0] = left[u];
        while (sp >= 0) {
            uint64_t cand = adj[st_i[sp]] & ~seen;
            if (!cand) {
                sp--;
                continue;
            }
            uint64_t free_ = cand & ~matched;
            int t = __builtin_ctzll(free_ ? free_ : cand);
            seen |= 1ULL << t;
            st_t[sp] = t;
            if (free_) {
                /* The path: each level's bottom takes the card chosen at its level. */
                for (int l = sp; l >= 0; l--) owner[st_t[l]] = (uint8_t)st_i[l];
                matched |= 1ULL << t;
                size++;
                break;
            }
            st_i[++sp] = owner[t];
        }
        if (size >= need) return 0;
    }
    return 1;
}

/* DesturadoSpace.children (then the eager filter, then the first k): the moves, best first. */
static int children(const Ctx *c, const State *s, uint8_t *out) {
    int off[MAX_PLACES + 1];
    offsets(c, s, off);
    int first_column = -1, first_space = -1;
    for (int i = 0; i < c->ncols; i++)
        if (!s->len[i]) {
            first_column = i;
            break;
        }
    for (int p = c->ncols; p < c->nplaces; p++)
        if (!s->len[p]) {
            first_space = p;
            break;
        }
    long long gain[MAX_MOVES];
    uint8_t move[MAX_MOVES];
    int n = 0;
    for (int i = 0; i < c->ncols; i++) {
        int len = s->len[i];
        if (!len) continue;
        int d = s->down[i];
        const uint8_t *fit = c->fit + (size_t)s->cards[off[i] + d] * MAX_CARDS;
        for (int j = 0; j < c->nplaces; j++) {
            if (j == i) continue;
            long long g;
            int target = s->len[j];
            if (j < c->ncols) {
                if (target) {
                    if (!fit[s->cards[off[j + 1] - 1]]) continue; /* rule 1 */
                    g = 0;
                } else {
                    if (!d) continue; /* rule 4 */
                    if (j != first_column) continue;
                    g = c->into_column;
                }
            } else {
                if (target) {
                    if (!fit[s->cards[off[j + 1] - 1]]) continue; /* rule 2 */
                    g = c->to_hand;
                } else {
                    if (j != first_space) continue; /* rule 5 */
                    g = c->into_space;
                }
                g += c->per_card * (long long)(len - d);
            }
            if (d) g += c->turn_up;
            gain[n] = g;
            move[n] = (uint8_t)(i * 16 + j);
            n++;
        }
    }
    for (int k = c->ncols; k < c->nplaces; k++) {
        if (!s->len[k]) continue;
        const uint8_t *fit = c->fit + (size_t)s->cards[off[k]] * MAX_CARDS;
        for (int j = c->ncols; j < c->nplaces; j++) {
            if (j == k || !s->len[j]) continue; /* rule 6 */
            if (!fit[s->cards[off[j + 1] - 1]]) continue; /* rule 3 */
            gain[n] = c->merge;
            move[n] = (uint8_t)(k * 16 + j);
            n++;
        }
    }
    /* Sort by (-gain, index): a stable sort by gain, highest first. */
    for (int a = 1; a < n; a++) {
        long long g = gain[a];
        uint8_t m = move[a];
        int b = a;
        for (; b > 0 && gain[b - 1] < g; b--) {
            gain[b] = gain[b - 1];
            move[b] = move[b - 1];
        }
        gain[b] = g;
        move[b] = m;
    }
    if (c->prune) {
        /* DesturadoProofSpace: the children proved lost left out, before the eager filter and k.
         * Without the eager filter only the first k children still alive are kept, so the
         * bound is asked of no more children than it takes to find them (the Python
         * generator, cut by Pruned, asks the same ones). */
        int live = 0, enough = !c->eager && c->k >= 0 ? (int)c->k : n;
        State child;
        for (int a = 0; a < n && live < enough; a++) {
            apply_move(c, s, move[a] >> 4, move[a] & 15, &child);
            if (!lost(c, &child)) move[live++] = move[a];
        }
        n = live;
    }
    int kept = 0;
    if (c->eager) {
        /* Progress: a unit from a column into the hand (more cards in the hand), or off a face-down card. */
        for (int a = 0; a < n; a++) {
            int src = move[a] >> 4, dst = move[a] & 15;
            if (src < c->ncols && (dst >= c->ncols || s->down[src])) out[kept++] = move[a];
        }
    }
    if (!kept) {
        memcpy(out, move, (size_t)n);
        kept = n;
    }
    if (c->k >= 0 && kept > c->k) kept = (int)c->k;
    return kept;
}

/* --- the search ------------------------------------------------------------------- */

static Level *push_level(Ctx *c) {
    Level *l = room_for(c->levels, &c->levels_cap, c->depth + 1, sizeof *l, 256);
    if (!l) return NULL;
    c->levels = l;
    return &c->levels[c->depth++];
}

/* depth_first. Runs without the GIL (u), taking it back now and then to check for signals. */
static int run(Ctx *c, const State *start, const Budget *B, long long *nodes_out, Unlocked *u) {
    uint64_t key[KEY_WORDS];
    const size_t words = c->seen.words;
    size_t slot = 0;
    long long nodes = 0;
    *nodes_out = 0;
    if (is_won(c, start)) return SOLVED;
    make_key(c, start, key);
    uint64_t h = hash_key(key, words);
    seen_find(&c->seen, key, h, &slot);
    if (seen_insert(&c->seen, key, h, slot)) return NO_MEMORY;
    Level *top = push_level(c);
    if (!top) return NO_MEMORY;
    top->s = *start;
    top->n = (uint8_t)children(c, &top->s, top->moves);
    top->next = 0;
    top->via = 0;
    nodes = 1;
    State child;
    while (c->depth) {
        top = &c->levels[c->depth - 1];
        int pushed = 0;
        while (top->next < top->n) {
            if (interrupted(u)) {
                *nodes_out = nodes;
                return INTERRUPTED;
            }
            uint8_t m = top->moves[top->next++];
            apply_move(c, &top->s, m >> 4, m & 15, &child);
            make_key(c, &child, key);
            h = hash_key(key, words);
            if (seen_find(&c->seen, key, h, &slot)) continue;
            if (is_won(c, &child)) {
                /* The path: the moves to every level after the first, then this one. */
                Level *last = push_level(c);
                if (!last) return NO_MEMORY;
                last->via = m;
                *nodes_out = nodes;
                return SOLVED;
            }
            if (over_budget(B, nodes, c->seen.count)) {
                *nodes_out = nodes;
                return UNKNOWN;
            }
            if (seen_insert(&c->seen, key, h, slot)) return NO_MEMORY;
            nodes++;
            Level *next = push_level(c);
            if (!next) return NO_MEMORY;
            next->s = child;
            next->n = (uint8_t)children(c, &next->s, next->moves);
            next->next = 0;
            next->via = m;
            pushed = 1;
            break;
        }
        if (!pushed) c->depth--;
    }
    *nodes_out = nodes;
    return UNSOLVABLE;
}

/* --- the Python side ---------------------------------------------------------------- */

static int read_score(PyObject *scores, Py_ssize_t i, long long *out) {
    long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(scores, i));
    if (v == -1 && PyErr_Occurred()) return -1;
    if (v > (1LL << 40) || v < -(1LL << 40)) {
        PyErr_SetString(PyExc_ValueError, "score out of range");
        return -1;
    }
    *out = v;
    return 0;
}

PyDoc_STRVAR(search_doc,
             "search(columns, down, hand, fit, scores, eager, prune, k, max_nodes, max_seen, seconds)\n"
             "--\n\n"
             "The depth-first search of cardtable.solve.search.depth_first over DesturadoSpace\n"
             "from the position (columns, down, hand): (verdict, nodes, moves), moves as bytes,\n"
             "two place codes (source, target) per move. fit: 52 * 52 bytes, fit[bottom * 52 + top];\n"
             "scores: (turn up, per card, to hand, into space, into column, merge); eager: keep only\n"
             "progress moves when there are any; prune: leave out the children desturado_lost proves\n"
             "lost; k: keep the first k children (< 0: all); limits\n"
             "None for none.");

static PyObject *py_search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *columns, *down, *hand, *scores, *o_nodes, *o_seen, *o_seconds;
    Py_buffer fit;
    int eager, prune;
    long long k;
    if (!PyArg_ParseTuple(args, "O!O!O!y*O!ppLOOO", &PyTuple_Type, &columns, &PyTuple_Type, &down, &PyTuple_Type,
                          &hand, &fit, &PyTuple_Type, &scores, &eager, &prune, &k, &o_nodes, &o_seen, &o_seconds))
        return NULL;
    Ctx c;
    memset(&c, 0, sizeof c);
    State start;
    memset(&start, 0, sizeof start);
    PyObject *result = NULL;
    Budget B;

    if (fit.len != MAX_CARDS * MAX_CARDS) {
        PyErr_SetString(PyExc_ValueError, "fit must have 52 * 52 bytes");
        goto done;
    }
    memcpy(c.fit, fit.buf, MAX_CARDS * MAX_CARDS);
    for (int b = 0; b < MAX_CARDS; b++)
        for (int t = 0; t < MAX_CARDS; t++)
            if (c.fit[b * MAX_CARDS + t]) c.fitmask[b] |= 1ULL << t;
    c.ncols = (int)PyTuple_GET_SIZE(columns);
    c.nhand = (int)PyTuple_GET_SIZE(hand);
    if (c.ncols < 1 || c.ncols > MAX_COLS || c.nhand < 0 || c.nhand > MAX_HAND ||
        PyTuple_GET_SIZE(down) != c.ncols || PyTuple_GET_SIZE(scores) != 6) {
        PyErr_SetString(PyExc_ValueError, "1 to 5 columns, as many face-down counts, 0 to 5 hand spaces, 6 scores");
        goto done;
    }
    c.nplaces = c.ncols + c.nhand;
    c.eager = eager;
    c.prune = prune;
    c.k = k;
    if (read_score(scores, 0, &c.turn_up) || read_score(scores, 1, &c.per_card) ||
        read_score(scores, 2, &c.to_hand) || read_score(scores, 3, &c.into_space) ||
        read_score(scores, 4, &c.into_column) || read_score(scores, 5, &c.merge))
        goto done;
    if (read_budget(o_nodes, o_seen, o_seconds, &B)) goto done;
    {
        int total = 0, n;
        int seen[MAX_CARDS] = {0};
        for (int p = 0; p < c.nplaces; p++) {
            PyObject *pile = p < c.ncols ? PyTuple_GET_ITEM(columns, p) : PyTuple_GET_ITEM(hand, p - c.ncols);
            if ((n = read_cards(pile, start.cards + total, MAX_CARDS - total, MAX_CARDS, "a pile")) < 0) goto done;
            start.len[p] = (uint8_t)n;
            for (int i = 0; i < n; i++)
                if (seen[start.cards[total + i]]++) {
                    PyErr_SetString(PyExc_ValueError, "a card is there twice");
                    goto done;
                }
            total += n;
        }
        int base = 0;
        for (int i = 0; i < c.ncols; i++) {
            long d = PyLong_AsLong(PyTuple_GET_ITEM(down, i));
            if (d == -1 && PyErr_Occurred()) goto done;
            if (d < 0 || (start.len[i] ? d >= start.len[i] : d != 0)) {
                PyErr_SetString(PyExc_ValueError, "a column's face-down cards must lie under its top card");
                goto done;
            }
            start.down[i] = (uint8_t)d;
            c.base[i] = (uint8_t)base;
            base += (int)d;
        }
    }

    {
        long long nodes = 0;
        int verdict = NO_MEMORY;
        if (!seen_init(&c.seen, (size_t)(3 * c.ncols + 2 * c.nhand + 7) / 8)) {
            Unlocked u;
            release_gil(&u);
            verdict = run(&c, &start, &B, &nodes, &u);
            take_gil(&u);
        }
        PyObject *moves = no_moves(verdict, 0);
        if (verdict == SOLVED) {
            /* The start needs no move, every later level one. */
            size_t count = c.depth ? c.depth - 1 : 0;
            moves = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(2 * count));
            char *w = moves ? PyBytes_AS_STRING(moves) : NULL;
            for (size_t i = 0; w && i < count; i++) {
                int m = c.levels[i + 1].via;
                int src = m >> 4, dst = m & 15;
                w[2 * i] = (char)(src < c.ncols ? src : HAND_CODE + src - c.ncols);
                w[2 * i + 1] = (char)(dst < c.ncols ? dst : HAND_CODE + dst - c.ncols);
            }
        }
        result = search_result(verdict, nodes, moves);
    }

done:
    PyBuffer_Release(&fit);
    seen_free(&c.seen);
    free(c.levels);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, search_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "cardtable.solve.native._desturado",
    "The native core of the Desturado solver (see cardtable.solve.native.desturado).",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__desturado(void) { return PyModule_Create(&module); }
