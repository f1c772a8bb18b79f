/* Search in the compiled core: CPython-compatible random numbers, playouts, the greedy agent,
 * MCTS and whole games, each the same computation as the Python code it replaces (see the
 * comments naming it) so that the same random.Random stream gives the same moves and leaves the
 * stream in the same state. Okapi games only: no chance nodes. */
#include "pycore.h"
#include "search_methods.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include <time.h>

/* ---- random.Random: MT19937 as Modules/_randommodule.c, draws as Lib/random.py (3.11) ------ */
#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int index;
} Rng;

static uint32_t rng_next(Rng *g) {     /* genrand_uint32 */
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    uint32_t *mt = g->mt;
    if (g->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        g->index = 0;
    }
    y = mt[g->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* getrandbits(k), 0 <= k <= 32 */
static uint32_t rng_bits(Rng *g, int k) {
    if (k == 0)
        return 0;
    return rng_next(g) >> (32 - k);
}

static int bit_length(uint32_t n) {
    int k = 0;
    while (n) {
        k++;
        n >>= 1;
    }
    return k;
}

/* _randbelow_with_getrandbits(n), n > 0: choice(seq) draws below(len(seq)), randrange(n)
 * below(n) */
static uint32_t rng_below(Rng *g, uint32_t n) {
    int k = bit_length(n);
    uint32_t r = rng_bits(g, k);
    while (r >= n)
        r = rng_bits(g, k);
    return r;
}

/* random() */
static double rng_random(Rng *g) {
    uint32_t a = rng_next(g) >> 5, b = rng_next(g) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* sample(range(n), k) into out[k] (0 <= k <= n): the pool method for small populations, the
 * set of selected indices otherwise, as random.py decides. */
static void rng_sample(Rng *g, int n, int k, int *out, int *pool) {
    int setsize = 21;
    if (k > 5)
        setsize += (int)pow(4.0, ceil(log((double)(k * 3)) / log(4.0)));
    if (n <= setsize) {
        for (int i = 0; i < n; i++)
            pool[i] = i;
        for (int i = 0; i < k; i++) {
            int j = (int)rng_below(g, (uint32_t)(n - i));
            out[i] = pool[j];
            pool[j] = pool[n - i - 1];
        }
    } else {
        for (int i = 0; i < k; i++) {
            int j, seen;
            do {
                j = (int)rng_below(g, (uint32_t)n);
                seen = 0;
                for (int s = 0; s < i; s++)
                    if (out[s] == j) {
                        seen = 1;
                        break;
                    }
            } while (seen);
            out[i] = j;
        }
    }
}

/* random.Random(seed)'s state from the seed's key: init_by_array (Modules/_randommodule.c)
 * over the key's 32-bit words, least significant first (compiled.seed_key gives the key of a
 * str seed: its bytes and their SHA-512, as one big integer, as random.seed does). */
static void rng_seed(Rng *g, const unsigned char *key, Py_ssize_t length) {
    uint32_t *mt = g->mt;
    size_t words = length > 0 ? (size_t)(length + 3) / 4 : 1, i = 1, j = 0, k;
    mt[0] = 19650218U;
    for (int n = 1; n < MT_N; n++)
        mt[n] = 1812433253U * (mt[n - 1] ^ (mt[n - 1] >> 30)) + (uint32_t)n;
    for (k = MT_N > words ? MT_N : words; k; k--) {
        uint32_t word = 0;
        for (int b = 0; b < 4; b++)
            if ((Py_ssize_t)(4 * j + b) < length)
                word |= (uint32_t)key[4 * j + b] << (8 * b);
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + word + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= words)
            j = 0;
    }
    for (k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
    g->index = MT_N;
}

/* A random state: the 625-tuple rng.getstate()[1] (624 words, then the index), or the bytes
 * of a seed's key (a stream nobody reads after the call); -1 with an exception. */
static int rng_from_py(PyObject *obj, Rng *g) {
    if (PyBytes_Check(obj)) {
        rng_seed(g, (const unsigned char *)PyBytes_AS_STRING(obj), PyBytes_GET_SIZE(obj));
        return 0;
    }
    if (!PyTuple_Check(obj) && !PyList_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "a random state must be the 625-tuple getstate()[1] or a "
                     "seed's key (bytes), got %.100s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyObject *seq = PySequence_Fast(obj, "a random state must be the 625-tuple getstate()[1]");
    if (seq == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "a random state must be the 625-tuple getstate()[1]");
        Py_DECREF(seq);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (int i = 0; i < MT_N; i++) {
        long long w;
        if (arg_int(items[i], 0, 0xffffffffLL, "a random state word", &w) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        g->mt[i] = (uint32_t)w;
    }
    long long index;
    int bad = arg_int(items[MT_N], 0, MT_N, "a random state's index", &index);
    Py_DECREF(seq);
    if (bad < 0)
        return -1;
    g->index = (int)index;
    return 0;
}

static PyObject *rng_to_py(const Rng *g) {
    PyObject *t = PyTuple_New(MT_N + 1);
    if (t == NULL)
        return NULL;
    for (int i = 0; i <= MT_N; i++) {
        PyObject *v = i < MT_N ? PyLong_FromUnsignedLong(g->mt[i]) : PyLong_FromLong(g->index);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/* ---- the GIL, signals and errors --------------------------------------------------------- */
enum { OK = 0, ERR_MEMORY = -1, ERR_SIGNAL = -2, ERR_STUCK = -3, ERR_BUDGET = -4,
       ERR_TOO_MANY = -5, ERR_NO_CHILD = -6 };

typedef struct {
    PyThreadState *ts;
    int released;
} Gil;

static void gil_release(Gil *gil) {
    if (!gil->released) {
        gil->ts = PyEval_SaveThread();
        gil->released = 1;
    }
}

static void gil_take(Gil *gil) {
    if (gil->released) {
        PyEval_RestoreThread(gil->ts);
        gil->released = 0;
    }
}

/* Re-take the GIL, run the signal handlers (Ctrl-C), give the GIL back if it was released.
 * ERR_SIGNAL (with the exception set, the GIL held) when a handler raised. */
static int gil_check(Gil *gil) {
    int was = gil->released;
    gil_take(gil);
    if (PyErr_CheckSignals() < 0)
        return ERR_SIGNAL;
    if (was)
        gil_release(gil);
    return OK;
}

/* With the GIL held: the exception for a failed computation (a signal has set its own). */
static void set_error(int rc) {
    if (rc == ERR_MEMORY)
        PyErr_NoMemory();
    else if (rc == ERR_STUCK)
        PyErr_SetString(PyExc_RuntimeError, "a position that is not over has no legal move");
    else if (rc == ERR_TOO_MANY)
        core_error(CORE_TOO_MANY_MOVES);
    else if (rc == ERR_NO_CHILD)
        PyErr_SetString(PyExc_RuntimeError, "mcts: no child to select (a score that is not a "
                        "number)");
}

static double now_seconds(void) {   /* time.perf_counter() on Linux */
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- playouts (agents/playouts.py) ------------------------------------------------------ */
enum { POLICY_RANDOM, POLICY_GREEDY, POLICY_EPSILON_GREEDY };
#define PLAYOUT_EPSILON 0.1          /* agents/playouts.py */
#define GREEDY_PLAYOUT_SAMPLE 4
#define LOOKAHEAD_POSITIONS 2000     /* agents/greedy.py */

/* What a playout needs besides the position: reused from playout to playout. */
typedef struct {
    MoveList list;
    Position *cur, *next, *best;
} Scratch;

static int scratch_init(Scratch *s, const Rules *r) {
    movelist_init(&s->list);
    s->cur = calloc(1, r->pos_bytes);
    s->next = calloc(1, r->pos_bytes);
    s->best = calloc(1, r->pos_bytes);
    return s->cur && s->next && s->best ? OK : ERR_MEMORY;
}

static void scratch_free(Scratch *s) {
    movelist_free(&s->list);
    free(s->cur);
    free(s->next);
    free(s->best);
    s->cur = s->next = s->best = NULL;
}

static int gen(const Rules *r, const Position *pos, MoveList *list) {
    list->n = 0;
    list->nswaps = 0;
    int rc = generate(r, pos, list);
    return rc == CORE_OK ? OK : rc == CORE_TOO_MANY_MOVES ? ERR_TOO_MANY : ERR_MEMORY;
}

#define SWAP_POS(a, b) do { Position *t_ = (a); (a) = (b); (b) = t_; } while (0)

/* random_playout: rng.choice(legal_moves()) until the end. */
static int playout_random(const Rules *r, const Position *start, Rng *g, Scratch *s, int *ret) {
    memcpy(s->cur, start, r->pos_bytes);
    while (!is_terminal(s->cur)) {
        int rc = gen(r, s->cur, &s->list);
        if (rc < 0)
            return rc;
        if (s->list.n == 0)
            return ERR_STUCK;
        int i = (int)rng_below(g, (uint32_t)s->list.n);
        apply_move(r, s->cur, &s->list, i, s->next);
        SWAP_POS(s->cur, s->next);
    }
    *ret = first_return(r, s->cur);
    return OK;
}

/* greedy_playout: past GREEDY_PLAYOUT_SAMPLE legal moves, rng.sample(moves, 4) (in sample's
 * order); the first candidate whose after-state is strictly best for the mover. */
static int playout_greedy(const Rules *r, const Position *start, Rng *g, Scratch *s, int *ret) {
    int cand[GREEDY_PLAYOUT_SAMPLE], pool[32];
    memcpy(s->cur, start, r->pos_bytes);
    while (!is_terminal(s->cur)) {
        int player = s->cur->to_move;
        int rc = gen(r, s->cur, &s->list);
        if (rc < 0)
            return rc;
        int n = s->list.n, m;
        if (n == 0)
            return ERR_STUCK;
        if (n > GREEDY_PLAYOUT_SAMPLE) {
            m = GREEDY_PLAYOUT_SAMPLE;
            if (n <= 21) {                   /* sample's pool method (setsize 21) */
                rng_sample(g, n, m, cand, pool);
            } else {
                rng_sample(g, n, m, cand, NULL);
            }
        } else {
            m = n;
            for (int i = 0; i < n; i++)
                cand[i] = i;
        }
        double best_value = -INFINITY;
        int have = 0;
        for (int i = 0; i < m; i++) {
            apply_move(r, s->cur, &s->list, cand[i], s->next);
            double value = evaluate(r, s->next, player);
            if (value > best_value) {     /* strictly: the first of equal values stays */
                SWAP_POS(s->best, s->next);
                best_value = value;
                have = 1;
            }
        }
        if (!have)
            return ERR_STUCK;
        SWAP_POS(s->cur, s->best);
    }
    *ret = first_return(r, s->cur);
    return OK;
}

static int same_key(const MoveList *l, int i, int j);

/* epsilon_greedy_playout: with probability PLAYOUT_EPSILON (one random() a ply) a uniform move,
 * else the first move whose after-state is strictly best for the mover among all of them (a
 * move of the same evaluation key as the one before it evaluates alike: skipped). */
static int playout_epsilon_greedy(const Rules *r, const Position *start, Rng *g, Scratch *s,
                                  int *ret) {
    memcpy(s->cur, start, r->pos_bytes);
    while (!is_terminal(s->cur)) {
        int player = s->cur->to_move;
        int rc = gen(r, s->cur, &s->list);
        if (rc < 0)
            return rc;
        int n = s->list.n;
        if (n == 0)
            return ERR_STUCK;
        if (rng_random(g) < PLAYOUT_EPSILON) {
            apply_move(r, s->cur, &s->list, (int)rng_below(g, (uint32_t)n), s->next);
            SWAP_POS(s->cur, s->next);
            continue;
        }
        double best_value = -INFINITY;
        for (int i = 0; i < n; i++) {
            if (i > 0 && same_key(&s->list, i, i - 1))
                continue;
            apply_move(r, s->cur, &s->list, i, s->next);
            double value = evaluate(r, s->next, player);
            if (value > best_value) {
                SWAP_POS(s->best, s->next);
                best_value = value;
            }
        }
        SWAP_POS(s->cur, s->best);
    }
    *ret = first_return(r, s->cur);
    return OK;
}

static int playout(const Rules *r, const Position *start, int policy, Rng *g, Scratch *s,
                   int *ret) {
    switch (policy) {
    case POLICY_GREEDY:
        return playout_greedy(r, start, g, s, ret);
    case POLICY_EPSILON_GREEDY:
        return playout_epsilon_greedy(r, start, g, s, ret);
    default:
        return playout_random(r, start, g, s, ret);
    }
}

/* ---- the greedy agent (agents/greedy.py) ----------------------------------------------- */
/* game.evaluation_key: (kind, cell, swaps) */
static int same_key(const MoveList *l, int i, int j) {
    const Move *a = &l->moves[i], *b = &l->moves[j];
    if (a->kind != b->kind || a->cell != b->cell || a->nswaps != b->nswaps)
        return 0;
    return a->nswaps == 0 ||
           memcmp(l->swaps + a->swaps, l->swaps + b->swaps, sizeof(int32_t) * a->nswaps) == 0;
}

static int greedy_value(const Rules *r, const Position *pos, int player, int *weighed,
                        double *out);

/* _move_values: player's value of each move of list (from pos); moves of one evaluation key
 * share the first one's value unless the same player moves again after it. every 0 (a
 * lookahead within the turn): stop once LOOKAHEAD_POSITIONS positions are weighed; *count the
 * values computed. */
static int greedy_move_values(const Rules *r, const Position *pos, const MoveList *list,
                              int player, int *weighed, int every, double *values, int *count) {
    int n = list->n, rc = OK, i;
    Position *after = malloc(r->pos_bytes);
    char *shared = calloc(n > 0 ? n : 1, 1);
    if (after == NULL || shared == NULL) {
        free(after);
        free(shared);
        return ERR_MEMORY;
    }
    for (i = 0; i < n; i++) {
        if (i > 0 && !every && *weighed >= LOOKAHEAD_POSITIONS)
            break;
        int found = -1;
        /* the moves of one cell are generated together: look back among them */
        for (int j = i - 1; j >= 0 && list->moves[j].cell == list->moves[i].cell; j--)
            if (shared[j] && same_key(list, i, j)) {
                found = j;
                break;
            }
        if (found >= 0) {
            values[i] = values[found];
            continue;
        }
        apply_move(r, pos, list, i, after);
        (*weighed)++;
        rc = greedy_value(r, after, player, weighed, &values[i]);
        if (rc < 0)
            break;
        if (after->to_move != player)
            shared[i] = 1;
    }
    *count = i;
    free(after);
    free(shared);
    return rc;
}

/* _value: the evaluation, or the best of the next moves when the same player moves again
 * (Okapi games: after the opening when the first player also places first). The Python
 * lookahead's cache of positions never hits here (the positions after distinct openings
 * differ). */
static int greedy_value(const Rules *r, const Position *pos, int player, int *weighed,
                        double *out) {
    if (pos->to_move != player || *weighed >= LOOKAHEAD_POSITIONS) {
        *out = evaluate(r, pos, player);
        return OK;
    }
    MoveList list;
    movelist_init(&list);
    int rc = gen(r, pos, &list), count = 0;
    double *values = NULL;
    if (rc == OK && list.n == 0)
        rc = ERR_STUCK;
    if (rc == OK) {
        values = malloc(sizeof(double) * list.n);
        rc = values ? greedy_move_values(r, pos, &list, player, weighed, 0, values, &count)
                    : ERR_MEMORY;
    }
    if (rc == OK) {
        double best = values[0];
        for (int i = 1; i < count; i++)
            if (values[i] > best)
                best = values[i];
        *out = best;
    }
    free(values);
    movelist_free(&list);
    return rc;
}

/* GreedyAgent.choose for pos and its legal moves list (at least two): *index the move. */
static int greedy_choose(const Rules *r, const Position *pos, const MoveList *list, Rng *g,
                         int *index) {
    int n = list->n, weighed = 0, count = 0;
    double *values = malloc(sizeof(double) * (n > 0 ? n : 1));
    int *best = malloc(sizeof(int) * (n > 0 ? n : 1));
    int rc = values && best ? OK : ERR_MEMORY;
    if (rc == OK && n == 0)
        rc = ERR_STUCK;
    if (rc == OK)
        rc = greedy_move_values(r, pos, list, pos->to_move, &weighed, 1, values, &count);
    if (rc == OK) {
        double top = values[0];
        for (int i = 1; i < n; i++)
            if (values[i] > top)
                top = values[i];
        int nb = 0;
        for (int i = 0; i < n; i++)
            if (values[i] >= top - 1e-9)
                best[nb++] = i;
        *index = nb == 1 ? best[0] : best[rng_below(g, (uint32_t)nb)];
    }
    free(values);
    free(best);
    return rc;
}

/* ---- MCTS (agents/mcts.py) ------------------------------------------------------------- */
typedef struct Block {
    struct Block *next;
    size_t used, cap;
} Block;
#define BLOCK_HEADER ((sizeof(Block) + 15) & ~(size_t)15)
#define BLOCK_BYTES ((size_t)1 << 20)

typedef struct {
    Block *head;
} Arena;

static void *arena_alloc(Arena *a, size_t n) {
    n = (n + 15) & ~(size_t)15;
    if (a->head == NULL || a->head->used + n > a->head->cap) {
        size_t cap = n > BLOCK_BYTES ? n : BLOCK_BYTES;
        Block *b = malloc(BLOCK_HEADER + cap);
        if (b == NULL)
            return NULL;
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = (char *)a->head + BLOCK_HEADER + a->head->used;
    a->head->used += n;
    return p;
}

static void arena_free(Arena *a) {
    while (a->head) {
        Block *b = a->head;
        a->head = b->next;
        free(b);
    }
}

typedef struct Node {
    struct Node *parent, *first, *last, *next;   /* children in the order they were made */
    Position *pos;
    int32_t *untried;        /* indices into the node's legal moves */
    int32_t nuntried;        /* -1: not computed yet */
    int32_t move;            /* index of the move into it among the parent's legal moves */
    int32_t mover, player;
    int64_t visits;
    double value;            /* sum of returns for mover */
} Node;

typedef struct {
    const Rules *r;
    const MoveList *root_moves;
    Arena arena;
    Node *root;
    MoveList gen;            /* the legal moves of gen_for */
    const Node *gen_for;
    Scratch s;
} Tree;

static Node *node_new(Tree *t, Node *parent, int move, int mover) {
    size_t head = (sizeof(Node) + 15) & ~(size_t)15;
    Node *n = arena_alloc(&t->arena, head + t->r->pos_bytes);
    if (n == NULL)
        return NULL;
    memset(n, 0, sizeof(Node));
    n->pos = (Position *)((char *)n + head);
    n->parent = parent;
    n->move = move;
    n->mover = mover;
    n->nuntried = -1;
    if (parent) {
        if (parent->last)
            parent->last->next = n;
        else
            parent->first = n;
        parent->last = n;
    }
    return n;
}

/* The node's legal moves (regenerated when another node's were generated since). */
static int node_moves(Tree *t, const Node *n, const MoveList **out) {
    if (n == t->root) {
        *out = t->root_moves;
        return OK;
    }
    if (t->gen_for != n) {
        t->gen_for = NULL;
        int rc = gen(t->r, n->pos, &t->gen);
        if (rc < 0)
            return rc;
        t->gen_for = n;
    }
    *out = &t->gen;
    return OK;
}

/* untried_moves(): computed when first needed, the legal moves in order; none at the end. */
static int node_untried(Tree *t, Node *n) {
    if (n->nuntried >= 0)
        return OK;
    if (n->player < 0) {
        n->nuntried = 0;
        return OK;
    }
    const MoveList *list;
    int rc = node_moves(t, n, &list);
    if (rc < 0)
        return rc;
    n->untried = arena_alloc(&t->arena, sizeof(int32_t) * (list->n > 0 ? list->n : 1));
    if (n->untried == NULL)
        return ERR_MEMORY;
    for (int i = 0; i < list->n; i++)
        n->untried[i] = i;
    n->nuntried = list->n;
    return OK;
}

/* _Node.select: the first child of greatest UCT score. */
static Node *node_select(const Node *n, double exploration) {
    double log_n = log((double)n->visits);
    Node *best = NULL;
    double best_score = -INFINITY;
    for (Node *c = n->first; c; c = c->next) {
        double score = c->value / (double)c->visits +
                       exploration * sqrt(log_n / (double)c->visits);
        if (score > best_score) {
            best = c;
            best_score = score;
        }
    }
    return best;
}

/* MctsAgent._iterate */
static int mcts_iterate(Tree *t, int policy, double exploration, Rng *g) {
    const Rules *r = t->r;
    Node *node = t->root;
    int rc;
    for (;;) {                                             /* selection */
        if ((rc = node_untried(t, node)) < 0)
            return rc;
        if (node->nuntried == 0 && node->first) {
            node = node_select(node, exploration);
            if (node == NULL)     /* every score NaN: cannot happen with a finite exploration */
                return ERR_NO_CHILD;
        } else
            break;
    }
    if (node->nuntried > 0) {                              /* expansion */
        int n = node->nuntried;
        int i = (int)rng_below(g, (uint32_t)n);
        int32_t tmp = node->untried[i];
        node->untried[i] = node->untried[n - 1];
        node->untried[n - 1] = tmp;
        node->nuntried = n - 1;
        const MoveList *list;
        if ((rc = node_moves(t, node, &list)) < 0)
            return rc;
        Node *child = node_new(t, node, tmp, node->player);
        if (child == NULL)
            return ERR_MEMORY;
        apply_move(r, node->pos, list, tmp, child->pos);
        child->player = child->pos->to_move;
        node = child;
    }
    int ret;                                               /* simulation */
    if ((rc = playout(r, node->pos, policy, g, &t->s, &ret)) < 0)
        return rc;
    for (; node; node = node->parent) {                    /* backpropagation */
        node->visits++;
        if (node->mover >= 0)
            node->value += (double)(node->mover == 0 ? ret : -ret);
    }
    return OK;
}

#define CHECK_EVERY 1000

/* MctsAgent.search's loop from pos (its legal moves: list, at least two): `iterations`
 * iterations, or until the clock passes deadline (has_deadline; at least one). The tree stays
 * in t (tree_free). The GIL may be released (gil) and is re-taken to check signals. */
static int mcts_search(Tree *t, const Rules *r, const Position *pos, const MoveList *list,
                       long iterations, int has_deadline, double deadline, int policy,
                       double exploration, Rng *g, Gil *gil, long *done) {
    memset(t, 0, sizeof(*t));
    t->r = r;
    t->root_moves = list;
    movelist_init(&t->gen);
    int rc = scratch_init(&t->s, r);
    if (rc < 0)
        return rc;
    t->root = node_new(t, NULL, -1, -1);
    if (t->root == NULL)
        return ERR_MEMORY;
    memcpy(t->root->pos, pos, r->pos_bytes);
    t->root->player = pos->to_move;
    t->root->untried = arena_alloc(&t->arena, sizeof(int32_t) * (list->n > 0 ? list->n : 1));
    if (t->root->untried == NULL)
        return ERR_MEMORY;
    for (int i = 0; i < list->n; i++)
        t->root->untried[i] = i;
    t->root->nuntried = list->n;
    long count = 0;
    for (;;) {
        if ((rc = mcts_iterate(t, policy, exploration, g)) < 0)
            return rc;
        count++;
        *done = count;
        if (has_deadline) {
            if (now_seconds() >= deadline)
                break;
        } else if (count >= iterations)
            break;
        if (count % CHECK_EVERY == 0 && (rc = gil_check(gil)) < 0)
            return rc;
    }
    return OK;
}

static void tree_free(Tree *t) {
    arena_free(&t->arena);
    movelist_free(&t->gen);
    scratch_free(&t->s);
}

/* The move MctsAgent plays: most visited, then the better mean, then the first legal. */
static int mcts_best(const Tree *t) {
    const Node *best = NULL;
    for (const Node *c = t->root->first; c; c = c->next) {
        if (best == NULL || c->visits > best->visits)
            best = c;
        else if (c->visits == best->visits) {
            double mc = -c->value / (double)c->visits, mb = -best->value / (double)best->visits;
            if (mc < mb || (mc == mb && c->move < best->move))
                best = c;
        }
    }
    return best ? best->move : 0;
}

/* ---- exact endgame search (agents/solver.py) ------------------------------------------ */
/* Alpha-beta over win (+1), draw (0) and loss (-1) for the root's player, node for node the
 * reference's search: the same move order, the same cut-offs, the same count of positions
 * visited, so both give up at the same point when the budget runs out. */
typedef struct {
    const Rules *r;
    int root;
    long nodes, budget;
    int levels;
    MoveList *lists;        /* one per depth below the root */
    Position **children;
    Gil *gil;               /* released: re-taken now and then to let Ctrl-C through */
} Solver;

#define SOLVE_CHECK_EVERY 65536   /* positions (a few milliseconds) */

static int solver_level(Solver *s, int depth) {
    if (depth < s->levels)
        return OK;
    int levels = s->levels ? 2 * s->levels : 32;
    MoveList *lists = realloc(s->lists, sizeof(MoveList) * levels);
    if (lists == NULL)
        return ERR_MEMORY;
    s->lists = lists;
    Position **children = realloc(s->children, sizeof(Position *) * levels);
    if (children == NULL)
        return ERR_MEMORY;
    s->children = children;
    for (int i = s->levels; i < levels; i++) {
        movelist_init(&s->lists[i]);
        s->children[i] = NULL;
    }
    for (int i = s->levels; i < levels; i++) {
        s->levels = i + 1;
        if ((s->children[i] = calloc(1, s->r->pos_bytes)) == NULL)
            return ERR_MEMORY;
    }
    return OK;
}

static void solver_free(Solver *s) {
    for (int i = 0; i < s->levels; i++) {
        movelist_free(&s->lists[i]);
        free(s->children[i]);
    }
    free(s->lists);
    free(s->children);
}

static int solve_value(Solver *s, const Position *pos, int depth, int alpha, int beta,
                       int *value) {
    if (++s->nodes > s->budget)
        return ERR_BUDGET;
    int rc;
    if (s->nodes % SOLVE_CHECK_EVERY == 0 && (rc = gil_check(s->gil)) < 0)
        return rc;
    if (is_terminal(pos)) {
        int first = first_return(s->r, pos);
        *value = s->root == 0 ? first : -first;
        return OK;
    }
    rc = solver_level(s, depth);
    if (rc < 0 || (rc = gen(s->r, pos, &s->lists[depth])) < 0)
        return rc;
    int n = s->lists[depth].n;
    if (n == 0)
        return ERR_STUCK;
    int maximizing = pos->to_move == s->root, best = maximizing ? -2 : 2;
    for (int i = 0; i < n; i++) {
        int v;
        /* the arrays may move when a deeper level is added: index them afresh */
        apply_move(s->r, pos, &s->lists[depth], i, s->children[depth]);
        if ((rc = solve_value(s, s->children[depth], depth + 1, alpha, beta, &v)) < 0)
            return rc;
        if (maximizing) {
            if (v > best)
                best = v;
            if (best > alpha)
                alpha = best;
        } else {
            if (v < best)
                best = v;
            if (best < beta)
                beta = best;
        }
        if (alpha >= beta)
            break;
    }
    *value = best;
    return OK;
}

/* The value of pos for its player to move and the first legal move (index) reaching it;
 * ERR_BUDGET when more than `budget` positions below it would be visited. */
static int solve_root(const Rules *r, const Position *pos, long budget, Gil *gil, int *value,
                      int *index) {
    Solver s = {r, pos->to_move, 0, budget, 0, NULL, NULL, gil};
    MoveList list;
    movelist_init(&list);
    Position *child = position_new(r);
    int rc = child == NULL ? ERR_MEMORY : gen(r, pos, &list);
    int best = -2, alpha = -2, beta = 2;
    *index = -1;
    for (int i = 0; rc == OK && i < list.n; i++) {
        int v;
        apply_move(r, pos, &list, i, child);
        if ((rc = solve_value(&s, child, 0, alpha, beta, &v)) < 0)
            break;
        if (v > best) {
            best = v;
            *index = i;
        }
        if (best > alpha)
            alpha = best;
        if (best == 1)
            break;
    }
    if (rc == OK && *index < 0)
        rc = ERR_STUCK;
    *value = best;
    free(child);
    movelist_free(&list);
    solver_free(&s);
    return rc;
}

/* ---- argument helpers -------------------------------------------------------------------- */
static const Rules *rules_of(PyObject *self) { return &((RulesObject *)self)->rules; }


static int read_policy(PyObject *obj, int *policy) {
    const char *name = PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : NULL;
    if (name && strcmp(name, "random") == 0)
        *policy = POLICY_RANDOM;
    else if (name && strcmp(name, "greedy") == 0)
        *policy = POLICY_GREEDY;
    else if (name && strcmp(name, "egreedy") == 0)
        *policy = POLICY_EPSILON_GREEDY;
    else {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "unknown playout %R (random, greedy or egreedy)",
                         obj);
        return -1;
    }
    return 0;
}

/* (value, the stream's new state), or the computation's error. */
static PyObject *with_stream(int rc, int value, const Rng *g) {
    if (rc < 0) {
        set_error(rc);
        return NULL;
    }
    PyObject *state = rng_to_py(g);
    return state ? Py_BuildValue("(iN)", value, state) : NULL;
}

/* ---- the methods ----------------------------------------------------------------------- */
PyObject *rules_playout(PyObject *self, PyObject *args) {
    const Rules *r = rules_of(self);
    PyObject *pos_obj, *policy_obj, *rng_obj;
    int policy, ret = 0, rc;
    Rng g;
    if (!PyArg_ParseTuple(args, "OOO:playout", &pos_obj, &policy_obj, &rng_obj))
        return NULL;
    if (read_policy(policy_obj, &policy) < 0 || rng_from_py(rng_obj, &g) < 0)
        return NULL;
    Position *pos = rules_position(self, pos_obj);
    if (pos == NULL)
        return NULL;
    Scratch s;
    rc = scratch_init(&s, r);
    if (rc == OK) {
        Py_BEGIN_ALLOW_THREADS
        rc = playout(r, pos, policy, &g, &s, &ret);
        Py_END_ALLOW_THREADS
    }
    scratch_free(&s);
    free(pos);
    return with_stream(rc, ret, &g);
}

PyObject *rules_greedy(PyObject *self, PyObject *args) {
    const Rules *r = rules_of(self);
    PyObject *pos_obj, *rng_obj;
    Rng g;
    int index = 0, rc;
    if (!PyArg_ParseTuple(args, "OO:greedy", &pos_obj, &rng_obj) || rng_from_py(rng_obj, &g) < 0)
        return NULL;
    Position *pos = rules_position(self, pos_obj);
    if (pos == NULL)
        return NULL;
    MoveList list;
    movelist_init(&list);
    Py_BEGIN_ALLOW_THREADS
    rc = gen(r, pos, &list);
    if (rc == OK && list.n == 0)
        rc = ERR_STUCK;
    if (rc == OK)
        rc = list.n == 1 ? (index = 0, OK) : greedy_choose(r, pos, &list, &g, &index);
    Py_END_ALLOW_THREADS
    movelist_free(&list);
    free(pos);
    return with_stream(rc, index, &g);
}

PyObject *rules_mcts(PyObject *self, PyObject *args) {
    const Rules *r = rules_of(self);
    PyObject *pos_obj, *iterations_obj, *deadline_obj, *policy_obj, *exploration_obj, *rng_obj;
    long long iterations_arg;
    double exploration, deadline = 0.0;
    int policy, has_deadline, rc;
    long done = 0;
    Rng g;
    if (!PyArg_ParseTuple(args, "OOOOOO:mcts", &pos_obj, &iterations_obj, &deadline_obj,
                          &policy_obj, &exploration_obj, &rng_obj))
        return NULL;
    has_deadline = deadline_obj != Py_None;
    /* with a deadline the iterations are not counted (MctsAgent passes 0) */
    if (arg_int(iterations_obj, has_deadline ? 0 : 1, LONG_MAX, "mcts: iterations",
                &iterations_arg) < 0 ||
        (has_deadline && arg_double(deadline_obj, -DBL_MAX, DBL_MAX, "mcts: deadline",
                                    &deadline) < 0) ||
        arg_double(exploration_obj, 0.0, DBL_MAX, "mcts: exploration", &exploration) < 0)
        return NULL;
    long iterations = (long)iterations_arg;
    if (read_policy(policy_obj, &policy) < 0 || rng_from_py(rng_obj, &g) < 0)
        return NULL;
    Position *pos = rules_position(self, pos_obj);
    if (pos == NULL)
        return NULL;
    MoveList list;
    movelist_init(&list);
    Tree t;
    int have_tree = 0;
    Gil gil = {NULL, 0};
    gil_release(&gil);
    rc = gen(r, pos, &list);
    if (rc == OK && list.n == 0)
        rc = ERR_STUCK;
    if (rc == OK && list.n > 1) {
        have_tree = 1;
        rc = mcts_search(&t, r, pos, &list, iterations, has_deadline, deadline, policy,
                         exploration, &g, &gil, &done);
    }
    gil_take(&gil);
    PyObject *result = NULL, *children = NULL, *state = NULL;
    if (rc < 0) {
        set_error(rc);
        goto end;
    }
    children = PyList_New(0);
    if (children == NULL)
        goto end;
    if (!have_tree) {    /* forced: nothing to think about (MctsAgent.search's shortcut) */
        PyObject *item = Py_BuildValue("(iid)", 0, 0, 0.0);
        if (item == NULL || PyList_Append(children, item) < 0) {
            Py_XDECREF(item);
            goto end;
        }
        Py_DECREF(item);
    } else {
        for (Node *c = t.root->first; c; c = c->next) {
            PyObject *item = Py_BuildValue("(iLd)", c->move, (long long)c->visits, c->value);
            if (item == NULL || PyList_Append(children, item) < 0) {
                Py_XDECREF(item);
                goto end;
            }
            Py_DECREF(item);
        }
    }
    state = rng_to_py(&g);
    if (state)
        result = Py_BuildValue("(lOO)", done, children, state);
end:
    Py_XDECREF(children);
    Py_XDECREF(state);
    if (have_tree)
        tree_free(&t);
    movelist_free(&list);
    free(pos);
    return result;
}

/* ---- whole games (lab/matches.py play_game) ------------------------------------------- */
enum { AGENT_RANDOM, AGENT_GREEDY, AGENT_MCTS, AGENT_EXPERT };

typedef struct {
    int kind, policy;
    long iterations;
    double exploration;
    long solve_cells, solve_nodes;    /* the expert's endgame search */
} AgentSpec;

static int read_long(PyObject *tuple, int i, long low, long *out) {
    long long v;
    PyObject *item = PyTuple_GET_ITEM(tuple, i);
    if (!PyLong_Check(item)) {
        PyErr_Format(PyExc_TypeError, "agent spec %R: item %d is not an int", tuple, i);
        return -1;
    }
    if (arg_int(item, low, LONG_MAX, "agent spec item", &v) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "agent spec %R: item %d is not in %ld..%ld", tuple, i,
                     low, LONG_MAX);
        return -1;
    }
    *out = (long)v;
    return 0;
}

/* UCT's constant: a finite number >= 0 (a NaN or an infinity leaves no child to select) */
static int read_exploration(PyObject *tuple, int i, double *out) {
    return arg_double(PyTuple_GET_ITEM(tuple, i), 0.0, DBL_MAX, "agent spec: exploration", out);
}

static int read_agent(PyObject *obj, AgentSpec *a) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) < 1 ||
        !PyUnicode_Check(PyTuple_GET_ITEM(obj, 0))) {
        PyErr_Format(PyExc_ValueError, "an agent spec is a tuple ('random',), ('greedy',) or "
                     "('mcts', iterations, policy, exploration), got %R", obj);
        return -1;
    }
    const char *kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(obj, 0));
    if (kind == NULL)
        return -1;
    if (strcmp(kind, "random") == 0 && PyTuple_GET_SIZE(obj) == 1)
        a->kind = AGENT_RANDOM;
    else if (strcmp(kind, "greedy") == 0 && PyTuple_GET_SIZE(obj) == 1)
        a->kind = AGENT_GREEDY;
    else if (strcmp(kind, "mcts") == 0 && PyTuple_GET_SIZE(obj) == 4) {
        a->kind = AGENT_MCTS;
        if (read_long(obj, 1, 1, &a->iterations) < 0 ||
            read_policy(PyTuple_GET_ITEM(obj, 2), &a->policy) < 0 ||
            read_exploration(obj, 3, &a->exploration) < 0)
            return -1;
    } else if (strcmp(kind, "expert") == 0 && PyTuple_GET_SIZE(obj) == 5) {
        a->kind = AGENT_EXPERT;
        a->policy = POLICY_GREEDY;
        if (read_long(obj, 1, 1, &a->iterations) < 0 || read_long(obj, 3, 0, &a->solve_cells) < 0
            || read_long(obj, 4, 0, &a->solve_nodes) < 0 || read_exploration(obj, 2,
                                                                              &a->exploration) < 0)
            return -1;
    } else {
        PyErr_Format(PyExc_ValueError, "unknown agent spec %R", obj);
        return -1;
    }
    return 0;
}

static int append_new(PyObject *list, PyObject *item) {
    if (item == NULL)
        return -1;
    int rc = PyList_Append(list, item);
    Py_DECREF(item);
    return rc;
}

/* The agent's move for pos (legal moves: list, at least two). */
static int agent_choose(const Rules *r, const AgentSpec *a, const Position *pos,
                        const MoveList *list, Rng *g, Gil *gil, int *index) {
    int rc;
    switch (a->kind) {
    case AGENT_RANDOM:
        *index = (int)rng_below(g, (uint32_t)list->n);
        return OK;
    case AGENT_GREEDY:
        gil_release(gil);
        rc = greedy_choose(r, pos, list, g, index);
        gil_take(gil);
        return rc;
    case AGENT_EXPERT:
        /* games/kiwara/expert.py: the exact endgame when few placements are left and it is
         * not lost; else the search */
        long tokens = 0;
        for (int i = 0; i < 2 * KINDS; i++)
            tokens += pos->reserve[i];
        if ((pos->empty < tokens ? pos->empty : tokens) <= a->solve_cells) {   /* placements_left */
            int value;
            gil_release(gil);
            rc = solve_root(r, pos, a->solve_nodes, gil, &value, index);
            gil_take(gil);
            if (rc == OK && value >= 0)
                return OK;
            if (rc != OK && rc != ERR_BUDGET)
                return rc;
        }
        /* fall through */
    default: {
        Tree t;
        long done = 0;
        gil_release(gil);
        rc = mcts_search(&t, r, pos, list, a->iterations, 0, 0.0, a->policy, a->exploration, g,
                         gil, &done);
        if (rc == OK)
            *index = mcts_best(&t);
        tree_free(&t);
        gil_take(gil);
        return rc;
    }
    }
}

PyObject *rules_solve(PyObject *self, PyObject *args) {
    const Rules *r = rules_of(self);
    PyObject *pos_obj, *budget_obj;
    long long budget_arg;
    if (!PyArg_ParseTuple(args, "OO:solve", &pos_obj, &budget_obj) ||
        arg_int(budget_obj, LONG_MIN, LONG_MAX, "solve: budget", &budget_arg) < 0)
        return NULL;
    long budget = (long)budget_arg;
    Position *pos = rules_position(self, pos_obj);
    if (pos == NULL)
        return NULL;
    int value = 0, index = -1, rc;
    if (is_terminal(pos) || pos->to_move < 0) {
        free(pos);
        PyErr_SetString(PyExc_ValueError, "solve needs a position with a player to move");
        return NULL;
    }
    Gil gil = {NULL, 0};
    gil_release(&gil);
    rc = solve_root(r, pos, budget, &gil, &value, &index);
    gil_take(&gil);
    free(pos);
    if (rc == ERR_BUDGET)
        Py_RETURN_NONE;
    if (rc < 0) {
        set_error(rc);
        return NULL;
    }
    return Py_BuildValue("(ii)", value, index);
}

PyObject *rules_play_game(PyObject *self, PyObject *args) {
    const Rules *r = rules_of(self);
    PyObject *pos_obj, *agents_obj, *rngs_obj;
    AgentSpec agents[2];
    Rng rngs[2];
    int keep_moves = 1;      /* the moves are only wanted for records: building them costs */
    if (!PyArg_ParseTuple(args, "OO!O!|p:play_game", &pos_obj, &PyTuple_Type, &agents_obj,
                          &PyTuple_Type, &rngs_obj, &keep_moves))
        return NULL;
    if (PyTuple_GET_SIZE(agents_obj) != 2 || PyTuple_GET_SIZE(rngs_obj) != 2) {
        PyErr_SetString(PyExc_ValueError, "play_game wants two agents and two random states");
        return NULL;
    }
    for (int i = 0; i < 2; i++)
        if (read_agent(PyTuple_GET_ITEM(agents_obj, i), &agents[i]) < 0 ||
            rng_from_py(PyTuple_GET_ITEM(rngs_obj, i), &rngs[i]) < 0)
            return NULL;
    Position *pos = rules_position(self, pos_obj);
    if (pos == NULL)
        return NULL;
    Position *next = position_new(r);
    int nt = r->nterritories;
    int8_t *now = malloc(nt > 0 ? nt : 1), *last = malloc(nt > 0 ? nt : 1);
    long *changes = calloc(nt > 0 ? nt : 1, sizeof(long));
    MoveList list;
    movelist_init(&list);
    PyObject *moves = PyList_New(0), *legal = PyList_New(0), *leads = PyList_New(0);
    PyObject *result = NULL, *control = NULL;
    int tracked = 0, rc = OK;
    Gil gil = {NULL, 0};
    if (next == NULL || now == NULL || last == NULL || changes == NULL) {
        if (!PyErr_Occurred())
            PyErr_NoMemory();
        goto end;
    }
    if (moves == NULL || legal == NULL || leads == NULL)
        goto end;
    while (!is_terminal(pos)) {
        int player = pos->to_move, index = 0;
        if ((rc = gen(r, pos, &list)) == OK && list.n == 0)
            rc = ERR_STUCK;
        if (rc == OK && list.n > 1)
            rc = agent_choose(r, &agents[player], pos, &list, &rngs[player], &gil, &index);
        if (rc < 0) {
            set_error(rc);
            goto end;
        }
        if (append_new(legal, PyLong_FromLong(list.n)) < 0 ||
            (keep_moves && append_new(moves, move_to_py(&list, index)) < 0))
            goto end;
        apply_move(r, pos, &list, index, next);
        SWAP_POS(pos, next);
        /* ControlTracker.update */
        holders(r, pos, now);
        if (!tracked) {
            for (int t = 0; t < nt; t++)
                last[t] = -1;
            tracked = 1;
        }
        for (int t = 0; t < nt; t++)
            if (now[t] >= 0) {
                changes[t] += last[t] >= 0 && last[t] != now[t];
                last[t] = now[t];
            }
        double lead;
        if (is_terminal(pos)) {
            int totals[2];
            score(r, pos, totals);
            lead = (double)totals[0] - (double)totals[1];
        } else
            lead = evaluate(r, pos, 0);
        if (append_new(leads, PyFloat_FromDouble(lead)) < 0)
            goto end;
        if (PyErr_CheckSignals() < 0)
            goto end;
    }
    control = PyList_New(0);
    if (control == NULL)
        goto end;
    for (int t = 0; tracked && t < nt; t++)
        if (append_new(control, PyLong_FromLong(changes[t])) < 0)
            goto end;
    PyObject *final = position_to_py(r, pos);
    if (final == NULL)
        goto end;
    /* a stream given by its seed is nobody's afterwards: None, not 625 numbers to build */
    PyObject *s0 = PyBytes_Check(PyTuple_GET_ITEM(rngs_obj, 0)) ? Py_NewRef(Py_None)
                                                                 : rng_to_py(&rngs[0]);
    PyObject *s1 = PyBytes_Check(PyTuple_GET_ITEM(rngs_obj, 1)) ? Py_NewRef(Py_None)
                                                                 : rng_to_py(&rngs[1]);
    if (s0 == NULL || s1 == NULL) {
        Py_XDECREF(s0);
        Py_XDECREF(s1);
        Py_DECREF(final);
        goto end;
    }
    result = Py_BuildValue("{sOsOsOsOsNsN}", "moves", moves, "legal", legal, "leads", leads,
                           "control_changes", control, "final", final, "rngs",
                           Py_BuildValue("(NN)", s0, s1));
end:
    Py_XDECREF(moves);
    Py_XDECREF(legal);
    Py_XDECREF(leads);
    Py_XDECREF(control);
    movelist_free(&list);
    free(pos);
    free(next);
    free(now);
    free(last);
    free(changes);
    return result;
}

/* ---- the random numbers alone, for the tests ------------------------------------------- */
PyObject *rules_rng_draws(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *rng_obj, *ops;
    Rng g;
    if (!PyArg_ParseTuple(args, "OO:rng_draws", &rng_obj, &ops) || rng_from_py(rng_obj, &g) < 0)
        return NULL;
    if (!PyTuple_Check(ops) && !PyList_Check(ops)) {
        PyErr_SetString(PyExc_TypeError, "rng_draws: ops must be a list or tuple of tuples");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(ops, "ops must be a sequence");
    if (seq == NULL)
        return NULL;
    PyObject *results = PyList_New(0);
    if (results == NULL)
        goto fail;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        PyObject *op = PySequence_Fast_GET_ITEM(seq, i);
        Py_ssize_t size = PyTuple_Check(op) ? PyTuple_GET_SIZE(op) : 0;
        const char *name = size ? (PyUnicode_Check(PyTuple_GET_ITEM(op, 0))
                                   ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(op, 0)) : NULL) : NULL;
        if (name == NULL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "rng_draws: an op is a tuple (name, numbers...), "
                             "got %R", op);
            goto fail;
        }
        int wanted = strcmp(name, "below") == 0 || strcmp(name, "bits") == 0 ? 1
                   : strcmp(name, "sample") == 0 ? 2 : 0;
        if (strcmp(name, "below") && strcmp(name, "bits") && strcmp(name, "random") &&
            strcmp(name, "sample")) {
            PyErr_Format(PyExc_ValueError, "unknown op %R", PyTuple_GET_ITEM(op, 0));
            goto fail;
        }
        if (size != wanted + 1) {
            PyErr_Format(PyExc_TypeError, "rng_draws: op %s takes %d number(s), got %R", name,
                         wanted, op);
            goto fail;
        }
        long long a = 0, b = 0;
        PyObject *item;
        if (strcmp(name, "below") == 0) {
            if (arg_int(PyTuple_GET_ITEM(op, 1), 1, 0xffffffffLL, "below(n)", &a) < 0)
                goto fail;
            item = PyLong_FromUnsignedLong(rng_below(&g, (uint32_t)a));
        } else if (strcmp(name, "bits") == 0) {
            if (arg_int(PyTuple_GET_ITEM(op, 1), 0, 32, "bits(k)", &a) < 0)
                goto fail;
            item = PyLong_FromUnsignedLong(rng_bits(&g, (int)a));
        } else if (strcmp(name, "random") == 0) {
            item = PyFloat_FromDouble(rng_random(&g));
        } else {
            if (arg_int(PyTuple_GET_ITEM(op, 1), 0, 100000, "sample(n, k): n", &a) < 0 ||
                arg_int(PyTuple_GET_ITEM(op, 2), 0, a, "sample(n, k): k", &b) < 0)
                goto fail;
            int *out = malloc(sizeof(int) * (b + 1)), *pool = malloc(sizeof(int) * (a + 1));
            if (out == NULL || pool == NULL) {
                free(out);
                free(pool);
                PyErr_NoMemory();
                goto fail;
            }
            rng_sample(&g, (int)a, (int)b, out, pool);
            item = PyList_New(b);
            for (long long j = 0; item && j < b; j++) {
                PyObject *v = PyLong_FromLong(out[j]);
                if (v == NULL)
                    Py_CLEAR(item);
                else
                    PyList_SET_ITEM(item, j, v);
            }
            free(out);
            free(pool);
        }
        if (append_new(results, item) < 0)
            goto fail;
    }
    Py_DECREF(seq);
    PyObject *state = rng_to_py(&g);
    if (state == NULL) {
        Py_DECREF(results);
        return NULL;
    }
    return Py_BuildValue("(NN)", results, state);
fail:
    Py_DECREF(seq);
    Py_XDECREF(results);
    return NULL;
}
