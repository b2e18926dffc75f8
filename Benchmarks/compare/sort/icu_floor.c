// The "ICU floor" for sorting names: what a plain C program pays with
// the system ICU, one thread, no interning.
//
//   read N names (one per line, UTF-8)
//   ucol_getSortKey for every row (locale given, default "de")
//   qsort the rows by key (strcmp on the zero-terminated keys)
//
// Prints CPU and wall time of the keys + sort (reading the file excluded),
// and an FNV-1a checksum of the sorted names for cross-checking.
// Build: cc -O2 icu_floor.c $(pkg-config --cflags --libs icu-i18n icu-uc) -o icu_floor
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <unicode/ucol.h>
#include <unicode/ustring.h>

typedef struct {
  const uint8_t *key;
  uint32_t row;
} Entry;

static double cpu_seconds(void) {
  struct rusage u;
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + u.ru_stime.tv_sec + u.ru_stime.tv_usec / 1e6;
}

static double wall_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

static int by_key(const void *a, const void *b) {
  const Entry *x = a, *y = b;
  int c = strcmp((const char *)x->key, (const char *)y->key);
  if (c != 0) return c;
  return (x->row > y->row) - (x->row < y->row);  // stable, like ours
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s NAMES.txt [locale]\n", argv[0]);
    return 2;
  }
  const char *locale = argc > 2 ? argv[2] : "de";
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; }
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc(size + 1);
  if (fread(text, 1, size, f) != (size_t)size) { perror("read"); return 1; }
  fclose(f);
  text[size] = 0;
  size_t n = 0;
  for (long i = 0; i < size; i++) if (text[i] == '\n') n++;
  if (size > 0 && text[size - 1] != '\n') n++;
  char **lines = malloc(n * sizeof *lines);
  int32_t *lengths = malloc(n * sizeof *lengths);
  size_t k = 0;
  char *p = text;
  while (k < n) {
    char *e = strchr(p, '\n');
    if (!e) e = text + size;
    lines[k] = p;
    lengths[k] = (int32_t)(e - p);
    *e = 0;
    k++;
    p = e + 1;
  }

  UErrorCode status = U_ZERO_ERROR;
  UCollator *coll = ucol_open(locale, &status);
  if (U_FAILURE(status)) { fprintf(stderr, "ucol_open: %s\n", u_errorName(status)); return 1; }

  double c0 = cpu_seconds(), w0 = wall_seconds();
  size_t arena_cap = n * 64 + 1024, arena_len = 0;
  uint8_t *arena = malloc(arena_cap);
  size_t *offsets = malloc(n * sizeof *offsets);
  UChar u16[4096];
  for (size_t i = 0; i < n; i++) {
    int32_t u16len = 0;
    UErrorCode st = U_ZERO_ERROR;
    u_strFromUTF8WithSub(u16, 4096, &u16len, lines[i], lengths[i], 0xFFFD, NULL, &st);
    if (U_FAILURE(st)) u16len = 0;
    if (arena_cap - arena_len < 4096) {
      arena_cap *= 2;
      arena = realloc(arena, arena_cap);
    }
    int32_t len = ucol_getSortKey(coll, u16, u16len, arena + arena_len, (int32_t)(arena_cap - arena_len));
    offsets[i] = arena_len;
    arena_len += len;
  }
  Entry *entries = malloc(n * sizeof *entries);
  for (size_t i = 0; i < n; i++) { entries[i].key = arena + offsets[i]; entries[i].row = (uint32_t)i; }
  double c1 = cpu_seconds(), w1 = wall_seconds();
  qsort(entries, n, sizeof *entries, by_key);
  double c2 = cpu_seconds(), w2 = wall_seconds();

  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < n; i++) {
    const char *s = lines[entries[i].row];
    for (int32_t j = 0; j < lengths[entries[i].row]; j++) { h ^= (uint8_t)s[j]; h *= 1099511628211ULL; }
    h ^= '\n'; h *= 1099511628211ULL;
  }
  printf("icu-floor rows=%zu locale=%s keys: cpu=%.3fs wall=%.3fs | sort: cpu=%.3fs wall=%.3fs"
         " | total: cpu=%.3fs wall=%.3fs | first=%s | checksum=%016llx\n",
         n, locale, c1 - c0, w1 - w0, c2 - c1, w2 - w1, c2 - c0, w2 - w0,
         n ? lines[entries[0].row] : "", (unsigned long long)h);
  ucol_close(coll);
  return 0;
}
