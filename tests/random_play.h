/* random_play.h - random legal play through a rule set with the core's invariants checked after
 * every move (shared by the rule-set test programs). */
#ifndef XQ_TEST_RANDOM_PLAY_H
#define XQ_TEST_RANDOM_PLAY_H

/* Plays `games` random games of the shipped rule set `variant` (seeded by `seed`, at most
 * `ply_cap` plies each). After every move: generate and count agree, the move's ICCS text parses
 * back, the incremental key equals the recomputed key, pos_validate passes, the mover's general is
 * not attacked, the check flag is right, and (every 16th game every ply, otherwise at the end) the
 * FEN round-trips with the same key. Each game is then undone move by move, every undo restoring
 * the position byte for byte. Fails the test unless every game ends by the rules (not the cap). */
void random_play_games(const char *variant, int games, int ply_cap, unsigned long long seed);

#endif
