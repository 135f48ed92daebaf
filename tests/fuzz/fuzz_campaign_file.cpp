// Fuzzes the campaign-file reader of `haec campaign` (tools/haec/campaign_file.hpp). The program a
// campaign names must exist, so the seeds name /bin/true. An accepted campaign must expand into at
// least one run, every run with one value per axis, a non-empty argument list and an id of its own;
// a refused one gives an error line of at most about 200 characters.
#include "campaign_file.hpp"
#include "fuzz_support.hpp"
#include "input_error.hpp"

#include <set>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  static haec::fuzz::MemFile file("campaign.json");
  const std::string& path = file.write(data, size);
  haec::cli::Campaign c;
  try {
    c = haec::cli::read_campaign(path);
  } catch (const haec::InputError& e) { // one bounded line, whatever the file holds (text::error_line)
    FUZZ_CHECK(haec::text::display_length(e.what()) <= haec::text::kMessageBudget + 3);
    return 0;
  }
  FUZZ_CHECK(!c.runs.empty());
  std::set<std::string> ids;
  for (const auto& run : c.runs) {
    FUZZ_CHECK(run.axes.size() == c.axis_names.size());
    FUZZ_CHECK(!run.args.empty());
    FUZZ_CHECK(!run.id.empty() && ids.insert(run.id).second);
  }
  return 0;
}
