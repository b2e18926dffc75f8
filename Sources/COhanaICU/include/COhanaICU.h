#ifndef COHANA_ICU_H
#define COHANA_ICU_H
// COhanaICU: stable wrapper names over the system ICU4C.
//
// ICU renames its C symbols per release (`ucol_open` is `ucol_open_72` in
// libicu 72), which Swift cannot follow. Every function here forwards to one
// ICU function, named in its comment, and only converts types. This header
// deliberately includes no ICU header: ICU objects are opaque structs, UChar
// is uint16_t, UErrorCode is int32_t (> 0 failure, < 0 warning, 0 success).
// shim.c checks with _Static_assert that the mirrored constants match ICU.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ohana_icu_collator ohana_icu_collator;         // UCollator
typedef struct ohana_icu_normalizer ohana_icu_normalizer;     // UNormalizer2 (const singleton)
typedef struct ohana_icu_casemap ohana_icu_casemap;           // UCaseMap
typedef struct ohana_icu_transliterator ohana_icu_transliterator; // UTransliterator
typedef struct ohana_icu_idna ohana_icu_idna;                 // UIDNA

// MARK: Status codes (UErrorCode values used by the Swift side)
#define OHANA_ICU_ZERO_ERROR 0                  // U_ZERO_ERROR
#define OHANA_ICU_USING_FALLBACK_WARNING (-128) // U_USING_FALLBACK_WARNING
#define OHANA_ICU_USING_DEFAULT_WARNING (-127)  // U_USING_DEFAULT_WARNING
#define OHANA_ICU_STRING_NOT_TERMINATED_WARNING (-124) // U_STRING_NOT_TERMINATED_WARNING
#define OHANA_ICU_ILLEGAL_ARGUMENT_ERROR 1      // U_ILLEGAL_ARGUMENT_ERROR
#define OHANA_ICU_MISSING_RESOURCE_ERROR 2      // U_MISSING_RESOURCE_ERROR
#define OHANA_ICU_INVALID_FORMAT_ERROR 3        // U_INVALID_FORMAT_ERROR
#define OHANA_ICU_FILE_ACCESS_ERROR 4           // U_FILE_ACCESS_ERROR
#define OHANA_ICU_INTERNAL_PROGRAM_ERROR 5      // U_INTERNAL_PROGRAM_ERROR
#define OHANA_ICU_MEMORY_ALLOCATION_ERROR 7     // U_MEMORY_ALLOCATION_ERROR
#define OHANA_ICU_INDEX_OUTOFBOUNDS_ERROR 8     // U_INDEX_OUTOFBOUNDS_ERROR
#define OHANA_ICU_INVALID_CHAR_FOUND 10         // U_INVALID_CHAR_FOUND
#define OHANA_ICU_ILLEGAL_CHAR_FOUND 12         // U_ILLEGAL_CHAR_FOUND
#define OHANA_ICU_BUFFER_OVERFLOW_ERROR 15      // U_BUFFER_OVERFLOW_ERROR
#define OHANA_ICU_UNSUPPORTED_ERROR 16          // U_UNSUPPORTED_ERROR

// MARK: Collation attributes (UColAttribute) and values (UColAttributeValue)
#define OHANA_ICU_COL_FRENCH_COLLATION 0        // UCOL_FRENCH_COLLATION
#define OHANA_ICU_COL_ALTERNATE_HANDLING 1      // UCOL_ALTERNATE_HANDLING
#define OHANA_ICU_COL_CASE_FIRST 2              // UCOL_CASE_FIRST
#define OHANA_ICU_COL_CASE_LEVEL 3              // UCOL_CASE_LEVEL
#define OHANA_ICU_COL_NORMALIZATION_MODE 4      // UCOL_NORMALIZATION_MODE
#define OHANA_ICU_COL_STRENGTH 5                // UCOL_STRENGTH
#define OHANA_ICU_COL_NUMERIC_COLLATION 7       // UCOL_NUMERIC_COLLATION

#define OHANA_ICU_COL_DEFAULT (-1)              // UCOL_DEFAULT
#define OHANA_ICU_COL_PRIMARY 0                 // UCOL_PRIMARY
#define OHANA_ICU_COL_SECONDARY 1               // UCOL_SECONDARY
#define OHANA_ICU_COL_TERTIARY 2                // UCOL_TERTIARY
#define OHANA_ICU_COL_QUATERNARY 3              // UCOL_QUATERNARY
#define OHANA_ICU_COL_IDENTICAL 15              // UCOL_IDENTICAL
#define OHANA_ICU_COL_OFF 16                    // UCOL_OFF
#define OHANA_ICU_COL_ON 17                     // UCOL_ON
#define OHANA_ICU_COL_SHIFTED 20                // UCOL_SHIFTED
#define OHANA_ICU_COL_NON_IGNORABLE 21          // UCOL_NON_IGNORABLE
#define OHANA_ICU_COL_LOWER_FIRST 24            // UCOL_LOWER_FIRST
#define OHANA_ICU_COL_UPPER_FIRST 25            // UCOL_UPPER_FIRST

// MARK: Locale types (ULocDataLocaleType)
#define OHANA_ICU_ACTUAL_LOCALE 0               // ULOC_ACTUAL_LOCALE
#define OHANA_ICU_VALID_LOCALE 1                // ULOC_VALID_LOCALE

// MARK: Transliteration direction (UTransDirection)
#define OHANA_ICU_TRANS_FORWARD 0               // UTRANS_FORWARD
#define OHANA_ICU_TRANS_REVERSE 1               // UTRANS_REVERSE

// MARK: Library

/// u_getVersion + u_versionToString: writes e.g. "72.1" (NUL-terminated).
void ohana_icu_version_string(char *out, int32_t capacity);
/// u_errorName.
const char *ohana_icu_error_name(int32_t status);
/// uloc_forLanguageTag: BCP 47 tag ("de-u-co-phonebk") to an ICU locale id.
int32_t ohana_icu_locale_for_language_tag(const char *tag, char *out, int32_t capacity,
                                          int32_t *parsed_length, int32_t *status);

// MARK: Strings (ustring.h)

/// u_strFromUTF8WithSub (ill-formed sequences become U+FFFD).
int32_t ohana_icu_utf16_from_utf8(uint16_t *dest, int32_t capacity, const uint8_t *src,
                                  int32_t length, int32_t *status);
/// u_strToUTF8WithSub (unpaired surrogates become U+FFFD).
int32_t ohana_icu_utf8_from_utf16(uint8_t *dest, int32_t capacity, const uint16_t *src,
                                  int32_t length, int32_t *status);

// MARK: Collation (ucol.h)

/// ucol_open.
ohana_icu_collator *ohana_icu_collator_open(const char *locale, int32_t *status);
/// ucol_clone (ucol_safeClone before ICU 71).
ohana_icu_collator *ohana_icu_collator_clone(const ohana_icu_collator *collator, int32_t *status);
/// ucol_close.
void ohana_icu_collator_close(ohana_icu_collator *collator);
/// ucol_setAttribute.
void ohana_icu_collator_set_attribute(ohana_icu_collator *collator, int32_t attribute,
                                      int32_t value, int32_t *status);
/// ucol_getAttribute.
int32_t ohana_icu_collator_get_attribute(const ohana_icu_collator *collator, int32_t attribute,
                                         int32_t *status);
/// ucol_getLocaleByType.
const char *ohana_icu_collator_locale(const ohana_icu_collator *collator, int32_t type,
                                      int32_t *status);
/// ucol_getSortKey over UTF-16. Returns the full key length including the
/// terminating zero byte; if larger than capacity the buffer content is undefined.
int32_t ohana_icu_collator_sort_key(const ohana_icu_collator *collator, const uint16_t *src,
                                    int32_t length, uint8_t *dest, int32_t capacity);
/// ucol_strcollUTF8: -1, 0 or 1.
int32_t ohana_icu_collator_compare_utf8(const ohana_icu_collator *collator,
                                        const uint8_t *a, int32_t a_length,
                                        const uint8_t *b, int32_t b_length, int32_t *status);

// MARK: Charset conversion (ucnv.h)

/// ucnv_convert: from one charset to another (e.g. "Shift_JIS" to "UTF-8").
/// Returns the length of the full output (preflight with capacity 0).
int32_t ohana_icu_convert(const char *to_charset, const char *from_charset,
                          uint8_t *dest, int32_t capacity,
                          const uint8_t *src, int32_t length, int32_t *status);
typedef struct ohana_icu_converter ohana_icu_converter; // UConverter
/// ucnv_open.
ohana_icu_converter *ohana_icu_converter_open(const char *charset, int32_t *status);
/// ucnv_getName: ICU's canonical name of the converter.
const char *ohana_icu_converter_name(const ohana_icu_converter *converter, int32_t *status);
/// ucnv_close.
void ohana_icu_converter_close(ohana_icu_converter *converter);
/// ucnv_toUnicode over one chunk: converts as much of src as fits into dest,
/// keeping partial characters in the converter for the next call (flush != 0
/// on the last chunk). Sets *consumed to the bytes read; returns units written.
int32_t ohana_icu_converter_to_utf16(ohana_icu_converter *converter, uint16_t *dest,
                                     int32_t capacity, const uint8_t *src, int32_t length,
                                     int8_t flush, int32_t *consumed, int32_t *status);
/// ucnv_reset.
void ohana_icu_converter_reset(ohana_icu_converter *converter);

// MARK: Charset detection (ucsdet.h)

typedef struct ohana_icu_charset_detector ohana_icu_charset_detector; // UCharsetDetector
typedef struct ohana_icu_charset_match ohana_icu_charset_match;       // UCharsetMatch
/// ucsdet_open.
ohana_icu_charset_detector *ohana_icu_charset_detector_open(int32_t *status);
/// ucsdet_close.
void ohana_icu_charset_detector_close(ohana_icu_charset_detector *detector);
/// ucsdet_setText: the detector keeps the pointer (not a copy) until the
/// next setText or close, so the bytes must outlive the detection.
void ohana_icu_charset_detector_set_text(ohana_icu_charset_detector *detector,
                                         const uint8_t *text, int32_t length, int32_t *status);
/// ucsdet_detectAll: the matches, best first; owned by the detector (valid
/// until the next setText or close). Sets *count.
const ohana_icu_charset_match *const *ohana_icu_charset_detector_detect_all(
    ohana_icu_charset_detector *detector, int32_t *count, int32_t *status);
/// ucsdet_getName: ICU's name of the matched charset (e.g. "windows-1251").
const char *ohana_icu_charset_match_name(const ohana_icu_charset_match *match, int32_t *status);
/// ucsdet_getConfidence: 0 to 100.
int32_t ohana_icu_charset_match_confidence(const ohana_icu_charset_match *match, int32_t *status);

// MARK: Normalization (unorm2.h)

/// unorm2_getNFCInstance.
const ohana_icu_normalizer *ohana_icu_normalizer_nfc(int32_t *status);
/// unorm2_getNFDInstance.
const ohana_icu_normalizer *ohana_icu_normalizer_nfd(int32_t *status);
/// unorm2_getNFKCInstance.
const ohana_icu_normalizer *ohana_icu_normalizer_nfkc(int32_t *status);
/// unorm2_getNFKCCasefoldInstance.
const ohana_icu_normalizer *ohana_icu_normalizer_nfkc_casefold(int32_t *status);
/// unorm2_normalize.
int32_t ohana_icu_normalizer_normalize(const ohana_icu_normalizer *normalizer,
                                       const uint16_t *src, int32_t length,
                                       uint16_t *dest, int32_t capacity, int32_t *status);
/// unorm2_isNormalized.
int8_t ohana_icu_normalizer_is_normalized(const ohana_icu_normalizer *normalizer,
                                          const uint16_t *src, int32_t length, int32_t *status);

// MARK: Case mapping (ucasemap.h)

/// ucasemap_open (options: 0 = U_FOLD_CASE_DEFAULT, 1 = U_FOLD_CASE_EXCLUDE_SPECIAL_I).
ohana_icu_casemap *ohana_icu_casemap_open(const char *locale, uint32_t options, int32_t *status);
/// ucasemap_close.
void ohana_icu_casemap_close(ohana_icu_casemap *casemap);
/// ucasemap_utf8FoldCase.
int32_t ohana_icu_casemap_utf8_fold(const ohana_icu_casemap *casemap, uint8_t *dest,
                                    int32_t capacity, const uint8_t *src, int32_t length,
                                    int32_t *status);
/// ucasemap_utf8ToLower.
int32_t ohana_icu_casemap_utf8_lower(const ohana_icu_casemap *casemap, uint8_t *dest,
                                     int32_t capacity, const uint8_t *src, int32_t length,
                                     int32_t *status);

// MARK: Transliteration (utrans.h)

/// utrans_openU (no custom rules).
ohana_icu_transliterator *ohana_icu_transliterator_open(const uint16_t *id, int32_t id_length,
                                                        int32_t direction, int32_t *status);
/// utrans_clone.
ohana_icu_transliterator *ohana_icu_transliterator_clone(const ohana_icu_transliterator *t,
                                                         int32_t *status);
/// utrans_close.
void ohana_icu_transliterator_close(ohana_icu_transliterator *t);
/// utrans_transUChars over the whole text: in place; returns the new length,
/// which may exceed capacity (then the text is truncated and must be redone).
int32_t ohana_icu_transliterator_transliterate(const ohana_icu_transliterator *t,
                                               uint16_t *text, int32_t length,
                                               int32_t capacity, int32_t *status);

// MARK: Countries (uloc.h, CLDR's names)

/// uloc_getISOCountries: the NULL-terminated list of ISO 3166-1 alpha-2 codes.
const char *const *ohana_icu_iso_countries(void);
/// uloc_getISO3Country: the alpha-3 code of a locale's country ("" when none).
const char *ohana_icu_iso3_country(const char *locale);
/// uloc_getDisplayCountry: the country of `locale` (e.g. "und_DE") named in
/// `display_locale`, in UTF-16; returns the full length.
int32_t ohana_icu_display_country(const char *locale, const char *display_locale, uint16_t *dest,
                                  int32_t capacity, int32_t *status);

// MARK: IDNA (uidna.h, UTS #46)

#define OHANA_ICU_IDNA_USE_STD3_RULES 2                // UIDNA_USE_STD3_RULES
#define OHANA_ICU_IDNA_CHECK_BIDI 4                    // UIDNA_CHECK_BIDI
#define OHANA_ICU_IDNA_CHECK_CONTEXTJ 8                // UIDNA_CHECK_CONTEXTJ
#define OHANA_ICU_IDNA_NONTRANSITIONAL_TO_ASCII 0x10   // UIDNA_NONTRANSITIONAL_TO_ASCII
#define OHANA_ICU_IDNA_NONTRANSITIONAL_TO_UNICODE 0x20 // UIDNA_NONTRANSITIONAL_TO_UNICODE

/// uidna_openUTS46. The object is immutable and may be used from any thread.
ohana_icu_idna *ohana_icu_idna_open_uts46(uint32_t options, int32_t *status);
/// uidna_close.
void ohana_icu_idna_close(ohana_icu_idna *idna);
/// uidna_nameToUnicodeUTF8 (to_ascii 0) or uidna_nameToASCII_UTF8 (to_ascii 1):
/// a domain name in UTF-8; `errors` gets UIDNAInfo.errors (0: none).
/// Returns the full output length (preflight with capacity 0).
int32_t ohana_icu_idna_name_utf8(const ohana_icu_idna *idna, int32_t to_ascii, const uint8_t *name,
                                 int32_t length, uint8_t *dest, int32_t capacity,
                                 uint32_t *errors, int32_t *status);

#ifdef __cplusplus
}
#endif

#endif
