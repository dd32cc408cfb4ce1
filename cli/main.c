#include <stdio.h>
int cmd_perft(int argc, char **argv);
int main(int argc, char **argv) { return cmd_perft(argc - 1, argv + 1); }
