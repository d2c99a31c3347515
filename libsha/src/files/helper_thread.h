/* A second thread that runs one job at a time for the thread that made it:
 * the owner posts the job, goes on with its own work, then waits for the job
 * to be done. files.c reads the next chunks of its files on one while the
 * owner hashes the chunks read before. pthreads, or Win32 threads. */
#ifndef LIBSHA_HELPER_THREAD_H
#define LIBSHA_HELPER_THREAD_H

struct libsha_helper;

/* A thread that will run job(arg) once per post; NULL if none could be made
 * (the owner then does the job itself). */
struct libsha_helper *libsha_helper_start(void (*job)(void *), void *arg);

/* Runs the job once on the helper; the owner must wait before posting again. */
void libsha_helper_post(struct libsha_helper *h);

/* Until the job posted last is done (at once when none was posted). */
void libsha_helper_wait(struct libsha_helper *h);

/* Ends the thread (after the job in hand, if any) and frees h; h may be NULL. */
void libsha_helper_stop(struct libsha_helper *h);

#endif
