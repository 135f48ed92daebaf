#include "iteration_detector.hpp"

#include <algorithm>
#include <unordered_map>

namespace haec::iterations {

IterationDetector::IterationDetector(DetectorOptions options) : opt_(options)
{
  opt_.max_period = std::max(1, opt_.max_period);
  opt_.repeats    = std::max(2, opt_.repeats);
  opt_.min_span   = std::max(0, opt_.min_span);
  opt_.lost_after = std::max(2, opt_.lost_after);
  window_ = static_cast<size_t>(opt_.max_period) + 2;
  history_.assign(2 * window_, 0);
  run_.assign(static_cast<size_t>(opt_.max_period) + 1, 0);
}

IterationDetector IterationDetector::every(uint64_t key, long k)
{
  IterationDetector d(DetectorOptions{1, 2, 0, 2});
  d.mode_     = Mode::Every;
  d.user_key_ = key;
  d.every_    = std::max(1L, k);
  return d;
}

IterationDetector IterationDetector::marker(uint64_t key)
{
  IterationDetector d(DetectorOptions{1, 2, 0, 2});
  d.mode_     = Mode::Marker;
  d.user_key_ = key;
  return d;
}

bool IterationDetector::matches(uint64_t key) const
{
  switch (anchor_) {
    case Anchor::Key:
      return key == anchor_key_;
    case Anchor::Pair:
      return key == anchor_key_ && n_ >= 2 && at(n_ - 2) == anchor_prev_;
    case Anchor::Count:
      return (n_ - 1 - phase_) % period_ == 0;
    case Anchor::None:
      break;
  }
  return false;
}

bool IterationDetector::try_lock(int first_ready)
{
  const long i = n_ - 1; // index of the call just fed
  for (int p = first_ready; p <= opt_.max_period && p <= i; ++p) {
    if (run_[static_cast<size_t>(p)] < need(p))
      continue;
    // Periodic from index `start` on (the loop's first call, if the prologue differs from the
    // loop's end); the last period is i-p+1 .. i.
    const long start = i - p - run_[static_cast<size_t>(p)] + 1;
    const long first = i - p + 1;
    std::unordered_map<uint64_t, int> count;
    std::unordered_map<uint64_t, int> pair_count; // hashed (prev, key)
    auto pair_of = [&](long j) { return at(j) * 0x9E3779B97F4A7C15ull ^ at(j - 1 >= 0 ? j - 1 : j); };
    for (long j = first; j <= i; ++j) {
      ++count[at(j)];
      if (j >= 1)
        ++pair_count[pair_of(j)];
    }
    // Scan the period from the loop's start phase on, cyclically.
    const long offset = ((start - first) % p + p) % p;
    for (int pass = 0; pass < 2 && anchor_ == Anchor::None; ++pass)
      for (long k = 0; k < p; ++k) {
        const long j = first + (offset + k) % p;
        if (pass == 0 && count[at(j)] == 1) {
          anchor_     = Anchor::Key;
          anchor_key_ = at(j);
          break;
        }
        if (pass == 1 && j >= 1 && pair_count[pair_of(j)] == 1) {
          anchor_      = Anchor::Pair;
          anchor_key_  = at(j);
          anchor_prev_ = at(j - 1);
          break;
        }
      }
    if (anchor_ == Anchor::None)
      anchor_ = Anchor::Count;
    period_        = p;
    phase_         = ((start % p) + p) % p;
    last_boundary_ = i;
    return true;
  }
  return false;
}

bool IterationDetector::feed(uint64_t key)
{
  if (mode_ == Mode::Marker)
    return key == user_key_;
  if (mode_ == Mode::Every)
    return key == user_key_ && ++count_ % every_ == 0;

  const long i     = n_;
  const size_t now = slot(i);
  history_[now] = history_[now + window_] = key;
  int first_ready = 0; // the smallest period whose run is long enough to lock on (0: none)
  if (anchor_ == Anchor::None) { // while locked, the runs are not needed: O(1) per call
    const uint64_t* earlier = &history_[now]; // earlier[p]: the key of call i - p
    const int periods       = static_cast<int>(std::min<long>(opt_.max_period, i)); // calls before i
    int* runs               = run_.data();
    for (int p = periods; p >= 1; --p) { // downwards, so the last one ready is the smallest
      runs[p] = earlier[p] == key ? runs[p] + 1 : 0;
      if (runs[p] >= need(p))
        first_ready = p;
    }
  }
  ++n_;
  if (anchor_ == Anchor::None && (first_ready == 0 || !try_lock(first_ready)))
    return false;
  if (matches(key)) {
    last_boundary_ = i;
    return true;
  }
  if (i - last_boundary_ > static_cast<long>(opt_.lost_after) * period_) { // the loop is over
    anchor_ = Anchor::None;
    period_ = 0;
    std::fill(run_.begin(), run_.end(), 0); // look for the next loop in calls from now on
  }
  return false;
}

} // namespace haec::iterations
