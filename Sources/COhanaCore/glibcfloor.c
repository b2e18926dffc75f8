// The glibc 2.28 floor (README "Where it runs"): the release archive's
// binary and the wheel's library are linked against glibc 2.28's symbol
// versions (Scripts/glibc-floor.sh), with libstdc++ linked in. GCC 12's
// static libstdc++ (Debian 12's, the one the Swift toolchain links) names
// two C library symbols that glibc 2.28 does not have, Foundation's
// static CoreFoundation a third, and ICU's archives read a variable in a
// way a shared library cannot (`__timezone`, below). The functions here
// stand in for them; the floor's link points each name at its stand-in
// with `--defsym`, so an ordinary build never sees them under the C
// library's names. In the floor's build every reference of its own binds
// to the stand-in; other objects in the process (Python's, Arrow's) keep
// the C library's definitions where it has them.
#define _GNU_SOURCE
#include "COhanaCore.h"

#include <dlfcn.h>
#include <errno.h>
#include <spawn.h>
#include <gnu/libc-version.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

// `__libc_single_threaded`: glibc 2.32. libstdc++ reads it to skip atomic
// operations while the process has one thread (shared_ptr's counts, static
// locals' guards). Zero means "may have several threads": the atomic path,
// always correct, which is what a libstdc++ built before 2.32 did.
char ohana_floor_single_threaded = 0;

// `arc4random`: glibc 2.36. libstdc++'s std::random_device uses it for its
// default token. The same contract: 32 random bits from the kernel's
// generator, never failing. getrandom(2) (glibc 2.25) blocks only until the
// kernel's pool is first seeded, and may return fewer bytes than asked
// when a signal arrives: both are retried.
uint32_t ohana_floor_arc4random(void) {
  uint32_t value = 0;
  size_t got = 0;
  while (got < sizeof value) {
    ssize_t n = getrandom((unsigned char *)&value + got, sizeof value - got, 0);
    if (n > 0) {
      got += (size_t)n;
    } else if (n < 0 && errno != EINTR && errno != EAGAIN) {
      // No getrandom(2) (a kernel before 3.17): nothing else is safe to
      // hand out as randomness, and arc4random may not fail.
      abort();
    }
  }
  return value;
}

// `posix_spawn_file_actions_addchdir_np`: glibc 2.29. CoreFoundation names
// it for Process's working directory (nothing in ohana starts a process).
// Where the C library has it, its own is called, looked up by its version
// (an unversioned stand-in never matches a versioned lookup, so this
// cannot find itself); where it has not, ENOSYS, which CoreFoundation
// reports as an error, as it does on any system without the function.
typedef int (*ohana_addchdir_fn)(posix_spawn_file_actions_t *, const char *);

int ohana_floor_posix_spawn_file_actions_addchdir_np(void *actions, const char *path) {
  void *found = dlvsym(RTLD_DEFAULT, "posix_spawn_file_actions_addchdir_np", "GLIBC_2.29");
  if (found == NULL) return ENOSYS;
  ohana_addchdir_fn addchdir;
  memcpy(&addchdir, &found, sizeof addchdir);
  return addchdir((posix_spawn_file_actions_t *)actions, path);
}

// `__timezone` and `tzname` (glibc's `timezone`, seconds west of UTC, and
// the zone's two abbreviations, both set by tzset). Not missing symbols
// but a missing kind of reference: Debian's static
// ICU is compiled as position-independent executable code, whose
// PC-relative reads of C library variables only an executable can
// satisfy (by copying the variable into itself). The wheel's shared
// library cannot, so the floor's copy of ICU reads these two instead
// (`objcopy --redefine-sym` in Scripts/glibc-floor.sh): hidden, so that
// the read stays inside the library, and filled from the C library's own
// when the library is loaded. ICU reads it only to guess the host's time
// zone, which no part of ohana asks for; a TZ changed later in the
// process is not seen.
__attribute__((visibility("hidden"))) long ohana_floor_timezone = 0;
__attribute__((visibility("hidden"))) char *ohana_floor_tzname[2] = {NULL, NULL};

__attribute__((constructor)) static void ohana_floor_fill_timezone(void) {
  tzset();
  ohana_floor_timezone = timezone;
  ohana_floor_tzname[0] = tzname[0];
  ohana_floor_tzname[1] = tzname[1];
}

long ohana_floor_timezone_value(void) { return ohana_floor_timezone; }

const char *ohana_floor_tzname_value(int dst) { return ohana_floor_tzname[dst ? 1 : 0]; }

// The oldest glibc this build runs on: the floor's link says so with
// -DOHANA_GLIBC_FLOOR_MINOR=28 (Scripts/glibc-floor.sh); any other build
// is linked against the glibc whose headers it was compiled with, and
// needs that one.
int ohana_glibc_floor_minor(void) {
#ifdef OHANA_GLIBC_FLOOR_MINOR
  return OHANA_GLIBC_FLOOR_MINOR;
#else
  return __GLIBC_MINOR__;
#endif
}

const char *ohana_glibc_running(void) { return gnu_get_libc_version(); }
