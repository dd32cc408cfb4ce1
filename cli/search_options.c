/* search_options.c - --preset and --set for the commands that run searches; the arena warning. */
#include "search_options.h"

#include <stdio.h>
#include <string.h>

#include "common.h"
#include "mcts.h"

int cli_load_preset(const char *cmd, const char *preset, SearchParams *p)
{
    char path[1024];
    const char *file = strchr(preset, '/') || strstr(preset, ".ini")
                           ? preset : cli_config_path("runs", preset, path, sizeof path);
    if (!file)
        return cli_error(EXIT_USAGE, cmd, "unknown preset '%s' (no %s/runs/%s.ini)", preset,
                         cli_config_dir(), preset);
    XqError err;
    if (params_load_file(p, file, &err) < 0)
        return cli_report(cmd, &err);
    return EXIT_OK;
}

int cli_apply_sets(const char *cmd, const char *const *sets, int nsets, SearchParams *p)
{
    for (int i = 0; i < nsets; i++) {
        char kv[256];
        snprintf(kv, sizeof kv, "%s", sets[i]);
        char *eq = strchr(kv, '=');
        if (!eq)
            return cli_error(EXIT_USAGE, cmd, "--set expects KEY=VALUE, not '%s'", sets[i]);
        *eq = '\0';
        XqError err;
        if (params_set(p, kv, eq + 1, &err) < 0)
            return cli_error(EXIT_USAGE, cmd, "--set %s: %s", sets[i], err.message);
    }
    return EXIT_OK;
}

void cli_warn_arena(const char *cmd, const char *who, uint64_t searches, int arena_nodes,
                    const char *raise)
{
    if (searches == 0)
        return;
    fprintf(stderr, "xqlab %s: warning: %llu searches%s%s filled the node arena (arena_nodes = %d) "
            "and stopped with fewer playouts than asked; raise it with %s (%d bytes a node per "
            "thread)\n", cmd, (unsigned long long)searches, who ? " of " : "", who ? who : "",
            arena_nodes, raise, MCTS_NODE_BYTES);
}
