// Links of the hierarchical direct network and breadth-first shortest routes.
#include "hierarchical.hpp"
#include "topology.hpp"

#include <algorithm>
#include <stdexcept>

namespace haec::platform {

long long hierarchical_directed_links(const PlatformSpec& s)
{
  const long long S = s.dims[0], B = s.dims[1], R = s.dims[2];
  return R * B * S * (S - 1) + 2 * R * (B * (B - 1) / 2) + 2 * (R * (R - 1) / 2) * s.l3_links;
}

void hierarchical_links(const PlatformSpec& s, std::vector<DirectedLink>& links)
{
  const uint32_t S = s.dims[0], B = s.dims[1], R = s.dims[2];
  auto id = [&](uint32_t sw, uint32_t board, uint32_t rack) { return sw + S * (board + B * rack); };
  auto peer_index = [](uint32_t self, uint32_t other) { return other < self ? other : other - 1; };
  for (uint32_t r = 0; r < R; ++r)
    for (uint32_t b = 0; b < B; ++b)
      for (uint32_t i = 0; i < S; ++i)
        for (uint32_t j = 0; j < S; ++j)
          if (i != j)
            links.push_back({id(i, b, r), id(j, b, r), 0, 0});
  for (uint32_t r = 0; r < R; ++r)
    for (uint32_t a = 0; a < B; ++a)
      for (uint32_t b = a + 1; b < B; ++b) {
        const uint32_t from = id(peer_index(a, b) % S, a, r), to = id(peer_index(b, a) % S, b, r);
        links.push_back({from, to, 1, 1});
        links.push_back({to, from, 1, 1});
      }
  const uint32_t rack_switches = S * B;
  for (uint32_t r = 0; r < R; ++r)
    for (uint32_t q = r + 1; q < R; ++q)
      for (uint32_t k = 0; k < static_cast<uint32_t>(s.l3_links); ++k) {
        const uint32_t from = rack_switches * r + (peer_index(r, q) * s.l3_links + k) % rack_switches;
        const uint32_t to   = rack_switches * q + (peer_index(q, r) * s.l3_links + k) % rack_switches;
        links.push_back({from, to, 2, 2});
        links.push_back({to, from, 2, 2});
      }
}

ShortestPaths::ShortestPaths(uint32_t nodes, const std::vector<DirectedLink>& links)
    : nodes_(nodes), out_begin_(nodes + 1, 0), cache_(std::make_shared<Cache>())
{
  for (auto const& l : links)
    ++out_begin_[l.from + 1];
  for (uint32_t n = 0; n < nodes; ++n)
    out_begin_[n + 1] += out_begin_[n];
  out_links_.resize(links.size());
  std::vector<uint32_t> fill(out_begin_.begin(), out_begin_.end() - 1);
  for (uint32_t id = 0; id < links.size(); ++id) { // ids ascending: ties go to the lowest id
    out_links_[fill[links[id].from]++] = id;
    link_from_.push_back(links[id].from);
    link_to_.push_back(links[id].to);
  }
  cache_->pred.resize(nodes);
}

const std::vector<uint32_t>& ShortestPaths::tree(uint32_t src) const
{
  std::lock_guard<std::mutex> guard(cache_->lock);
  auto& slot = cache_->pred[src];
  if (slot)
    return *slot;
  auto pred = std::make_unique<std::vector<uint32_t>>(nodes_, UINT32_MAX);
  std::vector<uint32_t> queue{src};
  std::vector<bool> seen(nodes_, false);
  seen[src] = true;
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t n = queue[head];
    for (uint32_t k = out_begin_[n]; k < out_begin_[n + 1]; ++k) {
      const uint32_t link = out_links_[k], to = link_to_[link];
      if (!seen[to]) {
        seen[to]    = true;
        (*pred)[to] = link;
        queue.push_back(to);
      }
    }
  }
  slot = std::move(pred);
  return *slot;
}

void ShortestPaths::route(uint32_t src, uint32_t dst, std::vector<uint32_t>& out) const
{
  out.clear();
  if (src == dst)
    return;
  const auto& pred = tree(src);
  for (uint32_t n = dst; n != src; n = link_from_[pred[n]]) {
    if (pred[n] == UINT32_MAX)
      throw std::logic_error("hierarchical network: node unreachable");
    out.push_back(pred[n]);
  }
  std::reverse(out.begin(), out.end());
}

int ShortestPaths::distance(uint32_t src, uint32_t dst) const
{
  if (src == dst)
    return 0;
  const auto& pred = tree(src);
  int hops = 0;
  for (uint32_t n = dst; n != src; n = link_from_[pred[n]])
    ++hops;
  return hops;
}

} // namespace haec::platform
