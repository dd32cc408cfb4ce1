/* weights.c - --weights for the commands that play: the chosen file, its evaluator, its text. */
#include "weights.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "ini.h"

int cli_weights_nearest(const char *cmd, const Variant *v, WeightsUse use, WeightsChoice *choice)
{
    XqError err;
    char wdir[WEIGHTS_PATH_MAX], vdir[WEIGHTS_PATH_MAX];
    snprintf(wdir, sizeof wdir, "%s/weights", cli_config_dir());
    snprintf(vdir, sizeof vdir, "%s/variants", cli_config_dir());
    if (weights_choose(v, wdir, vdir, use, choice, &err) != 0)
        return cli_report(cmd, &err);
    return EXIT_OK;
}

Evaluator *cli_weights_load(const char *cmd, const Variant *v, const char *arg, WeightsUse use,
                            WeightsChoice *choice)
{
    XqError err;
    memset(choice, 0, sizeof *choice);
    if (!arg) {
        if (cli_weights_nearest(cmd, v, use, choice) != EXIT_OK)
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

void cli_weights_identify(const char *text, char *buf, size_t size)
{
    if (!text || !*text) {
        snprintf(buf, size, "none (the piece values of the variant file)");
        return;
    }
    char dir[WEIGHTS_PATH_MAX];
    snprintf(dir, sizeof dir, "%s/weights", cli_config_dir());
    DIR *d = opendir(dir);
    for (struct dirent *de; d && (de = readdir(d));) {
        size_t len = strlen(de->d_name);
        if (len <= 4 || strcmp(de->d_name + len - 4, ".ini") != 0)
            continue;
        char path[WEIGHTS_PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        XqError err;
        char *shipped = ini_read_file(path, &err);
        bool same = shipped && !strcmp(shipped, text);
        free(shipped);
        if (same) {
            snprintf(buf, size, "%s", path);
            closedir(d);
            return;
        }
    }
    if (d)
        closedir(d);
    int n = 0;
    IniFile ini;
    XqError err;
    if (ini_parse(&ini, text, "weights", &err) == 0) {
        n = ini.count;
        ini_free(&ini);
    }
    snprintf(buf, size, "a weights file that is not shipped (%d weights; xqlab inspect shows its text)", n);
}
