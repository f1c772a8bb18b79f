/* The Rules type's methods implemented in search.c (playouts, greedy, MCTS, whole games):
 * module.c puts them in the method table (each entry ends with a comma). */
#ifndef KIWARA_SEARCH_METHODS_H
#define KIWARA_SEARCH_METHODS_H
#include "pycore.h"

PyObject *rules_playout(PyObject *self, PyObject *args);
PyObject *rules_greedy(PyObject *self, PyObject *args);
PyObject *rules_mcts(PyObject *self, PyObject *args);
PyObject *rules_solve(PyObject *self, PyObject *args);
PyObject *rules_play_game(PyObject *self, PyObject *args);
PyObject *rules_rng_draws(PyObject *self, PyObject *args);

#define SEARCH_METHODS \
    {"playout", (PyCFunction)rules_playout, METH_VARARGS, \
     "playout(pos, policy, rng_state) -> (first_return, rng_state): agents/playouts.py's " \
     "random_playout (policy 'random') or greedy_playout ('greedy') from pos."}, \
    {"greedy", (PyCFunction)rules_greedy, METH_VARARGS, \
     "greedy(pos, rng_state) -> (index, rng_state): GreedyAgent.choose's move (an index into " \
     "the legal moves) for a position with at least two legal moves."}, \
    {"mcts", (PyCFunction)rules_mcts, METH_VARARGS, \
     "mcts(pos, iterations, deadline, policy, exploration, rng_state) -> (iterations_done, " \
     "children, rng_state): MctsAgent's search; children (move_index, visits, value_sum) in " \
     "the order they were created; deadline a time.perf_counter() value or None."}, \
    {"solve", (PyCFunction)rules_solve, METH_VARARGS, \
     "solve(pos, budget) -> (value, index) or None: agents/solver.py's exact endgame search " \
     "(+1 win, 0 draw, -1 loss for the player to move; the first legal move reaching it), None " \
     "when it would visit more than budget positions."}, \
    {"play_game", (PyCFunction)rules_play_game, METH_VARARGS, \
     "play_game(pos, agents, rng_states, keep_moves=True) -> dict: lab/matches.py's play_game " \
     "(a random state is a 625-tuple or the bytes of a seed's key, compiled.seed_key) " \
     "loop (moves (empty unless kept), legal, leads, control_changes, final, rngs); agent specs ('random',), ('greedy',), " \
     "('mcts', iterations, policy, exploration), ('expert', iterations, exploration, " \
     "solve_cells, solve_nodes)."}, \
    {"rng_draws", (PyCFunction)rules_rng_draws, METH_VARARGS | METH_STATIC, \
     "rng_draws(rng_state, ops) -> (results, rng_state): the compiled random.Random, for tests; " \
     "ops: ('below', n), ('bits', k), ('random',), ('sample', n, k) (indices)."},

#endif
