// Where a rank's iterations begin, from the stream of keys (call sites or replay actions) of its
// MPI calls. Pure and deterministic.
//
// Automatic mode: finds the smallest period p (<= max_period) such that the last
// max(repeats * p, min_span + p) keys repeat with period p (a prologue before the loop never
// matches, so it is skipped), then picks an anchor inside the period and reports a boundary at
// each later call matching it:
//   - a key seen exactly once per period (robust to an extra call every k-th iteration, as long
//     as the anchor itself is not the extra one), preferring the one at the loop's start: the
//     first key of the periodic part;
//   - else a pair (previous key, key) seen once per period;
//   - else every p-th call from the loop's start.
// Without a boundary for lost_after * p calls it forgets the period and looks again (in the
// calls from then on). Cost: O(max_period) per call while searching, O(1) once locked.
// User-given modes: every k-th call of a key; each call of a marker key (MPI_Iteration_in).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace haec::iterations {

struct DetectorOptions {
  int max_period = 512; // longest loop body, in calls
  int repeats    = 3;   // whole periods that must repeat before locking
  int min_span   = 32;  // calls that must repeat at least (else "A A A A" locks on p = 1)
  int lost_after = 8;   // periods without a boundary before looking again
};

class IterationDetector {
public:
  IterationDetector() : IterationDetector(DetectorOptions{}) {}
  explicit IterationDetector(DetectorOptions options);
  static IterationDetector every(uint64_t key, long k); // boundary at the k-th, 2k-th, ... call of key
  static IterationDetector marker(uint64_t key);        // boundary at each call of key

  // One MPI call entering; true when it starts a new iteration.
  bool feed(uint64_t key);

  enum class Anchor { None, Key, Pair, Count };
  bool locked() const { return anchor_ != Anchor::None; }
  Anchor anchor() const { return anchor_; }
  int period() const { return period_; }
  uint64_t anchor_key() const { return anchor_key_; }
  long calls() const { return n_; }

private:
  enum class Mode { Auto, Every, Marker } mode_ = Mode::Auto;
  // The key of call i, for the last window_ calls (see history_).
  std::size_t slot(long i) const { return window_ - 1 - static_cast<std::size_t>(i % static_cast<long>(window_)); }
  uint64_t at(long i) const { return history_[slot(i)]; }
  bool try_lock(int first_ready);
  // The run that period p must reach to lock: `repeats` whole periods and at least min_span calls.
  int need(int p) const { return std::max((opt_.repeats - 1) * p, opt_.min_span); }
  bool matches(uint64_t key) const;

  DetectorOptions opt_;
  // The last window_ (max_period + 2) keys, newest first and written twice (at s and s + window_),
  // so that the keys of calls i-1, i-2, ..., i-max_period follow call i's slot contiguously: the
  // per-call scan of every candidate period is a straight loop (detection's cost until it locks).
  std::size_t window_ = 0;
  std::vector<uint64_t> history_;
  std::vector<int> run_;       // run_[p]: consecutive calls with key == key p calls earlier
  long n_ = 0;                 // calls fed
  // locked state
  Anchor anchor_ = Anchor::None;
  int period_    = 0;
  uint64_t anchor_key_ = 0, anchor_prev_ = 0;
  long phase_ = 0, last_boundary_ = 0;
  // user modes
  uint64_t user_key_ = 0;
  long every_ = 1, count_ = 0;
};

} // namespace haec::iterations
