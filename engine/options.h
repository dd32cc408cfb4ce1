/* options.h - the engine's options, one table for every protocol: the rule set (shipped name or
 * the user's file), weights, threads, memory, time safety, notation, and the search parameters
 * (all but the self-play ones). UCI lists them as `option name ...`, UCCI as `option NAME ...`,
 * XBoard as `feature option="..."`; setting one checks its value and names what is wrong. */
#ifndef XQ_ENGINE_OPTIONS_H
#define XQ_ENGINE_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "session.h"

typedef enum { OPT_CHECK, OPT_SPIN, OPT_COMBO, OPT_STRING, OPT_BUTTON } OptionType;

typedef enum {
    OPT_VARIANT, OPT_VARIANT_FILE, OPT_WEIGHTS, OPT_THREADS, OPT_HASH, OPT_OVERHEAD,
    OPT_RANKS, OPT_INFO_INTERVAL, OPT_MILLISEC, OPT_NEW_GAME, OPT_PARAM
} OptionId;

typedef struct EngineOption {
    const char *name;         /* as UCI and XBoard list it */
    const char *ucci_name;    /* as UCCI lists it (one lower-case word) */
    OptionType type;
    OptionId id;
    int param;                /* OPT_PARAM: index of the search parameter */
    double min, max;          /* OPT_SPIN */
    bool protocols[3];        /* listed for UCI, UCCI, XBoard */
} EngineOption;

typedef enum { PROTOCOL_UCI = 0, PROTOCOL_UCCI = 1, PROTOCOL_XBOARD = 2 } Protocol;

/* Protocol-level settings an option can change. */
typedef struct OptionState {
    int rank_base;            /* 0: ICCS ranks from 0; 1: from 1 (Fairy-Stockfish's UCI) */
    bool millisec;            /* UCCI usemillisec: go times in milliseconds, not seconds */
    char variant_file[1024];  /* VariantFile as last set ("" once UCI_Variant is set) */
} OptionState;

enum { OPTIONS_MAX = 96 };

typedef struct OptionTable {
    EngineOption opt[OPTIONS_MAX];
    int count;
} OptionTable;

/* Builds the table; the search parameters come from params.h, so a new parameter becomes an
 * option by itself. */
void options_build(OptionTable *t);

/* The option called `name` for the protocol (case-insensitive, as UCI asks), or NULL. */
const EngineOption *options_find(const OptionTable *t, Protocol proto, const char *name);

/* Writes the current value of an option into buf ("" for an empty string, "true"/"false"). */
void options_value(const EngineOption *o, Session *s, const OptionState *st, char *buf,
                   size_t size);

/* Prints the option lines of the protocol (UCI/UCCI `option ...`, XBoard `feature option=`). */
void options_print(const OptionTable *t, Protocol proto, Session *s, const OptionState *st,
                   EngineOutput *out);

/* Sets an option from its text value. 0 on success, 1 on success with a notice in msg (e.g.
 * the weights did not fit a new rule set and its default weights are used), -1 with msg
 * naming the option and what it accepts. msg: at least SESSION_ERR_MAX bytes. The caller
 * stops any search first. */
int options_set(const EngineOption *o, Session *s, OptionState *st, const char *value,
                char *msg);

/* The names of the shipped rule sets as a protocol list: "xiangqi,jieqi,..." (sorted). */
void options_variant_list(Session *s, char sep, char *buf, size_t size);

#endif
