// The invariants a run verifies before it reports success (summary.json "checks"). Each function
// compares figures that come from different sources, so each can fail. Pure C++.
#pragma once
#include "results.hpp"
#include "run_record.hpp"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace haec::core {

// (src, dst) -> (messages, bytes)
using PairCounts = RunRecord::PairCounts;

// Every pair's messages and bytes equal on both sides ("sent" and "received" name the sides).
Check pairs_match(const std::string& name, const PairCounts& sent, const PairCounts& received,
                  const std::string& what);
// Trace replay: every rank pair's messages sent = receives posted, and no message larger than its
// receive (a receive may post a larger buffer than the message it gets, as MPI allows).
Check receives_match_sends(const PairCounts& sent, const PairCounts& received);
// The messages column of traffic_matrix.csv (as written) sums to app_messages.
Check traffic_matrix_total(const std::string& traffic_matrix_csv, uint64_t app_messages);
// `total` equals the sum of the `parts` column of `csv` (relative tolerance 1e-12: the parts are
// the exact texts of the per-host integrals, their sum is rounded once per addition).
Check column_sum(const std::string& name, const std::string& csv, const std::string& column, double total,
                 const std::string& what);
// Every rank in 0..ranks-1 is in `finalized`.
Check all_ranks_finalized(const std::set<int>& finalized, int ranks);
Check not_checked(const std::string& name, const std::string& why);

} // namespace haec::core
