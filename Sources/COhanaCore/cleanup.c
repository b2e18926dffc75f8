#define _GNU_SOURCE
#include "COhanaCore.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Paths to remove when SIGINT or SIGTERM stops the process: temporary
// outputs and partial stores. Slots hold strdup'ed paths; the handler only
// reads them and calls unlink(2), which is async-signal-safe.
#define OHANA_CLEANUP_SLOTS 256
static _Atomic(char *) slots[OHANA_CLEANUP_SLOTS];
static atomic_int progress_line = 0;

int ohana_cleanup_add(const char *path) {
  char *copy = strdup(path);
  if (copy == NULL) return -1;
  for (int i = 0; i < OHANA_CLEANUP_SLOTS; i++) {
    char *expected = NULL;
    if (atomic_compare_exchange_strong(&slots[i], &expected, copy)) return i;
  }
  free(copy);
  return -1;
}

void ohana_cleanup_remove(int slot) {
  if (slot < 0 || slot >= OHANA_CLEANUP_SLOTS) return;
  char *old = atomic_exchange(&slots[slot], NULL);
  free(old);
}

void ohana_cleanup_progress_line(int shown) { atomic_store(&progress_line, shown); }

static void on_signal(int sig) {
  for (int i = 0; i < OHANA_CLEANUP_SLOTS; i++) {
    char *p = atomic_load(&slots[i]);
    if (p != NULL) unlink(p);
  }
  if (atomic_load(&progress_line)) {
    static const char clear[] = "\r\033[K";
    ssize_t ignored = write(2, clear, sizeof clear - 1);
    (void)ignored;
  }
  _exit(128 + sig);
}

// A run that ends on an error exits through exit(3) while an output may
// still be held by a worker thread (whose release would have removed it):
// whatever is still registered then is a temporary file never committed.
static void on_exit_remove(void) {
  for (int i = 0; i < OHANA_CLEANUP_SLOTS; i++) {
    char *p = atomic_exchange(&slots[i], NULL);
    if (p != NULL) unlink(p);
  }
}

void ohana_cleanup_install(void) {
  atexit(on_exit_remove);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaddset(&sa.sa_mask, SIGINT);
  sigaddset(&sa.sa_mask, SIGTERM);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  // A parent may have started us with these blocked (the mask is
  // inherited): unblock them, so that they reach the handler.
  sigset_t both;
  sigemptyset(&both);
  sigaddset(&both, SIGINT);
  sigaddset(&both, SIGTERM);
  pthread_sigmask(SIG_UNBLOCK, &both, NULL);
}
