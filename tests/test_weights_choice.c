/* test_weights_choice.c - weights follow the features, not the rule set's name: which shipped
 * weights file a rule set gets, partial files (a new piece keeps its piece value), ties, and the
 * refusals. */
#include <dirent.h>
#include <math.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test_util.h"

#include "eval.h"
#include "weights_choice.h"

#define WEIGHTS_DIR XQ_SOURCE_DIR "/configs/weights"
#define VARIANTS_DIR XQ_SOURCE_DIR "/configs/variants"

static int feature_index(const Evaluator *e, const char *name)
{
    for (int i = 0; i < eval_feature_count(e); i++)
        if (!strcmp(eval_feature_name(e, i), name))
            return i;
    fail_msg("no feature %s", name);
    return -1;
}

/* Loads a shipped variant's text with `from` replaced by `to` (one rule changed, renamed). */
static Variant *edited_variant(const char *name, const char *from1, const char *to1, const char *from2,
                               const char *to2)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.ini", VARIANTS_DIR, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    static char out[1 << 16];
    const char *froms[2] = {from1, from2}, *tos[2] = {to1, to2};
    snprintf(out, sizeof out, "%s", text);
    for (int k = 0; k < 2; k++) {
        if (!froms[k])
            continue;
        char *at = strstr(out, froms[k]);
        assert_non_null(at);
        char rest[1 << 16];
        snprintf(rest, sizeof rest, "%s", at + strlen(froms[k]));
        snprintf(at, sizeof out - (size_t)(at - out), "%s%s", tos[k], rest);
    }
    XqError err;
    Variant *v = variant_load_text(out, "edited", &err);
    if (!v)
        fail_msg("%s", err.message);
    return v;
}

/* A folder holding copies of the three xiangqi weights files only (the learned default, the earlier
 * learned set, the hand-set one), as if the other rule sets had no files of their own: the cases
 * below about a rule set without a file of its own. */
static char xq_only_dir[64];

static void copy_file(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    assert_non_null(in);
    assert_non_null(out);
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        assert_int_equal(n, fwrite(buf, 1, n, out));
    fclose(in);
    assert_int_equal(0, fclose(out));
}

static const char *xiangqi_only_weights(void)
{
    if (!xq_only_dir[0]) {
        snprintf(xq_only_dir, sizeof xq_only_dir, "/tmp/xq-weights-xq-XXXXXX");
        assert_non_null(mkdtemp(xq_only_dir));
        /* xiangqi.ini names its network beside it: the copy takes it along. */
        const char *names[] = {"xiangqi.ini", "xiangqi-tuned.ini", "xiangqi-handset.ini", "xiangqi.net"};
        for (int i = 0; i < 4; i++) {
            char from[1024], to[1024];
            snprintf(from, sizeof from, "%s/%s", WEIGHTS_DIR, names[i]);
            snprintf(to, sizeof to, "%s/%s", xq_only_dir, names[i]);
            copy_file(from, to);
        }
    }
    return xq_only_dir;
}

static void remove_xiangqi_only_weights(void)
{
    if (!xq_only_dir[0])
        return;
    char path[1024];
    const char *names[] = {"xiangqi.ini", "xiangqi-tuned.ini", "xiangqi-handset.ini", "xiangqi.net"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", xq_only_dir, names[i]);
        unlink(path);
    }
    rmdir(xq_only_dir);
    xq_only_dir[0] = '\0';
}

static Evaluator *evaluator_with(const Variant *v, const char *path)
{
    XqError err;
    Evaluator *e = eval_create(v, path, &err);
    if (!e)
        fail_msg("%s:%d: %s", err.file, err.line, err.message);
    return e;
}

/* A renamed copy of xiangqi.ini with one rule changed gets the same weights as xiangqi: by
 * features, the shipped file naming all of them (the learned xiangqi.ini; xiangqi-tuned.ini and
 * xiangqi-handset.ini name 29 coarse ones). */
static void renamed_copy_gets_xiangqi_weights(void **state)
{
    (void)state;
    Variant *xq = test_load_variant("xiangqi");
    Variant *copy = edited_variant("xiangqi", "name = xiangqi", "name = xiangqi-stalemate-draw", "stalemate = loss",
                                   "stalemate = draw");
    assert_string_equal("xiangqi-stalemate-draw", copy->name);
    WeightsChoice a, b;
    XqError err;
    assert_int_equal(0, weights_choose(xq, WEIGHTS_DIR, VARIANTS_DIR, WEIGHTS_FOR_DEFAULT, &a, &err));
    assert_int_equal(0, weights_choose(copy, WEIGHTS_DIR, VARIANTS_DIR, WEIGHTS_FOR_DEFAULT, &b, &err));
    assert_int_equal(WEIGHTS_NEAREST, a.how);
    assert_int_equal(WEIGHTS_NEAREST, b.how);
    assert_string_equal(WEIGHTS_DIR "/xiangqi.ini", a.path);
    assert_string_equal(WEIGHTS_DIR "/xiangqi.ini", b.path);
    assert_true(a.candidates >= 3);
    Evaluator *ea = evaluator_with(xq, a.path), *eb = evaluator_with(copy, b.path);
    /* The file names every feature. */
    assert_int_equal(eval_feature_count(eb), b.fit.features);
    assert_int_equal(eval_feature_count(eb), b.fit.named);
    assert_int_equal(eval_feature_count(eb), b.fit.matched);
    assert_int_equal(eval_feature_count(ea), eval_feature_count(eb));
    for (int i = 0; i < eval_feature_count(ea); i++) {
        assert_string_equal(eval_feature_name(ea, i), eval_feature_name(eb, i));
        assert_true(eval_weight(ea, i) == eval_weight(eb, i));
    }
    /* The file's learned values, not the piece values of the variant file (chariot 9). */
    assert_true(eval_weight(eb, feature_index(eb, "material.chariot")) != 9);
    eval_free(ea);
    eval_free(eb);
    variant_free(copy);
    variant_free(xq);
}

/* Sniper xiangqi is xiangqi plus a piece: without a sniper file (a folder of the xiangqi files only)
 * xiangqi.ini applies (all its names exist in sniper), the sniper's own features keep their
 * defaults, so the new piece starts from its piece value (4.5 in sniper.ini) and every shared
 * feature from xiangqi's weights. */
static void new_piece_starts_from_nearest_plus_piece_value(void **state)
{
    (void)state;
    Variant *sn = test_load_variant("sniper");
    WeightsChoice c;
    XqError err;
    const char *dir = xiangqi_only_weights();
    assert_int_equal(0, weights_choose(sn, dir, VARIANTS_DIR, WEIGHTS_FOR_DEFAULT, &c, &err));
    assert_int_equal(WEIGHTS_NEAREST, c.how);
    char want_path[1024];
    snprintf(want_path, sizeof want_path, "%s/xiangqi.ini", dir);
    assert_string_equal(want_path, c.path);
    Variant *xq = test_load_variant("xiangqi");
    Evaluator *exq = evaluator_with(xq, c.path);
    int nxq = eval_feature_count(exq);
    assert_int_equal(nxq, c.fit.named);
    Evaluator *e = evaluator_with(sn, c.path);
    int nf = eval_feature_count(e);
    assert_true(nf > nxq);
    assert_int_equal(nf, c.fit.features);
    assert_false(c.fit.names_feature[feature_index(e, "material.sniper")]);
    assert_true(c.fit.names_feature[feature_index(e, "material.chariot")]);
    assert_true(eval_weight(e, feature_index(e, "material.sniper")) == 4.5);
    assert_true(eval_weight(e, feature_index(e, "mobility.sniper")) == 0);
    assert_true(eval_weight(e, feature_index(e, "mobility.horse")) ==
                eval_weight(exq, feature_index(exq, "mobility.horse")));
    assert_true(eval_weight(e, feature_index(e, "material.chariot")) ==
                eval_weight(exq, feature_index(exq, "material.chariot")));
    char line[2048];
    weights_describe(&c, e, line, sizeof line);
    char want[128];
    snprintf(want, sizeof want, "names %d of the %d features", nxq, nf);
    assert_non_null(strstr(line, want));
    snprintf(want, sizeof want, "the other %d keep their defaults: material.sniper = 4.5", nf - nxq);
    assert_non_null(strstr(line, want));
    eval_free(e);
    eval_free(exq);
    variant_free(xq);
    variant_free(sn);
}

/* Banqi has xiangqi's piece names but not its zones or royal safety: no xiangqi file applies
 * (a folder of the xiangqi files only; banqi ships its own). The hand-set file names 29 features,
 * 14 of them banqi's. */
static void no_file_applies(void **state)
{
    (void)state;
    Variant *bq = test_load_variant("banqi");
    WeightsChoice c;
    XqError err;
    assert_int_equal(0, weights_choose(bq, xiangqi_only_weights(), VARIANTS_DIR, WEIGHTS_FOR_DEFAULT, &c, &err));
    assert_int_equal(WEIGHTS_NONE, c.how);
    assert_string_equal("", c.path);
    Evaluator *bare = evaluator_with(bq, NULL);
    WeightsFit fit;
    assert_int_equal(0, weights_fit(bare, WEIGHTS_DIR "/xiangqi-handset.ini", &fit, &err));
    assert_false(weights_fit_applies(&fit));
    assert_int_equal(29, fit.named);
    /* xiangqi's 29 less its 13 zone features and 2 safety features. */
    assert_int_equal(14, fit.matched);
    assert_non_null(strstr(fit.unknown, "zone.elephant.palace"));
    char line[1024];
    weights_describe(&c, bare, line, sizeof line);
    assert_non_null(strstr(line, "no shipped weights file applies"));
    eval_free(bare);
    variant_free(bq);
    /* A folder that does not exist: no file, not an error. */
    Variant *xq = test_load_variant("xiangqi");
    assert_int_equal(0, weights_choose(xq, "/nonexistent/weights", NULL, WEIGHTS_FOR_DEFAULT, &c, &err));
    assert_int_equal(WEIGHTS_NONE, c.how);
    assert_int_equal(0, c.candidates);
    variant_free(xq);
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Ranking in a folder of our own: most features named wins over the rule set's own name; a
 * file naming a feature the rule set lacks never applies; the rule set's own file wins a tie;
 * a damaged file is an error naming it. */
static void ranking_and_errors(void **state)
{
    (void)state;
    char dir[] = "/tmp/xq-weights-XXXXXX";
    assert_non_null(mkdtemp(dir));
    Variant *xq = test_load_variant("xiangqi");
    write_file(dir, "aaa.ini", "[weights]\nmaterial.chariot = 8\nmaterial.horse = 4\n");
    write_file(dir, "xiangqi.ini", "[weights]\nmaterial.chariot = 7\n");
    write_file(dir, "wrong.ini", "[weights]\nmaterial.chariot = 8\nmaterial.horse = 4\nmaterial.queen = 9\n");
    write_file(dir, "notes.txt", "not a weights file\n");
    WeightsChoice c;
    XqError err;
    assert_int_equal(0, weights_choose(xq, dir, NULL, WEIGHTS_FOR_DEFAULT, &c, &err));
    assert_int_equal(WEIGHTS_NEAREST, c.how);
    assert_non_null(strstr(c.path, "/aaa.ini"));
    assert_int_equal(2, c.fit.named);
    assert_int_equal(3, c.candidates);
    /* A tie on features named: the file named after the rule set. */
    write_file(dir, "xiangqi.ini", "[weights]\nmaterial.chariot = 7\nmaterial.cannon = 4\n");
    assert_int_equal(0, weights_choose(xq, dir, NULL, WEIGHTS_FOR_DEFAULT, &c, &err));
    assert_non_null(strstr(c.path, "/xiangqi.ini"));
    /* A duplicate name counts once (eval_create refuses it when the file is loaded). */
    Evaluator *bare = evaluator_with(xq, NULL);
    char path[1024];
    write_file(dir, "dup.ini", "[weights]\nmaterial.chariot = 7\nmaterial.chariot = 8\n");
    snprintf(path, sizeof path, "%s/dup.ini", dir);
    WeightsFit fit;
    assert_int_equal(0, weights_fit(bare, path, &fit, &err));
    assert_int_equal(1, fit.named);
    assert_int_equal(1, fit.matched);
    unlink(path);
    /* Damaged: another section. */
    write_file(dir, "bad.ini", "[weights]\nmaterial.horse = 4\n[other]\nx = 1\n");
    assert_int_equal(-1, weights_choose(xq, dir, NULL, WEIGHTS_FOR_DEFAULT, &c, &err));
    assert_non_null(strstr(err.file, "bad.ini"));
    assert_int_equal(4, err.line); /* the first key of [other] */
    assert_non_null(strstr(err.message, "unknown section [other]"));
    const char *names[] = {"aaa.ini", "xiangqi.ini", "wrong.ini", "notes.txt", "bad.ini"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
    eval_free(bare);
    variant_free(xq);
}

static void remove_file(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(0, unlink(path));
}

/* A file for the MCTS player (NAME-mcts.ini): the MCTS player takes it over NAME.ini when the two
 * name as many features, every other player takes NAME.ini; naming more features still wins
 * first, and a rule set's only file serves every player. */
static void mcts_player_prefers_its_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/xq-weights-XXXXXX";
    assert_non_null(mkdtemp(dir));
    Variant *xq = test_load_variant("xiangqi");
    Evaluator *bare = evaluator_with(xq, NULL);
    WeightsChoice c;
    XqError err;
    char line[2048];
    /* Only the MCTS file: it is the rule set's own, for every player. */
    write_file(dir, "xiangqi-mcts.ini", "[weights]\nmaterial.chariot = 7\nmaterial.horse = 4\n");
    assert_int_equal(0, weights_choose(xq, dir, NULL, WEIGHTS_FOR_DEFAULT, &c, &err));
    assert_non_null(strstr(c.path, "/xiangqi-mcts.ini"));
    /* Both, naming the same features, beside another rule set's file naming as many. */
    write_file(dir, "aaa.ini", "[weights]\nmaterial.chariot = 8\nmaterial.horse = 3\n");
    write_file(dir, "xiangqi.ini", "[weights]\nmaterial.chariot = 9\nmaterial.horse = 5\n");
    assert_int_equal(0, weights_choose(xq, dir, NULL, WEIGHTS_FOR_DEFAULT, &c, &err));
    assert_non_null(strstr(c.path, "/xiangqi.ini"));
    weights_describe(&c, bare, line, sizeof line);
    assert_non_null(strstr(line, "(nearest shipped weights: names 2 of"));
    assert_int_equal(0, weights_choose(xq, dir, NULL, WEIGHTS_FOR_MCTS, &c, &err));
    assert_non_null(strstr(c.path, "/xiangqi-mcts.ini"));
    weights_describe(&c, bare, line, sizeof line);
    assert_non_null(strstr(line, "(nearest shipped weights for the MCTS player: names 2 of"));
    /* Naming more features comes first, for the MCTS player too. */
    write_file(dir, "xiangqi.ini", "[weights]\nmaterial.chariot = 9\nmaterial.horse = 5\nmaterial.cannon = 4\n");
    assert_int_equal(0, weights_choose(xq, dir, NULL, WEIGHTS_FOR_MCTS, &c, &err));
    assert_non_null(strstr(c.path, "/xiangqi.ini"));
    /* Another rule set's MCTS file is not the rule set's own: the own plain file wins a tie. */
    remove_file(dir, "aaa.ini");
    remove_file(dir, "xiangqi-mcts.ini");
    write_file(dir, "xiangqi.ini", "[weights]\nmaterial.chariot = 9\n");
    write_file(dir, "aaa-mcts.ini", "[weights]\nmaterial.horse = 3\n");
    assert_int_equal(0, weights_choose(xq, dir, NULL, WEIGHTS_FOR_MCTS, &c, &err));
    assert_non_null(strstr(c.path, "/xiangqi.ini"));
    remove_file(dir, "xiangqi.ini");
    remove_file(dir, "aaa-mcts.ini");
    assert_int_equal(0, rmdir(dir));
    eval_free(bare);
    variant_free(xq);
}

/* Every shipped rule set (configs/variants/NAME.ini) finds configs/weights/NAME.ini as its nearest
 * shipped weights, which loads; the files exported by xqlab train name every feature of their rule
 * set, as does xiangqi.ini, learned by xqlab tune. */
static void every_rule_set_finds_its_own_file(void **state)
{
    (void)state;
    DIR *d = opendir(VARIANTS_DIR);
    assert_non_null(d);
    int seen = 0;
    for (struct dirent *de; (de = readdir(d));) {
        size_t len = strlen(de->d_name);
        if (len <= 4 || strcmp(de->d_name + len - 4, ".ini") != 0)
            continue;
        char name[256];
        snprintf(name, sizeof name, "%.*s", (int)(len - 4), de->d_name);
        Variant *v = test_load_variant(name);
        WeightsChoice c;
        XqError err;
        assert_int_equal(0, weights_choose(v, WEIGHTS_DIR, VARIANTS_DIR, WEIGHTS_FOR_DEFAULT, &c, &err));
        char want[1024];
        snprintf(want, sizeof want, "%s/%s.ini", WEIGHTS_DIR, name);
        if (c.how != WEIGHTS_NEAREST || strcmp(c.path, want) != 0)
            fail_msg("rule set %s: nearest shipped weights '%s', expected %s", name, c.path, want);
        Evaluator *e = evaluator_with(v, c.path);
        assert_int_equal(c.fit.named, c.fit.matched);
        if (c.fit.named != eval_feature_count(e))
            fail_msg("rule set %s: its file names %d of its %d features", name, c.fit.named, eval_feature_count(e));
        eval_free(e);
        variant_free(v);
        seen++;
    }
    closedir(d);
    assert_int_equal(11, seen);
}

/* Jieqi's default is its piece values (the alpha-beta player scores better with them than with
 * the learned weights, docs/engine.md): every weight of its shipped file is the feature's
 * default; the learned file, jieqi-mcts.ini, applies to jieqi and differs. */
static void jieqi_ships_piece_values(void **state)
{
    (void)state;
    Variant *v = test_load_variant("jieqi");
    WeightsChoice c;
    XqError err;
    assert_int_equal(0, weights_choose(v, WEIGHTS_DIR, VARIANTS_DIR, WEIGHTS_FOR_DEFAULT, &c, &err));
    Evaluator *e = evaluator_with(v, c.path), *bare = evaluator_with(v, NULL);
    Evaluator *mcts = evaluator_with(v, WEIGHTS_DIR "/jieqi-mcts.ini");
    int differ = 0;
    for (int i = 0; i < eval_feature_count(bare); i++) {
        if (eval_weight(e, i) != eval_weight(bare, i))
            fail_msg("%s = %g, its default is %g", eval_feature_name(e, i), eval_weight(e, i),
                     eval_weight(bare, i));
        differ += eval_weight(mcts, i) != eval_weight(bare, i);
    }
    assert_true(differ > 100);
    /* The MCTS player's nearest shipped file is the learned one. */
    assert_int_equal(0, weights_choose(v, WEIGHTS_DIR, VARIANTS_DIR, WEIGHTS_FOR_MCTS, &c, &err));
    assert_string_equal(WEIGHTS_DIR "/jieqi-mcts.ini", c.path);
    eval_free(mcts);
    eval_free(bare);
    eval_free(e);
    variant_free(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(renamed_copy_gets_xiangqi_weights),
        cmocka_unit_test(new_piece_starts_from_nearest_plus_piece_value),
        cmocka_unit_test(no_file_applies),
        cmocka_unit_test(ranking_and_errors),
        cmocka_unit_test(mcts_player_prefers_its_file),
        cmocka_unit_test(every_rule_set_finds_its_own_file),
        cmocka_unit_test(jieqi_ships_piece_values),
    };
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    remove_xiangqi_only_weights();
    return failed;
}
