#include "units.hpp"
#include "input_error.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

namespace haec::units {
namespace {

// Splits "12.5Gbps" into 12.5 and "Gbps"; the unit must be one of `table`.
double with_unit(const std::string& text, const std::string& what, const std::vector<std::pair<std::string, double>>& table,
                 const std::string& kind)
{
  if (text.empty())
    throw InputError(what, "empty " + kind, "give a number with a unit, e.g. " + table.front().first);
  const char* begin = text.c_str();
  char* end         = nullptr;
  errno             = 0;
  double value      = std::strtod(begin, &end);
  if (end == begin || errno == ERANGE || !std::isfinite(value))
    throw InputError(what, "'" + text + "' is not a " + kind, "write a number followed by a unit, e.g. 10" + table.front().first);
  // The unit runs to the end of the string, not to a '\0' inside it: "1\0junk" is not "1"
  // (found by tests/fuzz/fuzz_platform_spec).
  std::string unit = text.substr(static_cast<size_t>(end - begin));
  for (auto const& [name, scale] : table)
    if (unit == name) {
      // "1e308kbps" is finite text whose value is not (found by tests/fuzz/fuzz_units).
      if (!std::isfinite(value * scale))
        throw InputError(what, "'" + text + "' is out of range", "give a smaller value");
      return value * scale;
    }
  std::string valid;
  for (auto const& [name, scale] : table)
    valid += (valid.empty() ? "" : ", ") + (name.empty() ? std::string("(none)") : name);
  throw InputError(what, "unknown " + kind + " unit '" + unit + "' in '" + text + "'", "use one of " + valid);
}

} // namespace

double parse_number(const std::string& text, const std::string& what)
{
  return with_unit(text, what, {{"", 1.0}}, "number");
}

long long parse_integer(const std::string& text, const std::string& what)
{
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
    throw InputError(what, "'" + text + "' is not a non-negative integer", "write digits only, e.g. 4");
  errno        = 0;
  long long v = std::strtoll(text.c_str(), nullptr, 10);
  if (errno == ERANGE)
    throw InputError(what, "'" + text + "' is too large", "use a smaller integer");
  return v;
}

bool parse_bool(const std::string& text, const std::string& what)
{
  if (text == "1" || text == "yes" || text == "on" || text == "true")
    return true;
  if (text == "0" || text == "no" || text == "off" || text == "false")
    return false;
  throw InputError(what, "'" + text + "' is not a boolean", "give yes or no (on/off, true/false, 1/0)");
}

double parse_bandwidth(const std::string& text, const std::string& what)
{
  static const std::vector<std::pair<std::string, double>> table = {
      {"Bps", 1.0},         {"kBps", 1e3},       {"KBps", 1e3},        {"MBps", 1e6},        {"GBps", 1e9},
      {"TBps", 1e12},       {"KiBps", 1024.0},   {"MiBps", 1048576.0}, {"GiBps", 1073741824.0},
      {"bps", 1.0 / 8},     {"kbps", 1e3 / 8},   {"Kbps", 1e3 / 8},    {"Mbps", 1e6 / 8},    {"Gbps", 1e9 / 8},
      {"Tbps", 1e12 / 8},   {"", 1.0}};
  return with_unit(text, what, table, "bandwidth");
}

double parse_time(const std::string& text, const std::string& what)
{
  static const std::vector<std::pair<std::string, double>> table = {
      {"s", 1.0}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}, {"", 1.0}};
  return with_unit(text, what, table, "time");
}

double parse_speed(const std::string& text, const std::string& what)
{
  static const std::vector<std::pair<std::string, double>> table = {
      {"f", 1.0}, {"kf", 1e3}, {"Mf", 1e6}, {"Gf", 1e9}, {"Tf", 1e12}, {"", 1.0}};
  return with_unit(text, what, table, "speed");
}

std::string exact(double value)
{
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, r.ptr);
}

std::string exact_fixed(double value)
{
  char buf[400];
  auto r = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
  return std::string(buf, r.ptr);
}

} // namespace haec::units
