// Fuzzes the region-record reader and the factor-file parser of `haec calibrate regions`
// (calibration/model/region_factors.hpp). The input is split at the first NUL byte into two rank
// files of one run. An accepted record must hold whole counts >= 1 and finite totals >= 0; fitting
// it against itself must give ratio 1 for every factor it writes, and the factor file it writes
// must parse back to the same regions and pass check_factor_file.
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "region_factors.hpp"

#include <cmath>

namespace {

using namespace haec::calibration;

void check_record(const RegionRecord& record)
{
  for (auto const& [region, totals] : record.regions)
    FUZZ_CHECK(totals.count >= 1 && std::isfinite(totals.total) && totals.total >= 0);
}

void check_self_fit(const RegionRecord& record)
{
  try {
    const auto factors = fit_region_factors(record, record, 1e-6);
    const std::string text = factor_file_text(factors);
    const auto parsed = parse_factor_file(text, "factors.csv");
    size_t written = 0;
    for (auto const& f : factors) {
      if (!f.written)
        continue;
      FUZZ_CHECK(f.ratio == 1);
      FUZZ_CHECK(written < parsed.size() && parsed[written].first == f.region && parsed[written].second == 1);
      ++written;
    }
    FUZZ_CHECK(written == parsed.size());
    check_factor_file(text, "factors.csv", record);
  } catch (const haec::InputError&) {
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  const std::string text = haec::fuzz::as_text(data, size);
  const size_t split = text.find('\0');
  RegionRecord record;
  record.name = "fuzz-run";
  try {
    add_rank_file(text.substr(0, split), "rank0.csv", record);
    if (split != std::string::npos)
      add_rank_file(text.substr(split + 1), "rank1.csv", record);
  } catch (const haec::InputError&) {
    return 0;
  }
  check_record(record);
  check_self_fit(record);
  try { // the same bytes as a factor file: parsed or refused in one line, never a crash
    for (auto const& [region, ratio] : parse_factor_file(text, "factors.csv"))
      FUZZ_CHECK(std::isfinite(ratio) && ratio > 0 && !region.empty());
  } catch (const haec::InputError&) {
  }
  return 0;
}
