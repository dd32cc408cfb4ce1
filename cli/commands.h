/* commands.h - the subcommands of xqlab, one file each (cmd_NAME.c). */
#ifndef XQ_CLI_COMMANDS_H
#define XQ_CLI_COMMANDS_H

int cmd_variants(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_selfplay(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_tune(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_openings(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_ladder(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_train(int argc, char **argv);
int cmd_analyse(int argc, char **argv);
int cmd_label(int argc, char **argv);

#endif
