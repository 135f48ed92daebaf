#include "text.hpp"

namespace haec::text {

std::vector<std::string> split(const std::string& text, char sep)
{
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t pos = text.find(sep, start);
    parts.push_back(text.substr(start, pos - start));
    if (pos == std::string::npos)
      return parts;
    start = pos + 1;
  }
}

std::string trim(const std::string& s)
{
  const char* ws = " \t\r\n";
  size_t b       = s.find_first_not_of(ws);
  if (b == std::string::npos)
    return "";
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

} // namespace haec::text
