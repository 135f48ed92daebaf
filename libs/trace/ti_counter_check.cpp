// Counter annotations of a TI trace: see ti_counter_check.hpp.
#include "ti_counter_check.hpp"

#include "counter_annotation.hpp"
#include "input_error.hpp"

#include <algorithm>

namespace haec::trace {
namespace {
const char* kRecordAgain = "record the trace again with --counters, or remove every haec_counters line";

// As the core words it (core/computation_counters.cpp): events separated by spaces.
std::string joined(const std::vector<std::string>& names)
{
  std::string s;
  for (auto const& n : names)
    s += (s.empty() ? "" : " ") + n;
  return s;
}

// The same events in any order (counter_annotation.hpp: one set per trace).
bool same_set(std::vector<std::string> a, std::vector<std::string> b)
{
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b;
}
} // namespace

void CounterCheck::annotation(const std::vector<std::string>& fields, const std::string& at, int rank)
{
  auto sample = parse_counter_annotation(fields, at);
  if (!sample)
    return; // another comment
  const int named = counter_annotation_rank(fields);
  if (rank >= 0 && named != rank)
    throw InputError(at, "counter annotation of rank " + fields[1] + " in the trace of rank " + std::to_string(rank),
                     "an annotation names the rank of its file");
  if (events_.empty()) {
    events_    = sample->events;
    events_at_ = at;
  } else if (!same_set(sample->events, events_)) {
    throw InputError(at, "counts events " + joined(sample->events) + " where the run's first burst counted " +
                             joined(events_) + " (" + events_at_ + ")",
                     "record the same events on every rank and burst");
  }
  pending_at_   = at;
  pending_rank_ = named;
}

void CounterCheck::line(const std::vector<std::string>& fields, const std::string& at, int rank)
{
  const bool comment = fields[0][0] == '#';
  if (!pending_at_.empty()) {
    const bool its_compute = !comment && fields.size() > 1 && fields[1] == "compute" &&
                             fields[0] == std::to_string(pending_rank_);
    if (!its_compute)
      throw InputError(pending_at_, "counter annotation not followed by a compute line of rank " +
                                        std::to_string(pending_rank_) + " (" + at + " is not one)",
                       "write each annotation right before the compute it belongs to");
    pending_at_.clear();
    if (first_annotated_.empty())
      first_annotated_ = at;
    return;
  }
  if (comment)
    annotation(fields, at, rank);
  else if (fields.size() > 1 && fields[1] == "compute" && first_bare_.empty())
    first_bare_ = at, first_bare_rank_ = fields[0];
}

void CounterCheck::end_of_file()
{
  if (!pending_at_.empty())
    throw InputError(pending_at_, "counter annotation not followed by a compute line (end of file)",
                     "write each annotation right before the compute it belongs to");
}

void CounterCheck::finish() const
{
  if (!first_annotated_.empty() && !first_bare_.empty())
    throw InputError(first_bare_,
                     "counters missing from part of the run: rank " + first_bare_rank_ +
                         "'s computation has none, while " + first_annotated_ + " has counters",
                     kRecordAgain);
}

} // namespace haec::trace
