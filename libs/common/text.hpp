// Small text helpers shared by the parsers of the pure models.
#pragma once
#include <string>
#include <vector>

namespace haec::text {

// Every field between separators, empty ones included ("a,,b" -> {"a", "", "b"}).
std::vector<std::string> split(const std::string& text, char sep);
// Without leading and trailing blanks (space, tab, CR, LF).
std::string trim(const std::string& s);
// The fields between runs of spaces, tabs and CRs (none empty).
std::vector<std::string> split_ws(const std::string& s);
// The lines of `text`, without their '\n' (and a Windows '\r'); no last empty line.
std::vector<std::string> split_lines(const std::string& text);
// 64-bit FNV-1a of `text` as 16 hex digits: a stable short name for a longer key (run ids, cache
// entries), not a cryptographic hash.
std::string fnv1a_hex(const std::string& text);

} // namespace haec::text

namespace haec::text {

// An error message made fit for one terminal line (every error we print goes through it):
// control bytes, DEL and bytes that are not valid UTF-8 become escapes (\n, \t, \x1b, ...), and
// when the line is longer than kMessageBudget characters, every quoted excerpt ('...') longer
// than kExcerpt characters is cut to its start followed by "...".
constexpr size_t kMessageBudget = 200;
constexpr size_t kExcerpt       = 40;
std::string one_line(const std::string& message);
// Only the escaping of one_line (for text quoted inside a longer message).
std::string escaped(const std::string& text);

} // namespace haec::text
