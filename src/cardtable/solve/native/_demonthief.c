/* The native core of the Demonthief solver: cardtable.solve._demonthief.
 *
 * The same depth-first search as cardtable.solve.search.depth_first over
 * cardtable.solve.spaces.DemonthiefSpace (both games: Demonthief and Demons and
 * Thieves differ only in the redeals allowed), optionally with the eager filter
 * of cardtable.solve.levels.EagerSpace, optionally only the first k children as
 * cardtable.solve.search.Pruned. It explores exactly the same positions in the
 * same order, with the same node counting and budget checks. The pure Python
 * code is the reference; cardtable.solve.native_demonthief is the Python side.
 *
 * Exactness, point by point:
 * - DemonthiefSpace.safe_move: the first top (waste, reserve, piles 1-9) that
 *   goes home and is safe home (games.demonthief.is_safe_home), alone;
 * - else Demonthief.legal_moves in its order (to a foundation: waste, reserve,
 *   piles; tableau to tableau by source, target, count; waste to tableau;
 *   reserve to tableau), draws and redeals left out, moves into an empty pile
 *   other than the first empty one of its side left out, with the space's
 *   scores; then the stock model: every card of _stock_tops in its order (the
 *   stock from its top, then, with a redeal left and a waste, the waste's first
 *   len(waste) - 1 cards after a redeal), played home and to every pile that
 *   takes it or is the first empty one of its side, in pile order; all sorted
 *   stably by score;
 * - EagerSpace: only the single-move edges that raise (cards home, -reserve
 *   cards), i.e. a move to a foundation or from the reserve, if there are any;
 * - Pruned: the first k of those;
 * - the key of DemonthiefSpace.key stored exactly (no lossy hash): stock,
 *   waste, reserve, the sorted foundation tops, the sorted left piles, the
 *   sorted right piles, the redeals used (the base rank never changes during a
 *   search). Any fixed order of the piles gives equal bytes for equal
 *   multisets, and every part carries its length, so equal bytes are equal keys.
 *
 * One position is kept and changed in place: an edge is applied to test its
 * child's key and undone again, and the path's edges are undone on the way back.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CAP 104 /* at most 104 cards outside the foundations, so in any pile */
#define NTAB 9
#define NFOUND 8
#define WASTE 9
#define RESERVE 10
#define STOCK 11
#define FOUNDATION 12
#define KEY_MAX 256 /* 3 + 104 + 8 + 9 + 1 = 125 bytes at most */
/* Edges of one position at most: 11 home, 9 * 8 * 104 tableau, 18 waste and
 * reserve, 103 stock cards times 10 targets. */
#define MAX_NODE_EDGES (11 + NTAB * (NTAB - 1) * CAP + 2 * NTAB + CAP * 10)
#define SIGNAL_EVERY 16384

#define PLAIN 0
#define DRAWS 1  /* ``draws`` draws, then the move */
#define REDEALS 2 /* the whole stock drawn (``nstock`` draws), a redeal, ``draws`` draws, the move */

static uint8_t RANK_[52], SUIT_[52], RED_[52], PREV_[52];
static uint8_t LEFT_TAKES_[52 * 52];
static uint8_t LEFT_CHILDREN_[52][2];

typedef struct {
    uint8_t stock[CAP], waste[CAP], reserve[CAP];
    uint8_t tab[NTAB][CAP];
    int ns, nw, nr;
    int nt[NTAB];
    int found[NFOUND]; /* top cards, -1 for an empty foundation */
    int used;
} State;

typedef struct {
    int32_t score;
    uint8_t kind;   /* PLAIN, DRAWS or REDEALS */
    uint8_t draws;  /* DRAWS, REDEALS: the draws before the move (after the redeal) */
    uint8_t nstock; /* REDEALS: the stock's size, drawn before the redeal */
    uint8_t src, dst, n;
    uint8_t fidx; /* set when applied with dst FOUNDATION: the foundation that took the card */
} Edge;

typedef struct {
    int base, redeals, eager;
    long long k; /* -1: every child */
    int s_reserve_home, s_home, s_stock_home, s_reserve, s_waste, s_emptying, s_stock, s_into_empty;
} Params;

static void init_tables(void) {
    for (int c = 0; c < 52; c++) {
        RANK_[c] = (uint8_t)(c % 13 + 1);
        SUIT_[c] = (uint8_t)(c / 13);
        RED_[c] = (uint8_t)(SUIT_[c] == 1 || SUIT_[c] == 2);
        PREV_[c] = (uint8_t)(SUIT_[c] * 13 + (RANK_[c] > 1 ? RANK_[c] - 2 : 12));
    }
    for (int a = 0; a < 52; a++) {
        int m = 0;
        for (int b = 0; b < 52; b++) {
            int takes = RANK_[b] == RANK_[PREV_[a]] && RED_[a] != RED_[b];
            LEFT_TAKES_[a * 52 + b] = (uint8_t)takes;
            if (takes && m < 2)
                LEFT_CHILDREN_[a][m++] = (uint8_t)b;
        }
    }
}

/* --- the rules ------------------------------------------------------------------ */

static inline int goes_home(int c, const int *found, int base) {
    int want = RANK_[c] == base ? -1 : PREV_[c];
    for (int i = 0; i < NFOUND; i++)
        if (found[i] == want)
            return 1;
    return 0;
}

static inline int foundation_size(int t, int base) { return ((RANK_[t] - base) % 13 + 13) % 13 + 1; }

static int is_safe_home(int c, const int *found, int base) {
    int need = foundation_size(PREV_[c], base);
    int suits[3] = {SUIT_[c], RED_[c] ? 0 : 1, RED_[c] ? 3 : 2};
    for (int s = 0; s < 3; s++) {
        int count = 0;
        for (int i = 0; i < NFOUND; i++) {
            int t = found[i];
            if (t >= 0 && SUIT_[t] == suits[s] && foundation_size(t, base) >= need)
                count++;
        }
        if (count != 2)
            return 0;
    }
    return 1;
}

static inline int is_won(const State *s) {
    if (s->ns || s->nw || s->nr)
        return 0;
    for (int j = 0; j < NTAB; j++)
        if (s->nt[j])
            return 0;
    return 1;
}

/* --- children ------------------------------------------------------------------- */

#define ADD(KIND, DRAWS_, NSTOCK, SRC, DST, N, SCORE)                                                                   \
    do {                                                                                                                \
        Edge *e_ = &out[m++];                                                                                           \
        e_->score = (int32_t)(SCORE);                                                                                   \
        e_->kind = (uint8_t)(KIND);                                                                                     \
        e_->draws = (uint8_t)(DRAWS_);                                                                                  \
        e_->nstock = (uint8_t)(NSTOCK);                                                                                 \
        e_->src = (uint8_t)(SRC);                                                                                       \
        e_->dst = (uint8_t)(DST);                                                                                       \
        e_->n = (uint8_t)(N);                                                                                           \
        e_->fidx = 0;                                                                                                   \
    } while (0)

/* Sort edges by score, keeping the order of equal scores (the space sorts by (score, index)). */
static void sort_edges(Edge *a, int n, Edge *tmp) {
    if (n <= 48) {
        for (int i = 1; i < n; i++) {
            Edge x = a[i];
            int j = i - 1;
            while (j >= 0 && a[j].score > x.score) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = x;
        }
        return;
    }
    for (int width = 1; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n;
            int hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                tmp[o++] = a[j].score < a[i].score ? a[j++] : a[i++];
            while (i < mid)
                tmp[o++] = a[i++];
            while (j < hi)
                tmp[o++] = a[j++];
        }
        memcpy(a, tmp, (size_t)n * sizeof(Edge));
    }
}

/* The children of ``s`` as edges in ``out`` (at most MAX_NODE_EDGES); their number. */
static int children(const State *s, const Params *p, Edge *out, Edge *tmp) {
    int m = 0;
    const int base = p->base;
    const int *found = s->found;
    int safe = -1;
    /* DemonthiefSpace.safe_move */
    if (s->nw && goes_home(s->waste[s->nw - 1], found, base) && is_safe_home(s->waste[s->nw - 1], found, base))
        safe = WASTE;
    else if (s->nr && goes_home(s->reserve[s->nr - 1], found, base) &&
             is_safe_home(s->reserve[s->nr - 1], found, base))
        safe = RESERVE;
    else {
        for (int i = 0; i < NTAB; i++) {
            if (s->nt[i]) {
                int c = s->tab[i][s->nt[i] - 1];
                if (goes_home(c, found, base) && is_safe_home(c, found, base)) {
                    safe = i;
                    break;
                }
            }
        }
    }
    if (safe >= 0) {
        ADD(PLAIN, 0, 0, safe, FOUNDATION, 1, 0);
    } else {
        int first_left = -1, first_right = -1;
        for (int j = 0; j < 4; j++)
            if (!s->nt[j]) {
                first_left = j;
                break;
            }
        for (int j = 4; j < NTAB; j++)
            if (!s->nt[j]) {
                first_right = j;
                break;
            }
        unsigned empties = 0; /* the first empty pile of each side: the only empty targets */
        if (first_left >= 0)
            empties |= 1u << first_left;
        if (first_right >= 0)
            empties |= 1u << first_right;
        /* accept[c]: the non-empty piles whose top card c may go on */
        uint16_t accept[52];
        memset(accept, 0, sizeof accept);
        for (int j = 0; j < NTAB; j++) {
            if (!s->nt[j])
                continue;
            int t = s->tab[j][s->nt[j] - 1];
            if (j < 4) {
                accept[LEFT_CHILDREN_[t][0]] |= (uint16_t)(1u << j);
                accept[LEFT_CHILDREN_[t][1]] |= (uint16_t)(1u << j);
            } else {
                accept[PREV_[t]] |= (uint16_t)(1u << j);
            }
        }
        /* To a foundation. */
        if (s->nw && goes_home(s->waste[s->nw - 1], found, base))
            ADD(PLAIN, 0, 0, WASTE, FOUNDATION, 1, -p->s_home);
        if (s->nr && goes_home(s->reserve[s->nr - 1], found, base))
            ADD(PLAIN, 0, 0, RESERVE, FOUNDATION, 1, -p->s_reserve_home);
        for (int i = 0; i < NTAB; i++)
            if (s->nt[i] && goes_home(s->tab[i][s->nt[i] - 1], found, base))
                ADD(PLAIN, 0, 0, i, FOUNDATION, 1, -p->s_home);
        /* Tableau to tableau: by source, target, count. */
        for (int i = 0; i < NTAB; i++) {
            int size = s->nt[i];
            if (!size)
                continue;
            const uint8_t *q = s->tab[i];
            int k = size - 1;
            if (i < 4)
                while (k && LEFT_TAKES_[q[k - 1] * 52 + q[k]])
                    k--;
            else
                while (k && PREV_[q[k - 1]] == q[k])
                    k--;
            int run = size - k;
            unsigned masks[CAP + 1], all = 0;
            for (int n = 1; n <= run; n++) {
                masks[n] = (accept[q[size - n]] | empties) & ~(1u << i);
                all |= masks[n];
            }
            for (int j = 0; j < NTAB; j++) {
                if (!(all >> j & 1))
                    continue;
                for (int n = 1; n <= run; n++) {
                    if (!(masks[n] >> j & 1))
                        continue;
                    int score = !s->nt[j] ? p->s_into_empty : n == size ? p->s_emptying : 0;
                    ADD(PLAIN, 0, 0, i, j, n, -score);
                }
            }
        }
        /* Waste, then reserve, to the tableau. */
        if (s->nw) {
            unsigned mask = accept[s->waste[s->nw - 1]] | empties;
            for (int j = 0; j < NTAB; j++)
                if (mask >> j & 1)
                    ADD(PLAIN, 0, 0, WASTE, j, 1, -p->s_waste);
        }
        if (s->nr) {
            unsigned mask = accept[s->reserve[s->nr - 1]] | empties;
            for (int j = 0; j < NTAB; j++)
                if (mask >> j & 1)
                    ADD(PLAIN, 0, 0, RESERVE, j, 1, -p->s_reserve);
        }
        /* The stock model: every card draws (and a redeal) can bring to the waste top. */
        int ns = s->ns, nw = s->nw;
        int passes = s->used < p->redeals && nw ? 2 : 1;
        for (int pass = 0; pass < passes; pass++) {
            int count = pass == 0 ? ns : nw - 1;
            for (int d = 1; d <= count; d++) {
                int c = pass == 0 ? s->stock[ns - d] : s->waste[d - 1];
                int len = pass == 0 ? d : ns + 1 + d;
                int home = goes_home(c, found, base);
                unsigned mask = accept[c] | empties;
                if (!home && !mask)
                    continue;
                int kind = pass == 0 ? DRAWS : REDEALS;
                if (home)
                    ADD(kind, d, ns, WASTE, FOUNDATION, 1, len - p->s_stock_home);
                for (int j = 0; j < NTAB; j++)
                    if (mask >> j & 1)
                        ADD(kind, d, ns, WASTE, j, 1, len - p->s_stock);
            }
        }
        sort_edges(out, m, tmp);
    }
    if (p->eager) {
        int kept = 0;
        for (int i = 0; i < m; i++)
            if (out[i].kind == PLAIN && (out[i].dst == FOUNDATION || out[i].src == RESERVE))
                out[kept++] = out[i];
        if (kept)
            m = kept;
    }
    if (p->k >= 0 && m > p->k)
        m = (int)p->k;
    return m;
}

/* --- applying and undoing edges --------------------------------------------------- */

static inline void draw(State *s) { s->waste[s->nw++] = s->stock[--s->ns]; }
static inline void undraw(State *s) { s->stock[s->ns++] = s->waste[--s->nw]; }

static void apply(State *s, Edge *e, int base) {
    if (e->kind == DRAWS) {
        for (int t = 0; t < e->draws; t++)
            draw(s);
    } else if (e->kind == REDEALS) {
        while (s->ns)
            draw(s);
        for (int t = 0; t < s->nw; t++)
            s->stock[t] = s->waste[s->nw - 1 - t];
        s->ns = s->nw;
        s->nw = 0;
        s->used++;
        for (int t = 0; t < e->draws; t++)
            draw(s);
    }
    int src = e->src, dst = e->dst, n = e->n;
    if (dst == FOUNDATION) {
        int c = src == WASTE ? s->waste[--s->nw] : src == RESERVE ? s->reserve[--s->nr] : s->tab[src][--s->nt[src]];
        int want = RANK_[c] == base ? -1 : PREV_[c];
        int f = 0;
        while (s->found[f] != want)
            f++;
        s->found[f] = c;
        e->fidx = (uint8_t)f;
    } else if (src == WASTE) {
        s->tab[dst][s->nt[dst]++] = s->waste[--s->nw];
    } else if (src == RESERVE) {
        s->tab[dst][s->nt[dst]++] = s->reserve[--s->nr];
    } else {
        memcpy(s->tab[dst] + s->nt[dst], s->tab[src] + s->nt[src] - n, (size_t)n);
        s->nt[dst] += n;
        s->nt[src] -= n;
    }
}

static void undo(State *s, const Edge *e, int base) {
    int src = e->src, dst = e->dst, n = e->n;
    if (dst == FOUNDATION) {
        int c = s->found[e->fidx];
        s->found[e->fidx] = RANK_[c] == base ? -1 : PREV_[c];
        if (src == WASTE)
            s->waste[s->nw++] = (uint8_t)c;
        else if (src == RESERVE)
            s->reserve[s->nr++] = (uint8_t)c;
        else
            s->tab[src][s->nt[src]++] = (uint8_t)c;
    } else if (src == WASTE) {
        s->waste[s->nw++] = s->tab[dst][--s->nt[dst]];
    } else if (src == RESERVE) {
        s->reserve[s->nr++] = s->tab[dst][--s->nt[dst]];
    } else {
        memcpy(s->tab[src] + s->nt[src], s->tab[dst] + s->nt[dst] - n, (size_t)n);
        s->nt[src] += n;
        s->nt[dst] -= n;
    }
    if (e->kind == DRAWS) {
        for (int t = 0; t < e->draws; t++)
            undraw(s);
    } else if (e->kind == REDEALS) {
        for (int t = 0; t < e->draws; t++)
            undraw(s);
        for (int t = 0; t < s->ns; t++)
            s->waste[t] = s->stock[s->ns - 1 - t];
        s->nw = s->ns;
        s->ns = 0;
        s->used--;
        for (int t = 0; t < e->nstock; t++)
            undraw(s);
    }
}

/* --- the key and the table of keys seen --------------------------------------------- */

static inline int pile_less(const uint8_t *a, int na, const uint8_t *b, int nb) {
    int n = na < nb ? na : nb;
    int c = memcmp(a, b, (size_t)n);
    return c < 0 || (c == 0 && na < nb);
}

static void put_piles(const State *s, int lo, int hi, uint8_t **qp) {
    int order[NTAB], m = 0;
    for (int j = lo; j < hi; j++) {
        int x = j, i = m - 1;
        while (i >= 0 && pile_less(s->tab[x], s->nt[x], s->tab[order[i]], s->nt[order[i]])) {
            order[i + 1] = order[i];
            i--;
        }
        order[i + 1] = x;
        m++;
    }
    uint8_t *q = *qp;
    for (int i = 0; i < m; i++) {
        int j = order[i];
        *q++ = (uint8_t)s->nt[j];
        memcpy(q, s->tab[j], (size_t)s->nt[j]);
        q += s->nt[j];
    }
    *qp = q;
}

static int make_key(const State *s, uint8_t *buf) {
    uint8_t *q = buf;
    *q++ = (uint8_t)s->ns;
    memcpy(q, s->stock, (size_t)s->ns);
    q += s->ns;
    *q++ = (uint8_t)s->nw;
    memcpy(q, s->waste, (size_t)s->nw);
    q += s->nw;
    *q++ = (uint8_t)s->nr;
    memcpy(q, s->reserve, (size_t)s->nr);
    q += s->nr;
    uint8_t f[NFOUND];
    for (int i = 0; i < NFOUND; i++) {
        uint8_t x = (uint8_t)(s->found[i] < 0 ? 255 : s->found[i]);
        int j = i - 1;
        while (j >= 0 && f[j] > x) {
            f[j + 1] = f[j];
            j--;
        }
        f[j + 1] = x;
    }
    memcpy(q, f, NFOUND);
    q += NFOUND;
    put_piles(s, 0, 4, &q);
    put_piles(s, 4, NTAB, &q);
    *q++ = (uint8_t)s->used;
    int len = (int)(q - buf);
    memset(q, 0, 8); /* the hash reads whole words */
    return len;
}

static inline uint64_t mix(uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static uint64_t hash_key(const uint8_t *p, int len) {
    uint64_t h = 0x243f6a8885a308d3ULL ^ (uint64_t)len, g = 0x13198a2e03707344ULL;
    int i = 0;
    for (; i + 16 <= len; i += 16) {
        uint64_t a, b;
        memcpy(&a, p + i, 8);
        memcpy(&b, p + i + 8, 8);
        h = (h ^ a) * 0x9e3779b97f4a7c15ULL;
        g = (g ^ b) * 0xbf58476d1ce4e5b9ULL;
        h ^= h >> 31;
        g ^= g >> 29;
    }
    for (; i < len; i += 8) { /* the zero padding after the key completes the last word */
        uint64_t a;
        memcpy(&a, p + i, 8);
        h = (h ^ a) * 0x9e3779b97f4a7c15ULL;
        h ^= h >> 31;
    }
    return mix(h ^ (g * 0x94d049bb133111ebULL));
}

/* Open addressing; a slot holds (arena offset + 1) << 16 | 16 bits of the hash, 0 when
 * free. The arena holds every key as its length byte and its bytes. */
typedef struct {
    uint64_t *slots;
    size_t mask, count;
    uint8_t *arena;
    size_t used, cap;
} Seen;

static int seen_init(Seen *t) {
    t->mask = (1u << 12) - 1;
    t->count = 0;
    t->slots = calloc(t->mask + 1, sizeof(uint64_t));
    t->cap = 1 << 16;
    t->used = 0;
    t->arena = malloc(t->cap);
    return t->slots && t->arena ? 0 : -1;
}

static void seen_free(Seen *t) {
    free(t->slots);
    free(t->arena);
}

/* Whether the key is in the table; if not, *slot is where it goes. */
static int seen_find(const Seen *t, const uint8_t *key, int len, uint64_t h, size_t *slot) {
    uint64_t fp = h >> 48;
    size_t i = (size_t)h & t->mask;
    for (;;) {
        uint64_t v = t->slots[i];
        if (!v) {
            *slot = i;
            return 0;
        }
        if ((v & 0xffff) == fp) {
            const uint8_t *stored = t->arena + (v >> 16) - 1;
            if (stored[0] == len && memcmp(stored + 1, key, (size_t)len) == 0)
                return 1;
        }
        i = (i + 1) & t->mask;
    }
}

static int seen_grow(Seen *t) {
    size_t size = (t->mask + 1) * 2;
    uint64_t *slots = calloc(size, sizeof(uint64_t));
    if (!slots)
        return -1;
    uint8_t buf[KEY_MAX + 8];
    for (size_t i = 0; i <= t->mask; i++) {
        uint64_t v = t->slots[i];
        if (!v)
            continue;
        const uint8_t *stored = t->arena + (v >> 16) - 1;
        memcpy(buf, stored + 1, stored[0]);
        memset(buf + stored[0], 0, 8);
        uint64_t h = hash_key(buf, stored[0]);
        size_t j = (size_t)h & (size - 1);
        while (slots[j])
            j = (j + 1) & (size - 1);
        slots[j] = v;
    }
    free(t->slots);
    t->slots = slots;
    t->mask = size - 1;
    return 0;
}

/* Insert a key not in the table at the slot seen_find gave. */
static int seen_insert(Seen *t, const uint8_t *key, int len, uint64_t h, size_t slot) {
    if (t->used + (size_t)len + 1 > t->cap) {
        size_t cap = t->cap * 2;
        uint8_t *arena = realloc(t->arena, cap);
        if (!arena)
            return -1;
        t->arena = arena;
        t->cap = cap;
    }
    uint64_t offset = t->used;
    t->arena[t->used] = (uint8_t)len;
    memcpy(t->arena + t->used + 1, key, (size_t)len);
    t->used += (size_t)len + 1;
    t->slots[slot] = (offset + 1) << 16 | (h >> 48);
    t->count++;
    if (t->count * 2 > t->mask + 1)
        return seen_grow(t);
    return 0;
}

/* --- the search --------------------------------------------------------------------- */

typedef struct {
    size_t start, end, next; /* the position's children: edges[start:end], the next one to try */
} Level;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Append the real moves of an edge to ``moves`` as (src, dst, n) tuples. */
static int add_moves(PyObject *moves, const Edge *e) {
    PyObject *draw_move = NULL, *move = NULL;
    int draws_before = e->kind == REDEALS ? e->nstock : e->kind == DRAWS ? e->draws : 0;
    draw_move = Py_BuildValue("(iii)", STOCK, WASTE, 0);
    if (!draw_move)
        return -1;
    for (int t = 0; t < draws_before; t++)
        if (PyList_Append(moves, draw_move) < 0)
            goto fail;
    if (e->kind == REDEALS) {
        move = Py_BuildValue("(iii)", WASTE, STOCK, 0);
        if (!move || PyList_Append(moves, move) < 0)
            goto fail;
        Py_CLEAR(move);
        for (int t = 0; t < e->draws; t++)
            if (PyList_Append(moves, draw_move) < 0)
                goto fail;
    }
    move = Py_BuildValue("(iii)", e->src, e->dst, e->n);
    if (!move || PyList_Append(moves, move) < 0)
        goto fail;
    Py_DECREF(move);
    Py_DECREF(draw_move);
    return 0;
fail:
    Py_XDECREF(move);
    Py_XDECREF(draw_move);
    return -1;
}

/* A sequence of cards into ``out`` (at most ``cap``); the count, or -1 with an exception. */
static int read_cards(PyObject *obj, uint8_t *out, int cap, const char *what) {
    PyObject *seq = PySequence_Fast(obj, what);
    if (!seq)
        return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > cap) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: too many cards", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (c < 0 || c >= 52) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "%s: not a card: %ld", what, c);
            return -1;
        }
        out[i] = (uint8_t)c;
    }
    Py_DECREF(seq);
    return (int)n;
}

/* A limit: None (none) or an int, clamped to the long long range. */
static int read_limit(PyObject *obj, int *has, long long *value) {
    if (obj == Py_None) {
        *has = 0;
        *value = 0;
        return 0;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred())
        return -1;
    *has = 1;
    *value = overflow > 0 ? LLONG_MAX : overflow < 0 ? LLONG_MIN : v;
    return 0;
}

static PyObject *search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *stock, *waste, *reserve, *foundations, *tableau, *scores, *nodes_obj, *memory_obj, *seconds_obj;
    int base, used, redeals, eager;
    long long k;
    if (!PyArg_ParseTuple(args, "OOOOOiiiOpLOOO:search", &stock, &waste, &reserve, &foundations, &tableau, &base,
                          &used, &redeals, &scores, &eager, &k, &nodes_obj, &memory_obj, &seconds_obj))
        return NULL;

    Params p;
    memset(&p, 0, sizeof p);
    p.base = base;
    p.redeals = redeals;
    p.eager = eager;
    p.k = k < 0 ? -1 : k;
    if (base < 1 || base > 13 || used < 0 || used > 255 || redeals < 0 || redeals > 255) {
        PyErr_SetString(PyExc_ValueError, "base rank, redeals used or redeals out of range");
        return NULL;
    }
    {
        int values[8];
        PyObject *seq = PySequence_Fast(scores, "scores");
        if (!seq)
            return NULL;
        if (PySequence_Fast_GET_SIZE(seq) != 8) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "scores: eight values");
            return NULL;
        }
        for (int i = 0; i < 8; i++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
            if (v == -1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                return NULL;
            }
            if (v < -1000000 || v > 1000000) {
                Py_DECREF(seq);
                PyErr_SetString(PyExc_ValueError, "scores: out of range");
                return NULL;
            }
            values[i] = (int)v;
        }
        Py_DECREF(seq);
        p.s_reserve_home = values[0];
        p.s_home = values[1];
        p.s_stock_home = values[2];
        p.s_reserve = values[3];
        p.s_waste = values[4];
        p.s_emptying = values[5];
        p.s_stock = values[6];
        p.s_into_empty = values[7];
    }
    int has_nodes, has_memory, has_deadline = seconds_obj != Py_None;
    long long max_nodes, max_memory;
    if (read_limit(nodes_obj, &has_nodes, &max_nodes) < 0 || read_limit(memory_obj, &has_memory, &max_memory) < 0)
        return NULL;
    double began = now(), deadline = 0;
    if (has_deadline) {
        double seconds = PyFloat_AsDouble(seconds_obj);
        if (seconds == -1.0 && PyErr_Occurred())
            return NULL;
        deadline = began + seconds;
    }

    State *s = calloc(1, sizeof(State));
    if (!s)
        return PyErr_NoMemory();
    {
        int total = 0;
        if ((s->ns = read_cards(stock, s->stock, CAP, "stock")) < 0 ||
            (s->nw = read_cards(waste, s->waste, CAP, "waste")) < 0 ||
            (s->nr = read_cards(reserve, s->reserve, CAP, "reserve")) < 0) {
            free(s);
            return NULL;
        }
        total = s->ns + s->nw + s->nr;
        PyObject *seq = PySequence_Fast(tableau, "tableau");
        if (!seq) {
            free(s);
            return NULL;
        }
        if (PySequence_Fast_GET_SIZE(seq) != NTAB) {
            Py_DECREF(seq);
            free(s);
            PyErr_SetString(PyExc_ValueError, "tableau: nine piles");
            return NULL;
        }
        for (int j = 0; j < NTAB; j++) {
            if ((s->nt[j] = read_cards(PySequence_Fast_GET_ITEM(seq, j), s->tab[j], CAP, "tableau pile")) < 0) {
                Py_DECREF(seq);
                free(s);
                return NULL;
            }
            total += s->nt[j];
        }
        Py_DECREF(seq);
        seq = PySequence_Fast(foundations, "foundations");
        if (!seq) {
            free(s);
            return NULL;
        }
        int bad = PySequence_Fast_GET_SIZE(seq) != NFOUND;
        for (int i = 0; !bad && i < NFOUND; i++) {
            long t = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
            if (t == -1 && PyErr_Occurred()) {
                Py_DECREF(seq);
                free(s);
                return NULL;
            }
            bad = t < -1 || t >= 52;
            s->found[i] = (int)t;
        }
        Py_DECREF(seq);
        if (bad || total > CAP) {
            free(s);
            PyErr_SetString(PyExc_ValueError, "foundations: eight tops (-1 or a card); at most 104 cards in play");
            return NULL;
        }
        s->used = used;
    }

    PyObject *result = NULL, *moves = NULL;
    const char *verdict = "unsolvable";
    long long nodes = 0;
    Seen seen;
    memset(&seen, 0, sizeof seen);
    Level *levels = NULL;
    Edge *edges = NULL, *tmp = NULL;
    size_t nlevels = 0, levels_cap = 256, edges_cap = (size_t)MAX_NODE_EDGES * 8;
    uint8_t key[KEY_MAX + 8];
    int len;
    uint64_t h;
    size_t slot;
    long long tries = 0;

    moves = PyList_New(0);
    if (!moves)
        goto done;
    if (is_won(s)) {
        verdict = "solved";
        goto finish;
    }
    levels = malloc(levels_cap * sizeof(Level));
    edges = malloc(edges_cap * sizeof(Edge));
    tmp = malloc((size_t)MAX_NODE_EDGES * sizeof(Edge));
    if (!levels || !edges || !tmp || seen_init(&seen) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    len = make_key(s, key);
    h = hash_key(key, len);
    seen_find(&seen, key, len, h, &slot);
    if (seen_insert(&seen, key, len, h, slot) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    levels[0].start = levels[0].next = 0;
    levels[0].end = (size_t)children(s, &p, edges, tmp);
    nlevels = 1;
    nodes = 1;
    while (nlevels) {
        Level *top = &levels[nlevels - 1];
        int pushed = 0;
        while (top->next < top->end) {
            Edge *e = &edges[top->next++];
            apply(s, e, base);
            if (++tries % SIGNAL_EVERY == 0 && PyErr_CheckSignals() < 0)
                goto done;
            len = make_key(s, key);
            h = hash_key(key, len);
            if (seen_find(&seen, key, len, h, &slot)) {
                undo(s, e, base);
                continue;
            }
            if (is_won(s)) {
                for (size_t d = 0; d < nlevels; d++)
                    if (add_moves(moves, &edges[levels[d].next - 1]) < 0)
                        goto done;
                verdict = "solved";
                goto finish;
            }
            if ((has_nodes && nodes >= max_nodes) || (has_memory && (long long)seen.count >= max_memory) ||
                (has_deadline && nodes % 256 == 0 && now() > deadline)) {
                verdict = "unknown";
                goto finish;
            }
            if (seen_insert(&seen, key, len, h, slot) < 0) {
                PyErr_NoMemory();
                goto done;
            }
            nodes++;
            if (nlevels == levels_cap) {
                Level *grown = realloc(levels, levels_cap * 2 * sizeof(Level));
                if (!grown) {
                    PyErr_NoMemory();
                    goto done;
                }
                levels = grown;
                levels_cap *= 2;
                top = &levels[nlevels - 1];
            }
            size_t start = top->end;
            if (start + MAX_NODE_EDGES > edges_cap) {
                size_t cap = edges_cap * 2;
                Edge *grown = realloc(edges, cap * sizeof(Edge));
                if (!grown) {
                    PyErr_NoMemory();
                    goto done;
                }
                edges = grown;
                edges_cap = cap;
            }
            Level *child = &levels[nlevels++];
            child->start = child->next = start;
            child->end = start + (size_t)children(s, &p, edges + start, tmp);
            pushed = 1;
            break;
        }
        if (!pushed) {
            nlevels--;
            if (nlevels)
                undo(s, &edges[levels[nlevels - 1].next - 1], base);
        }
    }
finish:
    result = Py_BuildValue("(sLO)", verdict, nodes, moves);
done:
    Py_XDECREF(moves);
    seen_free(&seen);
    free(levels);
    free(edges);
    free(tmp);
    free(s);
    (void)began;
    return result;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(stock, waste, reserve, foundations, tableau, base, redeals_used, redeals, scores, eager, k, "
     "max_nodes, max_seen, seconds) -> (verdict, nodes, moves)\n\n"
     "depth_first over DemonthiefSpace (see cardtable.solve.native_demonthief). scores: SCORE_RESERVE_HOME, "
     "SCORE_HOME, SCORE_STOCK_HOME, SCORE_RESERVE, SCORE_WASTE, SCORE_EMPTYING, SCORE_STOCK, SCORE_INTO_EMPTY; "
     "k < 0: every child; moves: (src, dst, n) tuples."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "cardtable.solve.native._demonthief", "The native core of the Demonthief solver.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__demonthief(void) {
    init_tables();
    return PyModule_Create(&module);
}
