/* The CPython bindings of the compiled core: the _engine module and its Rules type (one layout
 * and variant, built from compiled_tables.rules_tables(state._t)). */
#include "pycore.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search_methods.h"

#define MAX_WIDTH 26
#define MAX_HEIGHT 99
#define MAX_RESERVE 1000000
/* Points of a token (variants allow -1000..1000) and of the Okapi (variants do not bound it):
 * bounded so that no total of the largest board overflows an int; a variant beyond them is
 * refused (ValueError) and stays with the Python engine. */
#define MAX_POINTS 100000
#define MAX_OKAPI 100000000
/* perft's depth: far beyond any game's length on the largest board, small enough that the
 * per-depth scratch (a move list and a position each) stays a few megabytes */
#define MAX_PERFT_DEPTH 10000

PyObject *MoveLimitError = NULL;

void core_error(int rc) {
    if (rc == CORE_TOO_MANY_MOVES)
        PyErr_Format(MoveLimitError, "a position has more than %d crocodile swap moves "
                     "(MAX_SWAP_MOVES)", MAX_SWAP_MOVES);
    else if (rc == CORE_INTERRUPTED) {
        if (!PyErr_Occurred())
            PyErr_SetNone(PyExc_KeyboardInterrupt);
    } else if (!PyErr_Occurred())
        PyErr_NoMemory();
}

/* -- reading arguments ----------------------------------------------------------------------- */
int arg_int(PyObject *obj, long long lo, long long hi, const char *what, long long *out) {
    PyObject *index = PyNumber_Index(obj);
    if (!index) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "%s: expected an int, got %.100s", what,
                         Py_TYPE(obj)->tp_name);
        }
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s: out of range %lld..%lld", what, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

int arg_double(PyObject *obj, double lo, double hi, const char *what, double *out) {
    if (!PyFloat_Check(obj) && !PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a number, got %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    double v = PyFloat_AsDouble(obj);
    if (v == -1.0 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        v = HUGE_VAL;      /* an int too large for a float: out of range below */
    }
    if (!isfinite(v) || v < lo || v > hi) {
        char range[64] = "";     /* PyErr_Format has no %g */
        if (lo > -DBL_MAX && hi < DBL_MAX)
            snprintf(range, sizeof range, " in %g..%g", lo, hi);
        else if (lo > -DBL_MAX)
            snprintf(range, sizeof range, " from %g", lo);
        else if (hi < DBL_MAX)
            snprintf(range, sizeof range, " up to %g", hi);
        PyErr_Format(PyExc_ValueError, "%s must be a finite number%s, got %R", what, range, obj);
        return -1;
    }
    *out = v;
    return 0;
}

/* -- reading the tables ---------------------------------------------------------------------- */
static PyObject *table_item(PyObject *tables, const char *key) {
    PyObject *value = PyDict_GetItemString(tables, key);     /* borrowed */
    if (!value && !PyErr_Occurred())
        PyErr_Format(PyExc_ValueError, "Rules: the tables have no %s", key);
    return value;
}

/* An int (not a bool unless allow_bool) in lo..hi into *out. */
static int read_int(PyObject *obj, long long lo, long long hi, const char *what, int allow_bool,
                    int *out) {
    if (!PyLong_Check(obj) || (!allow_bool && PyBool_Check(obj))) {
        PyErr_Format(PyExc_TypeError, "%s: expected an int, got %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(obj, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s: out of range %lld..%lld", what, lo, hi);
        return -1;
    }
    *out = (int)v;
    return 0;
}

static int read_key_int(PyObject *tables, const char *key, long long lo, long long hi, int *out) {
    PyObject *obj = table_item(tables, key);
    return obj ? read_int(obj, lo, hi, key, 0, out) : -1;
}

static int read_key_bool(PyObject *tables, const char *key, int *out) {
    PyObject *obj = table_item(tables, key);
    return obj ? read_int(obj, 0, 1, key, 1, out) : -1;
}

/* A sequence of exactly n items (n < 0: any number), as a new PySequence_Fast reference. */
static PyObject *fast_seq(PyObject *obj, Py_ssize_t n, const char *what) {
    if (!PyList_Check(obj) && !PyTuple_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a tuple or list, got %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return NULL;
    }
    PyObject *seq = PySequence_Fast(obj, what);
    if (seq && n >= 0 && PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items, got %zd", what, n,
                     PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return NULL;
    }
    return seq;
}

static void intlists_free(IntLists *l) {
    free(l->start);
    free(l->len);
    free(l->items);
    memset(l, 0, sizeof *l);
}

static int intlists_alloc(IntLists *l, int n, Py_ssize_t items) {
    l->n = n;
    l->start = calloc((size_t)n + 1, sizeof(int));
    l->len = calloc((size_t)n + 1, sizeof(int));
    l->items = calloc((size_t)items + 1, sizeof(int));
    if (!l->start || !l->len || !l->items) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* n lists of ints in lo..hi (lens: the required length of each list, or NULL; else at most
 * maxlen items each). With pairs, each item is a pair (a in lo..hi, b in lo2..hi2) that goes
 * to l and l2. */
static int read_lists(PyObject *tables, const char *key, int n, const int *lens, int maxlen,
                      long long lo, long long hi, IntLists *l, IntLists *l2, long long lo2,
                      long long hi2) {
    PyObject *obj = table_item(tables, key);
    if (!obj) return -1;
    PyObject *outer = fast_seq(obj, n, key);
    if (!outer) return -1;
    PyObject **rows = PySequence_Fast_ITEMS(outer);
    Py_ssize_t total = 0;
    int result = -1;
    for (int i = 0; i < n; i++) {
        if (!PyList_Check(rows[i]) && !PyTuple_Check(rows[i])) {
            PyErr_Format(PyExc_TypeError, "%s[%d]: expected a tuple or list", key, i);
            goto done;
        }
        Py_ssize_t len = PySequence_Size(rows[i]);
        if (len < 0) goto done;
        if (lens && len != lens[i]) {
            PyErr_Format(PyExc_ValueError, "%s[%d]: expected %d items, got %zd", key, i, lens[i],
                         len);
            goto done;
        }
        if (!lens && len > maxlen) {
            PyErr_Format(PyExc_ValueError, "%s[%d]: %zd items, more than the %d allowed", key, i,
                         len, maxlen);
            goto done;
        }
        total += len;
        if (total > INT_MAX / 2) {
            PyErr_Format(PyExc_ValueError, "%s: too many items", key);
            goto done;
        }
    }
    if (intlists_alloc(l, n, total) || (l2 && intlists_alloc(l2, n, total))) goto done;
    int at = 0;
    for (int i = 0; i < n; i++) {
        PyObject *row = fast_seq(rows[i], -1, key);
        if (!row) goto done;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(row);
        PyObject **items = PySequence_Fast_ITEMS(row);
        l->start[i] = at;
        l->len[i] = (int)len;
        if (l2) {
            l2->start[i] = at;
            l2->len[i] = (int)len;
        }
        for (Py_ssize_t j = 0; j < len; j++) {
            if (l2) {
                PyObject *pair = fast_seq(items[j], 2, key);
                if (!pair) {
                    Py_DECREF(row);
                    goto done;
                }
                PyObject **ab = PySequence_Fast_ITEMS(pair);
                int bad = read_int(ab[0], lo, hi, key, 0, &l->items[at + j]) ||
                          read_int(ab[1], lo2, hi2, key, 0, &l2->items[at + j]);
                Py_DECREF(pair);
                if (bad) {
                    Py_DECREF(row);
                    goto done;
                }
            } else if (read_int(items[j], lo, hi, key, 0, &l->items[at + j])) {
                Py_DECREF(row);
                goto done;
            }
        }
        /* the list may have changed size since it was measured */
        if (len != l->len[i] || at + len > total || (!lens && len > maxlen) ||
            (lens && len != lens[i])) {
            Py_DECREF(row);
            PyErr_Format(PyExc_ValueError, "%s changed while being read", key);
            goto done;
        }
        at += (int)len;
        Py_DECREF(row);
    }
    result = 0;
done:
    Py_DECREF(outer);
    return result;
}

/* n ints in lo..hi into a new array *out. */
static int read_array(PyObject *tables, const char *key, int n, long long lo, long long hi,
                      int **out) {
    PyObject *obj = table_item(tables, key);
    if (!obj) return -1;
    PyObject *seq = fast_seq(obj, n, key);
    if (!seq) return -1;
    int *a = calloc((size_t)n + 1, sizeof *a);
    if (!a) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (int i = 0; i < n; i++)
        if (read_int(items[i], lo, hi, key, 0, &a[i])) {
            free(a);
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    *out = a;
    return 0;
}

static void rules_free(Rules *r) {
    intlists_free(&r->lines);
    intlists_free(&r->crossing);
    intlists_free(&r->step_q);
    intlists_free(&r->step_line);
    intlists_free(&r->jump_q);
    intlists_free(&r->jump_line);
    intlists_free(&r->lion_reach);
    intlists_free(&r->swap_reach);
    intlists_free(&r->territory_cells);
    free(r->pos_line);
    free(r->cell_col);
    free(r->cell_row);
    free(r->territory);
    memset(r, 0, sizeof *r);
}

static int rules_build(Rules *r, PyObject *tables) {
    if (!PyDict_Check(tables)) {
        PyErr_SetString(PyExc_TypeError, "Rules(tables): tables must be a dict");
        return -1;
    }
    if (read_key_int(tables, "width", 1, MAX_WIDTH, &r->width) ||
        read_key_int(tables, "height", 1, MAX_HEIGHT, &r->height) ||
        read_key_int(tables, "size", 1, MAX_WIDTH * MAX_HEIGHT, &r->size) ||
        read_key_int(tables, "positions", 1, 2 * (MAX_WIDTH + MAX_HEIGHT), &r->positions))
        return -1;
    if (r->size != r->width * r->height) {
        PyErr_SetString(PyExc_ValueError, "Rules: size is not width * height");
        return -1;
    }
    r->nlines = r->width + r->height;
    int P = r->positions, L = r->nlines, S = r->size;
    /* A line has at most max(width, height) cells, a position at most P destinations (each
     * once: generate's buffers hold P), a cell 8 neighbours (4 on a grid). */
    int longest = r->width > r->height ? r->width : r->height;
    if (read_lists(tables, "lines", P, NULL, longest, 0, S - 1, &r->lines, NULL, 0, 0) ||
        read_lists(tables, "crossing", P, r->lines.len, 0, 0, L - 1, &r->crossing, NULL, 0, 0) ||
        read_array(tables, "pos_line", P, 0, L - 1, &r->pos_line) ||
        read_lists(tables, "step_targets", P, NULL, P, 0, P - 1, &r->step_q, &r->step_line, 0,
                   L - 1) ||
        read_lists(tables, "jump_targets", P, NULL, P, 0, P - 1, &r->jump_q, &r->jump_line, 0,
                   L - 1) ||
        read_lists(tables, "lion_reach", S, NULL, 8, 0, S - 1, &r->lion_reach, NULL, 0, 0) ||
        read_lists(tables, "swap_reach", S, NULL, 8, 0, S - 1, &r->swap_reach, NULL, 0, 0))
        return -1;
    /* cell_lines: per cell (column line, row line) */
    {
        PyObject *obj = table_item(tables, "cell_lines");
        if (!obj) return -1;
        int *lens = malloc((size_t)S * sizeof *lens);
        if (!lens) {
            PyErr_NoMemory();
            return -1;
        }
        for (int i = 0; i < S; i++) lens[i] = 2;
        IntLists pairs = {0};
        int bad = read_lists(tables, "cell_lines", S, lens, 0, 0, L - 1, &pairs, NULL, 0, 0);
        free(lens);
        if (bad) {
            intlists_free(&pairs);
            return -1;
        }
        r->cell_col = malloc((size_t)S * sizeof(int));
        r->cell_row = malloc((size_t)S * sizeof(int));
        if (!r->cell_col || !r->cell_row) {
            intlists_free(&pairs);
            PyErr_NoMemory();
            return -1;
        }
        for (int i = 0; i < S; i++) {
            r->cell_col[i] = pairs.items[pairs.start[i]];
            r->cell_row[i] = pairs.items[pairs.start[i] + 1];
        }
        intlists_free(&pairs);
    }
    {
        PyObject *obj = table_item(tables, "territory_cells");
        if (!obj) return -1;
        Py_ssize_t n = PyObject_Length(obj);
        if (n < 0) return -1;
        if (n > S) {
            PyErr_SetString(PyExc_ValueError, "territory_cells: more territories than cells");
            return -1;
        }
        r->nterritories = (int)n;
        if (read_lists(tables, "territory_cells", (int)n, NULL, S, 0, S - 1,
                       &r->territory_cells, NULL, 0, 0))
            return -1;
        if (n == 0) {
            PyErr_SetString(PyExc_ValueError, "territory_cells: no territory");
            return -1;
        }
        if (read_array(tables, "territory", S, 0, n - 1, &r->territory)) return -1;
    }
    int *tokens = NULL, *points = NULL;
    if (read_array(tables, "tokens", KINDS, 0, 99, &tokens)) return -1;
    memcpy(r->tokens, tokens, sizeof r->tokens);
    free(tokens);
    if (read_array(tables, "points", KINDS, -MAX_POINTS, MAX_POINTS, &points)) return -1;
    memcpy(r->points, points, sizeof r->points);
    free(points);
    if (read_key_int(tables, "max_swaps", -1, INT_MAX, &r->max_swaps) ||
        read_key_bool(tables, "lion_flee", &r->lion_flee) ||
        read_key_bool(tables, "lion_flip", &r->lion_flip) ||
        read_key_bool(tables, "down_near_lion", &r->down_near_lion) ||
        read_key_bool(tables, "swap_down_near_lion", &r->swap_down_near_lion) ||
        read_key_int(tables, "first_placer", 0, 1, &r->first_placer) ||
        read_key_int(tables, "okapi_points", -MAX_OKAPI, MAX_OKAPI, &r->okapi_points) ||
        read_key_bool(tables, "tie_both", &r->tie_both))
        return -1;
    /* positions are copied whole; keep them 8-byte aligned so arrays of them are too */
    size_t bytes = sizeof(Position) + (size_t)L * sizeof(int16_t) + (size_t)S;
    r->pos_bytes = (bytes + 7) & ~(size_t)7;
    return 0;
}

/* -- positions and moves --------------------------------------------------------------------- */
Position *position_new(const Rules *r) { return calloc(1, r->pos_bytes); }

static int read_field(PyObject *obj, long long lo, long long hi, const char *what, int32_t *out) {
    int v;
    if (read_int(obj, lo, hi, what, 0, &v)) return -1;
    *out = v;
    return 0;
}

int position_from_py(const Rules *r, PyObject *tuple, Position *pos) {
    PyObject *seq = fast_seq(tuple, 8, "position");
    if (!seq) return -1;
    PyObject **f = PySequence_Fast_ITEMS(seq);
    int result = -1;
    PyObject *board = NULL, *reserve = NULL, *lines = NULL;
    board = fast_seq(f[0], r->size, "position board");
    if (!board) goto done;
    reserve = fast_seq(f[1], 2 * KINDS, "position reserve");
    if (!reserve) goto done;
    lines = fast_seq(f[2], r->nlines, "position line_empty");
    if (!lines) goto done;
    uint8_t *b = pos_board(r, pos);
    PyObject **items = PySequence_Fast_ITEMS(board);
    for (int c = 0; c < r->size; c++) {
        int code;
        if (read_int(items[c], 0, 31, "position board", 0, &code)) goto done;
        if (code && ((code & KIND_MASK) < 1 || (code & KIND_MASK) > KINDS)) {
            PyErr_Format(PyExc_ValueError, "position board: %d is not a token code", code);
            goto done;
        }
        b[c] = (uint8_t)code;
    }
    items = PySequence_Fast_ITEMS(reserve);
    for (int i = 0; i < 2 * KINDS; i++)
        if (read_field(items[i], 0, MAX_RESERVE, "position reserve", &pos->reserve[i])) goto done;
    items = PySequence_Fast_ITEMS(lines);
    int16_t *le = pos_line_empty(r, pos);
    for (int i = 0; i < r->nlines; i++) {
        int v;
        if (read_int(items[i], 0, r->size, "position line_empty", 0, &v)) goto done;
        le[i] = (int16_t)v;
    }
    if (read_field(f[3], 0, r->size, "position empty", &pos->empty) ||
        read_field(f[4], -1, r->positions - 1, "position totem", &pos->totem) ||
        read_field(f[5], -1, 1, "position to_move", &pos->to_move) ||
        read_field(f[6], -1, 1, "position okapi", &pos->okapi) ||
        read_field(f[7], 0, 1000000000, "position ply", &pos->ply))
        goto done;
    /* What the engines keep true in every position they make. Broken, a game need not end
     * (both players passing for ever, the endgame search going down without end). */
    {
        int16_t counted[MAX_WIDTH + MAX_HEIGHT] = {0};
        int empty = 0;
        for (int c = 0; c < r->size; c++)
            if (!b[c]) {
                empty++;
                counted[r->cell_col[c]]++;
                counted[r->cell_row[c]]++;
            }
        if (empty != pos->empty) {
            PyErr_Format(PyExc_ValueError, "position empty: %d, but the board has %d empty cells",
                         (int)pos->empty, empty);
            goto done;
        }
        for (int i = 0; i < r->nlines; i++)
            if (counted[i] != le[i]) {
                PyErr_Format(PyExc_ValueError, "position line_empty[%d]: %d, but the line has %d "
                             "empty cells", i, (int)le[i], (int)counted[i]);
                goto done;
            }
        long long tokens = 0;
        for (int i = 0; i < 2 * KINDS; i++) tokens += pos->reserve[i];
        if (pos->to_move >= 0 && pos->totem >= 0 && (empty == 0 || tokens == 0)) {
            PyErr_SetString(PyExc_ValueError, "position: a player is to move, but the game is "
                            "over (no empty cell or no token left)");
            goto done;
        }
    }
    result = 0;
done:
    Py_XDECREF(board);
    Py_XDECREF(reserve);
    Py_XDECREF(lines);
    Py_DECREF(seq);
    return result;
}

static PyObject *int_tuple(const int32_t *a, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(a[i]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

PyObject *position_to_py(const Rules *r, const Position *pos) {
    PyObject *board = PyTuple_New(r->size), *lines = PyTuple_New(r->nlines), *reserve = NULL;
    if (!board || !lines) goto fail;
    const uint8_t *b = pos_board_c(r, pos);
    for (int c = 0; c < r->size; c++) {
        PyObject *v = PyLong_FromLong(b[c]);
        if (!v) goto fail;
        PyTuple_SET_ITEM(board, c, v);
    }
    const int16_t *le = pos_line_empty_c(r, pos);
    for (int i = 0; i < r->nlines; i++) {
        PyObject *v = PyLong_FromLong(le[i]);
        if (!v) goto fail;
        PyTuple_SET_ITEM(lines, i, v);
    }
    reserve = int_tuple(pos->reserve, 2 * KINDS);
    if (!reserve) goto fail;
    return Py_BuildValue("(NNNiiiii)", board, reserve, lines, (int)pos->empty, (int)pos->totem,
                         (int)pos->to_move, (int)pos->okapi, (int)pos->ply);
fail:
    Py_XDECREF(board);
    Py_XDECREF(lines);
    Py_XDECREF(reserve);
    return NULL;
}

PyObject *move_to_py(const MoveList *list, int i) {
    const Move *m = &list->moves[i];
    PyObject *swaps = int_tuple(list->swaps + m->swaps, m->nswaps);
    if (!swaps) return NULL;
    return Py_BuildValue("(iiNi)", (int)m->kind, (int)m->cell, swaps, (int)m->totem);
}

/* -- the Rules type -------------------------------------------------------------------------- */
static int Rules_init(RulesObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"tables", NULL};
    PyObject *tables;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:Rules", kwlist, &tables)) return -1;
    if (self->rules.size > 0) {
        /* another thread may be counting with these tables, the GIL released */
        PyErr_SetString(PyExc_TypeError, "Rules is immutable: it is initialised once");
        return -1;
    }
    /* built aside: reading the tables may run Python code (a key's __eq__), which must not
     * find a half-built object that says it is ready */
    Rules built;
    memset(&built, 0, sizeof built);
    if (rules_build(&built, tables)) {
        rules_free(&built);
        return -1;
    }
    if (self->rules.size > 0) {
        rules_free(&built);
        PyErr_SetString(PyExc_TypeError, "Rules is immutable: it is initialised once");
        return -1;
    }
    self->rules = built;
    return 0;
}

static void Rules_dealloc(RulesObject *self) {
    rules_free(&self->rules);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int ready(RulesObject *self) {
    if (self->rules.size > 0) return 0;
    PyErr_SetString(PyExc_ValueError, "Rules: not initialised");
    return -1;
}

/* A new position read from obj, or NULL with an exception set. */
static Position *read_position(RulesObject *self, PyObject *obj) {
    if (ready(self)) return NULL;
    Position *pos = position_new(&self->rules);
    if (!pos) {
        PyErr_NoMemory();
        return NULL;
    }
    if (position_from_py(&self->rules, obj, pos)) {
        free(pos);
        return NULL;
    }
    return pos;
}

Position *rules_position(PyObject *self, PyObject *obj) {
    return read_position((RulesObject *)self, obj);
}

static PyObject *Rules_legal_moves(RulesObject *self, PyObject *arg) {
    Position *pos = read_position(self, arg);
    if (!pos) return NULL;
    MoveList list;
    movelist_init(&list);
    PyObject *result = NULL;
    int rc = generate(&self->rules, pos, &list);
    if (rc != CORE_OK) {
        core_error(rc);
        goto done;
    }
    result = PyList_New(list.n);
    if (!result) goto done;
    for (int i = 0; i < list.n; i++) {
        PyObject *m = move_to_py(&list, i);
        if (!m) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, m);
    }
done:
    movelist_free(&list);
    free(pos);
    return result;
}

static PyObject *Rules_apply(RulesObject *self, PyObject *args) {
    PyObject *obj, *index_obj;
    if (!PyArg_ParseTuple(args, "OO:apply", &obj, &index_obj)) return NULL;
    long long index;
    if (arg_int(index_obj, LLONG_MIN, LLONG_MAX, "apply: move index", &index)) {
        if (!PyErr_ExceptionMatches(PyExc_ValueError)) return NULL;
        PyErr_Clear();
        index = -1;         /* beyond a long long: out of range, said below */
    }
    Position *pos = read_position(self, obj);
    if (!pos) return NULL;
    Position *child = position_new(&self->rules);
    MoveList list;
    movelist_init(&list);
    PyObject *result = NULL;
    int rc = child ? generate(&self->rules, pos, &list) : CORE_NO_MEMORY;
    if (rc != CORE_OK) {
        core_error(rc);
        goto done;
    }
    if (index < 0 || index >= list.n) {
        PyErr_Format(PyExc_IndexError, "move index %R: the position has %d legal moves",
                     index_obj, list.n);
        goto done;
    }
    apply_move(&self->rules, pos, &list, (int)index, child);
    result = position_to_py(&self->rules, child);
done:
    movelist_free(&list);
    free(child);
    free(pos);
    return result;
}

/* perft's poll: with the GIL released (*ts), take it, run the signal handlers (Ctrl-C), give
 * it back; stop when a handler raised (the exception stays set for the caller). */
typedef struct {
    PyThreadState *ts;
} PerftGil;

static int perft_stop(void *ctx) {
    PerftGil *gil = ctx;
    PyEval_RestoreThread(gil->ts);
    int stop = PyErr_CheckSignals() < 0;
    gil->ts = PyEval_SaveThread();
    return stop;
}

static int read_depth(PyObject *args, const char *format, int lowest, PyObject **obj,
                      int *depth) {
    PyObject *depth_obj;
    long long d;
    if (!PyArg_ParseTuple(args, format, obj, &depth_obj)) return -1;
    if (arg_int(depth_obj, lowest, MAX_PERFT_DEPTH, lowest ? "divide depth" : "perft depth",
                &d))
        return -1;
    *depth = (int)d;
    return 0;
}

static PyObject *Rules_perft(RulesObject *self, PyObject *args) {
    PyObject *obj;
    int depth;
    if (read_depth(args, "OO:perft", 0, &obj, &depth)) return NULL;
    Position *pos = read_position(self, obj);
    if (!pos) return NULL;
    PerftGil gil;
    Poll poll = {perft_stop, &gil, 0, 0.0};
    gil.ts = PyEval_SaveThread();
    int64_t n = perft(&self->rules, pos, depth, &poll);
    PyEval_RestoreThread(gil.ts);
    free(pos);
    if (n < 0) {
        core_error((int)n);
        return NULL;
    }
    return PyLong_FromLongLong(n);
}

static PyObject *Rules_divide(RulesObject *self, PyObject *args) {
    PyObject *obj;
    int depth;
    if (read_depth(args, "OO:divide", 1, &obj, &depth)) return NULL;
    Position *pos = read_position(self, obj);
    if (!pos) return NULL;
    const Rules *r = &self->rules;
    Position *child = position_new(r);
    MoveList list;
    movelist_init(&list);
    int64_t *counts = NULL;
    PyObject *result = NULL;
    int64_t failed = 0;
    int rc = child ? generate(r, pos, &list) : CORE_NO_MEMORY;
    if (rc != CORE_OK) {
        core_error(rc);
        goto done;
    }
    counts = malloc(((size_t)list.n + 1) * sizeof *counts);
    if (!counts) {
        PyErr_NoMemory();
        goto done;
    }
    PerftGil gil;
    Poll poll = {perft_stop, &gil, 0, 0.0};
    gil.ts = PyEval_SaveThread();
    for (int i = 0; i < list.n && !failed; i++) {
        apply_move(r, pos, &list, i, child);
        counts[i] = perft(r, child, depth - 1, &poll);
        if (counts[i] < 0) failed = counts[i];
    }
    PyEval_RestoreThread(gil.ts);
    if (failed) {
        core_error((int)failed);
        goto done;
    }
    result = PyList_New(list.n);
    if (!result) goto done;
    for (int i = 0; i < list.n; i++) {
        PyObject *v = PyLong_FromLongLong(counts[i]);
        if (!v) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, v);
    }
done:
    free(counts);
    movelist_free(&list);
    free(child);
    free(pos);
    return result;
}

static PyObject *Rules_evaluate(RulesObject *self, PyObject *args) {
    PyObject *obj, *player_obj;
    long long player;
    if (!PyArg_ParseTuple(args, "OO:evaluate", &obj, &player_obj)) return NULL;
    if (arg_int(player_obj, 0, 1, "evaluate: player", &player)) return NULL;
    Position *pos = read_position(self, obj);
    if (!pos) return NULL;
    double value = evaluate(&self->rules, pos, (int)player);
    free(pos);
    return PyFloat_FromDouble(value);
}

static PyObject *Rules_score(RulesObject *self, PyObject *arg) {
    Position *pos = read_position(self, arg);
    if (!pos) return NULL;
    int totals[2];
    score(&self->rules, pos, totals);
    free(pos);
    return Py_BuildValue("(ii)", totals[0], totals[1]);
}

static PyObject *Rules_holders(RulesObject *self, PyObject *arg) {
    Position *pos = read_position(self, arg);
    if (!pos) return NULL;
    int n = self->rules.nterritories;
    int8_t *h = malloc((size_t)n + 1);
    PyObject *result = NULL;
    if (!h) {
        PyErr_NoMemory();
        goto done;
    }
    holders(&self->rules, pos, h);
    result = PyTuple_New(n);
    if (!result) goto done;
    for (int t = 0; t < n; t++) {
        PyObject *v;
        if (h[t] < 0) {
            v = Py_None;
            Py_INCREF(v);
        } else if (!(v = PyLong_FromLong(h[t]))) {
            Py_CLEAR(result);
            goto done;
        }
        PyTuple_SET_ITEM(result, t, v);
    }
done:
    free(h);
    free(pos);
    return result;
}

static PyObject *Rules_first_return(RulesObject *self, PyObject *arg) {
    Position *pos = read_position(self, arg);
    if (!pos) return NULL;
    int v = first_return(&self->rules, pos);
    free(pos);
    return PyLong_FromLong(v);
}

static PyMethodDef Rules_methods[] = {
    {"legal_moves", (PyCFunction)Rules_legal_moves, METH_O,
     "legal_moves(pos) -> [(kind, cell, swaps, totem)], -1 for what is not set"},
    {"apply", (PyCFunction)Rules_apply, METH_VARARGS,
     "apply(pos, index) -> the position after legal_moves(pos)[index]"},
    {"perft", (PyCFunction)Rules_perft, METH_VARARGS, "perft(pos, depth) -> leaves at depth"},
    {"divide", (PyCFunction)Rules_divide, METH_VARARGS,
     "divide(pos, depth) -> perft(depth - 1) under each legal move, in order"},
    {"evaluate", (PyCFunction)Rules_evaluate, METH_VARARGS,
     "evaluate(pos, player) -> evaluation.py's evaluate for an Okapi game"},
    {"score", (PyCFunction)Rules_score, METH_O, "score(pos) -> (first, second) totals"},
    {"holders", (PyCFunction)Rules_holders, METH_O,
     "holders(pos) -> per territory 0, 1 or None (game.territory_holders)"},
    {"first_return", (PyCFunction)Rules_first_return, METH_O,
     "first_return(pos) -> +1, -1 or 0: returns()[0]"},
    SEARCH_METHODS
    {NULL, NULL, 0, NULL}};

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "kiwara_designer.games.kiwara._engine.Rules",
    .tp_doc = "Rules(tables): one layout and variant (compiled_tables.rules_tables)",
    .tp_basicsize = sizeof(RulesObject),
    .tp_itemsize = 0,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Rules_init,
    .tp_dealloc = (destructor)Rules_dealloc,
    .tp_methods = Rules_methods,
};

static struct PyModuleDef engine_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_engine",
    .m_doc = "Kiwara's compiled rules core.",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__engine(void) {
    if (PyType_Ready(&RulesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&engine_module);
    if (!m) return NULL;
    if (!MoveLimitError) {
        MoveLimitError = PyErr_NewExceptionWithDoc(
            "kiwara_designer.games.kiwara._engine.MoveLimitError",
            "A position has more crocodile swap moves than MAX_SWAP_MOVES (compiled.py says "
            "it as state.py's MoveLimitError, naming the variant).", PyExc_ValueError, NULL);
        if (!MoveLimitError) {
            Py_DECREF(m);
            return NULL;
        }
    }
    Py_INCREF(MoveLimitError);
    if (PyModule_AddObject(m, "MoveLimitError", MoveLimitError) < 0) {
        Py_DECREF(MoveLimitError);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "MAX_SWAP_MOVES", MAX_SWAP_MOVES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&RulesType);
    if (PyModule_AddObject(m, "Rules", (PyObject *)&RulesType) < 0) {
        Py_DECREF(&RulesType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
