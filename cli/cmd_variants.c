#include "commands.h"
int cmd_variants(int argc, char **argv) { (void)argc; (void)argv; return 1; }
