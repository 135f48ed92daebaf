// Fuzzes the quantity parsers of libs/common/units.hpp (spec keys, --cfg values, power
// tables go through them). Every parser gets the same text. An accepted value must be finite
// (the numbers feed SimGrid and the models), integers non-negative, and exact() must print
// text that parses back to the very same double.
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "units.hpp"

#include <cfloat>
#include <cmath>

using namespace haec::units;

namespace {

void check_value(double v, const char* parser, const std::string& text)
{
  if (!std::isfinite(v)) {
    std::fprintf(stderr, "%s('%s') returned %g\n", parser, text.c_str(), v);
    std::abort();
  }
  // exact() is used for platform files and summaries: it must round-trip (normal numbers; the
  // parsers reject the subnormal range as out of range).
  if (v == 0 || std::fabs(v) >= DBL_MIN) {
    const std::string printed = exact(v);
    try {
      FUZZ_CHECK(parse_number(printed, "exact") == v);
    } catch (const haec::InputError& e) {
      std::fprintf(stderr, "exact(%s('%s')) = '%s' does not parse back: %s\n", parser, text.c_str(), printed.c_str(), e.what());
      std::abort();
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string text = haec::fuzz::as_text(data, size);
  using Parser = double (*)(const std::string&, const std::string&);
  static const std::pair<const char*, Parser> parsers[] = {
      {"parse_number", parse_number}, {"parse_bandwidth", parse_bandwidth}, {"parse_time", parse_time},
      {"parse_speed", parse_speed}};
  for (auto const& [name, parse] : parsers) {
    try {
      check_value(parse(text, "fuzz"), name, text);
    } catch (const haec::InputError&) {
    }
  }
  try {
    long long v = parse_integer(text, "fuzz");
    FUZZ_CHECK(v >= 0);
    FUZZ_CHECK(std::to_string(v).size() <= text.size());
  } catch (const haec::InputError&) {
  }
  return 0;
}
