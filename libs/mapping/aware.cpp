// Shared pieces of the communication-aware strategies (aware.hpp).
#include "aware.hpp"
#include "input_error.hpp"

#include <algorithm>
#include <climits>
#include <map>

namespace haec::mapping::detail {

bool weighs_bytes(const CommMatrix& m)
{
  if (!m.has_bytes)
    return false;
  if (!m.has_messages)
    return true;
  return std::any_of(m.bytes.begin(), m.bytes.end(), [](uint64_t b) { return b > 0; });
}

// Tiles of kTile x kTile cells: the weight of {a, b} needs cell (a, b) and cell (b, a), and reading
// both a row and a column of a dense 4096-rank matrix cell by cell misses the caches at every step.
CommGraph build_comm_graph(const CommMatrix& m)
{
  constexpr int kTile = 64;
  const std::vector<uint64_t>& cells = weighs_bytes(m) ? m.bytes : m.messages;
  const size_t n                     = static_cast<size_t>(m.ranks);
  CommGraph g;
  g.n = m.ranks;
  g.start.assign(n + 1, 0);
  g.degree.assign(n, 0);
  std::vector<std::vector<std::pair<int, uint64_t>>> rows(kTile);
  for (size_t a0 = 0; a0 < n; a0 += kTile) {
    const size_t a1 = std::min(n, a0 + kTile);
    for (size_t b0 = 0; b0 < n; b0 += kTile) {
      const size_t b1 = std::min(n, b0 + kTile);
      for (size_t a = a0; a < a1; ++a)
        for (size_t b = b0; b < b1; ++b)
          if (uint64_t w = a == b ? 0 : cells[a * n + b] + cells[b * n + a]; w > 0)
            rows[a - a0].emplace_back(static_cast<int>(b), w);
    }
    for (size_t a = a0; a < a1; ++a) {
      for (auto const& [b, w] : rows[a - a0]) {
        g.nbr.push_back(b);
        g.w.push_back(w);
        g.degree[a] += w;
      }
      rows[a - a0].clear();
      g.start[a + 1] = static_cast<int>(g.nbr.size());
    }
  }
  return g;
}

namespace {

std::shared_ptr<const std::vector<uint8_t>> hop_table_of(const Target& target)
{
  constexpr size_t kTableNodes = 4096; // 16 MiB of uint8_t
  const size_t n               = target.nodes.size();
  if (n > kTableNodes)
    return nullptr;
  auto table = std::make_shared<std::vector<uint8_t>>(n * n, 0);
  for (size_t a = 0; a < n; ++a)
    for (size_t b = 0; b < n; ++b) {
      const int h = a == b ? 0 : target.hops(static_cast<int>(a), static_cast<int>(b));
      if (h < 0 || h > 255)
        return nullptr; // not representable: keep asking the target
      (*table)[a * n + b] = static_cast<uint8_t>(h);
    }
  return table;
}

} // namespace

Distances::Distances(const Target& target)
    : target_(target), n_(target.nodes.size()), table_(target.hop_table ? target.hop_table : hop_table_of(target))
{
}

int node_capacity(int ranks, int nodes)
{
  return (ranks + nodes - 1) / nodes;
}

Placer::Placer(int ranks, int nodes, int capacity)
    : capacity_(capacity), node_(static_cast<size_t>(ranks), -1), load_(static_cast<size_t>(nodes), 0)
{
}

void Placer::put(int rank, int node)
{
  node_[static_cast<size_t>(rank)] = node;
  ++load_[static_cast<size_t>(node)];
}

int Placer::nearest_free(int from, const Distances& dist) const
{
  int best = -1, best_d = INT_MAX;
  for (int n = 0; n < static_cast<int>(load_.size()); ++n) {
    if (!has_room(n))
      continue;
    const int d = dist(from, n);
    if (d < best_d) {
      best   = n;
      best_d = d;
    }
  }
  return best;
}

int Placer::first_free() const
{
  for (int n = 0; n < static_cast<int>(load_.size()); ++n)
    if (has_room(n))
      return n;
  return -1;
}

void Placer::place_rest()
{
  for (int r = 0; r < static_cast<int>(node_.size()); ++r)
    if (!placed(r))
      put(r, first_free());
}

int central_node(const Distances& dist)
{
  int best        = 0;
  long long best_sum = LLONG_MAX;
  for (int a = 0; a < dist.nodes(); ++a) {
    long long sum = 0;
    for (int b = 0; b < dist.nodes(); ++b)
      sum += dist(a, b);
    if (sum < best_sum) {
      best     = a;
      best_sum = sum;
    }
  }
  return best;
}

} // namespace haec::mapping::detail

namespace haec::mapping {

void attach_hop_table(Target& target)
{
  target.hop_table = detail::hop_table_of(target);
}

} // namespace haec::mapping
