/* What the CPython-facing files share (module.c and search.c): the Rules object and the
 * conversions between Python values and positions, moves and random states. */
#ifndef KIWARA_PYCORE_H
#define KIWARA_PYCORE_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "core.h"

/* _engine.Rules: one layout and variant, built from the tables state.py computes. */
typedef struct {
    PyObject_HEAD
    Rules rules;
} RulesObject;

/* _engine.MoveLimitError (a ValueError): a position past MAX_SWAP_MOVES swap moves. */
extern PyObject *MoveLimitError;

/* The Python exception of a CORE_* code (CORE_INTERRUPTED: the signal handler's is set). */
void core_error(int rc);

/* The position obj of the Rules object self (a new one: free()), or NULL with an exception set;
 * refuses a Rules object that was never initialised (Rules.__new__ without __init__). */
Position *rules_position(PyObject *self, PyObject *obj);

/* An int argument (anything with __index__) in lo..hi into *out; TypeError or ValueError naming
 * what, 0 or -1. */
int arg_int(PyObject *obj, long long lo, long long hi, const char *what, long long *out);

/* A finite float argument (a float or an int) in lo..hi; TypeError or ValueError, 0 or -1. */
int arg_double(PyObject *obj, double lo, double hi, const char *what, double *out);

/* A new position of r's size (malloc; free with free()); NULL when out of memory. */
Position *position_new(const Rules *r);
/* Read a position tuple (board, reserve, line_empty, empty, totem, to_move, okapi, ply) -- the
 * KiwaraState fields _board, _reserve, _line_empty, _empty, _totem, _to_move, _okapi, ply --
 * into pos. 0, or -1 with a Python exception set. */
int position_from_py(const Rules *r, PyObject *tuple, Position *pos);
/* The position tuple of pos (a new reference, NULL with an exception set). */
PyObject *position_to_py(const Rules *r, const Position *pos);
/* Move i of list as (kind, cell, swaps tuple, totem), -1 for what is not set. */
PyObject *move_to_py(const MoveList *list, int i);

#endif
