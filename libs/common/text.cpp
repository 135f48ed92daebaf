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

std::vector<std::string> split_ws(const std::string& s)
{
  std::vector<std::string> out;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
      ++i;
    size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
      ++i;
    if (i > b)
      out.push_back(s.substr(b, i - b));
  }
  return out;
}

std::vector<std::string> split_lines(const std::string& text)
{
  std::vector<std::string> lines;
  size_t b = 0;
  while (b < text.size()) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos)
      e = text.size();
    std::string line = text.substr(b, e - b);
    if (!line.empty() && line.back() == '\r') // files written on Windows
      line.pop_back();
    lines.push_back(line);
    b = e + 1;
  }
  return lines;
}

} // namespace haec::text
