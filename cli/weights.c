/* weights.c - --weights for the commands that play: the chosen file, its evaluator, its text. */
#include "weights.h"

#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ini.h"

int cli_weights_nearest(const char *cmd, const Variant *v, WeightsChoice *choice)
{
    XqError err;
    char wdir[WEIGHTS_PATH_MAX], vdir[WEIGHTS_PATH_MAX];
    snprintf(wdir, sizeof wdir, "%s/weights", cli_config_dir());
    snprintf(vdir, sizeof vdir, "%s/variants", cli_config_dir());
    if (weights_choose(v, wdir, vdir, choice, &err) != 0)
        return cli_report(cmd, &err);
    return EXIT_OK;
}

Evaluator *cli_weights_load(const char *cmd, const Variant *v, const char *arg, WeightsChoice *choice)
{
    XqError err;
    memset(choice, 0, sizeof *choice);
    if (!arg) {
        if (cli_weights_nearest(cmd, v, choice) != EXIT_OK)
            return NULL;
    } else if (!strcmp(arg, "none")) {
        choice->how = WEIGHTS_OFF;
    } else {
        Evaluator *bare = eval_create(v, NULL, &err);
        if (!bare) {
            cli_report(cmd, &err);
            return NULL;
        }
        choice->how = WEIGHTS_GIVEN;
        snprintf(choice->path, sizeof choice->path, "%s", arg);
        int rc = weights_fit(bare, arg, &choice->fit, &err);
        eval_free(bare);
        if (rc != 0) {
            cli_report(cmd, &err);
            return NULL;
        }
        if (!weights_fit_applies(&choice->fit)) {
            /* eval_create names the file and line of the first unknown feature. */
            Evaluator *e = eval_create(v, arg, &err);
            eval_free(e);
            if (!e)
                cli_report(cmd, &err);
            int unknown = choice->fit.named - choice->fit.matched;
            cli_error(EXIT_FAILURE_RUN, cmd, "%s names %d feature%s that rule set %s does not have: %s (a weights "
                      "file applies to the rule sets that have every feature it names; `xqlab variants --weights "
                      "VARIANT` lists a rule set's features)", arg, unknown, unknown == 1 ? "" : "s", v->name,
                      choice->fit.unknown);
            return NULL;
        }
    }
    Evaluator *e = eval_create(v, choice->path[0] ? choice->path : NULL, &err);
    if (!e)
        cli_report(cmd, &err);
    return e;
}

char *cli_weights_text(const char *cmd, const WeightsChoice *choice)
{
    if (!choice->path[0])
        return strdup("");
    XqError err;
    char *text = ini_read_file(choice->path, &err);
    if (!text)
        cli_report(cmd, &err);
    return text;
}
