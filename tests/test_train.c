/* test_train.c - the training loop's pieces: the JSON reader, word splitting, the run settings
 * and generation records (round trips, refusal lines), a step's end as a child process, and the
 * table. The whole loop runs in cli_train (tests/cli/test_train.sh). */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "json.h"
#include "report.h"
#include "run.h"
#include "step.h"

static void json_reads_documents(void **state)
{
    (void)state;
    XqError err;
    const char *text = "{\"games\": 40, \"loss\": {\"train\": 0.5, \"validation\": 6.25e-1},\n"
                       " \"elo_95\": [null, -12.5], \"name\": \"a\\\"b\\u00e9\\n\", \"ok\": true,\n"
                       " \"sprt\": {\"verdict\": \"H1\"}, \"empty\": [], \"o\": {}}";
    JsonValue *v = json_parse(text, "t.json", &err);
    assert_non_null(v);
    double x = 0;
    assert_true(json_get_number(v, "games", &x));
    assert_true(x == 40);
    assert_true(json_get_number(v, "loss.validation", &x));
    assert_true(x == 0.625);
    assert_true(json_get_number(v, "elo_95[1]", &x));
    assert_true(x == -12.5);
    assert_false(json_get_number(v, "elo_95[0]", &x)); /* null */
    assert_int_equal(json_get(v, "elo_95[0]")->type, JSON_NULL);
    assert_null(json_get(v, "elo_95[2]"));
    assert_null(json_get(v, "loss.nothing"));
    assert_null(json_get(v, "games.x"));
    assert_string_equal(json_get_string(v, "name"), "a\"b\xc3\xa9\n");
    assert_string_equal(json_get_string(v, "sprt.verdict"), "H1");
    assert_true(json_get(v, "ok")->boolean);
    assert_int_equal(json_get(v, "empty")->count, 0);
    json_free(v);
}

static void json_refuses_bad_text(void **state)
{
    (void)state;
    const char *bad[] = {"", "{", "{\"a\" 1}", "[1,]", "{\"a\": 1} x", "\"open", "01", "1.", "-", "tru",
                         "{\"a\": \"\\q\"}", "[1 2]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        XqError err;
        JsonValue *v = json_parse(bad[i], "bad.json", &err);
        if (v)
            fail_msg("accepted '%s'", bad[i]);
        assert_string_equal(err.file, "bad.json");
        assert_non_null(strstr(err.message, "bad JSON"));
    }
    /* Depth limit. */
    char deep[200];
    memset(deep, '[', 100);
    deep[100] = '\0';
    XqError err;
    assert_null(json_parse(deep, "deep.json", &err));
    assert_non_null(strstr(err.message, "64 levels"));
    /* The line of the error. */
    assert_null(json_parse("{\n\"a\": 1,\n\"b\" 2}", "l.json", &err));
    assert_int_equal(err.line, 3);
}

static void split_words_like_a_shell(void **state)
{
    (void)state;
    char storage[256];
    char *w[16];
    const char *why = NULL;
    int n = train_split_words("  --l2 1e-4 --engine-option 'Skill Level=0' \"a \\\"b\\\"\" c\\ d ''", storage, w, 16,
                              &why);
    assert_int_equal(n, 7);
    assert_string_equal(w[0], "--l2");
    assert_string_equal(w[1], "1e-4");
    assert_string_equal(w[2], "--engine-option");
    assert_string_equal(w[3], "Skill Level=0");
    assert_string_equal(w[4], "a \"b\"");
    assert_string_equal(w[5], "c d");
    assert_string_equal(w[6], "");
    assert_int_equal(train_split_words("", storage, w, 16, &why), 0);
    assert_int_equal(train_split_words("a 'b", storage, w, 16, &why), -1);
    assert_non_null(strstr(why, "not closed"));
    assert_int_equal(train_split_words("a b c", storage, w, 2, &why), -1);
}

static void settings_round_trip_and_diff(void **state)
{
    (void)state;
    TrainSettings s, back;
    train_settings_default(&s);
    snprintf(s.variant, sizeof s.variant, "jieqi");
    train_sha("rules", s.variant_sha);
    snprintf(s.tune, sizeof s.tune, "--l2 1e-4 --drop mobility");
    snprintf(s.gate_set, sizeof s.gate_set, "movetime=100,playouts=0");
    s.games = 123;
    s.seed = 18446744073709551615ull;
    s.generations = 7;
    char path[] = "/tmp/test_train_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_int_equal(train_settings_write(&s, f), 0);
    fclose(f);
    XqError err;
    assert_int_equal(train_settings_read(&back, path, &err), 0);
    assert_memory_equal(&back.games, &s.games, sizeof s.games);
    assert_string_equal(back.tune, s.tune);
    assert_string_equal(back.gate_set, s.gate_set);
    assert_true(back.seed == s.seed);
    assert_int_equal(back.generations, 7);

    /* Only the fields given are compared; generations never is. */
    bool given[64] = {false};
    TrainSettings want = back;
    want.games = 500;
    want.generations = 9;
    snprintf(want.tune, sizeof want.tune, "--l2 1e-3");
    char msg[2048];
    assert_int_equal(train_settings_diff(&back, &want, given, msg, sizeof msg), 0);
    given[train_settings_find("games")] = true;
    given[train_settings_find("generations")] = true;
    given[train_settings_find("tune")] = true;
    given[train_settings_find("variant_sha")] = true;
    train_sha("other rules", want.variant_sha);
    assert_int_equal(train_settings_diff(&back, &want, given, msg, sizeof msg), 3);
    assert_non_null(strstr(msg, "games: '123' in the run, '500' given"));
    assert_non_null(strstr(msg, "tune: '--l2 1e-4 --drop mobility' in the run, '--l2 1e-3' given"));
    assert_non_null(strstr(msg, "rule set's text differs"));
    assert_null(strstr(msg, "generations"));
    assert_false(train_settings_is_setting(train_settings_find("generations")));
    assert_true(train_settings_is_setting(train_settings_find("sprt")));

    /* A file with a key missing, an unknown key or a bad number is refused with its line. */
    f = fopen(path, "a");
    fprintf(f, "bogus = 1\n");
    fclose(f);
    assert_int_equal(train_settings_read(&back, path, &err), -1);
    assert_non_null(strstr(err.message, "unknown key 'bogus'"));
    f = fopen(path, "w");
    fprintf(f, "[run]\ngames = -3\n");
    fclose(f);
    assert_int_equal(train_settings_read(&back, path, &err), -1);
    assert_int_equal(err.line, 2);
    f = fopen(path, "w");
    fprintf(f, "[run]\ngames = 3\n");
    fclose(f);
    assert_int_equal(train_settings_read(&back, path, &err), -1);
    assert_non_null(strstr(err.message, "is missing"));
    unlink(path);
}

static void search_diff_names_keys(void **state)
{
    (void)state;
    char msg[1024];
    const char *run = "playouts = 64\nc_puct = 1.5\nold_key = 1\n";
    const char *now = "playouts = 200\nc_puct = 1.5\nnew_key = 2\n";
    assert_int_equal(train_search_diff(run, run, msg, sizeof msg), 0);
    assert_int_equal(train_search_diff(run, now, msg, sizeof msg), 3);
    assert_non_null(strstr(msg, "playouts: 64 in the run, 200 given"));
    assert_non_null(strstr(msg, "old_key: 1 in the run, not known to this build"));
    assert_non_null(strstr(msg, "new_key: not in the run's settings, 2 given"));
    assert_null(strstr(msg, "c_puct"));
}

static void record_round_trip(void **state)
{
    (void)state;
    TrainRecord r, back;
    train_record_init(&r, 3);
    r.selfplay_games = 2000;
    r.tune_positions = 312345;
    r.loss_validation = 0.6012345678;
    uint64_t p[5] = {1, 20, 300, 40, 5};
    memcpy(r.gate_pentanomial, p, sizeof p);
    r.gate_elo = 12.5;
    r.gate_elo_low = -INFINITY;
    r.gate_elo_high = 30.25;
    snprintf(r.gate_verdict, sizeof r.gate_verdict, "H1");
    r.promoted = true;
    r.strength = true;
    r.strength_elo = -INFINITY;
    char path[] = "/tmp/test_train_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    assert_int_equal(train_record_write(&r, f), 0);
    fclose(f);
    XqError err;
    assert_int_equal(train_record_read(&back, path, &err), 0);
    unlink(path);
    assert_int_equal(back.generation, 3);
    assert_true(back.selfplay_games == 2000 && back.tune_positions == 312345);
    assert_true(fabs(back.loss_validation - 0.6012345678) < 1e-12);
    assert_memory_equal(back.gate_pentanomial, p, sizeof p);
    assert_true(isinf(back.gate_elo_low) && back.gate_elo_low < 0);
    assert_true(back.gate_elo_high == 30.25);
    assert_true(isnan(back.strength_score));
    assert_string_equal(back.gate_verdict, "H1");
    assert_true(back.promoted && back.strength);

    /* The table shows the generation with its interval and verdict. */
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    TrainSettings s;
    train_settings_default(&s);
    train_report_print(mem, &s, &back, 1, TRAIN_REPORT_MARKDOWN);
    fclose(mem);
    assert_non_null(strstr(buf, "| 3 | 2000 |"));
    assert_non_null(strstr(buf, "+12.5 (-inf, +30.2)"));
    assert_non_null(strstr(buf, "H1, promoted"));
    free(buf);
    char e[32];
    train_report_elo(-0.0, e, sizeof e);
    assert_string_equal(e, "+0.0");
    train_report_elo(NAN, e, sizeof e);
    assert_string_equal(e, "n/a");
}

static void step_ends(void **state)
{
    (void)state;
    StepResult r;
    char *ok[] = {"sh", "-c", "echo out", NULL};
    char path[] = "/tmp/test_train_XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    assert_int_equal(train_step_run("/bin/sh", ok, path, NULL, &r), 0);
    assert_int_equal(r.end, STEP_OK);
    FILE *f = fopen(path, "r");
    char line[32] = "";
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "out\n");
    char *fails[] = {"sh", "-c", "exit 3", NULL};
    assert_int_equal(train_step_run("/bin/sh", fails, NULL, NULL, &r), 0);
    assert_int_equal(r.end, STEP_FAILED);
    assert_string_equal(r.how, "exit status 3");
    char *stopped[] = {"sh", "-c", "exit 130", NULL};
    assert_int_equal(train_step_run("/bin/sh", stopped, NULL, NULL, &r), 0);
    assert_int_equal(r.end, STEP_INTERRUPTED);
    char *crash[] = {"sh", "-c", "kill -SEGV $$", NULL};
    assert_int_equal(train_step_run("/bin/sh", crash, NULL, NULL, &r), 0);
    assert_int_equal(r.end, STEP_FAILED);
    assert_non_null(strstr(r.how, "signal 11"));
    /* A raised stop flag reaches the child as SIGTERM. */
    atomic_bool stop = true;
    char *sleeper[] = {"sh", "-c", "exec sleep 30", NULL};
    assert_int_equal(train_step_run("/bin/sh", sleeper, NULL, &stop, &r), 0);
    assert_int_equal(r.end, STEP_INTERRUPTED);
    assert_true(r.seconds < 25);
    char *missing[] = {"nope", NULL};
    assert_int_equal(train_step_run("/nonexistent/xqlab", missing, NULL, NULL, &r), 0);
    assert_int_equal(r.end, STEP_FAILED);
    assert_int_equal(train_step_run("/bin/sh", ok, "/nonexistent/dir/out", NULL, &r), -1);
    unlink(path);

    char buf[256];
    char *words[] = {"xqlab", "tune", "a b.h5", "it's", "--x=1,2", NULL};
    train_step_command_line(words, buf, sizeof buf);
    assert_string_equal(buf, "xqlab tune 'a b.h5' 'it'\\''s' --x=1,2");
    char tiny[8];
    train_step_command_line(words, tiny, sizeof tiny);
    assert_string_equal(tiny, "xqlab t");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_reads_documents),
        cmocka_unit_test(json_refuses_bad_text),
        cmocka_unit_test(split_words_like_a_shell),
        cmocka_unit_test(settings_round_trip_and_diff),
        cmocka_unit_test(search_diff_names_keys),
        cmocka_unit_test(record_round_trip),
        cmocka_unit_test(step_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
