/* fuzz_shipped.c - the shipped rule sets and a scratch file for fuzz targets (fuzz_shipped.h). */
#include <dirent.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "fuzz_shipped.h"

static Variant *shipped[FUZZ_MAX_VARIANTS];
static int nshipped = -1;
static char scratch_path[512];

static int compare_names(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

int fuzz_shipped_variants(Variant *const **out)
{
    *out = shipped;
    if (nshipped >= 0)
        return nshipped;
    nshipped = 0;
    const char *dir = XQLAB_CONFIG_DIR "/variants";
    DIR *d = opendir(dir);
    FUZZ_CHECK(d != NULL, "cannot open %s", dir);
    /* Name order, so an input's first byte picks the same rule set in every run. */
    char names[FUZZ_MAX_VARIANTS][256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < FUZZ_MAX_VARIANTS) {
        size_t len = strlen(e->d_name);
        if (len >= 5 && len < sizeof names[0] && strcmp(e->d_name + len - 4, ".ini") == 0)
            memcpy(names[n++], e->d_name, len + 1);
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], compare_names);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%.255s", dir, names[i]);
        XqError err;
        Variant *v = variant_load_file(path, &err);
        FUZZ_CHECK(v != NULL, "%s:%d: %s", err.file, err.line, err.message);
        shipped[nshipped++] = v;
    }
    FUZZ_CHECK(nshipped > 0, "no variant files in %s", dir);
    return nshipped;
}

static void remove_scratch(void)
{
    if (scratch_path[0])
        unlink(scratch_path);
}

const char *fuzz_scratch_file(const void *data, size_t size)
{
    if (!scratch_path[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(scratch_path, sizeof scratch_path, "%s/xqlab-fuzz-%ld.bin",
                 tmp && *tmp ? tmp : "/tmp", (long)getpid());
        atexit(remove_scratch);
    }
    FILE *f = fopen(scratch_path, "wb");
    FUZZ_CHECK(f != NULL, "cannot create %s", scratch_path);
    FUZZ_CHECK(size == 0 || fwrite(data, 1, size, f) == size, "cannot write %s", scratch_path);
    FUZZ_CHECK(fclose(f) == 0, "cannot close %s", scratch_path);
    return scratch_path;
}
