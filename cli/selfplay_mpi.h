/* selfplay_mpi.h - the MPI launch mode of xqlab selfplay (built with -DXQLAB_WITH_MPI=ON): under
 * mpirun each rank plays one shard; rank 0 sums the ranks' running totals for the progress line
 * and the summary and writes the virtual-dataset index over the shards. Only the main thread of
 * a rank calls MPI (MPI_THREAD_FUNNELED); the games run on a second thread meanwhile. */
#ifndef XQ_SELFPLAY_MPI_H
#define XQ_SELFPLAY_MPI_H

#include "driver.h"

typedef struct SelfplayMpi {
    bool active;        /* started by mpirun: this process is rank `rank` of `size` */
    int rank, size;
    bool agreed;        /* the ranks have agreed on whether to run (selfplay_mpi_agree) */
    /* Set by selfplay_mpi_run, for the messages of an interrupted run: this rank's own shard
     * (games in its file, of its range; whether this rank itself was stopped before the end) and
     * the whole run (games in all shards, of -n; valid on rank 0). */
    bool shard_interrupted;
    uint64_t shard_done, shard_games;
    uint64_t run_done, run_games;
} SelfplayMpi;

/* Initialises MPI if the process was started by mpirun / srun with MPI (OMPI_COMM_WORLD_SIZE,
 * PMI_SIZE or PMIX_RANK in the environment); otherwise leaves m->active false and MPI untouched.
 * Returns 0 or -1. */
int selfplay_mpi_begin(SelfplayMpi *m);

/* Every rank calls this once before the run with its own status (0 = ready); returns the worst
 * status of all ranks, so all ranks run or none does. */
int selfplay_mpi_agree(SelfplayMpi *m, int status);

/* Runs this rank's shard (o->out_path) while the main thread exchanges running totals with the
 * other ranks; rank 0 prints the progress of the whole run (o->progress) for `total_games`.
 * already_complete: the shard was finished by an earlier run (only its totals are read).
 * reload(path) reads the totals of a whole shard after a resume. At the end *totals and *report
 * of rank 0 describe all ranks (report->interrupted: some rank was; m->shard_* this rank's own
 * shard, m->run_* the whole run); if every rank completed its shard, rank 0 writes the index
 * `index_out` (an existing one is checked instead). Returns 0 or -1 with *err. */
int selfplay_mpi_run(SelfplayMpi *m, SelfplayOptions *o, uint64_t total_games, bool already_complete,
                     const char *index_out, const char *command_line,
                     int (*reload)(const char *path, RunTotals *totals, XqError *err),
                     RunTotals *totals, SelfplayReport *report, XqError *err);

/* Agrees on the status if selfplay_mpi_agree was not reached, finalises MPI and returns the exit
 * status of this rank. Does nothing without MPI. */
int selfplay_mpi_end(SelfplayMpi *m, int status);

#endif
