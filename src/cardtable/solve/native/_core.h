/* What the compiled solver cores share (cardtable.solve.native): the clock, the budget, the
 * exact set of seen keys, growing arrays, running without the GIL, the verdicts and the
 * Python result of a search.
 *
 * Each core (_klondike.c, _demonthief.c, _desturado.c, _devils_square.c) keeps its own game:
 * positions, move generation, key packing and its loop of depth_first. Everything here is
 * static inline: each core compiles on its own, and setup.py lists this header in every
 * extension's depends, so a change here rebuilds them all. Include it after Python.h.
 */
#ifndef CARDTABLE_SOLVE_NATIVE_CORE_H
#define CARDTABLE_SOLVE_NATIVE_CORE_H

#ifndef Py_PYTHON_H
#error "include Python.h (with PY_SSIZE_T_CLEAN) before _core.h"
#endif

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

/* --- the clock ------------------------------------------------------------------------- */

/* A monotonic clock, in seconds. */
static inline double now_seconds(void) {
#ifdef _WIN32
    LARGE_INTEGER f, t;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&t);
    return (double)t.QuadPart / (double)f.QuadPart;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
}

/* --- the budget ------------------------------------------------------------------------ */

/* A Budget as the cores take it (cardtable.solve.native.limits): the node and memory limits
 * and the deadline, each only when its has_ flag is set (Python's None: no limit). */
typedef struct {
    long long max_nodes, max_seen;
    int has_nodes, has_seen, has_deadline;
    double deadline; /* on now_seconds()'s clock */
} Budget;

/* A node or memory limit: None is none, and so is an int beyond long long (the counts never
 * reach it); an int below long long is hit at once. 0, or -1 with an exception set. */
static inline int read_limit(PyObject *o, long long *value, int *has) {
    *has = 0;
    *value = 0;
    if (o == Py_None) return 0;
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    *has = overflow <= 0;
    *value = overflow < 0 ? LLONG_MIN : v;
    return 0;
}

/* The seconds budget (None: none) as a deadline from now. 0, or -1 with an exception set. */
static inline int read_seconds(PyObject *o, double *deadline, int *has) {
    *has = 0;
    *deadline = 0.0;
    if (o == Py_None) return 0;
    double seconds = PyFloat_AsDouble(o);
    if (seconds == -1.0 && PyErr_Occurred()) return -1;
    *has = 1;
    *deadline = now_seconds() + seconds;
    return 0;
}

/* The budget arguments of a core's search (nodes, memory, seconds). 0, or -1 with an exception set. */
static inline int read_budget(PyObject *nodes, PyObject *memory, PyObject *seconds, Budget *b) {
    if (read_limit(nodes, &b->max_nodes, &b->has_nodes) < 0 || read_limit(memory, &b->max_seen, &b->has_seen) < 0)
        return -1;
    return read_seconds(seconds, &b->deadline, &b->has_deadline);
}

/* depth_first's budget check, made before a new position is counted: nodes counted so far,
 * seen keys stored; the clock is read every 256 nodes, as in Python. */
static inline int over_budget(const Budget *b, long long nodes, size_t seen) {
    return (b->has_nodes && nodes >= b->max_nodes) || (b->has_seen && (long long)seen >= b->max_seen) ||
           (b->has_deadline && nodes % 256 == 0 && now_seconds() > b->deadline);
}

/* --- verdicts and the Python result ---------------------------------------------------- */

/* What a search ends with: the three verdicts of Found, then the two errors. */
enum { SOLVED, UNSOLVABLE, UNKNOWN, NO_MEMORY, INTERRUPTED };

/* The empty moves of a search that did not win (list_of_moves: a list, else bytes), or NULL
 * for an error verdict (its exception is set by search_result). */
static inline PyObject *no_moves(int verdict, int list_of_moves) {
    if (verdict != UNSOLVABLE && verdict != UNKNOWN) return NULL;
    return list_of_moves ? PyList_New(0) : PyBytes_FromStringAndSize(NULL, 0);
}

/* A core's search result (verdict, nodes, moves), stealing moves; NULL with an exception for
 * NO_MEMORY (MemoryError), INTERRUPTED (the signal handler's exception is set) or NULL moves
 * (their builder's exception is set). */
static inline PyObject *search_result(int verdict, long long nodes, PyObject *moves) {
    static const char *const names[] = {"solved", "unsolvable", "unknown"};
    if (verdict == NO_MEMORY) {
        Py_XDECREF(moves);
        return PyErr_NoMemory();
    }
    if (verdict == INTERRUPTED || !moves) {
        Py_XDECREF(moves);
        return NULL;
    }
    return Py_BuildValue("(sLN)", names[verdict], nodes, moves);
}

/* --- growing arrays -------------------------------------------------------------------- */

/* items (an array of *cap items of size bytes) with room for at least need items: the same
 * array, or a larger one (the capacity doubles, starting at first) with *cap updated. NULL
 * when out of memory; items is then left as it was. */
static inline void *room_for(void *items, size_t *cap, size_t need, size_t size, size_t first) {
    if (items && need <= *cap) return items;
    size_t n = *cap ? *cap : first;
    while (n < need) n *= 2;
    void *grown = realloc(items, n * size);
    if (grown) *cap = n;
    return grown;
}

/* --- running without the GIL ----------------------------------------------------------- */

enum { SIGNAL_EVERY = 65536 }; /* steps between two looks at the signal handlers */

/* A search running without the GIL; it takes the GIL back now and then to let Ctrl-C through. */
typedef struct {
    PyThreadState *ts;
    unsigned long steps;
} Unlocked;

static inline void release_gil(Unlocked *u) {
    u->steps = 0;
    u->ts = PyEval_SaveThread();
}

static inline void take_gil(Unlocked *u) { PyEval_RestoreThread(u->ts); }

/* Called once a step: every SIGNAL_EVERY steps, runs the signal handlers with the GIL. Nonzero
 * when one raised (its exception is set): the search stops with INTERRUPTED. */
static inline int interrupted(Unlocked *u) {
    if (++u->steps % SIGNAL_EVERY) return 0;
    PyEval_RestoreThread(u->ts);
    int bad = PyErr_CheckSignals();
    u->ts = PyEval_SaveThread();
    return bad != 0;
}

/* --- the seen keys --------------------------------------------------------------------- */

/* The set of the keys seen, stored exactly (a lookup compares the whole key: never a lossy
 * hash, so "unsolvable" stays a proof). A key is an array of `words` 64-bit words, the same
 * for every key of a set; a core packs its game's key into it (padding with a value no key
 * part makes, so that equal words are equal keys). The keys are kept in blocks that never
 * move; the slots of an open-addressing table hold (32 hash bits << 32) | (record + 1), 0
 * when empty, and are at most half full. A key's first slot is taken from the same 32 hash
 * bits as its tag, so that growing the table re-places each slot from the slot alone,
 * never reading a key back (a table of more than 2^32 slots would use only its first 2^32
 * as first slots: still exact, as lookups and inserts agree). */
enum { SEEN_BLOCK_BITS = 16, SEEN_FIRST_SLOTS = 1024 };

typedef struct {
    size_t words;
    uint64_t *slots;
    size_t mask, count; /* slots - 1; keys stored */
    uint64_t **blocks;
    size_t nblocks, cap_blocks;
} Seen;

/* The hash of a key of `words` words: a product of each word with an odd constant, folded in
 * (the products do not wait for each other), then mixed (the slot takes the low bits, the
 * tag the high ones). */
static inline uint64_t hash_key(const uint64_t *key, size_t words) {
    static const uint64_t odd[4] = {0x9E3779B97F4A7C15ULL, 0xBF58476D1CE4E5B9ULL, 0x94D049BB133111EBULL,
                                    0xFF51AFD7ED558CCDULL};
    uint64_t h = (uint64_t)words;
    for (size_t i = 0; i < words; i++) h = (h ^ (h >> 29)) + key[i] * odd[i & 3];
    h ^= h >> 32;
    h *= 0xD6E8FEB86659FD93ULL;
    h ^= h >> 32;
    return h;
}

/* An empty set of keys of `words` words. 0, or -1 when out of memory (seen_free it anyway). */
static inline int seen_init(Seen *t, size_t words) {
    memset(t, 0, sizeof *t);
    t->words = words;
    t->mask = SEEN_FIRST_SLOTS - 1;
    t->slots = calloc(SEEN_FIRST_SLOTS, sizeof(uint64_t));
    return t->slots ? 0 : -1;
}

static inline void seen_free(Seen *t) {
    free(t->slots);
    for (size_t b = 0; b < t->nblocks; b++) free(t->blocks[b]);
    free(t->blocks);
    memset(t, 0, sizeof *t);
}

/* The stored key number r. */
static inline uint64_t *seen_record(const Seen *t, size_t r) {
    return t->blocks[r >> SEEN_BLOCK_BITS] + (r & (((size_t)1 << SEEN_BLOCK_BITS) - 1)) * t->words;
}

/* Whether the stored key number r is key. */
static inline int seen_is(const Seen *t, size_t r, const uint64_t *key) {
    const uint64_t *stored = seen_record(t, r);
    for (size_t w = 0; w < t->words; w++)
        if (stored[w] != key[w]) return 0;
    return 1;
}

/* Whether key (of hash h) is in the set; if not, *where is the empty slot to insert it at. */
static inline int seen_find(const Seen *t, const uint64_t *key, uint64_t h, size_t *where) {
    uint64_t tag = h >> 32;
    size_t i = (size_t)tag & t->mask;
    for (;;) {
        uint64_t v = t->slots[i];
        if (!v) {
            *where = i;
            return 0;
        }
        if ((v >> 32) == tag && seen_is(t, (size_t)(v & 0xFFFFFFFFu) - 1, key)) return 1;
        i = (i + 1) & t->mask;
    }
}

/* Ask the CPU to fetch the slot a key of hash h is first looked up at (a hint only): a core
 * calls it as soon as it has each key, before seen_filter looks them up. */
static inline void seen_prefetch(const Seen *t, uint64_t h) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(t->slots + ((size_t)(h >> 32) & t->mask));
#else
    (void)t;
    (void)h;
#endif
}

/* Drop from n items (item_size bytes each) those whose key is in the set, keeping the
 * order of the rest; keys holds each item's hash then its words key words, and is compacted
 * alongside. Returns how many are left. Looked up together, after each key's slot was
 * prefetched, the lookups' memory fetches overlap instead of each waiting for its own. */
static inline size_t seen_filter(const Seen *t, void *items, size_t item_size, uint64_t *keys, size_t n) {
    size_t stride = t->words + 1, kept = 0, where;
    for (size_t a = 0; a < n; a++) {
        const uint64_t *ka = keys + a * stride;
        if (seen_find(t, ka + 1, ka[0], &where)) continue;
        if (kept != a) {
            memcpy((char *)items + kept * item_size, (char *)items + a * item_size, item_size);
            memcpy(keys + kept * stride, ka, stride * sizeof *ka);
        }
        kept++;
    }
    return kept;
}

/* Twice the slots, every slot in again at the first free place from its tag's slot (the
 * keys themselves are not read: a slot's tag gives its first slot, see Seen). The old slots
 * are freed once moved; out of memory, the set keeps them and stays whole. */
static inline int seen_grow(Seen *t) {
    size_t old = t->mask + 1, size = old * 2;
    uint64_t *slots = calloc(size, sizeof(uint64_t));
    if (!slots) return -1;
    for (size_t o = 0; o < old; o++) {
        uint64_t v = t->slots[o];
        if (!v) continue;
        size_t i = (size_t)(v >> 32) & (size - 1);
        while (slots[i]) i = (i + 1) & (size - 1);
        slots[i] = v;
    }
    free(t->slots);
    t->slots = slots;
    t->mask = size - 1;
    return 0;
}

/* Insert key (of hash h), not in the set, at the slot seen_find gave. 0, or -1 when out of memory. */
static inline int seen_insert(Seen *t, const uint64_t *key, uint64_t h, size_t where) {
    size_t r = t->count;
    if (r >= 0xFFFFFFFEu) return -1;
    if ((r >> SEEN_BLOCK_BITS) >= t->nblocks) {
        uint64_t **blocks = room_for(t->blocks, &t->cap_blocks, t->nblocks + 1, sizeof *blocks, 64);
        if (!blocks) return -1;
        t->blocks = blocks;
        uint64_t *block = malloc((sizeof *key * t->words) << SEEN_BLOCK_BITS);
        if (!block) return -1;
        t->blocks[t->nblocks++] = block;
    }
    memcpy(seen_record(t, r), key, t->words * sizeof *key);
    t->slots[where] = ((h >> 32) << 32) | (uint64_t)(r + 1);
    t->count++;
    if (t->count * 2 > t->mask + 1) return seen_grow(t);
    return 0;
}

/* --- one-word keys --------------------------------------------------------------------- */

/* The set of the keys seen when every key is one 64-bit word below UINT64_MAX (a core that
 * can number its keys so): the slots of an open-addressing table hold the keys themselves,
 * plus one (0: empty), at most half full. Exact as Seen is, and a lookup reads one run of
 * slots instead of a slot and then a record. */
typedef struct {
    uint64_t *slots;
    size_t mask, count; /* slots - 1; keys stored */
} Seen1;

/* A key's slot number before masking: a bijective mix, so keys that differ in any bit
 * spread over the slots. */
static inline uint64_t mix_key(uint64_t x) {
    x ^= x >> 32;
    x *= 0xD6E8FEB86659FD93ULL;
    x ^= x >> 32;
    x *= 0xD6E8FEB86659FD93ULL;
    x ^= x >> 32;
    return x;
}

/* An empty set of one-word keys. 0, or -1 when out of memory (seen1_free it anyway). */
static inline int seen1_init(Seen1 *t) {
    t->count = 0;
    t->mask = SEEN_FIRST_SLOTS - 1;
    t->slots = calloc(SEEN_FIRST_SLOTS, sizeof(uint64_t));
    return t->slots ? 0 : -1;
}

static inline void seen1_free(Seen1 *t) {
    free(t->slots);
    memset(t, 0, sizeof *t);
}

/* Whether key is in the set; if not, *where is the empty slot to insert it at. */
static inline int seen1_find(const Seen1 *t, uint64_t key, size_t *where) {
    size_t i = (size_t)mix_key(key) & t->mask;
    for (;;) {
        uint64_t v = t->slots[i];
        if (v == key + 1) return 1;
        if (!v) {
            *where = i;
            return 0;
        }
        i = (i + 1) & t->mask;
    }
}

/* seen_prefetch for a one-word key. */
static inline void seen1_prefetch(const Seen1 *t, uint64_t key) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(t->slots + ((size_t)mix_key(key) & t->mask));
#else
    (void)t;
    (void)key;
#endif
}

/* seen_filter for one-word keys: drop from n items those whose key (keys[a]) is in the set,
 * keeping the order of the rest, keys alongside; how many are left. */
static inline size_t seen1_filter(const Seen1 *t, void *items, size_t item_size, uint64_t *keys, size_t n) {
    size_t kept = 0, where;
    for (size_t a = 0; a < n; a++) {
        if (seen1_find(t, keys[a], &where)) continue;
        if (kept != a) {
            memcpy((char *)items + kept * item_size, (char *)items + a * item_size, item_size);
            keys[kept] = keys[a];
        }
        kept++;
    }
    return kept;
}

/* Insert key, not in the set, at the slot seen1_find gave; at half full, twice the slots,
 * every key in again. 0, or -1 when out of memory. */
static inline int seen1_insert(Seen1 *t, uint64_t key, size_t where) {
    t->slots[where] = key + 1;
    if (++t->count * 2 <= t->mask + 1) return 0;
    size_t size = (t->mask + 1) * 2;
    uint64_t *old = t->slots, *slots = calloc(size, sizeof(uint64_t));
    if (!slots) return -1;
    for (size_t i = 0; i <= t->mask; i++)
        if (old[i]) {
            size_t j = (size_t)mix_key(old[i] - 1) & (size - 1);
            while (slots[j]) j = (j + 1) & (size - 1);
            slots[j] = old[i];
        }
    free(old);
    t->slots = slots;
    t->mask = size - 1;
    return 0;
}

/* --- reading Python values ------------------------------------------------------------- */

/* The cards of a sequence (each 0 .. deck - 1, at most room of them) into out: their count,
 * or -1 with an exception set. what names the sequence in the messages. */
static inline int read_cards(PyObject *seq, uint8_t *out, Py_ssize_t room, long deck, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > room) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "too many cards in %s", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < 0 || v >= deck) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "not a card in %s: %ld", what, v);
            return -1;
        }
        out[i] = (uint8_t)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* --- the honest player's samples (cardtable.bots.honest.sample_outcomes) ----------------- */

enum { BAD_LINE = 16 }; /* a sampler's line had a move that does not fit its position (ValueError) */

/* splitmix64: the sampler's random numbers (a fixed generator: the samples are the same on
 * every machine). */
static inline uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Sample k of seed: the cards at the byte offsets `hidden` of a position (`bytes`) dealt
 * among those offsets, a Fisher-Yates shuffle by splitmix64 started at
 * seed ^ (k * 0xD1B54A32D192ED03), as cardtable.bots.honest.sample_cards deals them. */
static inline void deal_sample(uint8_t *bytes, const size_t *hidden, int nhidden, uint64_t seed, long long k) {
    uint8_t cards[256];
    uint64_t x = seed ^ ((uint64_t)k * 0xD1B54A32D192ED03ULL);
    for (int i = 0; i < nhidden; i++) cards[i] = bytes[hidden[i]];
    for (int i = nhidden - 1; i > 0; i--) {
        int j = (int)(splitmix64(&x) % (uint64_t)(i + 1));
        uint8_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
    for (int i = 0; i < nhidden; i++) bytes[hidden[i]] = cards[i];
}

/* The widths of solve's narrow phases (cardtable.solve.types.pruned_widths), as a core's
 * sampler runs them before its complete search: k[0], ..., k[n - 1] in turn. */
#define MAX_WIDTHS 8
typedef struct {
    int n;
    long long k[MAX_WIDTHS];
} Widths;

/* A sequence of at most MAX_WIDTHS widths, none negative, into w: 0, or -1 with an exception set. */
static inline int read_widths(PyObject *widths, Widths *w) {
    PyObject *seq = PySequence_Fast(widths, "widths");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MAX_WIDTHS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "widths: at most eight");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < 0) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "widths: not negative");
            return -1;
        }
        w->k[i] = v;
    }
    w->n = (int)n;
    Py_DECREF(seq);
    return 0;
}

/* Of the face-down places `places` (byte offsets into the position, in Rules.face_down's
 * order, at most 256), those `unseen` marks (a truth value each) into `hidden`: their number,
 * or -1 with an exception set. */
static inline int read_unseen(PyObject *unseen, const size_t *places, int nplaces, size_t *hidden) {
    PyObject *mask = PySequence_Fast(unseen, "unseen");
    if (!mask) return -1;
    if (nplaces > 256 || PySequence_Fast_GET_SIZE(mask) != nplaces) {
        Py_DECREF(mask);
        PyErr_SetString(PyExc_ValueError, "unseen must have one item per face-down card");
        return -1;
    }
    int n = 0;
    for (int i = 0; i < nplaces; i++) {
        int t = PyObject_IsTrue(PySequence_Fast_GET_ITEM(mask, i));
        if (t < 0) {
            Py_DECREF(mask);
            return -1;
        }
        if (t) hidden[n++] = places[i];
    }
    Py_DECREF(mask);
    return n;
}

/* The sampler's lines: every line's moves one after the other, as (src, dst, n); line l is
 * moves[starts[l] : starts[l + 1]]. */
typedef struct {
    uint8_t (*moves)[3];
    Py_ssize_t *starts;
    Py_ssize_t n;
    size_t nmoves, cap;
} Lines;

static inline void lines_free(Lines *L) {
    free(L->moves);
    PyMem_Free(L->starts);
    memset(L, 0, sizeof *L);
}

/* `lines`, a sequence of lists of (src, dst, n) moves (src at most max_src, dst at most
 * max_dst, n at most max_n, none negative), into L: 0, or -1 with an exception set (and L
 * freed). */
static inline int read_lines(PyObject *lines, Lines *L, int max_src, int max_dst, int max_n) {
    memset(L, 0, sizeof *L);
    PyObject *fast = PySequence_Fast(lines, "lines");
    if (!fast) return -1;
    L->n = PySequence_Fast_GET_SIZE(fast);
    L->starts = PyMem_Calloc((size_t)L->n + 1, sizeof *L->starts);
    int bad = !L->starts;
    if (bad) PyErr_NoMemory();
    for (Py_ssize_t l = 0; !bad && l < L->n; l++) {
        L->starts[l] = (Py_ssize_t)L->nmoves;
        PyObject *line = PySequence_Fast(PySequence_Fast_GET_ITEM(fast, l), "a line");
        if (!line) {
            bad = 1;
            break;
        }
        for (Py_ssize_t m = 0; m < PySequence_Fast_GET_SIZE(line); m++) {
            int src, dst, n;
            if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(line, m), "iii", &src, &dst, &n)) {
                bad = 1;
                break;
            }
            if (src < 0 || src > max_src || dst < 0 || dst > max_dst || n < 0 || n > max_n) {
                PyErr_SetString(PyExc_ValueError, "not a move");
                bad = 1;
                break;
            }
            void *grown = room_for(L->moves, &L->cap, L->nmoves + 1, sizeof *L->moves, 64);
            if (!grown) {
                PyErr_NoMemory();
                bad = 1;
                break;
            }
            L->moves = grown;
            L->moves[L->nmoves][0] = (uint8_t)src;
            L->moves[L->nmoves][1] = (uint8_t)dst;
            L->moves[L->nmoves][2] = (uint8_t)n;
            L->nmoves++;
        }
        Py_DECREF(line);
    }
    Py_DECREF(fast);
    if (bad) {
        lines_free(L);
        return -1;
    }
    L->starts[L->n] = (Py_ssize_t)L->nmoves;
    return 0;
}

/* A core's play of one line (`n` moves) on one sample, the position changed in place, and
 * its solve within `nodes` positions: SOLVED, UNSOLVABLE or UNKNOWN, else NO_MEMORY,
 * INTERRUPTED (the signal handler's exception is set) or BAD_LINE (a move that does not fit
 * the position). `options`: the core's own. *best: the most cards home in a position the
 * search took, where the core tells it (the space's SAMPLE_PROGRESS), else -1. */
typedef int (*PlayLine)(const void *options, void *position, const uint8_t (*moves)[3], Py_ssize_t n,
                        long long nodes, int *best);

enum { SAMPLE_PROGRESS = 3 }; /* an unknown sample whose search brought b cards home at most: SAMPLE_PROGRESS + b */

/* Both cores' sample_outcomes once the position, its unseen places and the lines are read:
 * samples first .. first + count - 1 of seed of the position `base` (`size` bytes; its
 * unseen cards at the byte offsets `hidden`), each line of L played on each by `play`. A
 * list of bytes, one a line, one byte a sample (1 won, 2 proved lost, 0 unknown,
 * SAMPLE_PROGRESS + b unknown with b cards brought home where `play` tells it), or NULL
 * with an exception set. */
static inline PyObject *sample_rounds(const void *base, size_t size, const size_t *hidden, int nhidden,
                                      const Lines *L, long long first, long long count, uint64_t seed,
                                      long long nodes, PlayLine play, const void *options) {
    if (count < 0 || nodes < 1) {
        PyErr_SetString(PyExc_ValueError, "count must be at least 0 and nodes at least 1");
        return NULL;
    }
    char *tally = PyMem_Calloc((size_t)(L->n * count) + 1, 1);
    uint8_t *sample = malloc(size), *here = malloc(size);
    PyObject *out = NULL;
    int failed = !tally || !sample || !here ? NO_MEMORY : 0;
    for (long long k = first; !failed && k < first + count; k++) {
        memcpy(sample, base, size);
        deal_sample(sample, hidden, nhidden, seed, k);
        for (Py_ssize_t l = 0; l < L->n; l++) {
            memcpy(here, sample, size);
            int best = -1;
            int r = play(options, here, L->moves + L->starts[l], L->starts[l + 1] - L->starts[l], nodes, &best);
            if (r == SOLVED) tally[l * count + (k - first)] = 1;
            else if (r == UNSOLVABLE) tally[l * count + (k - first)] = 2;
            else if (r == UNKNOWN) {
                if (best > 255 - SAMPLE_PROGRESS) best = 255 - SAMPLE_PROGRESS;
                if (best >= 0) tally[l * count + (k - first)] = (char)(SAMPLE_PROGRESS + best);
            } else {
                failed = r;
                break;
            }
        }
    }
    if (failed == NO_MEMORY) PyErr_NoMemory(); /* (INTERRUPTED: the signal handler's exception is set) */
    else if (failed == BAD_LINE) PyErr_SetString(PyExc_ValueError, "a line's move does not fit its position");
    if (!failed && (out = PyList_New(L->n)) != NULL)
        for (Py_ssize_t l = 0; l < L->n; l++) {
            PyObject *b = PyBytes_FromStringAndSize(tally + l * count, (Py_ssize_t)count);
            if (!b) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, l, b);
        }
    PyMem_Free(tally);
    free(sample);
    free(here);
    return out;
}

#endif /* CARDTABLE_SOLVE_NATIVE_CORE_H */
