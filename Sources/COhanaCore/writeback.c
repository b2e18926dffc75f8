// Starting the write-back of a file range: sync_file_range(2) is Linux's
// and needs _GNU_SOURCE, which the Swift Glibc module does not define.
#define _GNU_SOURCE
#include "COhanaCore.h"
#include <fcntl.h>

#if defined(__linux__) && defined(SYNC_FILE_RANGE_WRITE)
int ohana_start_writeback(int fd, long long offset, long long length) {
  return sync_file_range(fd, (off_t)offset, (off_t)length, SYNC_FILE_RANGE_WRITE) == 0 ? 1 : 0;
}
#else
int ohana_start_writeback(int fd, long long offset, long long length) {
  (void)fd; (void)offset; (void)length;
  return 0;
}
#endif

// Direct I/O (O_DIRECT, Linux, _GNU_SOURCE): writes that go from the
// caller's buffer to the device without a copy into the page cache.
#if defined(__linux__) && defined(O_DIRECT)
int ohana_set_direct(int fd, int on) {
  int flags = fcntl(fd, F_GETFL);
  if (flags < 0) return 0;
  int wanted = on ? (flags | O_DIRECT) : (flags & ~O_DIRECT);
  if (wanted == flags) return 1;
  return fcntl(fd, F_SETFL, wanted) == 0 ? 1 : 0;
}
int ohana_is_direct(int fd) {
  int flags = fcntl(fd, F_GETFL);
  return flags >= 0 && (flags & O_DIRECT) ? 1 : 0;
}
#else
int ohana_set_direct(int fd, int on) {
  (void)fd;
  return on ? 0 : 1;
}
int ohana_is_direct(int fd) {
  (void)fd;
  return 0;
}
#endif
