/* perft_table.h - golden perft counts of standard xiangqi, copied from shared/rules/perft.md
 * (chessprogramming "Chinese Chess Perft Results" plus two variant-engine CI positions). */
#ifndef XQ_TEST_PERFT_TABLE_H
#define XQ_TEST_PERFT_TABLE_H

#include <stdint.h>

typedef struct PerftCase {
    const char *fen;
    uint64_t nodes[6]; /* nodes[d] = leaves at depth d, d = 1..5 */
} PerftCase;

static const PerftCase PERFT_CASES[] = {
    {"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
     {1, 44, 1920, 79666, 3290240, 133312995}},
    {"r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
     {1, 38, 1128, 43929, 1339047, 53112976}},
    {"1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
     {1, 7, 281, 8620, 326201, 10369923}},
    {"5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
     {1, 25, 424, 9850, 202884, 4739553}},
    {"2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1",
     {1, 37, 842, 31825, 799537, 30104131}},
    {"1r1akabr1/1c7/2n1b1n2/p1p1p3p/6p2/PN3R3/1cP1P1P1P/2C1C1N2/1R7/2BAKAB2 b - - 0 1",
     {1, 43, 2095, 87934, 4127198, 175279148}},
    {"2b1ka2r/3na2c1/4b3n/8R/8C/4C1P2/P1P1P3P/4B1N2/1r2A4/2BAK4 w - - 0 1",
     {1, 42, 1578, 65739, 2399258, 100522442}},
    {"1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
     {1, 49, 2265, 100326, 4485547, 193684305}},
    {"4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
     {1, 13, 272, 3707, 92741, 1452406}},
};

enum { PERFT_NCASES = (int)(sizeof PERFT_CASES / sizeof PERFT_CASES[0]) };

#endif
