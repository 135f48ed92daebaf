#include "input_error.hpp"
#include "mapping_detail.hpp"
#include "text.hpp"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>

namespace haec::mapping::detail {

// The text helpers are libs/common's (text.hpp); the mapping model names them here.
std::string trim(const std::string& s)
{
  return text::trim(s);
}

std::vector<std::string> split_ws(const std::string& s)
{
  return text::split_ws(s);
}

std::vector<std::string> split_lines(const std::string& t)
{
  return text::split_lines(t);
}

std::string read_text_file(const std::string& path, const std::string& what)
{
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path, "cannot open " + what, "check the path and the file's permissions");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool parse_u64(const std::string& s, uint64_t& out)
{
  if (s.empty() || s.size() > 20 || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  errno                  = 0;
  unsigned long long v   = std::strtoull(s.c_str(), nullptr, 10);
  if (errno == ERANGE)
    return false;
  out = v;
  return true;
}

bool parse_i64(const std::string& s, long long& out)
{
  std::string digits = (!s.empty() && s[0] == '-') ? s.substr(1) : s;
  uint64_t v         = 0;
  if (!parse_u64(digits, v) || v > static_cast<uint64_t>(std::numeric_limits<long long>::max()))
    return false;
  out = (s[0] == '-') ? -static_cast<long long>(v) : static_cast<long long>(v);
  return true;
}

std::string where(const std::string& path, size_t line)
{
  return path + ":" + std::to_string(line);
}

CommMatrix zero_matrix(int n, const std::string& input)
{
  if (n > kMaxMatrixRanks)
    throw InputError(input, "names rank " + std::to_string(n - 1) + "; dense matrices are limited to " +
                                std::to_string(kMaxMatrixRanks) + " ranks",
                     "check the rank fields of this file");
  CommMatrix m;
  m.ranks = n;
  m.messages.assign(static_cast<size_t>(n) * n, 0);
  m.bytes.assign(static_cast<size_t>(n) * n, 0);
  return m;
}

} // namespace haec::mapping::detail
