/* weights_choice.h - which weights file an evaluation uses. Weights follow the features, not the
 * rule set's name: a weights file applies to a rule set when every feature it names is a feature
 * of that rule set (eval.h); the rule set's features it does not name keep their defaults
 * (material = the piece values of the variant file, everything else 0), so a new piece starts
 * from its piece value and the rest from the file. Without --weights the nearest shipped file
 * is used: of the files that apply, the one naming the most of the rule set's features. */
#ifndef XQ_WEIGHTS_CHOICE_H
#define XQ_WEIGHTS_CHOICE_H

#include <stdbool.h>

#include "eval.h"

enum { WEIGHTS_PATH_MAX = 1024, WEIGHTS_NAMES_MAX = 512 };

/* How a weights file fits a rule set. */
typedef struct WeightsFit {
    int named;                       /* features the file's [weights] section names */
    int matched;                     /* ... that are features of the rule set */
    int features;                    /* features of the rule set */
    char unknown[WEIGHTS_NAMES_MAX]; /* names the rule set does not have, ", "-separated (cut with "...") */
    bool names_feature[EVAL_MAX_FEATURES];  /* [i]: the file names the rule set's feature i */
} WeightsFit;

/* Matches the feature names of a weights file against the features of `bare` (any evaluator of
 * the rule set). Only the names are read; eval_create checks the values. Returns 0, or -1 with
 * *err for an unreadable file, bad INI or a section other than [weights]. */
int weights_fit(const Evaluator *bare, const char *path, WeightsFit *fit, XqError *err);

static inline bool weights_fit_applies(const WeightsFit *f)
{
    return f->named == f->matched;
}

typedef enum {
    WEIGHTS_NONE,     /* no shipped file applies: every weight at its default */
    WEIGHTS_OFF,      /* the user asked for none (--weights none): every weight at its default */
    WEIGHTS_GIVEN,    /* the user named the file */
    WEIGHTS_NEAREST   /* chosen among the shipped files */
} WeightsHow;

typedef struct WeightsChoice {
    WeightsHow how;
    char path[WEIGHTS_PATH_MAX];     /* "" for WEIGHTS_NONE and WEIGHTS_OFF */
    WeightsFit fit;                  /* of `path` (named = 0 without a file) */
    int candidates;                  /* shipped files looked at (WEIGHTS_NEAREST / NONE) */
} WeightsChoice;

/* Which player the weights are for. Weights that suit one search can hurt another (a linear
 * model fitted to deep alpha-beta values may mislead the shallow MCTS leaf search), so a rule set
 * may ship a second file for the MCTS player, NAME-mcts.ini beside NAME.ini. */
typedef enum {
    WEIGHTS_FOR_DEFAULT, /* alpha-beta, and the commands that do not search: NAME.ini first */
    WEIGHTS_FOR_MCTS     /* the MCTS player (search = mcts): NAME-mcts.ini first */
} WeightsUse;

/* The suffix of the stem of a weights file for the MCTS player. */
#define WEIGHTS_MCTS_SUFFIX "-mcts"

/* The nearest weights file in weights_dir (its *.ini files) for rule set v: of the files that
 * apply, the one naming the most of v's features; ties go to the file named after v (NAME.ini or
 * NAME-mcts.ini), then to the file of the shipped rule set (variants_dir/NAME.ini, may be NULL)
 * that has the most lines in common with v's text, then to the file for `use` (a -mcts file for
 * WEIGHTS_FOR_MCTS, any other for WEIGHTS_FOR_DEFAULT), then to the first name in byte order. No
 * file applies (or the folder is missing): WEIGHTS_NONE. A file that cannot be read or parsed is
 * an error (-1, *err). */
int weights_choose(const Variant *v, const char *weights_dir, const char *variants_dir, WeightsUse use,
                   WeightsChoice *out, XqError *err);

/* The weights an evaluator of the rule set of `bare` has with the weights file text `text` ("" or
 * NULL: none): each feature's default (eval_weight(bare, i)) unless the text's [weights] section
 * sets it. out[] has eval_feature_count(bare) entries. Entries naming other features are
 * ignored (they belong to another rule set). Returns 0, or -1 with *err for bad text (`name`
 * labels it). */
int weights_effective(const Evaluator *bare, const char *text, const char *name, double *out, XqError *err);

/* The choice in one line, for run summaries and logs, e.g. "configs/weights/xiangqi.ini (nearest
 * shipped weights: names 29 of the 563 features; the other 534 keep their defaults:
 * material.sniper = 4.5; 533 at 0)": the non-zero defaults by name, the zeros counted. `e` is the
 * evaluator built with the
 * choice (for the default values; the same rule set as the fit). */
void weights_describe(const WeightsChoice *c, const Evaluator *e, char *buf, size_t size);

/* The [net] file reference, for a weights file at out_path, to the network file at net_path
 * (any path that exists): its name alone when both are in one folder, else its absolute path
 * (also when out_path's folder does not exist yet). 0, or -1 with *err when net_path does not
 * resolve. */
int weights_net_reference(const char *net_path, const char *out_path, char *buf, size_t size, XqError *err);

/* The text of the weights file from_path as it must read when copied to to_path: a relative
 * [net] file is rewritten by weights_net_reference; everything else is kept byte for byte.
 * malloc'd; NULL with *err (out of memory, or the network file named does not resolve). */
char *weights_text_moved(const char *text, const char *from_path, const char *to_path, XqError *err);

#endif
