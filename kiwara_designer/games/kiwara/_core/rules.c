/* The rules of an Okapi game, exactly as state.py, scoring.py, evaluation.py and game.py have
 * them: the same moves in the same order, the same positions, scores and evaluations. */
#define _POSIX_C_SOURCE 200809L   /* clock_gettime under -std=c11 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"

#define GAZELLE_CODE (GAZELLE + 1)
#define ZEBRA_CODE (ZEBRA + 1)
#define LION_CODE (LION + 1)
/* The largest board (26 x 99, geometry.py): scratch arrays of these sizes live on the stack. */
#define MAX_LINES (26 + 99)
#define MAX_CELLS (26 * 99)

/* -- move lists ------------------------------------------------------------------------------ */
void movelist_init(MoveList *list) { memset(list, 0, sizeof *list); }

void movelist_free(MoveList *list) {
    free(list->moves);
    free(list->swaps);
    memset(list, 0, sizeof *list);
}

static int grow_moves(MoveList *list, int more) {
    if (list->n + more <= list->cap) return 0;
    long long cap = list->cap ? list->cap : 64;
    while (cap < (long long)list->n + more) cap *= 2;
    if (cap > 0x3fffffff) return -1;
    Move *moves = realloc(list->moves, (size_t)cap * sizeof *moves);
    if (!moves) return -1;
    list->moves = moves;
    list->cap = (int)cap;
    return 0;
}

static int grow_swaps(MoveList *list, int more) {
    if (list->nswaps + more <= list->swaps_cap) return 0;
    long long cap = list->swaps_cap ? list->swaps_cap : 64;
    while (cap < (long long)list->nswaps + more) cap *= 2;
    if (cap > 0x3fffffff) return -1;
    int32_t *swaps = realloc(list->swaps, (size_t)cap * sizeof *swaps);
    if (!swaps) return -1;
    list->swaps = swaps;
    list->swaps_cap = (int)cap;
    return 0;
}

static inline void add_move(MoveList *list, int kind, int cell, int totem, int swaps, int nswaps) {
    Move *m = &list->moves[list->n++];
    m->kind = (int8_t)kind;
    m->cell = cell;
    m->totem = totem;
    m->swaps = swaps;
    m->nswaps = nswaps;
}

/* -- generation ------------------------------------------------------------------------------ */
/* _Tables.destinations: the step targets whose line has room, else the first jump target that
 * has; into dests, returning how many. */
static int destinations(const Rules *r, int totem, const int16_t *line_empty, int *dests) {
    int n = 0;
    const int *q = r->step_q.items + r->step_q.start[totem];
    const int *line = r->step_line.items + r->step_line.start[totem];
    int len = r->step_q.len[totem];
    for (int i = 0; i < len; i++)
        if (line_empty[line[i]] > 0) dests[n++] = q[i];
    if (n) return n;
    q = r->jump_q.items + r->jump_q.start[totem];
    line = r->jump_line.items + r->jump_line.start[totem];
    len = r->jump_q.len[totem];
    for (int i = 0; i < len; i++)
        if (line_empty[line[i]] > 0) {
            dests[0] = q[i];
            return 1;
        }
    return 0;
}

/* The state of a depth-first walk over the crocodile's swap paths (_Tables.swap_paths). */
typedef struct {
    const Rules *r;
    const uint8_t *board;
    MoveList *out;
    int start;
    const int *plain;
    int nplain;
    int32_t *path;
    uint8_t *in_path;
    int *swap_moves;        /* the swap moves of the position so far (MAX_SWAP_MOVES) */
} SwapWalk;

static int extend(SwapWalk *w, int cell, int depth) {
    const Rules *r = w->r;
    const int *reach = r->swap_reach.items + r->swap_reach.start[cell];
    int len = r->swap_reach.len[cell];
    for (int i = 0; i < len; i++) {
        int n = reach[i];
        if ((w->board[n] & KIND_MASK) != GAZELLE_CODE || n == w->start || w->in_path[n]) continue;
        w->path[depth] = n;
        int length = depth + 1;
        MoveList *out = w->out;
        if (w->nplain) {
            if (*w->swap_moves > MAX_SWAP_MOVES - w->nplain) return CORE_TOO_MANY_MOVES;
            *w->swap_moves += w->nplain;
            if (grow_swaps(out, length) || grow_moves(out, w->nplain)) return CORE_NO_MEMORY;
            int at = out->nswaps;
            memcpy(out->swaps + at, w->path, (size_t)length * sizeof *w->path);
            out->nswaps += length;
            for (int d = 0; d < w->nplain; d++)
                add_move(out, CROCODILE, w->start, w->plain[d], at, length);
        }
        if (r->max_swaps < 0 || length < r->max_swaps) {
            w->in_path[n] = 1;
            int failed = extend(w, n, length);
            w->in_path[n] = 0;
            if (failed) return failed;
        }
    }
    return CORE_OK;
}

int generate(const Rules *r, const Position *pos, MoveList *out) {
    out->n = 0;
    out->nswaps = 0;
    int player = pos->to_move;
    if (player < 0) return 0;
    int totem = pos->totem;
    if (totem < 0) {
        if (grow_moves(out, r->positions)) return -1;
        for (int q = 0; q < r->positions; q++) add_move(out, -1, -1, q, 0, 0);
        return 0;
    }
    const int32_t *reserve = pos->reserve;
    int base = KINDS * player;
    int kinds[KINDS], nkinds = 0;
    for (int k = 0; k < KINDS; k++)
        if (reserve[base + k]) kinds[nkinds++] = k;
    if (!nkinds) {
        if (grow_moves(out, 1)) return -1;
        add_move(out, -1, -1, -1, 0, 0);
        return 0;
    }
    const uint8_t *board = pos_board_c(r, pos);
    const int16_t *line_empty = pos_line_empty_c(r, pos);
    long long total = 0;
    for (int i = 0; i < 2 * KINDS; i++) total += reserve[i];
    int ends_game = pos->empty == 1 || total == 1;
    int lion_may_flee = reserve[base + LION] && r->lion_flee;
    int may_swap = reserve[base + CROCODILE] && r->max_swaps != 0;
    int nlines = r->nlines;
    int16_t after[MAX_LINES];
    int plain[MAX_LINES * 2 + 2], lion_dests[MAX_LINES * 2 + 2];
    /* destinations never give more than the step targets (one per position at most) */
    int *plain_buf = plain, *lion_buf = lion_dests;
    int *heap = NULL;
    if (r->positions > MAX_LINES * 2 + 2) {     /* cannot happen on a valid board; be safe */
        heap = malloc(2 * (size_t)r->positions * sizeof *heap);
        if (!heap) return CORE_NO_MEMORY;
        plain_buf = heap;
        lion_buf = heap + r->positions;
    }
    int32_t path[MAX_CELLS];
    uint8_t in_path[MAX_CELLS];
    int walk_ready = 0, swap_moves = 0;
    int result = CORE_NO_MEMORY;
    const int *cells = r->lines.items + r->lines.start[totem];
    int ncells = r->lines.len[totem];
    for (int i = 0; i < ncells; i++) {
        int c = cells[i];
        if (board[c]) continue;
        int nplain;
        int col = r->cell_col[c], row = r->cell_row[c];
        if (ends_game) {
            plain_buf[0] = NO_TOTEM;
            nplain = 1;
        } else {
            memcpy(after, line_empty, (size_t)nlines * sizeof *after);
            after[col]--;
            after[row]--;
            nplain = destinations(r, totem, after, plain_buf);
        }
        int fled = 0;
        if (lion_may_flee) {
            const int *reach = r->lion_reach.items + r->lion_reach.start[c];
            int len = r->lion_reach.len[c];
            for (int j = 0; j < len; j++)
                if ((board[reach[j]] & KIND_MASK) == GAZELLE_CODE) {
                    fled = 1;
                    break;
                }
        }
        if (fled) {
            memcpy(after, line_empty, (size_t)nlines * sizeof *after);
            after[col]--;
            after[row]--;
            const int *reach = r->lion_reach.items + r->lion_reach.start[c];
            int len = r->lion_reach.len[c];
            for (int j = 0; j < len; j++) {
                int n = reach[j];
                if ((board[n] & KIND_MASK) == GAZELLE_CODE) {
                    after[r->cell_col[n]]++;
                    after[r->cell_row[n]]++;
                }
            }
            int nlion = destinations(r, totem, after, lion_buf);
            for (int j = 0; j < nkinds; j++) {
                int k = kinds[j];
                const int *d = k == LION ? lion_buf : plain_buf;
                int nd = k == LION ? nlion : nplain;
                if (grow_moves(out, nd)) goto oom;
                for (int e = 0; e < nd; e++) add_move(out, k, c, d[e], 0, 0);
            }
        } else {
            if (grow_moves(out, nkinds * nplain)) goto oom;
            for (int j = 0; j < nkinds; j++)
                for (int e = 0; e < nplain; e++) add_move(out, kinds[j], c, plain_buf[e], 0, 0);
        }
        if (may_swap && nplain) {      /* without a destination a path gives no move */
            const int *reach = r->swap_reach.items + r->swap_reach.start[c];
            int len = r->swap_reach.len[c], any = 0;
            for (int j = 0; j < len; j++)
                if ((board[reach[j]] & KIND_MASK) == GAZELLE_CODE) {
                    any = 1;
                    break;
                }
            if (any) {
                if (!walk_ready) {
                    memset(in_path, 0, (size_t)r->size);
                    walk_ready = 1;
                }
                SwapWalk w = {r, board, out, c, plain_buf, nplain, path, in_path, &swap_moves};
                if ((result = extend(&w, c, 0)) != CORE_OK) goto fail;
            }
        }
    }
    free(heap);
    return CORE_OK;
oom:
    result = CORE_NO_MEMORY;
fail:
    free(heap);
    out->n = 0;
    out->nswaps = 0;
    return result;
}

/* -- apply ----------------------------------------------------------------------------------- */
static int lion_next_to(const Rules *r, const uint8_t *board, int cell) {
    const int *reach = r->lion_reach.items + r->lion_reach.start[cell];
    int len = r->lion_reach.len[cell];
    for (int j = 0; j < len; j++)
        if ((board[reach[j]] & KIND_MASK) == LION_CODE) return 1;
    return 0;
}

void apply_move(const Rules *r, const Position *src, const MoveList *list, int i, Position *dst) {
    const Move *m = &list->moves[i];
    if (dst != src) memcpy(dst, src, r->pos_bytes);
    int player = src->to_move;
    dst->ply = src->ply + 1;
    if (src->totem < 0) {                       /* the opening */
        dst->totem = m->totem;
        dst->to_move = r->first_placer;
        dst->okapi = -1;
        return;
    }
    if (m->kind < 0) {                          /* a pass */
        dst->to_move = 1 - player;
        return;
    }
    int k = m->kind, c = m->cell;
    int base = KINDS * player;
    uint8_t *board = pos_board(r, dst);
    int16_t *line_empty = pos_line_empty(r, dst);
    int32_t *reserve = dst->reserve;
    reserve[base + k]--;
    line_empty[r->cell_col[c]]--;
    line_empty[r->cell_row[c]]--;
    int empty = src->empty - 1;
    int code = (k + 1) | (player << 3);
    if (k <= GAZELLE && r->down_near_lion && lion_next_to(r, board, c)) code |= DOWN_BIT;
    board[c] = (uint8_t)code;
    if (k == LION) {
        const int *reach = r->lion_reach.items + r->lion_reach.start[c];
        int len = r->lion_reach.len[c];
        for (int j = 0; j < len; j++) {
            int n = reach[j];
            int other = board[n];
            if ((other & KIND_MASK) == GAZELLE_CODE && r->lion_flee) {
                board[n] = 0;
                reserve[KINDS * ((other >> 3) & 1) + GAZELLE]++;
                line_empty[r->cell_col[n]]++;
                line_empty[r->cell_row[n]]++;
                empty++;
            } else if ((other & KIND_MASK) == ZEBRA_CODE && r->lion_flip) {
                board[n] = (uint8_t)(other | DOWN_BIT);
            }
        }
    } else if (m->nswaps) {                     /* _swap: the crocodile walks its path */
        const int32_t *swaps = list->swaps + m->swaps;
        int cell = c;
        for (int j = 0; j < m->nswaps; j++) {
            int target = swaps[j];
            int gazelle = board[target];
            if (r->swap_down_near_lion && lion_next_to(r, board, cell)) gazelle |= DOWN_BIT;
            board[target] = board[cell];
            board[cell] = (uint8_t)gazelle;
            cell = target;
        }
    }
    int okapi = src->okapi;
    if (okapi < 0) {
        int t = r->territory[c];
        const int *tc = r->territory_cells.items + r->territory_cells.start[t];
        int len = r->territory_cells.len[t], full = 1;
        for (int j = 0; j < len; j++)
            if (!board[tc[j]]) {
                full = 0;
                break;
            }
        if (full) okapi = player;
    }
    int any = 0;
    for (int j = 0; j < 2 * KINDS; j++)
        if (reserve[j]) {
            any = 1;
            break;
        }
    dst->empty = empty;
    dst->okapi = okapi;
    if (empty == 0 || !any) {
        dst->totem = src->totem;
        dst->to_move = TERMINAL;
    } else {
        dst->totem = m->totem;
        dst->to_move = 1 - player;
    }
}

int is_terminal(const Position *pos) { return pos->to_move == TERMINAL; }

/* -- scoring --------------------------------------------------------------------------------- */
/* Tokens of each player in territory t and the points of its face-up tokens. */
static void count_territory(const Rules *r, const uint8_t *board, int t, int count[2],
                            long long *value) {
    const int *cells = r->territory_cells.items + r->territory_cells.start[t];
    int len = r->territory_cells.len[t];
    long long v = 0;
    count[0] = count[1] = 0;
    for (int j = 0; j < len; j++) {
        int code = board[cells[j]];
        if (!code) continue;
        count[(code >> 3) & 1]++;
        if (!(code & DOWN_BIT)) v += r->points[(code & KIND_MASK) - 1];
    }
    *value = v;
}

static void score_ll(const Rules *r, const Position *pos, long long totals[2]) {
    const uint8_t *board = pos_board_c(r, pos);
    totals[0] = totals[1] = 0;
    for (int t = 0; t < r->nterritories; t++) {
        int count[2];
        long long value;
        count_territory(r, board, t, count, &value);
        if (count[0] != count[1]) {
            totals[count[0] > count[1] ? 0 : 1] += value;
        } else if (r->tie_both && count[0]) {
            totals[0] += value;
            totals[1] += value;
        }
    }
    if (pos->okapi >= 0) totals[pos->okapi] += r->okapi_points;
}

void score(const Rules *r, const Position *pos, int totals[2]) {
    long long t[2];
    score_ll(r, pos, t);
    totals[0] = (int)t[0];
    totals[1] = (int)t[1];
}

void holders(const Rules *r, const Position *pos, int8_t *out) {
    const uint8_t *board = pos_board_c(r, pos);
    for (int t = 0; t < r->nterritories; t++) {
        int count[2];
        long long value;
        count_territory(r, board, t, count, &value);
        out[t] = (int8_t)(count[0] == count[1] ? -1 : count[0] > count[1] ? 0 : 1);
    }
}

int first_return(const Rules *r, const Position *pos) {
    if (pos->to_move != TERMINAL) return 0;
    long long t[2];
    score_ll(r, pos, t);
    return t[0] == t[1] ? 0 : t[0] > t[1] ? 1 : -1;
}

double evaluate(const Rules *r, const Position *pos, int player) {
    const uint8_t *board = pos_board_c(r, pos);
    double value = 0.0;
    for (int t = 0; t < r->nterritories; t++) {
        int count[2];
        long long points;
        count_territory(r, board, t, count, &points);
        int first = count[0], second = count[1];
        int empty = r->territory_cells.len[t] - first - second;
        int margin = player == 0 ? first - second : second - first;
        double stake = (double)points + FUTURE_POINTS_PER_CELL * (double)empty;
        if (margin > empty)
            value += stake;
        else if (-margin > empty)
            value -= stake;
        else
            value += stake * (double)margin / (double)(empty + 1);
    }
    if (pos->okapi >= 0)
        value += pos->okapi == player ? (double)r->okapi_points : (double)(-r->okapi_points);
    return value;
}

/* -- perft ----------------------------------------------------------------------------------- */
/* Moves generated between two looks at the clock (a few hundred microseconds of work), and the
 * time between two questions to the poll (taking the GIL to look at the signals costs little,
 * but may wait for another thread's turn: a tenth of a second keeps that under a few %). */
#define PERFT_WORK_STEP (1 << 17)
#define PERFT_POLL_SECONDS 0.1

typedef struct {
    const Rules *r;
    MoveList *lists;
    char *children;
    Poll *poll;
} PerftWalk;

static double seconds_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int perft_poll(Poll *poll, int moves) {
    if (!poll) return CORE_OK;
    poll->work += moves + 1;
    if (poll->work < PERFT_WORK_STEP) return CORE_OK;
    poll->work = 0;
    double now = seconds_now();
    if (poll->polled == 0.0) poll->polled = now;
    if (now - poll->polled < PERFT_POLL_SECONDS) return CORE_OK;
    poll->polled = now;
    return poll->stop(poll->ctx) ? CORE_INTERRUPTED : CORE_OK;
}

static int64_t count_leaves(PerftWalk *w, const Position *pos, int depth) {
    if (depth == 0) return 1;
    const Rules *r = w->r;
    MoveList *list = &w->lists[depth - 1];
    int rc = generate(r, pos, list);
    if (rc == CORE_OK) rc = perft_poll(w->poll, list->n);
    if (rc != CORE_OK) return rc;
    if (depth == 1) return list->n;
    Position *child = (Position *)(w->children + (size_t)(depth - 1) * r->pos_bytes);
    int64_t total = 0;
    for (int i = 0; i < list->n; i++) {
        apply_move(r, pos, list, i, child);
        int64_t n = count_leaves(w, child, depth - 1);
        if (n < 0) return n;
        total += n;
    }
    return total;
}

int64_t perft(const Rules *r, const Position *pos, int depth, Poll *poll) {
    if (depth < 0) return CORE_NO_MEMORY;
    if (depth == 0) return 1;
    MoveList *lists = calloc((size_t)depth, sizeof *lists);
    char *children = malloc((size_t)depth * r->pos_bytes);
    int64_t result = CORE_NO_MEMORY;
    if (lists && children) {
        for (int d = 0; d < depth; d++) movelist_init(&lists[d]);
        PerftWalk w = {r, lists, children, poll};
        result = count_leaves(&w, pos, depth);
        for (int d = 0; d < depth; d++) movelist_free(&lists[d]);
    }
    free(lists);
    free(children);
    return result;
}
