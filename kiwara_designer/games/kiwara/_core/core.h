/* Kiwara's compiled rules core: what the C files share.
 *
 * The Python engine (state.py) is the reference of the rules; this core reproduces it exactly:
 * the same legal moves in the same order, the same positions, the same scores and evaluations
 * (bit for bit: the same floating-point operations in the same order), and, for play, the same
 * random streams as CPython's random.Random (MT19937), so a game played here is the game the
 * Python engine plays from the same seed. Deck games (reinforcement = "deck") stay in Python.
 *
 * rules.c   the rules: tables, positions, move generation, apply, scoring, evaluation, perft
 * search.c  CPython-compatible random numbers, playouts, greedy, MCTS, whole games
 * module.c  the CPython bindings (the _engine module, its Rules type)
 */
#ifndef KIWARA_CORE_H
#define KIWARA_CORE_H

#include <stddef.h>
#include <stdint.h>

/* Token codes on the board, as in state.py: 0 empty, else kind + 1, owner bit 8, face-down 16. */
enum { ZEBRA, GAZELLE, ELEPHANT, LION, CROCODILE, KINDS };
#define KIND_MASK 7
#define OWNER_BIT 8
#define DOWN_BIT 16
#define TERMINAL (-1)     /* to_move at the end of the game */
#define NO_TOTEM (-1)     /* totem before the opening; a move's totem when it does not move */
#define FUTURE_POINTS_PER_CELL 3.0   /* evaluation.py */

/* A list of lists of ints: list i is items[start[i] .. start[i] + len[i] - 1]. */
typedef struct {
    int n;
    int *start, *len, *items;
} IntLists;

/* Everything that depends on the layout and the variant (state.py's _Tables). Immutable once
 * built. Lines: columns 0..width-1, then rows width..width+height-1. */
typedef struct {
    int width, height, size, positions, nlines, nterritories;
    IntLists lines;          /* per totem position: the cells of the line it faces, in order */
    IntLists crossing;       /* per totem position, aligned with lines: the line crossing it */
    int *pos_line;           /* per totem position: the line it faces */
    int *cell_col, *cell_row;/* per cell: its column line and row line */
    IntLists step_q, step_line;   /* per position: the normal totem destinations (and lines) */
    IntLists jump_q, jump_line;   /* per position: the forced jump's destinations, in order */
    IntLists lion_reach;     /* per cell: neighbours a lion placed there acts on */
    IntLists swap_reach;     /* per cell: neighbours a crocodile may swap with */
    int *territory;          /* per cell: its territory */
    IntLists territory_cells;/* per territory: its cells */
    int tokens[KINDS], points[KINDS];
    int max_swaps;           /* -1: an unbounded chain */
    int lion_flee, lion_flip, down_near_lion, swap_down_near_lion;
    int first_placer;        /* 0 or 1: who places first after the opening */
    int okapi_points, tie_both;
    size_t pos_bytes;        /* sizeof(Position) + nlines int16 + size bytes */
} Rules;

/* A position. Variable size: after the header come int16 line_empty[nlines] (empty cells of
 * each line) and uint8 board[size]; copy with memcpy(dst, src, rules->pos_bytes). */
typedef struct {
    int32_t totem, to_move, okapi, empty, ply;
    int32_t reserve[2 * KINDS];   /* player 0's Z G E L C, then player 1's */
    int16_t data[];
} Position;

static inline int16_t *pos_line_empty(const Rules *r, Position *p) { (void)r; return p->data; }
static inline const int16_t *pos_line_empty_c(const Rules *r, const Position *p) {
    (void)r; return p->data; }
static inline uint8_t *pos_board(const Rules *r, Position *p) {
    return (uint8_t *)(p->data + r->nlines); }
static inline const uint8_t *pos_board_c(const Rules *r, const Position *p) {
    return (const uint8_t *)(p->data + r->nlines); }

/* A move. Opening: kind -1, cell -1, totem q. Pass: kind -1, cell -1, totem -1. Placement:
 * kind 0..4, cell, totem (-1: the placement ends the game, the totem does not move) and the
 * crocodile's swap path: nswaps cells at MoveList.swaps[swaps ...]. */
typedef struct {
    int8_t kind;
    int32_t cell, totem;
    int32_t swaps, nswaps;
} Move;

/* A growable list of moves and the swap cells they point into. */
typedef struct {
    Move *moves;
    int n, cap;
    int32_t *swaps;
    int nswaps, swaps_cap;
} MoveList;

/* The most crocodile swap moves a position may have (state.py's MAX_SWAP_MOVES, the same bound):
 * chain swaps are the one part of move generation without a bound of their own (a 6 x 5
 * checkerboard with 27 gazelles has a position with 916,483 legal moves). Every built-in layout
 * and variant stays far below: with the classic tokens (12 gazelles at most on the board) the
 * worst position found on the 6 x 5 board, by a search over gazelle placements that ignores the
 * rivers (so an upper bound for every layout), has 3,378 swap moves (12 x 10: 2,373); no
 * position of the engine, agent and compiled-core tests has more than 90. Reaching the bound
 * takes about 3 ms here and 0.15 s in Python. */
#define MAX_SWAP_MOVES 100000

/* What generate and perft return besides counts. */
enum { CORE_OK = 0, CORE_NO_MEMORY = -1, CORE_TOO_MANY_MOVES = -2, CORE_INTERRUPTED = -3 };

/* A question perft asks now and then during long work: stop? (nonzero: stop). Start work and
 * polled at 0; one Poll may serve several perft calls (divide's). */
typedef struct {
    int (*stop)(void *ctx);
    void *ctx;
    int64_t work;            /* moves generated since the clock was last read */
    double polled;           /* when stop was last asked (0: not yet) */
} Poll;

/* rules.c ------------------------------------------------------------------------------------ */
void movelist_init(MoveList *list);
void movelist_free(MoveList *list);
/* Every legal move of pos, in state.py's order (legal_moves()); at the end: none.
 * Returns CORE_OK, CORE_NO_MEMORY, or CORE_TOO_MANY_MOVES (more than MAX_SWAP_MOVES swap
 * moves; the list is then empty). */
int generate(const Rules *r, const Position *pos, MoveList *out);
/* dst = the position after move i of list (a move generate() gave for src). */
void apply_move(const Rules *r, const Position *src, const MoveList *list, int i, Position *dst);
int is_terminal(const Position *pos);
/* Totals (first, second) as scoring() gives them (final or provisional). */
void score(const Rules *r, const Position *pos, int totals[2]);
/* Who controls each territory now: 0, 1 or -1 (nobody, or a tie even if it scores for both),
 * as game.py's territory_holders. */
void holders(const Rules *r, const Position *pos, int8_t *out);
/* returns()[0]: +1 the first player won, -1 lost, 0 a draw or an unfinished game. */
int first_return(const Rules *r, const Position *pos);
/* evaluation.py's evaluate(state, player) for an Okapi game, bit for bit. */
double evaluate(const Rules *r, const Position *pos, int player);
/* Leaves at depth, or CORE_NO_MEMORY, CORE_TOO_MANY_MOVES, or CORE_INTERRUPTED when poll (may
 * be NULL) said stop; poll is asked every few milliseconds of work. */
int64_t perft(const Rules *r, const Position *pos, int depth, Poll *poll);

#endif
