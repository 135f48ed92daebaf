// Fuzzes the workload-phase file parser (plugins/power/model/workloads.hpp) and the host power
// properties it builds on. An accepted file must give every profile a slope per pstate that is
// finite and non-negative on a taurus-8 host (or a one-line InputError naming the file), and
// choose() must return a known profile or -1.
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "power_profile.hpp"
#include "workloads.hpp"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string text = haec::fuzz::as_text(data, size);
  static const haec::power::HostPowerProfile host = haec::power::parse_host_power(
      "node-0",
      [](const std::string& k) -> const char* {
        return k == "haec:wattage_calibration" ? "92.75:114.62:174.38,92.75:113.25:168.62" : nullptr;
      },
      2, 12);
  try {
    auto set = haec::power::WorkloadSet::parse(text, "fuzz.json");
    const int n = static_cast<int>(set.profiles().size());
    FUZZ_CHECK(n > 0);
    for (size_t p = 0; p < set.profiles().size(); ++p) {
      try {
        for (double s : set.slopes(p, host, "node-0"))
          FUZZ_CHECK(std::isfinite(s) && s >= 0);
      } catch (const haec::InputError&) {
      }
    }
    for (auto const& [region, profile] : set.regions())
      FUZZ_CHECK(set.choose(region, -1, "none") == profile);
    for (int rank : {0, 1, 7, set.max_rank()}) {
      const int c = set.choose("", rank, "node-0");
      FUZZ_CHECK(c >= -1 && c < n);
    }
  } catch (const haec::InputError&) {
  }
  return 0;
}
