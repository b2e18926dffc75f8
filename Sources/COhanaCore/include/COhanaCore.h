// Small CPU and system helpers that Swift has no spelling for.
#ifndef COHANA_CORE_H
#define COHANA_CORE_H

/// Asks the CPU to start loading the cache line at `p` for reading. A hint
/// only: it never faults, whatever `p` is, and has no visible effect.
static inline void ohana_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

/// Reads `*p` atomically (relaxed: no ordering beyond the value itself).
static inline unsigned int ohana_atomic_load_u32(const unsigned int *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }

/// Reads `*p` atomically (relaxed).
static inline unsigned long long ohana_atomic_load_u64(const unsigned long long *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }

/// Sets `*p` to `desired` if it still holds `expected`, atomically; returns
/// 1 when it did, 0 when `*p` held something else.
static inline int ohana_atomic_cas_u64(unsigned long long *p, unsigned long long expected, unsigned long long desired) {
  return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/// Adds `v` to `*p` atomically and returns the value before (relaxed).
static inline unsigned int ohana_atomic_add_u32(unsigned int *p, unsigned int v) {
  return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

/// Writes `v` to `*p` atomically (relaxed).
static inline void ohana_atomic_store_u32(unsigned int *p, unsigned int v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }

/// Sets `*p` to `desired` if it still holds `expected`, atomically;
/// returns 1 when it did, 0 when `*p` held something else.
static inline int ohana_atomic_cas_u32(unsigned int *p, unsigned int expected, unsigned int desired) {
  return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

/// Fixes glibc's mmap threshold at `bytes` (turning off its dynamic
/// raising): heap blocks of that size or more get their own mapping and go
/// back to the system when freed. Returns 1 when set, 0 where the C library
/// has no such setting.
int ohana_set_mmap_threshold(int bytes);

/// Starts writing bytes [offset, offset + length) of file `fd` to its
/// device without waiting for them (Linux `sync_file_range` with
/// `SYNC_FILE_RANGE_WRITE`), so that a later `fsync` has little left to
/// do. A hint: durability still needs the `fsync`. Returns 1 when the
/// write-back was started, 0 where the system has no such call or refused.
int ohana_start_writeback(int fd, long long offset, long long length);

/// Turns direct I/O (Linux `O_DIRECT`) on or off for descriptor `fd`.
/// Returns 1 when the descriptor is now as asked, 0 where the system or
/// the file system refuses (then nothing changed). With it on, a write
/// must start at an offset, from an address and for a length that are all
/// multiples of the device's block size.
int ohana_set_direct(int fd, int on);

/// 1 when descriptor `fd` has direct I/O on, else 0.
int ohana_is_direct(int fd);

/// The number of CPUs this process may run on (its affinity mask, as
/// `sched_getaffinity` gives it; `taskset` sets it), or 0 where the system
/// does not say.
int ohana_affinity_cpus(void);

/// Marks the calling thread as running a piece of the worker pool; returns
/// how many pieces it was already running (0: it just became busy).
int ohana_pool_enter(void);

/// Ends what ``ohana_pool_enter`` began.
void ohana_pool_leave(void);

/// Registers `path` to be removed if SIGINT or SIGTERM stops the process
/// (once ``ohana_cleanup_install`` ran). Returns a slot for
/// ``ohana_cleanup_remove``, or -1 when the registry is full.
int ohana_cleanup_add(const char *path);

/// Forgets a registered path (its file was renamed into place or removed).
void ohana_cleanup_remove(int slot);

/// Whether a progress line is on the terminal (cleared on a signal).
void ohana_cleanup_progress_line(int shown);

/// Installs the SIGINT and SIGTERM handlers: every registered path is
/// removed, a progress line cleared, and the process exits with 128 plus
/// the signal's number (130, 143). Also removes, at exit(3), every path
/// still registered (an output abandoned by a run that ends on an error
/// while a worker thread still holds it). For programs (the `ohana` tool),
/// not libraries.
void ohana_cleanup_install(void);

/// Stands in for glibc 2.32's `__libc_single_threaded` where the glibc 2.28
/// floor links libstdc++ in (Sources/COhanaCore/glibcfloor.c); always 0,
/// "the process may have several threads".
extern char ohana_floor_single_threaded;

/// The stand-in's value, read through a function (Swift 6 reads no C global
/// directly).
static inline int ohana_floor_single_threaded_get(void) { return ohana_floor_single_threaded; }

/// Stands in for glibc 2.36's `arc4random` in the glibc 2.28 floor's link:
/// 32 bits from the kernel's random generator (getrandom(2)).
unsigned int ohana_floor_arc4random(void);

/// Stands in for glibc 2.29's `posix_spawn_file_actions_addchdir_np` in the
/// glibc 2.28 floor's link: the C library's own where it has one, else
/// ENOSYS. `actions` is a `posix_spawn_file_actions_t *`.
int ohana_floor_posix_spawn_file_actions_addchdir_np(void *actions, const char *path);

/// The copy of glibc's `timezone` (seconds west of UTC) that the glibc 2.28
/// floor's ICU reads in place of `__timezone`, filled when the library or
/// program is loaded.
long ohana_floor_timezone_value(void);

/// The copy of glibc's `tzname[dst ? 1 : 0]` the floor's ICU reads in place
/// of `tzname`.
const char *ohana_floor_tzname_value(int dst);

/// The minor version of the oldest glibc 2 this build runs on: 28 for the
/// glibc 2.28 floor's build, else that of the glibc it was compiled and
/// linked against.
int ohana_glibc_floor_minor(void);

/// The version of the glibc the process runs on ("2.36"), as the C
/// library says (`gnu_get_libc_version`).
const char *ohana_glibc_running(void);

#endif
