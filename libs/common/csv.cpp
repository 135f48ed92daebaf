#include "csv.hpp"
#include "input_error.hpp"

#include <sstream>

namespace haec::csv {

std::vector<std::string> cells(const std::string& line)
{
  std::vector<std::string> c;
  std::string cur;
  bool quoted = false;
  for (char ch : line) {
    if (ch == '"')
      quoted = !quoted;
    else if (ch == ',' && !quoted)
      c.push_back(cur), cur.clear();
    else if (ch != '\r')
      cur += ch;
  }
  c.push_back(cur);
  return c;
}

void for_each_row(const std::string& text, const std::string& file, const std::string& header, size_t min_cells,
                  const std::function<void(const std::vector<std::string>&, const std::string&)>& row)
{
  std::istringstream in(text);
  std::string line;
  size_t lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    const std::string at = file + ":" + std::to_string(lineno);
    if (in.eof() && !text.empty() && text.back() != '\n')
      throw InputError(at, "last line has no end of line", "the file is truncated");
    if (lineno == 1) {
      if (line.rfind(header, 0) != 0)
        throw InputError(at, "header is not '" + header + "...'", "give the file haec run wrote");
      continue;
    }
    if (line.empty())
      continue;
    auto c = cells(line);
    if (c.size() < min_cells)
      throw InputError(at, "expected " + std::to_string(min_cells) + " columns, got " + std::to_string(c.size()),
                       "the file is truncated or corrupt");
    row(c, at);
  }
  if (lineno == 0)
    throw InputError(file, "is empty", "give the file haec run wrote");
  if (text.back() != '\n') // haec run ends every row; a cut file does not
    throw InputError(file + ":" + std::to_string(lineno), "last line has no end of line", "the file is truncated");
}

} // namespace haec::csv
