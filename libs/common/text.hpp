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

} // namespace haec::text
