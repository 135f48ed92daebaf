// MapLib's communication-oblivious orders (arXiv 2005.10413 §3; MapLib's mapper/mapping.py):
// sweep, scan, and the recursive curves Peano, Gray and Hilbert. Rank i goes to the (i mod N)-th
// node of the order, as MapLib does without its block option.
//
// The recursive curves subdivide a cube spanned from corner o by axis vectors u, v, w (each of
// length side - 1) into 8 sub-cubes, visited in a fixed order, each with its own corner and axis
// vectors built from u, v, w and their halves u2 = u/2, v2, w2 (integer division rounding towards
// zero, as MapLib's Vector does). The tables below are MapLib's definitions of the three curves;
// our 4x4x4 orders equal MapLib's published mappings (tests/unit/mapping_curves_test.cpp).
// MapLib's "Peano" is the Z (Morton) order of 2x2x2 subdivisions, not Peano's 3x3x3 serpentine.
// MapLib accepts only cubes of side 2^k. For any other box we take the smallest enclosing cube of
// side 2^k and keep the order of the cells that are nodes (so consecutive nodes may then be more
// than one hop apart); sweep and scan walk the nodes' bounding box.
#include "mapping_detail.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace haec::mapping::detail {
namespace {

using Vec = std::array<long long, 3>;

Vec add(Vec a, const Vec& b, long long k = 1)
{
  for (int i = 0; i < 3; ++i)
    a[i] += k * b[i];
  return a;
}

Vec half(const Vec& a) // rounds towards zero, like MapLib's Vector.__floordiv__
{
  return {a[0] / 2, a[1] / 2, a[2] / 2};
}

// A sub-cube: corner = o + sum of offset[k] * basis[k] over basis (u, v, w, u2, v2, w2); axis j of
// the sub-cube = sign[j] * basis[3 + half_of[j]] (one of u2, v2, w2).
struct Child {
  std::array<int, 6> offset;
  std::array<int, 3> half_of;
  std::array<int, 3> sign;
};
using CurveTable = std::array<Child, 8>;

// Offsets are over (u, v, w, u2, v2, w2); "u - u2" is {1,0,0,-1,0,0}.
const CurveTable kPeano = {{
    {{0, 0, 0, 0, 0, 0}, {0, 1, 2}, {1, 1, 1}},
    {{1, 0, 0, -1, 0, 0}, {0, 1, 2}, {1, 1, 1}},
    {{0, 1, 0, 0, -1, 0}, {0, 1, 2}, {1, 1, 1}},
    {{1, 1, 0, -1, -1, 0}, {0, 1, 2}, {1, 1, 1}},
    {{0, 0, 1, 0, 0, -1}, {0, 1, 2}, {1, 1, 1}},
    {{1, 0, 1, -1, 0, -1}, {0, 1, 2}, {1, 1, 1}},
    {{0, 1, 1, 0, -1, -1}, {0, 1, 2}, {1, 1, 1}},
    {{1, 1, 1, -1, -1, -1}, {0, 1, 2}, {1, 1, 1}},
}};

const CurveTable kGray = {{
    {{0, 0, 0, 0, 0, 0}, {0, 1, 2}, {1, 1, 1}},
    {{1, 0, 0, 0, 1, 0}, {0, 1, 2}, {-1, -1, 1}},
    {{1, 0, 1, 0, 0, 0}, {0, 1, 2}, {-1, 1, -1}},
    {{0, 0, 1, 0, 1, 0}, {0, 1, 2}, {1, -1, -1}},
    {{0, 1, 1, 0, 0, 0}, {0, 1, 2}, {1, -1, -1}},
    {{1, 1, 1, 0, -1, 0}, {0, 1, 2}, {-1, 1, -1}},
    {{1, 1, 0, 0, 0, 0}, {0, 1, 2}, {-1, -1, 1}},
    {{0, 1, 0, 0, -1, 0}, {0, 1, 2}, {1, 1, 1}},
}};

const CurveTable kHilbert = {{
    {{0, 0, 0, 0, 0, 0}, {2, 0, 1}, {1, 1, 1}},
    {{0, 1, 0, 0, -1, 0}, {1, 2, 0}, {1, 1, 1}},
    {{1, 1, 0, -1, -1, 0}, {1, 2, 0}, {1, 1, 1}},
    {{1, 0, 0, 0, 1, 0}, {0, 1, 2}, {-1, -1, 1}},
    {{1, 0, 1, 0, 1, -1}, {0, 1, 2}, {-1, -1, 1}},
    {{1, 1, 1, 0, -1, 0}, {1, 2, 0}, {1, -1, -1}},
    {{0, 1, 1, 1, -1, 0}, {1, 2, 0}, {1, -1, -1}},
    {{0, 0, 1, 0, 1, 0}, {2, 0, 1}, {-1, 1, -1}},
}};

struct Cube {
  Vec o;
  std::array<Vec, 3> axis; // u, v, w
};

Cube child_cube(const Cube& c, const Child& ch)
{
  const std::array<Vec, 6> basis = {c.axis[0], c.axis[1], c.axis[2], half(c.axis[0]), half(c.axis[1]), half(c.axis[2])};
  Cube s{c.o, {}};
  for (int k = 0; k < 6; ++k)
    s.o = add(s.o, basis[k], ch.offset[k]);
  for (int j = 0; j < 3; ++j)
    s.axis[j] = add(Vec{0, 0, 0}, basis[3 + ch.half_of[j]], ch.sign[j]);
  return s;
}

bool contains(const Cube& c, const Vec& p)
{
  const Vec far = add(add(add(c.o, c.axis[0]), c.axis[1]), c.axis[2]);
  for (int i = 0; i < 3; ++i)
    if (p[i] < std::min(c.o[i], far[i]) || p[i] > std::max(c.o[i], far[i]))
      return false;
  return true;
}

// Position of point p on the curve through the cube of side 2^levels at the origin.
uint64_t curve_index(const CurveTable& table, int levels, const Vec& p)
{
  const long long side = 1LL << levels;
  Cube cube{{0, 0, 0}, {Vec{side - 1, 0, 0}, Vec{0, side - 1, 0}, Vec{0, 0, side - 1}}};
  uint64_t index = 0;
  for (int level = 0; level < levels; ++level) {
    int k = 0;
    while (k < 8 && !contains(child_cube(cube, table[k]), p))
      ++k;
    // The 8 sub-cubes tile the cube, so k < 8 for every p inside it.
    cube  = child_cube(cube, table[std::min(k, 7)]);
    index = index * 8 + static_cast<uint64_t>(k);
  }
  return index;
}

struct Box {
  std::array<int, 3> lo{}, extent{}; // bounding box of the nodes' coordinates
};

Box bounding_box(const std::vector<Node>& nodes)
{
  Box b;
  std::array<int, 3> hi = nodes[0].coords;
  b.lo                  = nodes[0].coords;
  for (const auto& n : nodes)
    for (int i = 0; i < 3; ++i) {
      b.lo[i] = std::min(b.lo[i], n.coords[i]);
      hi[i]   = std::max(hi[i], n.coords[i]);
    }
  for (int i = 0; i < 3; ++i)
    b.extent[i] = hi[i] - b.lo[i] + 1;
  return b;
}

std::vector<int> recursive_order(const CurveTable& table, const std::vector<Node>& nodes)
{
  const Box box    = bounding_box(nodes);
  const int widest = std::max({box.extent[0], box.extent[1], box.extent[2]});
  int levels       = 0;
  while ((1LL << levels) < widest)
    ++levels;
  std::vector<std::pair<uint64_t, int>> keyed;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const auto& c = nodes[i].coords;
    Vec p{c[0] - box.lo[0], c[1] - box.lo[1], c[2] - box.lo[2]};
    keyed.push_back({curve_index(table, levels, p), static_cast<int>(i)});
  }
  std::stable_sort(keyed.begin(), keyed.end()); // two nodes may share coordinates (XML): index order
  std::vector<int> order;
  for (const auto& k : keyed)
    order.push_back(k.second);
  return order;
}

// Sweep (x fastest, then y, then z) or scan (boustrophedon: x reverses after every row, y after
// every plane) over the bounding box, keeping the cells that are nodes.
std::vector<int> box_walk(const std::vector<Node>& nodes, bool snake)
{
  const Box box = bounding_box(nodes);
  std::multimap<std::array<int, 3>, int> at;
  for (size_t i = 0; i < nodes.size(); ++i)
    at.insert({nodes[i].coords, static_cast<int>(i)});
  std::vector<int> order;
  bool x_flip = false, y_flip = false;
  for (int z = 0; z < box.extent[2]; ++z) {
    for (int yi = 0; yi < box.extent[1]; ++yi) {
      const int y = y_flip ? box.extent[1] - 1 - yi : yi;
      for (int xi = 0; xi < box.extent[0]; ++xi) {
        const int x = x_flip ? box.extent[0] - 1 - xi : xi;
        auto range  = at.equal_range({box.lo[0] + x, box.lo[1] + y, box.lo[2] + z});
        for (auto it = range.first; it != range.second; ++it)
          order.push_back(it->second);
      }
      x_flip = snake && !x_flip;
    }
    y_flip = snake && !y_flip;
  }
  return order;
}

} // namespace

std::vector<int> curve_order(Strategy curve, const std::vector<Node>& nodes)
{
  switch (curve) {
    case Strategy::Sweep: return box_walk(nodes, false);
    case Strategy::Scan: return box_walk(nodes, true);
    case Strategy::Peano: return recursive_order(kPeano, nodes);
    case Strategy::Gray: return recursive_order(kGray, nodes);
    case Strategy::Hilbert: return recursive_order(kHilbert, nodes);
    default: break;
  }
  throw std::logic_error("curve_order: " + strategy_name(curve) + " is not a curve");
}

std::vector<int> map_along(const std::vector<int>& order, int ranks)
{
  std::vector<int> a(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r)
    a[r] = order[static_cast<size_t>(r) % order.size()];
  return a;
}

} // namespace haec::mapping::detail
