/* eval.h - static evaluation: linear features generated from the variant's own pieces and zones,
 * times weights from configs/weights/<variant>.ini. */
#ifndef XQ_EVAL_H
#define XQ_EVAL_H

#include "position.h"

enum { EVAL_MAX_FEATURES = 2048 };

/* Read-only once created (except through eval_set_weight): one evaluator may be shared by the
 * searchers of all threads. */
typedef struct Evaluator Evaluator;

/* Creates an evaluator for the variant. Every weight starts from a default (material = the piece
 * values of the variant file, everything else 0); `weights_path` (NULL = none) overrides them
 * from its [weights] section, `feature.name = value`. Unknown features or sections, duplicates
 * and non-numbers are errors naming file:line. `v` must outlive the evaluator. Free with
 * eval_free (NULL allowed). */
Evaluator *eval_create(const Variant *v, const char *weights_path, XqError *err);
void eval_free(Evaluator *e);

/* Number of features and the name of each ("material.chariot", "zone.pawn.enemy_half", ...). */
int eval_feature_count(const Evaluator *e);
const char *eval_feature_name(const Evaluator *e, int i);
/* Family of a feature, the first part of its name: "material", "zone", "pst", "mobility",
 * "safety", "side", "late", "attack", "align", "threat", "defended", "pair", "check", "hidden",
 * or a holding's module ("camp", "reserve"). NULL if out of range. */
const char *eval_feature_family(const Evaluator *e, int i);

/* Feature vector of a position from Red's point of view (Red minus Black counts). */
void eval_features(const Evaluator *e, Position *pos, float *out);

/* Score in pawns from the point of view of the side to move (the features times the weights,
 * sign-flipped when Black is to move, plus the network's output if there is one). The position
 * is not modified. */
double eval_score(const Evaluator *e, Position *pos);

/* Weight access (the tuner writes learned weights back). eval_set_weight rebuilds the derived
 * tables: not while other threads use the evaluator. */
double eval_weight(const Evaluator *e, int i);
void eval_set_weight(Evaluator *e, int i, double w);

/* The network added to the linear score (eval/net.h; NULL if none). eval_set_net takes
 * ownership of n (NULL removes the network) and records `file` as the weights text's [net]
 * file; not while other threads use the evaluator. */
struct Net;
const struct Net *eval_net(const Evaluator *e);
void eval_set_net(Evaluator *e, struct Net *n, const char *file);
/* The rule set a weights file's network was made for when it was left out because its pieces
 * are not this rule set's (the linear weights still apply); "" otherwise. */
const char *eval_net_left_out(const Evaluator *e);
/* Makes the [net] file that eval_write_weights writes valid for a weights file at out_path: the
 * network's name alone when out_path is in the network file's folder, else its absolute path.
 * Nothing to do without a network read from a file. 0, or -1 with *err (the network file is
 * gone). */
int eval_net_refer_from(Evaluator *e, const char *out_path, XqError *err);

/* Text of the weights in INI form (the weights file format), for datasets and the tuner. */
void eval_write_weights(const Evaluator *e, char *buf, size_t size);

#endif
