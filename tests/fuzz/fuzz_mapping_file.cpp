// Fuzzes HAEC-SIM mapping files: haec::mapping::read_mapping_file against two small node lists
// (a 3x3x3 grid and an 8-node cluster, coordinates {i,0,0}). An accepted file must place ranks
// 0..n-1 on existing nodes and survive write_mapping_file / read_mapping_file unchanged.
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "mapping.hpp"

#include <algorithm>

using namespace haec::mapping;

namespace {

std::vector<Node> grid(int x, int y, int z)
{
  std::vector<Node> nodes;
  for (int k = 0; k < z; ++k)
    for (int j = 0; j < y; ++j)
      for (int i = 0; i < x; ++i)
        nodes.push_back({"node-" + std::to_string(i) + "-" + std::to_string(j) + "-" + std::to_string(k), {i, j, k}});
  return nodes;
}

void check(const std::string& text, const std::vector<Node>& nodes)
{
  std::vector<int> a;
  try {
    a = read_mapping_file(text, "fuzz.map", nodes);
  } catch (const haec::InputError&) {
    return;
  }
  FUZZ_CHECK(!a.empty());
  for (int node : a)
    FUZZ_CHECK(node >= 0 && node < static_cast<int>(nodes.size()));
  try {
    const std::string again = write_mapping_file("fuzz", a, nodes);
    FUZZ_CHECK(read_mapping_file(again, "fuzz.map (rewritten)", nodes) == a);
    const std::string hosts = write_hostfile(a, nodes);
    FUZZ_CHECK(std::count(hosts.begin(), hosts.end(), '\n') == static_cast<long>(a.size()));
  } catch (const haec::InputError& e) {
    std::fprintf(stderr, "an accepted mapping, rewritten, is rejected: %s\n", e.what());
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  static const std::vector<Node> box     = grid(3, 3, 3);
  static const std::vector<Node> cluster = grid(8, 1, 1);
  const std::string text                 = haec::fuzz::as_text(data, size);
  check(text, box);
  check(text, cluster);
  return 0;
}
