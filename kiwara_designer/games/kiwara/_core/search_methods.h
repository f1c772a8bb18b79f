/* The Rules type's methods implemented in search.c (playouts, greedy, MCTS, whole games):
 * module.c puts them in the method table. */
#ifndef KIWARA_SEARCH_METHODS_H
#define KIWARA_SEARCH_METHODS_H
#define SEARCH_METHODS
#endif
