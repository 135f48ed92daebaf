// Mapping metrics of seed 004 Table 1 and seed 001 Tables 7-8.
#include "input_error.hpp"
#include "mapping_detail.hpp"

#include <limits>
#include <map>

namespace haec::mapping {

Metrics compute_metrics(const CommMatrix& matrix, const std::vector<int>& assignment,
                        const std::function<int(int, int)>& hops)
{
  if (static_cast<int>(assignment.size()) != matrix.ranks)
    throw InputError("mapping metrics",
                     "the assignment places " + std::to_string(assignment.size()) + " ranks, the matrix has " +
                         std::to_string(matrix.ranks),
                     "compute the metrics of a mapping of the matrix's run");
  if (!matrix.has_messages) { // sizes only (a MapLib .size.csv without its .count.csv)
    Metrics m;
    m.has_messages = false;
    return m;
  }
  std::vector<MessageCount> cells;
  for (int s = 0; s < matrix.ranks; ++s)
    for (int d = 0; d < matrix.ranks; ++d)
      if (matrix.msgs(s, d) != 0)
        cells.push_back({s, d, matrix.msgs(s, d)});
  return compute_metrics(cells, assignment, hops);
}

Metrics compute_metrics(const std::vector<MessageCount>& cells, const std::vector<int>& assignment,
                        const std::function<int(int, int)>& hops)
{
  Metrics m;
  uint64_t message_hops = 0;
  // Inter-node messages per unordered node pair {lo, hi}, both directions summed (seed 004 counts
  // node-to-node communications, not directed links). Ordered map: deterministic iteration.
  std::map<std::pair<int, int>, uint64_t> per_pair;
  for (auto const& [s, d, k] : cells) {
    if (s < 0 || d < 0 || s >= static_cast<int>(assignment.size()) || d >= static_cast<int>(assignment.size()))
      throw InputError("mapping metrics", "a message between ranks " + std::to_string(s) + " and " +
                                              std::to_string(d) + " of a run of " +
                                              std::to_string(assignment.size()) + " ranks",
                       "compute the metrics of a mapping of the messages' run");
    if (k == 0)
      continue;
    m.ieplc += k;
    const int a = assignment[s], b = assignment[d];
    if (a == b) { // includes a rank's messages to itself: they never leave the node
      m.ianlc += k;
      continue;
    }
    m.ienlc += k;
    per_pair[{std::min(a, b), std::max(a, b)}] += k;
    if (!hops)
      continue;
    const int h = hops(a, b); // same node: 0 hops, hops() is not asked
    if (h < 0)
      throw InputError("mapping metrics", "negative hop count " + std::to_string(h) + " between nodes " +
                                              std::to_string(a) + " and " + std::to_string(b),
                       "give a hops function of the platform's routes");
    message_hops += k * static_cast<uint64_t>(h);
  }
  if (hops)
    m.message_hops = message_hops;
  if (!per_pair.empty()) {
    m.ienlc_min = std::numeric_limits<uint64_t>::max();
    for (auto const& [pair, k] : per_pair) {
      m.ienlc_min = std::min(m.ienlc_min, k);
      m.ienlc_max = std::max(m.ienlc_max, k);
    }
    m.ienlc_avg = static_cast<double>(m.ienlc) / static_cast<double>(per_pair.size());
  }
  return m;
}

} // namespace haec::mapping
