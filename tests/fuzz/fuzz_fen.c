/* fuzz_fen.c - fuzz target: the FEN reader on every shipped variant; an accepted FEN must
 * round-trip (write, read, write = same text and key) and survive move generation with do/undo. */
#include <dirent.h>
#include <string.h>

#include "fuzz.h"
#include "position.h"

enum { MAX_FUZZ_VARIANTS = 32, MAX_FEN = 1024 };

static Variant *fuzz_variants[MAX_FUZZ_VARIANTS];
static int fuzz_nvariants = -1;

/* Loads every .ini file of configs/variants once; a shipped file that fails to load is a bug. */
static void load_shipped_variants(void)
{
    if (fuzz_nvariants >= 0)
        return;
    fuzz_nvariants = 0;
    const char *dir = XQLAB_CONFIG_DIR "/variants";
    DIR *d = opendir(dir);
    FUZZ_CHECK(d != NULL, "cannot open %s", dir);
    struct dirent *e;
    while ((e = readdir(d)) != NULL && fuzz_nvariants < MAX_FUZZ_VARIANTS) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".ini") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        XqError err;
        Variant *v = variant_load_file(path, &err);
        FUZZ_CHECK(v != NULL, "%s:%d: %s", err.file, err.line, err.message);
        fuzz_variants[fuzz_nvariants++] = v;
    }
    closedir(d);
    FUZZ_CHECK(fuzz_nvariants > 0, "no variant files in %s", dir);
}

static Position fuzz_pos, fuzz_copy;

static void check_position(const Variant *v, const char *fen)
{
    char msg[256];
    FUZZ_CHECK(pos_validate(&fuzz_pos, msg, sizeof msg) == 0, "%s: %s", fen, msg);
    char out[MAX_FEN], again[MAX_FEN];
    pos_get_fen(&fuzz_pos, out, sizeof out);
    XqError err;
    FUZZ_CHECK(pos_set_fen(&fuzz_copy, v, out, &err) == 0, "written FEN '%s' (from '%s') rejected: %s",
               out, fen, err.message);
    pos_get_fen(&fuzz_copy, again, sizeof again);
    FUZZ_CHECK(strcmp(out, again) == 0, "'%s' read back as '%s'", out, again);
    FUZZ_CHECK(fuzz_copy.key == fuzz_pos.key, "key differs after round trip of '%s'", out);
    FUZZ_CHECK(fuzz_copy.in_check == fuzz_pos.in_check, "check flag differs for '%s'", out);

    /* Every legal move must be playable and undone exactly. */
    MoveList list;
    pos_generate_legal(&fuzz_pos, &list);
    FUZZ_CHECK(list.count == pos_count_legal(&fuzz_pos), "generate and count disagree on '%s'", out);
    memcpy(&fuzz_copy, &fuzz_pos, offsetof(Position, hist));
    for (int i = 0; i < list.count; i++) {
        Undo u;
        pos_do_move(&fuzz_pos, list.moves[i], &u);
        FUZZ_CHECK(!pos_royal_attacked(&fuzz_pos, XQ_OTHER(fuzz_pos.side)),
                   "legal move %d of '%s' leaves the mover attacked", i, out);
        FUZZ_CHECK(pos_validate(&fuzz_pos, msg, sizeof msg) == 0, "after move %d of '%s': %s", i,
                   out, msg);
        pos_undo_move(&fuzz_pos, list.moves[i], &u);
        FUZZ_CHECK(memcmp(&fuzz_copy, &fuzz_pos, offsetof(Position, hist)) == 0,
                   "undo of move %d does not restore '%s'", i, out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    load_shipped_variants();
    if (size >= MAX_FEN)
        return 0;
    char fen[MAX_FEN];
    memcpy(fen, data, size);
    fen[size] = '\0';
    for (int i = 0; i < fuzz_nvariants; i++) {
        XqError err;
        memset(&err, 0, sizeof err);
        if (pos_set_fen(&fuzz_pos, fuzz_variants[i], fen, &err) != 0) {
            FUZZ_CHECK(err.message[0] != '\0', "rejection without a message");
            continue;
        }
        check_position(fuzz_variants[i], fen);
    }
    return 0;
}
