/* The native core of the Demonthief solver: cardtable.solve.native._demonthief.
 *
 * The same depth-first search as cardtable.solve.search.depth_first over
 * cardtable.solve.spaces.DemonthiefSpace (both games: Demonthief and Demons and
 * Thieves differ only in the redeals allowed), optionally with the eager filter
 * of cardtable.solve.spaces.EagerSpace, optionally only the first k children as
 * cardtable.solve.search.Pruned. It explores exactly the same positions in the
 * same order, with the same node counting and budget checks. The pure Python
 * code is the reference; cardtable.solve.native.demonthief is the Python side.
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

#include "_core.h"

#define CAP 104 /* at most 104 cards outside the foundations, so in any pile */
#define NTAB 9
#define NFOUND 8
#define WASTE 9
#define RESERVE 10
#define STOCK 11
#define FOUNDATION 12
#define KEY_WORDS 16 /* 3 + 104 + 8 + 9 + 1 = 125 bytes at most, zero-padded to 128 */
/* Edges of one position at most: 11 home, 9 * 8 * 104 tableau, 18 waste and
 * reserve, 103 stock cards times 10 targets. */
#define MAX_NODE_EDGES (11 + NTAB * (NTAB - 1) * CAP + 2 * NTAB + CAP * 10)

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
    int s_exposes_home;
    Widths widths; /* sample_outcomes: solve's narrow phases (pruned_widths) */
    int progress;  /* sample_outcomes: an undecided sample tells the most cards its search brought home */
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

/* The cards that may go to a foundation now, as bits of a mask (bit c: card c goes home):
 * a base-rank card onto an empty foundation, else the next card of a foundation's suit (not
 * past a full one). children makes it once a position and tests every card against it. */
static inline uint64_t home_mask(const int *found, int base) {
    uint64_t m = 0;
    for (int i = 0; i < NFOUND; i++) {
        if (found[i] < 0) {
            for (int suit = 0; suit < 4; suit++)
                m |= 1ULL << (suit * 13 + base - 1);
        } else {
            int t = found[i], next = SUIT_[t] * 13 + (RANK_[t] < 13 ? RANK_[t] : 0);
            if (RANK_[next] != base)
                m |= 1ULL << next;
        }
    }
    return m;
}

/* Whether card c may go to a foundation (one card asked once: the mask's bit). */
static inline int goes_home(int c, const int *found, int base) { return (int)(home_mask(found, base) >> c & 1); }

/* The cards on the foundations: the 104 less those in the stock, the waste, the reserve and the tableau. */
static inline int cards_home(const State *s) {
    int out = s->ns + s->nw + s->nr;
    for (int j = 0; j < NTAB; j++) out += s->nt[j];
    return 104 - out;
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
    const uint64_t home = home_mask(found, base);
    /* DemonthiefSpace.safe_move */
    if (s->nw && (home >> s->waste[s->nw - 1] & 1) && is_safe_home(s->waste[s->nw - 1], found, base))
        safe = WASTE;
    else if (s->nr && (home >> s->reserve[s->nr - 1] & 1) && is_safe_home(s->reserve[s->nr - 1], found, base))
        safe = RESERVE;
    else {
        for (int i = 0; i < NTAB; i++) {
            if (s->nt[i]) {
                int c = s->tab[i][s->nt[i] - 1];
                if ((home >> c & 1) && is_safe_home(c, found, base)) {
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
        if (s->nw && (home >> s->waste[s->nw - 1] & 1))
            ADD(PLAIN, 0, 0, WASTE, FOUNDATION, 1, -p->s_home);
        if (s->nr && (home >> s->reserve[s->nr - 1] & 1))
            ADD(PLAIN, 0, 0, RESERVE, FOUNDATION, 1, -p->s_reserve_home);
        for (int i = 0; i < NTAB; i++)
            if (s->nt[i] && (home >> s->tab[i][s->nt[i] - 1] & 1))
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
                    if (n < size && (home >> q[size - n - 1] & 1))
                        score += p->s_exposes_home; /* the card it uncovers can go home */
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
                int to_home = (int)(home >> c & 1);
                unsigned mask = accept[c] | empties;
                if (!to_home && !mask)
                    continue;
                int kind = pass == 0 ? DRAWS : REDEALS;
                if (to_home)
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

/* --- the key ---------------------------------------------------------------------- */

static inline int pile_less(const uint8_t *a, int na, const uint8_t *b, int nb) {
    if (na && nb && a[0] != b[0]) /* most piles differ in their first card: no memcmp call */
        return a[0] < b[0];
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

/* The key's bytes, then zeros to KEY_WORDS words (every part carries its length or has a
 * fixed one, so the padding cannot make two keys equal). */
static void make_key(const State *s, uint64_t key[KEY_WORDS]) {
    uint8_t *buf = (uint8_t *)key, *q = buf;
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
    memset(q, 0, (size_t)(buf + sizeof(uint64_t) * KEY_WORDS - q));
}

/* --- the search --------------------------------------------------------------------- */

typedef struct {
    size_t start, end, next; /* the position's children: edges[start:end], the next one to try */
} Level;

typedef struct {
    Params p;
    int lossy; /* remember each key's 63-bit fingerprint in prints, not the key in seen (wins only) */
    Seen seen; /* keys of KEY_WORDS words */
    Seen1 prints;
    Level *levels; /* the path: nlevels positions */
    size_t nlevels, levels_cap;
    Edge *edges, *tmp; /* the children of the path's positions; room to sort one position's */
    size_t edges_cap, tmp_cap;
    int best; /* the most cards home in a position the search took (the honest player's progress) */
} Search;

/* A new level on the path for the position s, with its children. -1: out of memory. */
static int push_level(Search *S, const State *s) {
    size_t start = S->nlevels ? S->levels[S->nlevels - 1].end : 0;
    Level *levels = room_for(S->levels, &S->levels_cap, S->nlevels + 1, sizeof *levels, 256);
    if (!levels) return -1;
    S->levels = levels;
    Edge *edges = room_for(S->edges, &S->edges_cap, start + MAX_NODE_EDGES, sizeof *edges, MAX_NODE_EDGES * 8);
    if (!edges) return -1;
    S->edges = edges;
    Level *level = &S->levels[S->nlevels++];
    level->start = level->next = start;
    level->end = start + (size_t)children(s, &S->p, S->edges + start, S->tmp);
    return 0;
}

/* Whether the key is remembered, its hash in *h and the slot to remember it at in *slot.
 * A lossy search compares 63-bit fingerprints (a sixth of the memory a position): two keys
 * with one fingerprint would cut a line, never make one, so it can still find wins (each
 * replayed by the rules) but its complete search proves nothing. */
static inline int remembered(Search *S, const uint64_t *key, uint64_t *h, size_t *slot) {
    *h = hash_key(key, KEY_WORDS);
    return S->lossy ? seen1_find(&S->prints, *h >> 1, slot) : seen_find(&S->seen, key, *h, slot);
}

/* Remember the key of hash h at the slot remembered gave. 0, or -1 when out of memory. */
static inline int remember(Search *S, const uint64_t *key, uint64_t h, size_t slot) {
    return S->lossy ? seen1_insert(&S->prints, h >> 1, slot) : seen_insert(&S->seen, key, h, slot);
}

/* An empty memory of keys for the search. 0, or -1 when out of memory (search_free it anyway). */
static int search_init(Search *S) {
    return S->lossy ? seen1_init(&S->prints) : seen_init(&S->seen, KEY_WORDS);
}

/* depth_first, line for line, on the one position s, changed in place. Runs without the GIL,
 * taking it back now and then to let Ctrl-C through. SOLVED: the path is the current edge of
 * every level. */
static int run(Search *S, State *s, const Budget *B, long long *nodes_out) {
    uint64_t key[KEY_WORDS];
    size_t slot = 0;
    const int base = S->p.base;
    *nodes_out = 0;
    if (is_won(s)) return SOLVED;
    Edge *tmp = room_for(S->tmp, &S->tmp_cap, MAX_NODE_EDGES, sizeof *tmp, MAX_NODE_EDGES);
    if (!tmp) return NO_MEMORY;
    S->tmp = tmp;
    make_key(s, key);
    uint64_t h;
    remembered(S, key, &h, &slot);
    if (remember(S, key, h, slot) < 0 || push_level(S, s) < 0) return NO_MEMORY;
    S->best = cards_home(s);
    long long nodes = 1;
    int result = UNSOLVABLE;
    Unlocked u;
    release_gil(&u);
    while (S->nlevels) {
        Level *top = &S->levels[S->nlevels - 1];
        int pushed = 0;
        while (top->next < top->end) {
            Edge *e = &S->edges[top->next++];
            apply(s, e, base);
            if (interrupted(&u)) {
                result = INTERRUPTED;
                goto out;
            }
            make_key(s, key);
            if (remembered(S, key, &h, &slot)) {
                undo(s, e, base);
                continue;
            }
            if (is_won(s)) {
                result = SOLVED;
                goto out;
            }
            if (over_budget(B, nodes, S->lossy ? S->prints.count : S->seen.count)) {
                result = UNKNOWN;
                goto out;
            }
            if (remember(S, key, h, slot) < 0 || push_level(S, s) < 0) {
                result = NO_MEMORY;
                goto out;
            }
            nodes++;
            int home = cards_home(s);
            if (home > S->best) S->best = home;
            pushed = 1;
            break;
        }
        if (!pushed) {
            S->nlevels--;
            if (S->nlevels)
                undo(s, &S->edges[S->levels[S->nlevels - 1].next - 1], base);
        }
    }
out:
    take_gil(&u);
    *nodes_out = nodes;
    return result;
}

static void search_free(Search *S) {
    seen_free(&S->seen);
    seen1_free(&S->prints);
    free(S->levels);
    free(S->edges);
    free(S->tmp);
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

/* The moves of the path a won search stopped on, as (src, dst, n) tuples. */
static PyObject *path_moves(const Search *S) {
    PyObject *moves = PyList_New(0);
    for (size_t d = 0; moves && d < S->nlevels; d++)
        if (add_moves(moves, &S->edges[S->levels[d].next - 1]) < 0)
            Py_CLEAR(moves);
    return moves;
}

/* The base rank, redeals used and redeals allowed: 0, or -1 with an exception set. */
static int check_ranges(int base, int used, int redeals) {
    if (base < 1 || base > 13 || used < 0 || used > 255 || redeals < 0 || redeals > 255) {
        PyErr_SetString(PyExc_ValueError, "base rank, redeals used or redeals out of range");
        return -1;
    }
    return 0;
}

/* The space's nine scores (see the methods' doc) into p: 0, or -1 with an exception set. */
static int read_scores(PyObject *scores, Params *p) {
    int values[9];
    PyObject *seq = PySequence_Fast(scores, "scores");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 9) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "scores: nine values");
        return -1;
    }
    for (int i = 0; i < 9; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < -1000000 || v > 1000000) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "scores: out of range");
            return -1;
        }
        values[i] = (int)v;
    }
    Py_DECREF(seq);
    p->s_reserve_home = values[0];
    p->s_home = values[1];
    p->s_stock_home = values[2];
    p->s_reserve = values[3];
    p->s_waste = values[4];
    p->s_emptying = values[5];
    p->s_stock = values[6];
    p->s_into_empty = values[7];
    p->s_exposes_home = values[8];
    return 0;
}

/* The position given by the DemonthiefState fields (but the base rank) into s: 0, or -1 with
 * an exception set. */
static int read_position(PyObject *stock, PyObject *waste, PyObject *reserve, PyObject *foundations, PyObject *tableau,
                         int used, State *s) {
    memset(s, 0, sizeof *s);
    if ((s->ns = read_cards(stock, s->stock, CAP, 52, "stock")) < 0 ||
        (s->nw = read_cards(waste, s->waste, CAP, 52, "waste")) < 0 ||
        (s->nr = read_cards(reserve, s->reserve, CAP, 52, "reserve")) < 0)
        return -1;
    int total = s->ns + s->nw + s->nr;
    PyObject *seq = PySequence_Fast(tableau, "tableau");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != NTAB) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "tableau: nine piles");
        return -1;
    }
    for (int j = 0; j < NTAB; j++) {
        if ((s->nt[j] = read_cards(PySequence_Fast_GET_ITEM(seq, j), s->tab[j], CAP, 52, "a tableau pile")) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        total += s->nt[j];
    }
    Py_DECREF(seq);
    seq = PySequence_Fast(foundations, "foundations");
    if (!seq) return -1;
    int bad = PySequence_Fast_GET_SIZE(seq) != NFOUND;
    for (int i = 0; !bad && i < NFOUND; i++) {
        long t = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (t == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        bad = t < -1 || t >= 52;
        s->found[i] = (int)t;
    }
    Py_DECREF(seq);
    if (bad || total > CAP) {
        PyErr_SetString(PyExc_ValueError, "foundations: eight tops (-1 or a card); at most 104 cards in play");
        return -1;
    }
    s->used = used;
    return 0;
}

static PyObject *search(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *stock, *waste, *reserve, *foundations, *tableau, *scores, *nodes_obj, *memory_obj, *seconds_obj;
    int base, used, redeals, eager, exact = 1;
    long long k;
    if (!PyArg_ParseTuple(args, "OOOOOiiiOpLOOO|p:search", &stock, &waste, &reserve, &foundations, &tableau, &base,
                          &used, &redeals, &scores, &eager, &k, &nodes_obj, &memory_obj, &seconds_obj, &exact))
        return NULL;

    Search S;
    memset(&S, 0, sizeof S);
    S.lossy = !exact;
    Params *p = &S.p;
    p->base = base;
    p->redeals = redeals;
    p->eager = eager;
    p->k = k < 0 ? -1 : k;
    Budget B;
    if (check_ranges(base, used, redeals) < 0 || read_scores(scores, p) < 0 ||
        read_budget(nodes_obj, memory_obj, seconds_obj, &B) < 0)
        return NULL;
    State *s = malloc(sizeof(State));
    if (!s) return PyErr_NoMemory();
    if (read_position(stock, waste, reserve, foundations, tableau, used, s) < 0) {
        free(s);
        return NULL;
    }
    long long nodes = 0;
    int result = search_init(&S) < 0 ? NO_MEMORY : run(&S, s, &B, &nodes);
    if (S.lossy && result == UNSOLVABLE) result = UNKNOWN; /* a fingerprint may have cut a win */
    PyObject *out = search_result(result, nodes, result == SOLVED ? path_moves(&S) : no_moves(result, 1));
    search_free(&S);
    free(s);
    return out;
}

/* --- sampled evaluation (the honest player, cardtable.bots.honest) ----------------------- */

/* Demonthief.apply of one move of the rules (src, dst, n) to s, in place: draws and redeals
 * included (the caller checked the move is legal). */
static int apply_rules_move(State *s, int src, int dst, int n, int base, int redeals) {
    /* The checks keep a move that is not legal here from breaking the position's arrays (the
     * caller promised legal moves: a building rule is not checked, only what the arrays need). */
    int card = -1;
    if (src == STOCK) {
        if (dst != WASTE || !s->ns) return -1;
    } else if (dst == STOCK) {
        if (src != WASTE || s->ns || !s->nw || s->used >= redeals) return -1;
    } else if (src == WASTE || src == RESERVE) {
        if (n != 1 || !(src == WASTE ? s->nw : s->nr)) return -1;
        card = src == WASTE ? s->waste[s->nw - 1] : s->reserve[s->nr - 1];
    } else {
        if (src >= NTAB || n < 1 || n > s->nt[src] || dst == src) return -1;
        card = s->tab[src][s->nt[src] - n];
    }
    if (dst == FOUNDATION && (card < 0 || n != 1 || !goes_home(card, s->found, base))) return -1;
    if (src != STOCK && dst != STOCK && dst != FOUNDATION && (dst >= NTAB || s->nt[dst] + n > CAP)) return -1;
    if (src == STOCK) {
        draw(s);
    } else if (dst == STOCK) {
        for (int t = 0; t < s->nw; t++) s->stock[t] = s->waste[s->nw - 1 - t];
        s->ns = s->nw;
        s->nw = 0;
        s->used++;
    } else {
        Edge e;
        memset(&e, 0, sizeof e);
        e.kind = PLAIN;
        e.src = (uint8_t)src;
        e.dst = (uint8_t)dst;
        e.n = (uint8_t)n;
        apply(s, &e, base);
    }
    return 0;
}

/* cardtable.solve.solve's search of the space within `nodes` positions, from s: its narrow
 * phases (the first k children of every position for each k of params->widths in turn, each
 * within one part in widths.n + 1 of the nodes) and then the complete search with the rest.
 * SOLVED, UNSOLVABLE (proved by the complete search), UNKNOWN, NO_MEMORY or INTERRUPTED;
 * *best: the most cards home in a position a phase took (the start, or one it went on from). */
static int solve_within(const Params *params, const State *s, long long nodes, int *best) {
    const int phases = params->widths.n + 1;
    *best = 0;
    long long quick = nodes / phases, spent = 0;
    Budget B;
    memset(&B, 0, sizeof B);
    B.has_nodes = 1;
    for (int w = quick > 1 ? 0 : phases - 1; w < phases; w++) {
        const int complete = w == phases - 1;
        Search S;
        memset(&S, 0, sizeof S);
        S.p = *params;
        S.p.k = complete ? -1 : params->widths.k[w];
        B.max_nodes = complete ? nodes - spent : quick;
        State t = *s;
        long long used = 0;
        int r = search_init(&S) < 0 ? NO_MEMORY : run(&S, &t, &B, &used);
        search_free(&S);
        if (S.best > *best) *best = S.best;
        spent += used;
        if (complete || r == SOLVED || r == NO_MEMORY || r == INTERRUPTED) return r;
    }
    return UNKNOWN; /* (not reached) */
}

/* PlayLine for sample_rounds: the line's moves, then solve_within. */
static int play_line(const void *options, void *position, const uint8_t (*moves)[3], Py_ssize_t n, long long nodes,
                     int *best) {
    const Params *p = options;
    State *s = position;
    for (Py_ssize_t m = 0; m < n; m++)
        if (apply_rules_move(s, moves[m][0], moves[m][1], moves[m][2], p->base, p->redeals) < 0) return BAD_LINE;
    int r = solve_within(p, s, nodes, best);
    if (!p->progress) *best = -1;
    return r;
}

static PyObject *sample_outcomes(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *stock, *waste, *reserve, *foundations, *tableau, *scores, *widths, *unseen, *lines;
    int base, used, redeals, progress;
    long long first, count, nodes;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "OOOOOiiiOOpOOLLKL:sample_outcomes", &stock, &waste, &reserve, &foundations, &tableau,
                          &base, &used, &redeals, &scores, &widths, &progress, &unseen, &lines, &first, &count, &seed,
                          &nodes))
        return NULL;
    Params params;
    memset(&params, 0, sizeof params);
    params.progress = progress;
    params.base = base;
    params.redeals = redeals;
    params.k = -1;
    if (check_ranges(base, used, redeals) < 0 || read_scores(scores, &params) < 0 || read_widths(widths, &params.widths) < 0)
        return NULL;
    State *start = malloc(sizeof(State));
    if (!start) return PyErr_NoMemory();
    PyObject *out = NULL;
    if (read_position(stock, waste, reserve, foundations, tableau, used, start) == 0) {
        /* The face-down places in Rules.face_down's order (the stock from its bottom, then the
         * reserve under its top card), as byte offsets into a State. */
        size_t places[2 * CAP], hidden[2 * CAP];
        int nplaces = 0;
        for (int i = 0; i < start->ns; i++) places[nplaces++] = offsetof(State, stock) + (size_t)i;
        for (int i = 0; i + 1 < start->nr; i++) places[nplaces++] = offsetof(State, reserve) + (size_t)i;
        int nhidden = read_unseen(unseen, places, nplaces, hidden);
        Lines L;
        if (nhidden >= 0 && read_lines(lines, &L, STOCK, FOUNDATION, CAP - 1) == 0) {
            out = sample_rounds(start, sizeof *start, hidden, nhidden, &L, first, count, (uint64_t)seed, nodes,
                                play_line, &params);
            lines_free(&L);
        }
    }
    free(start);
    return out;
}

/* --- can progress (cardtable.core.progress.can_progress) ------------------------------- */

/* Demonthief.progress is (cards home, -reserve cards) and Demonthief.one_way (-stock cards,
 * -stock and waste cards, redeals used): every move to a foundation, every reserve move, every
 * draw, play from the waste and redeal is progress, and no other move is. So the positions
 * reachable without progress share the start's foundations, reserve, base rank, stock, waste
 * and redeals used, and differ only in the tableau; a Reach position holds the talon too, as one array of the talon
 * T = waste + reversed(stock) (draws and redeals only move p, the waste's size in it) and then
 * the nine piles, bottom first, zero-padded: its 16 words are its exact key. */
typedef struct {
    uint8_t used, p, nt;  /* redeals used, waste size, talon size */
    uint8_t len[NTAB];     /* pile sizes */
    uint8_t c[KEY_WORDS * 8 - 3 - NTAB]; /* the talon, then the piles */
} Reach;

enum { PROGRESS = 1, NO_PROGRESS = 0, AT_LIMIT = -1, OUT_OF_MEMORY = -2 };

typedef struct {
    Seen seen;
    Reach *stack;
    size_t n, cap;
    long long limit;
} Reaching;

/* Whether card c may go on pile j, whose top card is t (>= 0). */
static inline int takes(int j, int t, int c) { return j < 4 ? LEFT_TAKES_[t * 52 + c] : PREV_[t] == c; }

/* A position reached without progress: seen, else counted and pushed. 0, AT_LIMIT when it
 * would be the limit's first position past, or OUT_OF_MEMORY. */
static int reach_child(Reaching *R, const Reach *child) {
    uint64_t key[KEY_WORDS];
    size_t where = 0;
    memcpy(key, child, sizeof key);
    uint64_t h = hash_key(key, KEY_WORDS);
    if (seen_find(&R->seen, key, h, &where)) return 0;
    if ((long long)R->seen.count >= R->limit) return AT_LIMIT;
    if (seen_insert(&R->seen, key, h, where) < 0) return OUT_OF_MEMORY;
    Reach *stack = room_for(R->stack, &R->cap, R->n + 1, sizeof *stack, 1024);
    if (!stack) return OUT_OF_MEMORY;
    R->stack = stack;
    R->stack[R->n++] = *child;
    return 0;
}

/* Move n cards from position `from` of the card array to the end of pile j (offsets off). */
static void move_cards(Reach *r, const int *off, int from, int n, int j) {
    uint8_t cards[CAP];
    int total = off[NTAB];
    int to = off[j + 1];
    memcpy(cards, r->c + from, n);
    memmove(r->c + from, r->c + from + n, total - from - n);
    if (to > from) to -= n;
    memmove(r->c + to + n, r->c + to, total - n - to);
    memcpy(r->c + to, cards, n);
}

/* can_progress over Demonthief.legal_moves and Demonthief.apply: PROGRESS when a sequence of
 * legal moves from start reaches a move home, a reserve move, a draw, a play from the waste or
 * a redeal (Demonthief.progress and one_way), NO_PROGRESS when the positions
 * reachable without one are all seen (at most limit, start included), AT_LIMIT when there are
 * more, or OUT_OF_MEMORY. The answer does not depend on the order of the search. */
static int reach(const Reach *start, const int *found, int base, int reserve_top, int redeals, long long limit) {
    Reaching R;
    memset(&R, 0, sizeof R);
    R.limit = limit;
    int result = NO_PROGRESS;
    if (seen_init(&R.seen, KEY_WORDS) < 0) {
        seen_free(&R.seen);
        return OUT_OF_MEMORY;
    }
    R.stack = room_for(NULL, &R.cap, 1, sizeof *R.stack, 1024);
    if (!R.stack) result = OUT_OF_MEMORY;
    else {
        uint64_t key[KEY_WORDS];
        size_t where = 0;
        memcpy(key, start, sizeof key);
        uint64_t h = hash_key(key, KEY_WORDS);
        seen_find(&R.seen, key, h, &where);
        if (seen_insert(&R.seen, key, h, where) < 0) result = OUT_OF_MEMORY;
        else R.stack[R.n++] = *start;
    }
    while (result == NO_PROGRESS && R.n) {
        Reach here = R.stack[--R.n], child;
        int off[NTAB + 1], top[NTAB], empty = 0;
        off[0] = here.nt;
        for (int i = 0; i < NTAB; i++) {
            off[i + 1] = off[i] + here.len[i];
            top[i] = here.len[i] ? here.c[off[i + 1] - 1] : -1;
            empty |= !here.len[i];
        }
        int w = here.p ? here.c[here.p - 1] : -1;
        /* Progress: a card home (waste, reserve, a pile's top), the reserve's or the waste's
         * top to a pile, a draw or a redeal. */
        if (w >= 0 && (empty || goes_home(w, found, base))) result = PROGRESS;
        for (int j = 0; j < NTAB && w >= 0; j++)
            if (top[j] >= 0 && takes(j, top[j], w)) result = PROGRESS;
        if (here.p < here.nt || (here.p && here.used < redeals)) result = PROGRESS;
        if (reserve_top >= 0) {
            if (empty || goes_home(reserve_top, found, base)) result = PROGRESS;
            for (int j = 0; j < NTAB; j++)
                if (top[j] >= 0 && takes(j, top[j], reserve_top)) result = PROGRESS;
        }
        for (int i = 0; i < NTAB; i++)
            if (top[i] >= 0 && goes_home(top[i], found, base)) result = PROGRESS;
        if (result != NO_PROGRESS) break;
        /* Tableau to tableau: any top part that is a run under its own pile's rule. */
        for (int i = 0; i < NTAB && result == NO_PROGRESS; i++) {
            int size = here.len[i];
            if (!size) continue;
            const uint8_t *q = here.c + off[i];
            int k = size - 1;
            if (i < 4)
                while (k && LEFT_TAKES_[q[k - 1] * 52 + q[k]]) k--;
            else
                while (k && PREV_[q[k - 1]] == q[k]) k--;
            for (int n = 1; n <= size - k && result == NO_PROGRESS; n++) {
                int c = q[size - n];
                for (int j = 0; j < NTAB; j++) {
                    if (j == i || (top[j] >= 0 && !takes(j, top[j], c))) continue;
                    child = here;
                    move_cards(&child, off, off[i + 1] - n, n, j);
                    child.len[i] = (uint8_t)(size - n);
                    child.len[j] = (uint8_t)(here.len[j] + n);
                    int r = reach_child(&R, &child);
                    if (r) {
                        result = r;
                        break;
                    }
                }
            }
        }
    }
    seen_free(&R.seen);
    free(R.stack);
    return result;
}

static PyObject *py_can_progress(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *stock, *waste, *reserve, *foundations, *tableau;
    int base, used, redeals, found[NFOUND];
    long long limit;
    if (!PyArg_ParseTuple(args, "OOOOOiiiL:can_progress", &stock, &waste, &reserve, &foundations, &tableau, &base,
                          &used, &redeals, &limit))
        return NULL;
    if (check_ranges(base, used, redeals) < 0) return NULL;
    uint8_t cards[CAP], talon[CAP];
    Reach start;
    memset(&start, 0, sizeof start);
    start.used = (uint8_t)used;
    int ns = read_cards(stock, cards, CAP, 52, "stock");
    int nw = ns < 0 ? -1 : read_cards(waste, talon, CAP, 52, "waste");
    int nr = nw < 0 ? -1 : read_cards(reserve, talon + nw, CAP - nw, 52, "reserve");
    if (nr < 0) return NULL;
    int reserve_top = nr ? talon[nw + nr - 1] : -1;
    int total = nw + ns;
    if (total > (int)sizeof start.c) {
        PyErr_SetString(PyExc_ValueError, "too many cards in play");
        return NULL;
    }
    memcpy(start.c, talon, nw);
    for (int i = 0; i < ns; i++) start.c[nw + i] = cards[ns - 1 - i];
    start.p = (uint8_t)nw;
    start.nt = (uint8_t)total;
    PyObject *seq = PySequence_Fast(tableau, "tableau");
    if (!seq) return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != NTAB) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "tableau: nine piles");
        return NULL;
    }
    for (int j = 0; j < NTAB; j++) {
        int n = read_cards(PySequence_Fast_GET_ITEM(seq, j), cards, CAP, 52, "a tableau pile");
        if (n < 0 || total + n > (int)sizeof start.c) {
            Py_DECREF(seq);
            if (n >= 0) PyErr_SetString(PyExc_ValueError, "too many cards in play");
            return NULL;
        }
        memcpy(start.c + total, cards, n);
        total += n;
        start.len[j] = (uint8_t)n;
    }
    Py_DECREF(seq);
    seq = PySequence_Fast(foundations, "foundations");
    if (!seq) return NULL;
    int bad = PySequence_Fast_GET_SIZE(seq) != NFOUND;
    for (int i = 0; !bad && i < NFOUND; i++) {
        long t = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (t == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return NULL;
        }
        bad = t < -1 || t >= 52;
        found[i] = (int)t;
    }
    Py_DECREF(seq);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "foundations: eight tops (-1 or a card)");
        return NULL;
    }
    int result;
    Py_BEGIN_ALLOW_THREADS;
    result = reach(&start, found, base, reserve_top, redeals, limit);
    Py_END_ALLOW_THREADS;
    if (result == OUT_OF_MEMORY) return PyErr_NoMemory();
    return PyLong_FromLong(result);
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS,
     "search(stock, waste, reserve, foundations, tableau, base, redeals_used, redeals, scores, eager, k, "
     "max_nodes, max_seen, seconds, exact=True) -> (verdict, nodes, moves)\n\n"
     "depth_first over DemonthiefSpace (see cardtable.solve.native.demonthief). scores: SCORE_RESERVE_HOME, "
     "SCORE_HOME, SCORE_STOCK_HOME, SCORE_RESERVE, SCORE_WASTE, SCORE_EMPTYING, SCORE_STOCK, SCORE_INTO_EMPTY, "
     "SCORE_EXPOSES_HOME; k < 0: every child; moves: (src, dst, n) tuples. exact False: positions are "
     "remembered by 63-bit fingerprints (a sixth of the memory); wins only, never 'unsolvable'."},
    {"sample_outcomes", sample_outcomes, METH_VARARGS,
     "sample_outcomes(stock, waste, reserve, foundations, tableau, base, redeals_used, redeals, scores, widths,\n"
     "                progress, unseen, lines, first, count, seed, nodes) -> [bytes, ...]\n\n"
     "The honest player's sampled evaluation (cardtable.bots.honest), as _klondike.sample_outcomes: the\n"
     "position's face-down places (Rules.face_down's order: the stock from its bottom, then the reserve\n"
     "under its top card) marked in unseen are dealt at random in samples first to first + count - 1 of\n"
     "seed; in each, each line of (src, dst, n) moves is played and the position after it solved as\n"
     "cardtable.solve.solve does within nodes positions (DemonthiefSpace with the scores; solve's narrow\n"
     "phases of the widths, at most eight, in turn, then the complete search). For each line,\n"
     "bytes: one per sample, 1 won, 2 proved lost, 0 unknown; with progress true, an unknown sample is\n"
     "3 + the most cards on the foundations in a position its search took. ValueError for what the core\n"
     "does not take."},
    {"can_progress", py_can_progress, METH_VARARGS,
     "can_progress(stock, waste, reserve, foundations, tableau, base, redeals_used, redeals, limit) -> 1, 0 or -1\n\n"
     "cardtable.core.progress.can_progress of Demonthief (redeals: 0) or Demons and Thieves (2) from the\n"
     "position given by the DemonthiefState fields: 1 when progress is reachable, 0 when the positions\n"
     "reachable without it (at most limit) hold none, -1 when there are more than limit of them.\n"
     "ValueError for a position the core does not take; MemoryError."},
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
