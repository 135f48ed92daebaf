// Fuzzes the hardware-counter inputs: the first byte picks the parser, the rest is its
// text. 0: TI trace lines through the replay tokeniser and the counter annotation parser (an
// accepted annotation must be written back to the same events and counts, bit for bit); 1: a
// counter coefficients file (plugins/power/model/counter_model.hpp; an accepted file must survive
// to_json and parse unchanged); 2: counter samples of `haec calibrate power --counters`.
#include "counter_annotation.hpp"
#include "counter_fit.hpp"
#include "counter_model.hpp"
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "replay_reader.hpp"

namespace {

void annotations(const std::string& text)
{
  for (const auto& line : haec::fuzz::lines(text)) {
    const auto fields = haec::trace::replay_fields(line);
    auto sample       = haec::trace::parse_counter_annotation(fields, "trace.txt:1");
    if (!sample)
      continue;
    const int rank  = haec::trace::counter_annotation_rank(fields);
    const auto back = haec::trace::parse_counter_annotation(
        haec::trace::replay_fields(haec::trace::format_counter_annotation(rank, *sample)), "again");
    FUZZ_CHECK(back && back->events == sample->events && back->counts == sample->counts);
  }
}

void coefficients(const std::string& text)
{
  const auto c    = haec::power::CounterCoefficients::parse(text, "coefficients.json");
  const auto back = haec::power::CounterCoefficients::parse(c.to_json(), "again");
  FUZZ_CHECK(back.events() == c.events() && back.pstates().size() == c.pstates().size());
  for (size_t p = 0; p < c.pstates().size(); ++p)
    FUZZ_CHECK(back.pstates()[p].p_static == c.pstates()[p].p_static &&
               back.pstates()[p].coefficients == c.pstates()[p].coefficients);
}

void samples(const std::string& text)
{
  const auto s = haec::calibration::parse_counter_samples(text, "counters.csv");
  for (const auto& i : s.intervals)
    FUZZ_CHECK(i.end > i.start && i.counts.size() == s.events.size() && i.pstate >= 0);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  if (size == 0)
    return 0;
  const std::string text = haec::fuzz::as_text(data + 1, size - 1);
  try {
    switch (data[0] % 3) {
    case 0: annotations(text); break;
    case 1: coefficients(text); break;
    default: samples(text); break;
    }
  } catch (const haec::InputError&) {
  }
  return 0;
}
