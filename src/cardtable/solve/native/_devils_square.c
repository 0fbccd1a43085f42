/* The native core of the Devil's Square solver: cardtable.solve.native._devils_square.
 *
 * The same depth-first search as cardtable.solve.search.depth_first over the plain
 * cardtable.solve.spaces.RulesSpace of DevilsSquare (optionally the eager filter of
 * cardtable.solve.spaces.EagerSpace, optionally only the first k children as
 * cardtable.solve.search.Pruned), exploring exactly the same positions in the same
 * order, with the same node counting and budget checks. The pure Python code is the
 * reference; cardtable.solve.native.devils_square is the Python side.
 *
 * Exactness, point by point:
 * - legal moves in DevilsSquare.legal_moves order (source, then target, both in reading
 *   order, then count): the top card, the top two or the whole pile of a source whose
 *   bottom moved card is not a 1, onto a target whose top card is one lower and of the
 *   same colour, with no item in both (every pile is one of games.devils_square
 *   .field_piles, so the moved cards and the target are each one colour, numbers up by one);
 * - DevilsSquare.apply: a pile of four is a book, removed (books + 1); then, when the
 *   draw pile has cards and the source or the target is empty, the empty ones of the two
 *   are refilled in reading order from the end of the draw pile;
 * - RulesSpace.children: sorted by (-sum(progress(after)), index); progress is (books,
 *   cards dealt), so the sum grows by the book made (0 or 1) plus the cards dealt (0 to 2);
 * - EagerSpace: only the moves whose progress grows in some component (a book made or a
 *   card dealt: the sum grows), if there are any; they come first in the sorted order;
 * - Pruned: the first k of those;
 * - the key stored exactly, never as a lossy hash: the 16 piles, each as its number among
 *   the 400 field piles (9 bits, 0 for empty), in reading order (RulesSpace.key: the
 *   position itself) or sorted (cardtable.solve.spaces.devils_square_key, the key of
 *   space_for: positions are interchangeable), and the number of cards in the draw pile.
 *   The draw pile is always its first cards at the start of the search (cards are dealt
 *   from its end only) and the books made follow from the cards still there (each book
 *   removes four), so positions of one search with the same key are the same position
 *   (sorted: the same up to the order of the positions).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_core.h"

#define SIZE 16
#define DECK 64
#define NPILES 401      /* the empty pile (0) and the 400 field piles */
#define MAX_DRAW 64
#define MAX_CHILDREN 240 /* at most one move for each (source, target) pair */
#define ALL_BOOKS 16
#define NO_KEY 16 /* the target key of a pile that takes nothing */
#define KEY_WORDS 3

#define COLOUR(c) ((c) >> 4)
#define ITEM(c) (((c) >> 2) & 3)
#define NUMBER(c) (((c) & 3) + 1)

/* --- the field piles -------------------------------------------------------------- */

typedef struct {
    uint8_t len;
    uint8_t cards[3];  /* bottom first */
    uint8_t tkey;      /* as a target: colour * 4 + number - 1 of its top card; NO_KEY if empty or a 4 on top */
    uint8_t mask;      /* its items, as bits */
    uint8_t ntakes;    /* what it can give, by count: the top card, the top two, the whole pile */
    uint8_t take_key[3];  /* the target key the bottom moved card fits on */
    uint8_t take_n[3];    /* the count */
    uint8_t take_mask[3]; /* the moved items */
    uint16_t rest[4];     /* rest[n]: the pile without its top n cards */
} PileInfo;

static PileInfo PILES[NPILES];
static uint16_t CODE_ID[4096]; /* a pile's code (see pile_code) -> its number; 0: empty or no field pile */
static uint16_t SINGLE[DECK];  /* the number of the pile of one card */

/* A field pile is known by its length, its bottom card and the items of the cards above. */
static unsigned pile_code(const uint8_t *cards, int len) {
    if (!len) return 0;
    unsigned code = ((unsigned)len << 10) | ((unsigned)cards[0] << 4);
    if (len > 1) code |= (unsigned)ITEM(cards[1]) << 2;
    if (len > 2) code |= (unsigned)ITEM(cards[2]);
    return code;
}

/* Whether cards[0..len) make a field pile (games.devils_square.pile_problem finds none). */
static int is_field_pile(const uint8_t *cards, int len) {
    if (len < 1 || len > 3) return 0;
    int mask = 0;
    for (int k = 0; k < len; k++) {
        if (cards[k] >= DECK || COLOUR(cards[k]) != COLOUR(cards[0])) return 0;
        if (k && NUMBER(cards[k]) != NUMBER(cards[k - 1]) + 1) return 0;
        if (mask & (1 << ITEM(cards[k]))) return 0;
        mask |= 1 << ITEM(cards[k]);
    }
    return 1;
}

/* The number of the pile cards[0..len), if it is the empty pile or a field pile; else -1. */
static int pile_id(const uint8_t *cards, int len) {
    if (!len) return 0;
    if (!is_field_pile(cards, len)) return -1;
    return CODE_ID[pile_code(cards, len)];
}

/* Every field pile, numbered from 1, with what DevilsSquare.legal_moves (_pile_info) knows of it. */
static void make_piles(void) {
    int id = 1;
    memset(PILES, 0, sizeof PILES);
    memset(CODE_ID, 0, sizeof CODE_ID);
    PILES[0].tkey = NO_KEY;
    for (int colour = 0; colour < 4; colour++)
        for (int low = 1; low <= 4; low++)
            for (int len = 1; len <= 3 && low + len - 1 <= 4; len++)
                for (int a = 0; a < 4; a++)
                    for (int b = 0; b < 4; b++)
                        for (int c = 0; c < 4; c++) {
                            if ((len < 2 && b) || (len < 3 && c)) continue; /* unused items once */
                            if (len >= 2 && b == a) continue;
                            if (len >= 3 && (c == a || c == b)) continue;
                            int items[3] = {a, b, c};
                            PileInfo *p = &PILES[id];
                            p->len = (uint8_t)len;
                            for (int k = 0; k < len; k++)
                                p->cards[k] = (uint8_t)(colour * 16 + items[k] * 4 + low + k - 1);
                            CODE_ID[pile_code(p->cards, len)] = (uint16_t)id;
                            id++;
                        }
    for (int i = 0; i < id; i++) {
        PileInfo *p = &PILES[i];
        if (i) {
            uint8_t top = p->cards[p->len - 1];
            p->tkey = NUMBER(top) < 4 ? (uint8_t)(COLOUR(top) * 4 + NUMBER(top) - 1) : NO_KEY;
        }
        int mask = 0;
        for (int k = 1; k <= p->len; k++) {
            uint8_t bottom = p->cards[p->len - k];
            mask |= 1 << ITEM(bottom);
            if (NUMBER(bottom) > 1) {
                p->take_key[p->ntakes] = (uint8_t)(COLOUR(bottom) * 4 + NUMBER(bottom) - 2);
                p->take_n[p->ntakes] = (uint8_t)k;
                p->take_mask[p->ntakes] = (uint8_t)mask;
                p->ntakes++;
            }
        }
        p->mask = (uint8_t)mask;
        for (int n = 0; n <= p->len; n++) p->rest[n] = (uint16_t)pile_id(p->cards, p->len - n);
    }
    for (int c = 0; c < DECK; c++) {
        uint8_t card = (uint8_t)c;
        SINGLE[c] = (uint16_t)pile_id(&card, 1);
    }
}

/* --- positions ------------------------------------------------------------------------ */

typedef struct {
    uint16_t pile[SIZE]; /* each position's pile number, reading order */
    uint8_t draw;        /* cards left in the draw pile: the start's first ones */
    uint8_t books;
} State;

/* A move: src << 6 | dst << 2 | (count - 1). */
#define MOVE(src, dst, n) ((uint16_t)((src) << 6 | (dst) << 2 | ((n) - 1)))
#define M_SRC(m) ((m) >> 6)
#define M_DST(m) (((m) >> 2) & 15)
#define M_N(m) (((m) & 3) + 1)

typedef struct {
    State s;
    uint32_t first; /* its children: moves[first .. first + n) of the move stack */
    uint16_t n;
    uint16_t next; /* the next child to try */
    uint16_t via;  /* the move that led here (not for the start) */
} Level;

typedef struct {
    uint8_t draw[MAX_DRAW]; /* the start's draw pile, bottom first */
    int eager;
    int symmetric; /* the key sorts the piles (devils_square_key) */
    long long k; /* children kept per position; < 0: all */
    Seen seen; /* keys of KEY_WORDS words */
    /* The path, and the children of its positions. */
    Level *levels;
    size_t depth, levels_cap;
    uint16_t *moves;
    size_t moves_cap;
} Ctx;

/* DevilsSquare.is_won. */
static int is_won(const State *s) { return s->books == ALL_BOOKS; }

/* DevilsSquare.apply (a legal move). */
static void apply_move(const Ctx *c, const State *s, uint16_t m, State *o) {
    int src = M_SRC(m), dst = M_DST(m), n = M_N(m);
    const PileInfo *sp = &PILES[s->pile[src]], *dp = &PILES[s->pile[dst]];
    *o = *s;
    o->pile[src] = sp->rest[n];
    int len = dp->len + n;
    if (len == 4) {
        o->pile[dst] = 0;
        o->books++;
    } else {
        uint8_t cards[3];
        memcpy(cards, dp->cards, dp->len);
        memcpy(cards + dp->len, sp->cards + sp->len - n, (size_t)n);
        o->pile[dst] = CODE_ID[pile_code(cards, len)];
    }
    if (o->draw && !(o->pile[src] && o->pile[dst])) {
        int a = src < dst ? src : dst, b = src < dst ? dst : src;
        if (!o->pile[a] && o->draw) o->pile[a] = SINGLE[c->draw[--o->draw]];
        if (!o->pile[b] && o->draw) o->pile[b] = SINGLE[c->draw[--o->draw]];
    }
}

/* RulesSpace.children (then the eager filter, then the first k): the moves, best first.
 * Returns how many were written to out. */
static int children(const Ctx *c, const State *s, uint16_t *out) {
    uint16_t targets[NO_KEY + 1] = {0}; /* positions by target key, as bits */
    uint16_t holds[4] = {0};            /* positions by item held, as bits */
    for (int j = 0; j < SIZE; j++) {
        const PileInfo *p = &PILES[s->pile[j]];
        targets[p->tkey] |= (uint16_t)(1u << j);
        for (int it = 0; it < 4; it++)
            if (p->mask & (1 << it)) holds[it] |= (uint16_t)(1u << j);
    }
    uint16_t by_gain[4][MAX_CHILDREN];
    int count[4] = {0, 0, 0, 0};
    for (int i = 0; i < SIZE; i++) {
        const PileInfo *sp = &PILES[s->pile[i]];
        if (!sp->ntakes) continue;
        unsigned fits[3], all = 0;
        for (int t = 0; t < sp->ntakes; t++) {
            unsigned bad = 0;
            for (int it = 0; it < 4; it++)
                if (sp->take_mask[t] & (1 << it)) bad |= holds[it];
            fits[t] = targets[sp->take_key[t]] & ~bad; /* the source itself holds a moved item */
            all |= fits[t];
        }
        while (all) {
            int j = __builtin_ctz(all);
            all &= all - 1;
            int t = 0;
            while (!(fits[t] & (1u << j))) t++;
            int n = sp->take_n[t];
            const PileInfo *dp = &PILES[s->pile[j]];
            int book = dp->len + n == 4;
            int holes = (n == sp->len) + book;
            int gain = book + (holes < s->draw ? holes : s->draw);
            by_gain[gain][count[gain]++] = MOVE(i, j, n);
        }
    }
    /* Sorted by (-gain, index): highest gain first, each gain in legal-move order. */
    int n = 0;
    for (int g = 3; g >= 0; g--) {
        if (c->eager && g == 0 && n) break; /* only the moves that make progress, when there are any */
        memcpy(out + n, by_gain[g], (size_t)count[g] * sizeof *out);
        n += count[g];
    }
    if (c->k >= 0 && n > c->k) n = (int)c->k;
    return n;
}

/* --- the seen keys ---------------------------------------------------------------------- */

/* The key of a position: its 16 pile numbers in reading order, or sorted (symmetric: the
 * key of cardtable.solve.spaces.devils_square_key, the positions' order forgotten), and the
 * cards left in the draw pile. */
static void make_key(const Ctx *c, const State *s, uint64_t key[KEY_WORDS]) {
    uint16_t p[SIZE];
    memcpy(p, s->pile, sizeof p);
    if (c->symmetric) /* insertion sort: 16 small numbers */
        for (int i = 1; i < SIZE; i++) {
            uint16_t v = p[i];
            int j = i;
            for (; j > 0 && p[j - 1] > v; j--) p[j] = p[j - 1];
            p[j] = v;
        }
    uint64_t a = 0, b = 0;
    for (int i = 0; i < 7; i++) {
        a |= (uint64_t)p[i] << (9 * i);
        b |= (uint64_t)p[7 + i] << (9 * i);
    }
    key[0] = a;
    key[1] = b;
    key[2] = (uint64_t)p[14] | (uint64_t)p[15] << 9 | (uint64_t)s->draw << 18;
}

/* A new level on the path, with room for its children on the move stack. */
static Level *push_level(Ctx *c) {
    Level *l = room_for(c->levels, &c->levels_cap, c->depth + 1, sizeof *l, 256);
    if (!l) return NULL;
    c->levels = l;
    size_t first = c->depth ? c->levels[c->depth - 1].first + c->levels[c->depth - 1].n : 0;
    if (first + MAX_CHILDREN > UINT32_MAX) return NULL;
    uint16_t *m = room_for(c->moves, &c->moves_cap, first + MAX_CHILDREN, sizeof *m, 16384);
    if (!m) return NULL;
    c->moves = m;
    l = &c->levels[c->depth++];
    l->first = (uint32_t)first;
    l->n = 0;
    l->next = 0;
    l->via = 0;
    return l;
}

/* --- the search ----------------------------------------------------------------------- */

/* depth_first. Runs without the GIL (u), taking it back now and then to check for signals. */
static int run(Ctx *c, const State *start, const Budget *B, long long *nodes_out, Unlocked *u) {
    uint64_t key[KEY_WORDS];
    size_t slot = 0;
    long long nodes = 0;
    *nodes_out = 0;
    if (is_won(start)) return SOLVED;
    make_key(c, start, key);
    uint64_t h = hash_key(key, KEY_WORDS);
    seen_find(&c->seen, key, h, &slot);
    if (seen_insert(&c->seen, key, h, slot)) return NO_MEMORY;
    Level *top = push_level(c);
    if (!top) return NO_MEMORY;
    top->s = *start;
    top->n = (uint16_t)children(c, &top->s, c->moves + top->first);
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
            uint16_t m = c->moves[top->first + top->next++];
            apply_move(c, &top->s, m, &child);
            make_key(c, &child, key);
            h = hash_key(key, KEY_WORDS);
            if (seen_find(&c->seen, key, h, &slot)) continue;
            if (is_won(&child)) {
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
            next->n = (uint16_t)children(c, &next->s, c->moves + next->first);
            next->via = m;
            pushed = 1;
            break;
        }
        if (!pushed) c->depth--;
    }
    *nodes_out = nodes;
    return UNSOLVABLE;
}

/* --- the Python side -------------------------------------------------------------------- */

/* The cards of a tuple, each 0..63: their count, or -1 with an exception set. */
static int read_tuple(PyObject *tuple, uint8_t *out, Py_ssize_t room, const char *what) {
    if (!PyTuple_Check(tuple)) {
        PyErr_Format(PyExc_TypeError, "%s must be a tuple of cards", what);
        return -1;
    }
    return read_cards(tuple, out, room, DECK, what);
}

PyDoc_STRVAR(search_doc,
             "search(field, draw, books, symmetric, eager, k, max_nodes, max_seen, seconds)\n"
             "--\n\n"
             "The depth-first search of cardtable.solve.search.depth_first over the RulesSpace of\n"
             "DevilsSquare from the position (field, draw, books): (verdict, nodes, moves), moves as\n"
             "bytes, three per move (source, target, count). symmetric: the key sorts the piles\n"
             "(devils_square_key). field: 16 field piles (tuples of cards,\n"
             "bottom first); draw: at most 64 cards, bottom first; books: 0 to 64. eager: keep only\n"
             "progress moves when there are any; k: keep the first k children (< 0: all); limits\n"
             "None for none.");

static PyObject *py_search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *field, *draw, *o_nodes, *o_seen, *o_seconds;
    int eager, books, symmetric;
    long long k;
    if (!PyArg_ParseTuple(args, "O!O!ippLOOO", &PyTuple_Type, &field, &PyTuple_Type, &draw, &books, &symmetric, &eager, &k,
                          &o_nodes, &o_seen, &o_seconds))
        return NULL;
    Ctx c;
    memset(&c, 0, sizeof c);
    State start;
    memset(&start, 0, sizeof start);
    PyObject *result = NULL;
    Budget B;

    if (PyTuple_GET_SIZE(field) != SIZE) {
        PyErr_SetString(PyExc_ValueError, "the field must have 16 piles");
        goto done;
    }
    for (int i = 0; i < SIZE; i++) {
        uint8_t cards[3];
        int n = read_tuple(PyTuple_GET_ITEM(field, i), cards, 3, "a pile");
        if (n < 0) goto done;
        int id = pile_id(cards, n);
        if (id < 0) {
            PyErr_SetString(PyExc_ValueError, "a pile is not a field pile");
            goto done;
        }
        start.pile[i] = (uint16_t)id;
    }
    {
        int n = read_tuple(draw, c.draw, MAX_DRAW, "the draw pile");
        if (n < 0) goto done;
        start.draw = (uint8_t)n;
    }
    if (books < 0 || books > DECK) {
        PyErr_SetString(PyExc_ValueError, "books must be 0 to 64");
        goto done;
    }
    start.books = (uint8_t)books;
    c.eager = eager;
    c.symmetric = symmetric;
    c.k = k;
    if (read_budget(o_nodes, o_seen, o_seconds, &B)) goto done;
    {
        long long nodes = 0;
        int verdict = NO_MEMORY;
        if (!seen_init(&c.seen, KEY_WORDS)) {
            Unlocked u;
            release_gil(&u);
            verdict = run(&c, &start, &B, &nodes, &u);
            take_gil(&u);
        }
        PyObject *moves = no_moves(verdict, 0);
        if (verdict == SOLVED) {
            /* The start needs no move, every later level one. */
            size_t count = c.depth ? c.depth - 1 : 0;
            moves = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(3 * count));
            char *w = moves ? PyBytes_AS_STRING(moves) : NULL;
            for (size_t i = 0; w && i < count; i++) {
                uint16_t m = c.levels[i + 1].via;
                w[3 * i] = (char)M_SRC(m);
                w[3 * i + 1] = (char)M_DST(m);
                w[3 * i + 2] = (char)M_N(m);
            }
        }
        result = search_result(verdict, nodes, moves);
    }

done:
    seen_free(&c.seen);
    free(c.levels);
    free(c.moves);
    return result;
}

static PyMethodDef methods[] = {
    {"search", py_search, METH_VARARGS, search_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    "cardtable.solve.native._devils_square",
    "The native core of the Devil's Square solver (see cardtable.solve.native.devils_square).",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__devils_square(void) {
    make_piles();
    return PyModule_Create(&module);
}
