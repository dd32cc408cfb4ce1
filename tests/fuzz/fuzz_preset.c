/* fuzz_preset.c - fuzz target: run presets (configs/runs, `--preset FILE`); an accepted
 * preset must hold only values params_set accepts, and its params_write text must read back to the
 * same parameters. */
#include <string.h>

#include "fuzz.h"
#include "fuzz_shipped.h"
#include "params.h"

enum { MAX_PRESET_TEXT = 16384 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > MAX_PRESET_TEXT)
        return 0;
    SearchParams p;
    params_default(&p);
    XqError err;
    memset(&err, 0, sizeof err);
    if (params_load_file(&p, fuzz_scratch_file(data, size), &err) != 0) {
        FUZZ_CHECK(err.message[0] != '\0', "rejection without a message");
        return 0;
    }
    char text[4096], again_text[4096];
    params_write(&p, text, sizeof text);
    /* Read the written lines back one by one through params_set. */
    SearchParams again;
    params_default(&again);
    char copy[4096];
    memcpy(copy, text, sizeof copy);
    char *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *eq = strstr(line, " = ");
        FUZZ_CHECK(eq != NULL, "params_write line '%s' has no ' = '", line);
        *eq = '\0';
        FUZZ_CHECK(params_set(&again, line, eq + 3, &err) == 0, "written '%s = %s' rejected: %s",
                   line, eq + 3, err.message);
    }
    params_write(&again, again_text, sizeof again_text);
    FUZZ_CHECK(strcmp(text, again_text) == 0, "parameters changed on the way back:\n%s\n---\n%s",
               text, again_text);
    return 0;
}
