/* text_diff.h - the lines two texts differ in (variant files, search settings, weights), aligned
 * by their longest common subsequence, for compare's "what differs" and its refusals. */
#ifndef XQ_CLI_TEXT_DIFF_H
#define XQ_CLI_TEXT_DIFF_H

#include <stdbool.h>
#include <stddef.h>

/* One differing line: in A only ('-') or in B only ('+'), its 1-based line number there and its
 * text (trimmed, not NUL-terminated: len bytes). */
typedef void (*TextDiffEmit)(void *ctx, char side, int line, const char *text, size_t len);

/* Calls emit for every line of a that is not in b's aligned lines and vice versa, in line
 * order (A's line before B's at the same place). Lines compare with surrounding blanks removed;
 * with skip_comments, blank lines and comments (';' or '#' first) are left out of both texts.
 * Returns the number of differing lines, or -1 on out of memory. */
int text_diff(const char *a, const char *b, bool skip_comments, TextDiffEmit emit, void *ctx);

#endif
