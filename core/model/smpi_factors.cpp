#include "smpi_factors.hpp"
#include "input_error.hpp"
#include "units.hpp"

#include <algorithm>
#include <sstream>

namespace haec::core {

SmpiFactorTable::SmpiFactorTable(const std::string& text, const std::string& what, bool single_value)
{
  if (single_value && text.find_first_of(":;") == std::string::npos) {
    below_first_ = units::parse_number(text, what + " factor");
    return;
  }
  std::stringstream chunks(text);
  std::string chunk;
  while (std::getline(chunks, chunk, ';')) {
    if (chunk.empty())
      continue;
    auto colon = chunk.find(':');
    if (colon == std::string::npos)
      throw InputError(what, "chunk '" + chunk + "' has no ':'", "write threshold:factor;threshold:factor");
    // SimGrid reads the threshold with stoi: keep its integer semantics.
    long long threshold = units::parse_integer(chunk.substr(0, colon), what + " threshold");
    std::string rest    = chunk.substr(colon + 1);
    auto next           = rest.find(':'); // extra values (os/or style) are ignored like SMPI does here
    double value        = units::parse_number(rest.substr(0, next), what + " factor");
    steps_.push_back({threshold, value});
  }
  std::stable_sort(steps_.begin(), steps_.end(), [](const Step& a, const Step& b) { return a.threshold < b.threshold; });
}

double SmpiFactorTable::lookup(double size) const
{
  double current = below_first_;
  for (auto const& step : steps_) {
    if (size <= static_cast<double>(step.threshold))
      return current;
    current = step.value;
  }
  return current;
}

} // namespace haec::core
