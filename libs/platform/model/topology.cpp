// Links and dimension-order routes of a platform; route() runs for every simulated message, so it
// walks a precomputed neighbour table and never allocates beyond its output vector.
#include "topology.hpp"
#include "fat_tree.hpp"
#include "input_error.hpp"

#include <cstdlib>
#include <stdexcept>

namespace haec::platform {

namespace {
constexpr uint32_t kNone = UINT32_MAX;
}

Topology::Topology(PlatformSpec spec) : spec_(std::move(spec))
{
  validate(spec_, spec_.spec_text.empty() ? std::string("platform") : spec_.spec_text);
  const auto& dims = spec_.dims;
  num_nodes_       = static_cast<uint32_t>(dims[0]) * dims[1] * dims[2];
  links_.reserve(static_cast<size_t>(directed_link_count(spec_)));

  if (spec_.kind == Kind::Cluster) {
    // Link 2i: node i -> switch, link 2i+1: switch -> node i.
    for (uint32_t n = 0; n < num_nodes_; ++n) {
      links_.push_back({n, n, 0, 0});
      links_.push_back({n, n, 0, 1});
    }
    return;
  }
  if (spec_.kind == Kind::FatTree) // SimGrid's zone creates the switches and cables
    return;
  if (spec_.kind == Kind::Hierarchical) {
    hierarchical_links(spec_, links_);
    paths_ = std::make_shared<const ShortestPaths>(num_nodes_, links_);
    return;
  }

  const bool haec = spec_.kind == Kind::HaecBox;
  full_wireless_  = haec && spec_.wireless_full;
  for (int d = 0; d < 3; ++d)
    wrap_[d] = spec_.kind == Kind::Torus || (haec && d < 2 && spec_.board_torus);

  step_link_.assign(num_nodes_, {kNone, kNone, kNone, kNone, kNone, kNone});
  for (uint32_t n = 0; n < num_nodes_; ++n) {
    auto c = coords(n);
    for (int d = 0; d < 3; ++d) {
      const int size = dims[d];
      if (size == 1 || (full_wireless_ && d == 2))
        continue;
      const uint16_t type = haec && d == 2 ? 1 : 0;
      auto neighbour      = [&](int delta) {
        auto o = c;
        o[d] += delta;
        if (o[d] < 0 || o[d] >= size) {
          if (!wrap_[d])
            return kNone;
          o[d] = (o[d] + size) % size;
        }
        return node_at(o[0], o[1], o[2]);
      };
      if (uint32_t up = neighbour(+1); up != kNone) {
        step_link_[n][2 * d] = static_cast<uint32_t>(links_.size());
        links_.push_back({n, up, type, static_cast<uint8_t>(d)});
      }
      if (uint32_t down = neighbour(-1); down != kNone) {
        if (wrap_[d] && size == 2) { // a 2-ring has one wire: both directions reach the same node
          step_link_[n][2 * d + 1] = step_link_[n][2 * d];
        } else {
          step_link_[n][2 * d + 1] = static_cast<uint32_t>(links_.size());
          links_.push_back({n, down, type, static_cast<uint8_t>(d)});
        }
      }
    }
  }

  if (full_wireless_) {
    const uint32_t board = static_cast<uint32_t>(dims[0]) * dims[1];
    for (int z = 0; z + 1 < dims[2]; ++z) {
      const uint32_t lower = board * z, upper = board * (z + 1);
      wireless_block_.push_back(static_cast<uint32_t>(links_.size()));
      for (uint32_t a = 0; a < board; ++a)
        for (uint32_t b = 0; b < board; ++b)
          links_.push_back({lower + a, upper + b, 1, 2});
      for (uint32_t b = 0; b < board; ++b)
        for (uint32_t a = 0; a < board; ++a)
          links_.push_back({upper + b, lower + a, 1, 2});
      // Aligned z steps use the fan-out link that keeps (x,y).
      for (uint32_t a = 0; a < board; ++a) {
        step_link_[lower + a][4] = wireless_block_[z] + a * board + a;
        step_link_[upper + a][5] = wireless_block_[z] + board * board + a * board + a;
      }
    }
  }
}

std::array<int, 3> Topology::coords(uint32_t node) const
{
  const auto& d = spec_.dims;
  return {static_cast<int>(node % d[0]), static_cast<int>((node / d[0]) % d[1]), static_cast<int>(node / (d[0] * d[1]))};
}

uint32_t Topology::node_at(int x, int y, int z) const
{
  const auto& d = spec_.dims;
  if (x < 0 || y < 0 || z < 0 || x >= d[0] || y >= d[1] || z >= d[2])
    throw std::out_of_range("node_at: coordinates outside the platform");
  return static_cast<uint32_t>(x + d[0] * (y + d[1] * z));
}

std::string Topology::host_name(uint32_t node) const
{
  if (spec_.kind == Kind::Cluster || spec_.kind == Kind::FatTree)
    return "node-" + std::to_string(node);
  auto c = coords(node);
  return "node-" + std::to_string(c[0]) + "-" + std::to_string(c[1]) + "-" + std::to_string(c[2]);
}

std::string Topology::loopback_name(uint32_t node) const
{
  return "lo-" + host_name(node);
}

std::string Topology::link_name(uint32_t id) const
{
  const auto& l = links_.at(id);
  if (spec_.kind == Kind::Cluster)
    return (l.dim == 0 ? "cable-up-" : "cable-down-") + std::to_string(l.from);
  if (spec_.kind == Kind::Hierarchical) {
    std::string name = "l" + std::to_string(l.dim + 1) + "-" + std::to_string(l.from) + "-" + std::to_string(l.to);
    if (l.dim == 2) // parallel cables of a rack pair: count this one among those before it
      name += "-" + std::to_string(l3_index(id));
    return name;
  }
  static const char axis[] = {'x', 'y', 'z'};
  std::string prefix = spec_.kind != Kind::HaecBox ? "link" : l.type == 0 ? "opt" : "wl";
  auto f             = coords(l.from);
  std::string name   = prefix + "-" + axis[l.dim];
  if (full_wireless_ && l.dim == 2) {
    auto t = coords(l.to);
    return name + (t[2] > f[2] ? "+-" : "--") + std::to_string(f[0]) + "-" + std::to_string(f[1]) + "-" +
           std::to_string(f[2]) + "-" + std::to_string(t[0]) + "-" + std::to_string(t[1]);
  }
  name += step_link_[l.from][2 * l.dim] == id ? '+' : '-';
  return name + "-" + std::to_string(f[0]) + "-" + std::to_string(f[1]) + "-" + std::to_string(f[2]);
}

int Topology::dim_distance(int d, int from, int target) const
{
  int delta = target - from;
  if (!wrap_[d])
    return std::abs(delta);
  const int size = spec_.dims[d];
  int fwd        = ((delta % size) + size) % size;
  return fwd <= size - fwd ? fwd : size - fwd;
}

uint32_t Topology::walk(uint32_t cur, int d, int from, int target, std::vector<uint32_t>& out) const
{
  int delta = target - from;
  if (delta == 0)
    return cur;
  int count, slot;
  if (wrap_[d]) {
    const int size = spec_.dims[d];
    int fwd        = ((delta % size) + size) % size;
    // Shorter way round; a tie (fwd == size/2) goes +.
    if (fwd <= size - fwd) {
      count = fwd;
      slot  = 2 * d;
    } else {
      count = size - fwd;
      slot  = 2 * d + 1;
    }
  } else {
    count = std::abs(delta);
    slot  = 2 * d + (delta < 0 ? 1 : 0);
  }
  for (int i = 0; i < count; ++i) {
    uint32_t id = step_link_[cur][slot];
    out.push_back(id);
    cur = links_[id].to;
  }
  return cur;
}

void Topology::route(uint32_t src, uint32_t dst, std::vector<uint32_t>& out) const
{
  out.clear();
  if (src == dst)
    return;
  if (spec_.kind == Kind::Cluster) {
    out.push_back(2 * src);
    out.push_back(2 * dst + 1);
    return;
  }
  if (paths_) {
    paths_->route(src, dst, out);
    return;
  }
  if (spec_.kind == Kind::FatTree)
    throw std::logic_error("fat-tree routes are SimGrid's; use dor_distance() for hop counts");
  auto s = coords(src), d = coords(dst);
  if (full_wireless_ && s[2] != d[2]) {
    // One wireless jump to the target's (x,y) on the next board, then aligned z hops.
    const uint32_t board = static_cast<uint32_t>(spec_.dims[0]) * spec_.dims[1];
    const uint32_t a = src % board, b = dst % board;
    uint32_t id = d[2] > s[2] ? wireless_block_[s[2]] + a * board + b
                              : wireless_block_[s[2] - 1] + board * board + a * board + b;
    out.push_back(id);
    walk(links_[id].to, 2, d[2] > s[2] ? s[2] + 1 : s[2] - 1, d[2], out);
    return;
  }
  uint32_t cur = src;
  for (int dim = 0; dim < 3; ++dim)
    cur = walk(cur, dim, s[dim], d[dim], out);
}

int Topology::dor_distance(uint32_t src, uint32_t dst) const
{
  if (src == dst)
    return 0;
  if (spec_.kind == Kind::Cluster)
    return 2;
  if (spec_.kind == Kind::FatTree)
    return fat_tree_hops(spec_.fat_tree, src, dst);
  if (paths_)
    return paths_->distance(src, dst);
  auto s = coords(src), d = coords(dst);
  if (full_wireless_ && s[2] != d[2])
    return std::abs(d[2] - s[2]);
  return dim_distance(0, s[0], d[0]) + dim_distance(1, s[1], d[1]) + dim_distance(2, s[2], d[2]);
}

uint32_t Topology::l3_index(uint32_t id) const
{
  // A rack pair's level-3 cables are consecutive, both directions interleaved: count the earlier
  // cables of the same direction between the same two racks.
  const uint32_t rack = static_cast<uint32_t>(spec_.dims[0]) * spec_.dims[1];
  auto same_pair      = [&](uint32_t other) {
    return links_[other].dim == 2 && links_[other].from / rack == links_[id].from / rack &&
           links_[other].to / rack == links_[id].to / rack;
  };
  uint32_t k = 0;
  while (id >= 2 * (k + 1) && same_pair(id - 2 * (k + 1)))
    ++k;
  return k;
}

} // namespace haec::platform
