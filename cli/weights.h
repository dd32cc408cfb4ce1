/* weights.h - the evaluator of a command and the weights file behind it (--weights FILE, none,
 * or the nearest shipped file: eval/weights_choice.h). */
#ifndef XQ_CLI_WEIGHTS_H
#define XQ_CLI_WEIGHTS_H

#include "params.h"
#include "weights_choice.h"

/* Which shipped file a player with these search settings prefers (weights_choose). */
static inline WeightsUse cli_weights_use(const SearchParams *p)
{
    return p->search == SEARCH_MCTS ? WEIGHTS_FOR_MCTS : WEIGHTS_FOR_DEFAULT;
}

/* Resolves --weights `arg` for rule set v: NULL = the nearest shipped weights file for `use`
 * (configs/weights, XQLAB_CONFIG_DIR overrides), "none" = every weight at its default, else a
 * file, which must name only features of v (else an error listing the ones v lacks). Fills
 * *choice and returns the evaluator, or NULL after printing "xqlab CMD: ...". */
Evaluator *cli_weights_load(const char *cmd, const Variant *v, const char *arg, WeightsUse use,
                            WeightsChoice *choice);

/* The nearest shipped weights file for v and `use` (weights_choose over configs/weights). Returns EXIT_OK, or
 * EXIT_FAILURE_RUN after printing "xqlab CMD: ..." (a shipped file that cannot be read). */
int cli_weights_nearest(const char *cmd, const Variant *v, WeightsUse use, WeightsChoice *choice);

/* The weights file text for a dataset's provenance: the file's text, or "" without one
 * (malloc'd; NULL on a read error, printed as "xqlab CMD: ..."). */
char *cli_weights_text(const char *cmd, const WeightsChoice *choice);

/* Names the weights a dataset's weights text stands for: "none (the piece values of the variant
 * file)" for "", the path of the shipped weights file with exactly this text, or "a weights file
 * that is not shipped (N weights; xqlab inspect shows the text)". */
void cli_weights_identify(const char *text, char *buf, size_t size);

#endif
