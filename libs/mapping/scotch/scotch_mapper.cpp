// Scotch strategy (scotch_mapper.hpp). Choices:
//  - graph: the symmetric communication graph of aware.hpp (bytes, else messages), self traffic
//    dropped, weights scaled into Scotch's 32-bit integers (sum <= 2^30, every edge >= 1);
//  - architecture: mesh3D / torus3D / cmplt where Scotch has them; otherwise a decomposition-
//    defined architecture of the platform's hop distances ("deco 0" text, deco_architecture.hpp),
//    loaded with SCOTCH_archLoad (Scotch's own SCOTCH_archBuild0 from the one-hop graph took 196 s
//    of CPU for a 16x16x16 HAEC box with full wireless, whose one-hop graph has 2.1 million arcs);
//  - strategy: SCOTCH_stratGraphMapBuild with SCOTCH_STRATQUALITY | SCOTCH_STRATBALANCE and a 1 %
//    imbalance, one thread, deterministic, random seed = --seed (the global generator too);
//  - capacity: Scotch balances loads only approximately; ranks beyond ceil(ranks / nodes) on a
//    node move, highest rank first, to the nearest node with room (ties: lowest node).
#include "scotch_mapper.hpp"
#include "aware.hpp"
#include "deco_architecture.hpp"
#include "input_error.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>

extern "C" {
#include <scotch.h>
}

namespace {
thread_local std::string scotch_error; // last message Scotch reported
}

// Scotch reports errors through these three functions, normally from libscotcherr (which prints
// to stderr). Defining them here turns the messages into our one-line errors.
extern "C" void SCOTCH_errorPrint(const char* const format, ...)
{
  char buffer[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof buffer, format, args);
  va_end(args);
  scotch_error = buffer;
}

extern "C" void SCOTCH_errorPrintW(const char* const, ...) {} // warnings: nothing we act on

extern "C" void SCOTCH_errorProg(const char* const) {}

namespace haec::mapping {
namespace {

using detail::CommGraph;

SCOTCH_Num scotch_seed(uint64_t seed)
{
  return static_cast<SCOTCH_Num>(seed % 2147483647ULL);
}

// Scotch's global generator drives the decomposition of deco architectures: reset it to the seed so
// that a mapping does not depend on what Scotch computed before in the same process.
void reset_global_random(uint64_t seed)
{
  SCOTCH_randomSeed(scotch_seed(seed));
  SCOTCH_randomReset();
}

void check(int status, const std::string& step)
{
  if (status != 0)
    throw InputError("mapping scotch", step + " failed" + (scotch_error.empty() ? "" : ": " + scotch_error),
                     "use another strategy (auto, greedy-allc) for this input");
}

// A graph in Scotch's CSR form; the arrays live as long as the Scotch graph that points at them.
struct ScotchGraph {
  SCOTCH_Graph graph;
  std::vector<SCOTCH_Num> verttab, edgetab, edlotab;
  ScotchGraph() { SCOTCH_graphInit(&graph); }
  ~ScotchGraph() { SCOTCH_graphExit(&graph); }
  ScotchGraph(const ScotchGraph&)            = delete;
  ScotchGraph& operator=(const ScotchGraph&) = delete;

  void build(const std::string& what)
  {
    const SCOTCH_Num n = static_cast<SCOTCH_Num>(verttab.size()) - 1;
    check(SCOTCH_graphBuild(&graph, 0, n, verttab.data(), nullptr, nullptr, nullptr,
                            static_cast<SCOTCH_Num>(edgetab.size()), edgetab.data(),
                            edlotab.empty() ? nullptr : edlotab.data()),
          "building the " + what + " graph");
  }
};

void fill_comm_graph(ScotchGraph& sg, const CommGraph& g)
{
  long double total = 0;
  for (uint64_t w : g.w)
    total += static_cast<long double>(w);
  const long double scale = total > (1LL << 30) ? static_cast<long double>(1LL << 30) / total : 1.0L;
  sg.verttab.assign(g.start.begin(), g.start.end());
  sg.edgetab.assign(g.nbr.begin(), g.nbr.end());
  for (uint64_t w : g.w)
    sg.edlotab.push_back(std::max<SCOTCH_Num>(1, static_cast<SCOTCH_Num>(static_cast<long double>(w) * scale + 0.5L)));
  sg.build("communication");
}

// Scotch's target architecture for `t` (see the file comment).
class Architecture {
public:
  explicit Architecture(const Target& t)
  {
    SCOTCH_archInit(&arch_);
    const auto& d = t.dims;
    switch (t.shape) {
      case Shape::Mesh: check(SCOTCH_archMesh3(&arch_, d[0], d[1], d[2]), "SCOTCH_archMesh3"); return;
      case Shape::Torus: check(SCOTCH_archTorus3(&arch_, d[0], d[1], d[2]), "SCOTCH_archTorus3"); return;
      case Shape::Cluster:
        check(SCOTCH_archCmplt(&arch_, static_cast<SCOTCH_Num>(t.nodes.size())), "SCOTCH_archCmplt");
        return;
      default: break;
    }
    const std::string text = deco0_text(t); // HAEC boxes, XML platforms
    FILE* file             = fmemopen(const_cast<char*>(text.data()), text.size(), "r");
    if (file == nullptr)
      throw InputError("mapping scotch", "cannot open the architecture text in memory", "report this as a bug");
    const int status = SCOTCH_archLoad(&arch_, file);
    std::fclose(file);
    check(status, "SCOTCH_archLoad of the deco architecture");
  }
  ~Architecture() { SCOTCH_archExit(&arch_); }
  Architecture(const Architecture&)            = delete;
  Architecture& operator=(const Architecture&) = delete;
  SCOTCH_Arch* get() { return &arch_; }

private:
  SCOTCH_Arch arch_;
};

// A deterministic single-thread context bound to `graph`.
class Context {
public:
  Context(SCOTCH_Graph* graph, uint64_t seed)
  {
    SCOTCH_contextInit(&context_);
    SCOTCH_graphInit(&bound_);
    check(SCOTCH_contextOptionSetNum(&context_, SCOTCH_OPTIONNUMDETERMINISTIC, 1), "setting Scotch deterministic");
    check(SCOTCH_contextRandomClone(&context_), "SCOTCH_contextRandomClone");
    SCOTCH_contextRandomSeed(&context_, scotch_seed(seed));
    SCOTCH_contextRandomReset(&context_);
    check(SCOTCH_contextThreadSpawn(&context_, 1, nullptr), "SCOTCH_contextThreadSpawn");
    check(SCOTCH_contextBindGraph(&context_, graph, &bound_), "SCOTCH_contextBindGraph");
  }
  ~Context()
  {
    SCOTCH_graphExit(&bound_);
    SCOTCH_contextExit(&context_);
  }
  Context(const Context&)            = delete;
  Context& operator=(const Context&) = delete;
  SCOTCH_Graph* graph() { return &bound_; }

private:
  SCOTCH_Context context_;
  SCOTCH_Graph bound_;
};

// Moves ranks beyond the capacity to the nearest node with room (see the file comment).
void enforce_capacity(std::vector<int>& node, const Target& t)
{
  const int n = static_cast<int>(t.nodes.size());
  const int capacity = detail::node_capacity(static_cast<int>(node.size()), n);
  const detail::Distances dist(t);
  detail::Placer placer(static_cast<int>(node.size()), n, capacity);
  std::vector<int> load(static_cast<size_t>(n), 0);
  for (int q : node)
    ++load[static_cast<size_t>(q)];
  std::vector<int> overflow;
  std::vector<char> moves(node.size(), 0);
  for (int r = static_cast<int>(node.size()) - 1; r >= 0; --r) { // highest rank leaves first
    int& l = load[static_cast<size_t>(node[static_cast<size_t>(r)])];
    if (l > capacity) {
      --l;
      overflow.push_back(r);
      moves[static_cast<size_t>(r)] = 1;
    }
  }
  for (int r = 0; r < static_cast<int>(node.size()); ++r)
    if (!moves[static_cast<size_t>(r)])
      placer.put(r, node[static_cast<size_t>(r)]);
  for (int r : overflow)
    placer.put(r, placer.nearest_free(node[static_cast<size_t>(r)], dist));
  node = placer.assignment();
}

} // namespace

std::vector<int> scotch_distances(const Target& target, const std::vector<std::pair<int, int>>& pairs)
{
  scotch_error.clear();
  reset_global_random(1);
  Architecture arch(target);
  std::vector<int> out;
  for (auto [a, b] : pairs) {
    SCOTCH_ArchDom da, db;
    check(SCOTCH_archDomTerm(arch.get(), &da, a), "SCOTCH_archDomTerm");
    check(SCOTCH_archDomTerm(arch.get(), &db, b), "SCOTCH_archDomTerm");
    out.push_back(static_cast<int>(SCOTCH_archDomDist(arch.get(), &da, &db)));
  }
  return out;
}

std::vector<int> map_scotch(const CommMatrix& matrix, const Target& target, uint64_t seed)
{
  return map_scotch(detail::build_comm_graph(matrix), target, seed);
}

std::vector<int> map_scotch(const CommGraph& g, const Target& target, uint64_t seed)
{
  scotch_error.clear();
  reset_global_random(seed);
  ScotchGraph comm;
  fill_comm_graph(comm, g);
  check(SCOTCH_graphCheck(&comm.graph), "SCOTCH_graphCheck");
  Architecture arch(target);
  Context context(&comm.graph, seed);
  SCOTCH_Strat strat;
  SCOTCH_stratInit(&strat);
  std::vector<SCOTCH_Num> part(static_cast<size_t>(g.n), 0);
  int status = SCOTCH_stratGraphMapBuild(&strat, SCOTCH_STRATQUALITY | SCOTCH_STRATBALANCE,
                                         static_cast<SCOTCH_Num>(target.nodes.size()), 0.01);
  if (status == 0)
    status = SCOTCH_graphMap(context.graph(), arch.get(), &strat, part.data());
  SCOTCH_stratExit(&strat);
  check(status, "SCOTCH_graphMap");
  std::vector<int> node(part.begin(), part.end());
  for (int q : node)
    if (q < 0 || q >= static_cast<int>(target.nodes.size()))
      throw InputError("mapping scotch", "Scotch returned terminal " + std::to_string(q), "report this as a bug");
  enforce_capacity(node, target);
  return node;
}

} // namespace haec::mapping
