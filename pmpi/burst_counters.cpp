// Burst accounting: see burst_counters.hpp.
#include "burst_counters.hpp"

namespace haec::pmpi {

void BurstCounters::ensure_ranks(int n)
{
  if (n <= static_cast<int>(ranks_.size()))
    return;
  ranks_.resize(static_cast<size_t>(n));
  for (auto& r : ranks_)
    if (r.start.size() != events_)
      r.start.assign(events_, 0), r.counted.assign(events_, 0.0);
}

BurstCounters::Rank* BurstCounters::at(int rank)
{
  return rank >= 0 && rank < static_cast<int>(ranks_.size()) ? &ranks_[static_cast<size_t>(rank)] : nullptr;
}

void BurstCounters::resume(int rank, const long long* now, unsigned long long& thread_reads)
{
  ++thread_reads;
  if (Rank* r = at(rank)) {
    r->start.assign(now, now + events_);
    r->read_at = thread_reads;
    r->running = true;
  }
}

void BurstCounters::pause(int rank, const long long* now, unsigned long long& thread_reads)
{
  const unsigned long long before = thread_reads++;
  Rank* r = at(rank);
  if (r == nullptr || !r->running)
    return;
  r->interleaved |= before != r->read_at;
  for (size_t i = 0; i < events_; ++i) // counters only grow; a wrapped or reset one counts nothing
    if (now[i] > r->start[i])
      r->counted[i] += static_cast<double>(now[i] - r->start[i]);
  r->running = false;
}

bool BurstCounters::running(int rank) const
{
  return rank >= 0 && rank < static_cast<int>(ranks_.size()) && ranks_[static_cast<size_t>(rank)].running;
}

std::vector<double> BurstCounters::take(int rank, bool* interleaved)
{
  Rank* r = at(rank);
  if (r == nullptr)
    return {};
  std::vector<double> out(events_, 0.0);
  out.swap(r->counted);
  if (interleaved != nullptr)
    *interleaved = r->interleaved;
  r->interleaved = false;
  return out;
}

} // namespace haec::pmpi
