/* report.h - the generation table of a training run (xqlab train --status) as text, Markdown or
 * JSON, and the provenance lines of exported weights. */
#ifndef XQ_TRAIN_REPORT_H
#define XQ_TRAIN_REPORT_H

#include <stdio.h>

#include "run.h"

typedef enum { TRAIN_REPORT_TEXT, TRAIN_REPORT_MARKDOWN, TRAIN_REPORT_JSON } TrainReportFormat;

/* The table of the records recs[0 .. n-1] (entries with generation -1 are skipped): per
 * generation the self-play games, the tune's games, positions and losses, the gate's games,
 * Elo with its 95% interval, LLR and verdict, the weights in force after it, and the strength
 * against the outside engine when the run measures it. */
void train_report_print(FILE *f, const TrainSettings *s, const TrainRecord *recs, int n, TrainReportFormat format);

/* Comment lines (each starting with "; ") for a weights file exported from the run: the run's
 * settings and one line per generation. */
void train_report_provenance(FILE *f, const char *dir, const TrainSettings *s, const TrainRecord *recs, int n);

/* An Elo figure as text: "+12.3", "-inf", "n/a" for NAN. */
void train_report_elo(double elo, char *buf, size_t size);

#endif
