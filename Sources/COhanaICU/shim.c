// COhanaICU: each function forwards to the ICU function named in the header.
// No logic beyond converting types; see include/COhanaICU.h.
#include "COhanaICU.h"

#include <unicode/uversion.h>
#include <unicode/utypes.h>
#include <unicode/uloc.h>
#include <unicode/ustring.h>
#include <unicode/ucol.h>
#include <unicode/ucnv.h>
#include <unicode/ucsdet.h>
#include <unicode/unorm2.h>
#include <unicode/ucasemap.h>
#include <unicode/utrans.h>
#include <unicode/uidna.h>

// The header mirrors ICU constants so that it need not include ICU headers.
_Static_assert(OHANA_ICU_ZERO_ERROR == U_ZERO_ERROR, "UErrorCode");
_Static_assert(OHANA_ICU_USING_FALLBACK_WARNING == U_USING_FALLBACK_WARNING, "UErrorCode");
_Static_assert(OHANA_ICU_USING_DEFAULT_WARNING == U_USING_DEFAULT_WARNING, "UErrorCode");
_Static_assert(OHANA_ICU_STRING_NOT_TERMINATED_WARNING == U_STRING_NOT_TERMINATED_WARNING, "UErrorCode");
_Static_assert(OHANA_ICU_ILLEGAL_ARGUMENT_ERROR == U_ILLEGAL_ARGUMENT_ERROR, "UErrorCode");
_Static_assert(OHANA_ICU_MISSING_RESOURCE_ERROR == U_MISSING_RESOURCE_ERROR, "UErrorCode");
_Static_assert(OHANA_ICU_INVALID_FORMAT_ERROR == U_INVALID_FORMAT_ERROR, "UErrorCode");
_Static_assert(OHANA_ICU_FILE_ACCESS_ERROR == U_FILE_ACCESS_ERROR, "UErrorCode");
_Static_assert(OHANA_ICU_INTERNAL_PROGRAM_ERROR == U_INTERNAL_PROGRAM_ERROR, "UErrorCode");
_Static_assert(OHANA_ICU_MEMORY_ALLOCATION_ERROR == U_MEMORY_ALLOCATION_ERROR, "UErrorCode");
_Static_assert(OHANA_ICU_INDEX_OUTOFBOUNDS_ERROR == U_INDEX_OUTOFBOUNDS_ERROR, "UErrorCode");
_Static_assert(OHANA_ICU_INVALID_CHAR_FOUND == U_INVALID_CHAR_FOUND, "UErrorCode");
_Static_assert(OHANA_ICU_ILLEGAL_CHAR_FOUND == U_ILLEGAL_CHAR_FOUND, "UErrorCode");
_Static_assert(OHANA_ICU_BUFFER_OVERFLOW_ERROR == U_BUFFER_OVERFLOW_ERROR, "UErrorCode");
_Static_assert(OHANA_ICU_UNSUPPORTED_ERROR == U_UNSUPPORTED_ERROR, "UErrorCode");

_Static_assert(OHANA_ICU_COL_FRENCH_COLLATION == UCOL_FRENCH_COLLATION, "UColAttribute");
_Static_assert(OHANA_ICU_COL_ALTERNATE_HANDLING == UCOL_ALTERNATE_HANDLING, "UColAttribute");
_Static_assert(OHANA_ICU_COL_CASE_FIRST == UCOL_CASE_FIRST, "UColAttribute");
_Static_assert(OHANA_ICU_COL_CASE_LEVEL == UCOL_CASE_LEVEL, "UColAttribute");
_Static_assert(OHANA_ICU_COL_NORMALIZATION_MODE == UCOL_NORMALIZATION_MODE, "UColAttribute");
_Static_assert(OHANA_ICU_COL_STRENGTH == UCOL_STRENGTH, "UColAttribute");
_Static_assert(OHANA_ICU_COL_NUMERIC_COLLATION == UCOL_NUMERIC_COLLATION, "UColAttribute");
_Static_assert(OHANA_ICU_COL_DEFAULT == UCOL_DEFAULT, "UColAttributeValue");
_Static_assert(OHANA_ICU_COL_PRIMARY == UCOL_PRIMARY, "UColAttributeValue");
_Static_assert(OHANA_ICU_COL_SECONDARY == UCOL_SECONDARY, "UColAttributeValue");
_Static_assert(OHANA_ICU_COL_TERTIARY == UCOL_TERTIARY, "UColAttributeValue");
_Static_assert(OHANA_ICU_COL_QUATERNARY == UCOL_QUATERNARY, "UColAttributeValue");
_Static_assert(OHANA_ICU_COL_IDENTICAL == UCOL_IDENTICAL, "UColAttributeValue");
_Static_assert(OHANA_ICU_COL_OFF == UCOL_OFF, "UColAttributeValue");
_Static_assert(OHANA_ICU_COL_ON == UCOL_ON, "UColAttributeValue");
_Static_assert(OHANA_ICU_COL_SHIFTED == UCOL_SHIFTED, "UColAttributeValue");
_Static_assert(OHANA_ICU_COL_NON_IGNORABLE == UCOL_NON_IGNORABLE, "UColAttributeValue");
_Static_assert(OHANA_ICU_COL_LOWER_FIRST == UCOL_LOWER_FIRST, "UColAttributeValue");
_Static_assert(OHANA_ICU_COL_UPPER_FIRST == UCOL_UPPER_FIRST, "UColAttributeValue");
_Static_assert(OHANA_ICU_ACTUAL_LOCALE == ULOC_ACTUAL_LOCALE, "ULocDataLocaleType");
_Static_assert(OHANA_ICU_VALID_LOCALE == ULOC_VALID_LOCALE, "ULocDataLocaleType");
_Static_assert(OHANA_ICU_TRANS_FORWARD == UTRANS_FORWARD, "UTransDirection");
_Static_assert(OHANA_ICU_TRANS_REVERSE == UTRANS_REVERSE, "UTransDirection");
_Static_assert(OHANA_ICU_IDNA_USE_STD3_RULES == UIDNA_USE_STD3_RULES, "UIDNA options");
_Static_assert(OHANA_ICU_IDNA_CHECK_BIDI == UIDNA_CHECK_BIDI, "UIDNA options");
_Static_assert(OHANA_ICU_IDNA_CHECK_CONTEXTJ == UIDNA_CHECK_CONTEXTJ, "UIDNA options");
_Static_assert(OHANA_ICU_IDNA_NONTRANSITIONAL_TO_ASCII == UIDNA_NONTRANSITIONAL_TO_ASCII, "UIDNA options");
_Static_assert(OHANA_ICU_IDNA_NONTRANSITIONAL_TO_UNICODE == UIDNA_NONTRANSITIONAL_TO_UNICODE, "UIDNA options");
_Static_assert(sizeof(UChar) == sizeof(uint16_t), "UChar");
_Static_assert(sizeof(UErrorCode) == sizeof(int32_t), "UErrorCode");

#define STATUS(p) ((UErrorCode *)(p))

// MARK: Library

void ohana_icu_version_string(char *out, int32_t capacity) {
  UVersionInfo info;
  char buffer[U_MAX_VERSION_STRING_LENGTH];
  u_getVersion(info);
  u_versionToString(info, buffer);
  if (capacity <= 0) return;
  int32_t i = 0;
  for (; i < capacity - 1 && buffer[i] != 0; i++) out[i] = buffer[i];
  out[i] = 0;
}

const char *ohana_icu_error_name(int32_t status) { return u_errorName((UErrorCode)status); }

int32_t ohana_icu_locale_for_language_tag(const char *tag, char *out, int32_t capacity,
                                          int32_t *parsed_length, int32_t *status) {
  return uloc_forLanguageTag(tag, out, capacity, parsed_length, STATUS(status));
}

// MARK: Strings

int32_t ohana_icu_utf16_from_utf8(uint16_t *dest, int32_t capacity, const uint8_t *src,
                                  int32_t length, int32_t *status) {
  int32_t out = 0;
  u_strFromUTF8WithSub((UChar *)dest, capacity, &out, (const char *)src, length, 0xFFFD, NULL,
                       STATUS(status));
  return out;
}

int32_t ohana_icu_utf8_from_utf16(uint8_t *dest, int32_t capacity, const uint16_t *src,
                                  int32_t length, int32_t *status) {
  int32_t out = 0;
  u_strToUTF8WithSub((char *)dest, capacity, &out, (const UChar *)src, length, 0xFFFD, NULL,
                     STATUS(status));
  return out;
}

// MARK: Collation

ohana_icu_collator *ohana_icu_collator_open(const char *locale, int32_t *status) {
  return (ohana_icu_collator *)ucol_open(locale, STATUS(status));
}

ohana_icu_collator *ohana_icu_collator_clone(const ohana_icu_collator *collator, int32_t *status) {
#if U_ICU_VERSION_MAJOR_NUM >= 71
  return (ohana_icu_collator *)ucol_clone((const UCollator *)collator, STATUS(status));
#else
  return (ohana_icu_collator *)ucol_safeClone((const UCollator *)collator, NULL, NULL,
                                              STATUS(status));
#endif
}

void ohana_icu_collator_close(ohana_icu_collator *collator) { ucol_close((UCollator *)collator); }

void ohana_icu_collator_set_attribute(ohana_icu_collator *collator, int32_t attribute,
                                      int32_t value, int32_t *status) {
  ucol_setAttribute((UCollator *)collator, (UColAttribute)attribute, (UColAttributeValue)value,
                    STATUS(status));
}

int32_t ohana_icu_collator_get_attribute(const ohana_icu_collator *collator, int32_t attribute,
                                         int32_t *status) {
  return (int32_t)ucol_getAttribute((const UCollator *)collator, (UColAttribute)attribute,
                                    STATUS(status));
}

const char *ohana_icu_collator_locale(const ohana_icu_collator *collator, int32_t type,
                                      int32_t *status) {
  return ucol_getLocaleByType((const UCollator *)collator, (ULocDataLocaleType)type,
                              STATUS(status));
}

int32_t ohana_icu_collator_sort_key(const ohana_icu_collator *collator, const uint16_t *src,
                                    int32_t length, uint8_t *dest, int32_t capacity) {
  return ucol_getSortKey((const UCollator *)collator, (const UChar *)src, length, dest, capacity);
}

int32_t ohana_icu_collator_compare_utf8(const ohana_icu_collator *collator,
                                        const uint8_t *a, int32_t a_length,
                                        const uint8_t *b, int32_t b_length, int32_t *status) {
  return (int32_t)ucol_strcollUTF8((const UCollator *)collator, (const char *)a, a_length,
                                   (const char *)b, b_length, STATUS(status));
}

// MARK: Charset conversion

int32_t ohana_icu_convert(const char *to_charset, const char *from_charset,
                          uint8_t *dest, int32_t capacity,
                          const uint8_t *src, int32_t length, int32_t *status) {
  return ucnv_convert(to_charset, from_charset, (char *)dest, capacity, (const char *)src, length,
                      STATUS(status));
}

ohana_icu_converter *ohana_icu_converter_open(const char *charset, int32_t *status) {
  return (ohana_icu_converter *)ucnv_open(charset, STATUS(status));
}

const char *ohana_icu_converter_name(const ohana_icu_converter *converter, int32_t *status) {
  return ucnv_getName((const UConverter *)converter, STATUS(status));
}

void ohana_icu_converter_close(ohana_icu_converter *converter) {
  ucnv_close((UConverter *)converter);
}

int32_t ohana_icu_converter_to_utf16(ohana_icu_converter *converter, uint16_t *dest,
                                     int32_t capacity, const uint8_t *src, int32_t length,
                                     int8_t flush, int32_t *consumed, int32_t *status) {
  UChar *target = (UChar *)dest;
  const char *source = (const char *)src;
  ucnv_toUnicode((UConverter *)converter, &target, (const UChar *)dest + capacity, &source,
                 (const char *)src + length, NULL, (UBool)(flush != 0), STATUS(status));
  *consumed = (int32_t)(source - (const char *)src);
  return (int32_t)(target - (UChar *)dest);
}

void ohana_icu_converter_reset(ohana_icu_converter *converter) {
  ucnv_reset((UConverter *)converter);
}

// MARK: Charset detection

ohana_icu_charset_detector *ohana_icu_charset_detector_open(int32_t *status) {
  return (ohana_icu_charset_detector *)ucsdet_open(STATUS(status));
}

void ohana_icu_charset_detector_close(ohana_icu_charset_detector *detector) {
  ucsdet_close((UCharsetDetector *)detector);
}

void ohana_icu_charset_detector_set_text(ohana_icu_charset_detector *detector,
                                         const uint8_t *text, int32_t length, int32_t *status) {
  ucsdet_setText((UCharsetDetector *)detector, (const char *)text, length, STATUS(status));
}

const ohana_icu_charset_match *const *ohana_icu_charset_detector_detect_all(
    ohana_icu_charset_detector *detector, int32_t *count, int32_t *status) {
  return (const ohana_icu_charset_match *const *)ucsdet_detectAll((UCharsetDetector *)detector,
                                                                  count, STATUS(status));
}

const char *ohana_icu_charset_match_name(const ohana_icu_charset_match *match, int32_t *status) {
  return ucsdet_getName((const UCharsetMatch *)match, STATUS(status));
}

int32_t ohana_icu_charset_match_confidence(const ohana_icu_charset_match *match, int32_t *status) {
  return ucsdet_getConfidence((const UCharsetMatch *)match, STATUS(status));
}

// MARK: Normalization

const ohana_icu_normalizer *ohana_icu_normalizer_nfc(int32_t *status) {
  return (const ohana_icu_normalizer *)unorm2_getNFCInstance(STATUS(status));
}

const ohana_icu_normalizer *ohana_icu_normalizer_nfd(int32_t *status) {
  return (const ohana_icu_normalizer *)unorm2_getNFDInstance(STATUS(status));
}

const ohana_icu_normalizer *ohana_icu_normalizer_nfkc(int32_t *status) {
  return (const ohana_icu_normalizer *)unorm2_getNFKCInstance(STATUS(status));
}

const ohana_icu_normalizer *ohana_icu_normalizer_nfkc_casefold(int32_t *status) {
  return (const ohana_icu_normalizer *)unorm2_getNFKCCasefoldInstance(STATUS(status));
}

int32_t ohana_icu_normalizer_normalize(const ohana_icu_normalizer *normalizer,
                                       const uint16_t *src, int32_t length,
                                       uint16_t *dest, int32_t capacity, int32_t *status) {
  return unorm2_normalize((const UNormalizer2 *)normalizer, (const UChar *)src, length,
                          (UChar *)dest, capacity, STATUS(status));
}

int8_t ohana_icu_normalizer_is_normalized(const ohana_icu_normalizer *normalizer,
                                          const uint16_t *src, int32_t length, int32_t *status) {
  return (int8_t)unorm2_isNormalized((const UNormalizer2 *)normalizer, (const UChar *)src, length,
                                     STATUS(status));
}

// MARK: Case mapping

ohana_icu_casemap *ohana_icu_casemap_open(const char *locale, uint32_t options, int32_t *status) {
  return (ohana_icu_casemap *)ucasemap_open(locale, options, STATUS(status));
}

void ohana_icu_casemap_close(ohana_icu_casemap *casemap) { ucasemap_close((UCaseMap *)casemap); }

int32_t ohana_icu_casemap_utf8_fold(const ohana_icu_casemap *casemap, uint8_t *dest,
                                    int32_t capacity, const uint8_t *src, int32_t length,
                                    int32_t *status) {
  return ucasemap_utf8FoldCase((const UCaseMap *)casemap, (char *)dest, capacity,
                               (const char *)src, length, STATUS(status));
}

int32_t ohana_icu_casemap_utf8_lower(const ohana_icu_casemap *casemap, uint8_t *dest,
                                     int32_t capacity, const uint8_t *src, int32_t length,
                                     int32_t *status) {
  return ucasemap_utf8ToLower((const UCaseMap *)casemap, (char *)dest, capacity,
                              (const char *)src, length, STATUS(status));
}

// MARK: Transliteration

ohana_icu_transliterator *ohana_icu_transliterator_open(const uint16_t *id, int32_t id_length,
                                                        int32_t direction, int32_t *status) {
  return (ohana_icu_transliterator *)utrans_openU((const UChar *)id, id_length,
                                                  (UTransDirection)direction, NULL, 0, NULL,
                                                  STATUS(status));
}

ohana_icu_transliterator *ohana_icu_transliterator_clone(const ohana_icu_transliterator *t,
                                                         int32_t *status) {
  return (ohana_icu_transliterator *)utrans_clone((const UTransliterator *)t, STATUS(status));
}

void ohana_icu_transliterator_close(ohana_icu_transliterator *t) {
  utrans_close((UTransliterator *)t);
}

int32_t ohana_icu_transliterator_transliterate(const ohana_icu_transliterator *t,
                                               uint16_t *text, int32_t length,
                                               int32_t capacity, int32_t *status) {
  int32_t text_length = length;
  int32_t limit = length;
  utrans_transUChars((const UTransliterator *)t, (UChar *)text, &text_length, capacity, 0, &limit,
                     STATUS(status));
  return text_length;
}

ohana_icu_idna *ohana_icu_idna_open_uts46(uint32_t options, int32_t *status) {
  return (ohana_icu_idna *)uidna_openUTS46(options, STATUS(status));
}

void ohana_icu_idna_close(ohana_icu_idna *idna) { uidna_close((UIDNA *)idna); }

int32_t ohana_icu_idna_name_utf8(const ohana_icu_idna *idna, int32_t to_ascii, const uint8_t *name,
                                 int32_t length, uint8_t *dest, int32_t capacity,
                                 uint32_t *errors, int32_t *status) {
  UIDNAInfo info = UIDNA_INFO_INITIALIZER;
  int32_t n = to_ascii
      ? uidna_nameToASCII_UTF8((const UIDNA *)idna, (const char *)name, length, (char *)dest,
                               capacity, &info, STATUS(status))
      : uidna_nameToUnicodeUTF8((const UIDNA *)idna, (const char *)name, length, (char *)dest,
                                capacity, &info, STATUS(status));
  *errors = info.errors;
  return n;
}

const char *const *ohana_icu_iso_countries(void) { return uloc_getISOCountries(); }

const char *ohana_icu_iso3_country(const char *locale) { return uloc_getISO3Country(locale); }

int32_t ohana_icu_display_country(const char *locale, const char *display_locale, uint16_t *dest,
                                  int32_t capacity, int32_t *status) {
  return uloc_getDisplayCountry(locale, display_locale, (UChar *)dest, capacity, STATUS(status));
}
