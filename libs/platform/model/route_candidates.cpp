// Shortest paths by breadth-first search from both ends; indirect routes by a breadth-first
// search restricted to the three racks involved and to the two level-3 hops allowed.
#include "route_candidates.hpp"

#include <algorithm>
#include <stdexcept>

namespace haec::platform {

RouteCandidates::RouteCandidates(const Topology& topo)
    : topo_(topo), rack_size_(static_cast<uint32_t>(topo.spec().dims[0]) * topo.spec().dims[1])
{
  if (topo.spec().kind != Kind::Hierarchical)
    throw std::logic_error("route candidates: hierarchical networks only");
  const auto& links = topo.links();
  out_begin_.assign(topo.num_nodes() + 1, 0);
  for (auto const& l : links)
    ++out_begin_[l.from + 1];
  for (uint32_t n = 0; n < topo.num_nodes(); ++n)
    out_begin_[n + 1] += out_begin_[n];
  out_links_.resize(links.size());
  std::vector<uint32_t> fill(out_begin_.begin(), out_begin_.end() - 1);
  for (uint32_t id = 0; id < links.size(); ++id)
    out_links_[fill[links[id].from]++] = id;
}

std::vector<uint32_t> RouteCandidates::detour_racks(uint32_t from, uint32_t to, uint32_t racks, int count)
{
  std::vector<uint32_t> out;
  for (uint32_t step = 1; step < racks && static_cast<int>(out.size()) < count; ++step) {
    const uint32_t rack = (to + step) % racks;
    if (rack != from)
      out.push_back(rack);
  }
  return out;
}

const std::vector<int>& RouteCandidates::distances(uint32_t src)
{
  if (distances_.empty())
    distances_.resize(topo_.num_nodes());
  if (distances_[src])
    return *distances_[src];
  distances_[src] = std::make_unique<std::vector<int>>(topo_.num_nodes(), -1);
  std::vector<int>& dist = *distances_[src];
  std::vector<uint32_t> queue{src};
  dist[src] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t n = queue[head];
    for (uint32_t k = out_begin_[n]; k < out_begin_[n + 1]; ++k) {
      const uint32_t to = topo_.links()[out_links_[k]].to;
      if (dist[to] < 0) {
        dist[to] = dist[n] + 1;
        queue.push_back(to);
      }
    }
  }
  return dist;
}

// Depth-first over the links that stay on a shortest path: dist_src rises by one and the rest of
// the way (dist_dst, the network being symmetric) falls by one. Ascending link ids at each node
// give lexicographic order.
void RouteCandidates::shortest_paths(uint32_t src, uint32_t dst, std::vector<Path>& out)
{
  const std::vector<int>& from_src = distances(src);
  const std::vector<int>& to_dst   = distances(dst);
  const int length = from_src[dst];
  Path path;
  std::function<void(uint32_t)> extend = [&](uint32_t node) {
    if (out.size() > kMaxShortest) // one more than kept: the static route may be among them
      return;
    if (node == dst) {
      out.push_back(path);
      return;
    }
    for (uint32_t k = out_begin_[node]; k < out_begin_[node + 1]; ++k) {
      const uint32_t link = out_links_[k], to = topo_.links()[link].to;
      if (from_src[to] == from_src[node] + 1 && to_dst[to] == length - from_src[to]) {
        path.push_back(link);
        extend(to);
        path.pop_back();
      }
    }
  };
  extend(src);
}

Path RouteCandidates::bfs_path(uint32_t src, uint32_t dst, const std::function<bool(uint32_t)>& allowed) const
{
  std::vector<uint32_t> pred(topo_.num_nodes(), UINT32_MAX);
  std::vector<bool> seen(topo_.num_nodes(), false);
  std::vector<uint32_t> queue{src};
  seen[src] = true;
  for (size_t head = 0; head < queue.size() && !seen[dst]; ++head)
    for (uint32_t k = out_begin_[queue[head]]; k < out_begin_[queue[head] + 1]; ++k) {
      const uint32_t link = out_links_[k], to = topo_.links()[link].to;
      if (!seen[to] && allowed(link)) {
        seen[to] = true;
        pred[to] = link;
        queue.push_back(to);
      }
    }
  if (!seen[dst])
    throw std::logic_error("hierarchical network: no indirect route");
  Path path;
  for (uint32_t n = dst; n != src; n = topo_.links()[pred[n]].from)
    path.push_back(pred[n]);
  std::reverse(path.begin(), path.end());
  return path;
}

Path RouteCandidates::via_rack(uint32_t src, uint32_t dst, uint32_t rack) const
{
  const uint32_t from = rack_of(src), to = rack_of(dst);
  return bfs_path(src, dst, [&](uint32_t id) {
    const DirectedLink& l = topo_.links()[id];
    const uint32_t a = rack_of(l.from), b = rack_of(l.to);
    if (l.dim < 2) // level 1 and 2 stay in a rack: any of the three
      return a == from || a == rack || a == to;
    return (a == from && b == rack) || (a == rack && b == to); // the two level-3 hops
  });
}

const std::vector<Path>& RouteCandidates::of(uint32_t src, uint32_t dst)
{
  const uint64_t key = (static_cast<uint64_t>(src) << 32) | dst;
  auto it            = cache_.find(key);
  if (it != cache_.end())
    return it->second;
  std::vector<Path> out(1);
  topo_.route(src, dst, out[0]);
  if (src != dst) {
    std::vector<Path> shortest;
    shortest_paths(src, dst, shortest);
    for (auto& p : shortest)
      if (p != out[0] && out.size() < kMaxShortest)
        out.push_back(std::move(p));
    const uint32_t racks = static_cast<uint32_t>(topo_.spec().dims[2]);
    if (rack_of(src) != rack_of(dst))
      for (uint32_t rack : detour_racks(rack_of(src), rack_of(dst), racks, topo_.spec().indirect_routes))
        out.push_back(via_rack(src, dst, rack));
  }
  return cache_.emplace(key, std::move(out)).first->second;
}

} // namespace haec::platform
