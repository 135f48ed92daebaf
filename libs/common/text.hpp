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
// the line is at most about kMessageBudget characters: when it is longer, every quoted excerpt
// ('...') longer than kExcerpt characters is cut to its start followed by "...", and what is still
// too long loses its middle to "..." (a file name keeps its end, where the name and ":line" are).
constexpr size_t kMessageBudget = 200;
constexpr size_t kExcerpt       = 40;
std::string one_line(const std::string& message);
// Only the escaping of one_line (for text quoted inside a longer message).
std::string escaped(const std::string& text);
// "<input>: <problem>; <fix>" escaped and within kMessageBudget characters: the parts share the
// budget (quoted excerpts cut first, then the input's middle, then the problem's and the fix's
// ends), so that a 100,000-character spec or path still gives a short line that names it.
std::string error_line(const std::string& input, const std::string& problem, const std::string& fix);
// `text` (already escaped) cut to at most `max` characters by replacing its middle with "...";
// never inside a UTF-8 sequence or a \xNN escape.
std::string cut_middle(const std::string& text, size_t max);
// Characters (UTF-8 code points) of `text`.
size_t display_length(const std::string& text);

} // namespace haec::text
