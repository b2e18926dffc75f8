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
