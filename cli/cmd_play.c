/* cmd_play.c - (being written) */
#include "commands.h"
int cmd_play(int argc, char **argv) { (void)argc; (void)argv; return 1; }
