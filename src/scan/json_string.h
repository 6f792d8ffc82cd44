// Decoding JSON string text, for the places that compare or report what a string says rather than where it is:
// selector names (select/selector.cpp), the keys a selector compares, and the lazy index's member lookups. The
// scanners (full_scan.h) validate strings without decoding them; these functions assume validated input.
#ifndef SLUICE_SCAN_JSON_STRING_H
#define SLUICE_SCAN_JSON_STRING_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace sluice {
namespace internal {

// Decodes the contents of a JSON string (the bytes between its quotes, already validated) to UTF-8, appending to
// `out`. \u escapes of lone surrogates become WTF-8 (ED A0 80...), a surrogate pair one 4-byte sequence.
void unescape_json_string(const uint8_t* p, size_t n, std::string& out);

// Decodes the escape starting at the backslash text[i], appending what it stands for to `out`: returns the bytes it
// used (2; 6 for \uXXXX; 12 for a surrogate pair written as two escapes, a lone surrogate kept as WTF-8), or 0 when
// it is not an escape. `quote` may also be escaped (the selector's single-quoted names allow \').
size_t decode_escape(std::string_view text, size_t i, std::string& out, char quote = '"');

// The four hex digits at text[i..i+4) as a number; -1 if they are not there.
long read_hex4(std::string_view text, size_t i);

// Appends code point cp (at most 0x10FFFF; surrogates too, as WTF-8) to `out` in UTF-8.
void append_utf8(uint32_t cp, std::string& out);

}  // namespace internal
}  // namespace sluice

#endif  // SLUICE_SCAN_JSON_STRING_H
