// A platform as data: what `haec platform` writes (platform.json) and what the SimGrid loader
// (libs/platform/zone) builds. Pure C++: no SimGrid include.
//
// Spec strings (CLI): KIND:DIMS[,key=value...]
//   haec-box:XxYxZ   boards are z layers; optical links on a board, wireless between boards
//   mesh:AxBxC       3-D mesh, Gemini-like links
//   torus:AxBxC      3-D torus, Gemini-like links
//   cluster:N        taurus-like cluster: N hosts on one switch (star)
//   fat-tree:L;D1,..;U1,..;P1,..  SimGrid's fat tree (levels; down-links, up-links and parallel
//                    links per level), nodes = D1*..*DL; key reduce=R (percent, 0 <= R < 100): each
//                    level's links have R % less bandwidth than the level below
//   hierarchical:SxBxR  MARS's hierarchical direct network: S switches (one node each) fully
//                    connected per board, B boards fully connected per rack, R racks fully
//                    connected; key l3=N parallel level-3 links per rack pair (default 1);
//                    indirect=N extra candidate routes through N other racks (default 0)
// Keys (all optional): board=torus|mesh, wireless=aligned|full (haec-box only);
//   optical-bw, optical-lat, optical-ber, wireless-bw, wireless-lat, wireless-ber (haec-box);
//   link-bw, link-lat, link-ber (mesh, torus, cluster, fat-tree); l1-bw, l2-bw, l3-bw (and -lat,
//   -ber) (hierarchical); cores=N; speed=2.3Gf or pstates
//   speeds=2.3Gf/2.2Gf/...; loopback-bw, loopback-lat; preset=ciorba2014 (haec-box: 2-D mesh boards,
//   aligned wireless, every link 250 Gbit/s and 1 us, as in seed 004 Table 2); preset=taurus
//   (cluster: 12 cores, 2.3..1.2 Gf, and the taurus-8 power calibration of thesis 002 Figure 8.7);
//   sockets=2,socket-w=5 (power: two sockets of cores, 5 W when the second wakes);
//   preset=taurus-node (cluster: one rank stands for a whole taurus node: 1 core whose busy
//   power is the taurus-8 all-cores power, as wattage_per_state);
//   wattage=idle:epsilon:all_cores/... (one entry per pstate, SimGrid's wattage_per_state),
//   wattage-off=W. Every kind has a default node power profile derived from taurus-8
//   (docs/MODELS.md "Default node power"); speed=/speeds= with another pstate count drop it.
#pragma once
#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace haec::platform {

enum class Kind { HaecBox, Mesh, Torus, Cluster, FatTree, Hierarchical };

struct LinkType {
  std::string name;        // "optical", "wireless", "link" (mesh/torus), "cable" (cluster)
  double bandwidth = 0;    // bytes per second (SimGrid's unit)
  double latency   = 0;    // seconds
  double ber       = 0;    // bit error rate, in [0,1)
};

struct NodeSpec {
  int cores = 1;
  std::vector<double> speeds; // flop/s per pstate, fastest first; at least one
  // Power (plugins/power): per pstate "idle:one_core:all_cores" watts, set on each host as
  // haec:wattage_calibration; empty: none. wattage_off < 0: no wattage_off property.
  std::vector<std::string> wattage_calibration;
  // Or SimGrid 3.32's own form "idle:epsilon:all_cores" per pstate (host property
  // wattage_per_state); preset=taurus-node sets it.
  std::vector<std::string> wattage_per_state;
  double wattage_off = -1;
  // Sockets (plugins/power): cores in `sockets` equal groups, each awake one beyond the first
  // adding socket_wattage W (haec:sockets, haec:socket_wattage). 1: no socket model.
  int sockets           = 1;
  double socket_wattage = 0;
};

// SimGrid's fat-tree parameters (one entry per level, leaves first) and our bandwidth reduction.
struct FatTreeShape {
  int levels = 0;
  std::vector<int> down, up, parallel;
  double reduce_percent = 0; // level l links (l = 1 at the nodes) carry bw * (1 - R/100)^(l-1)
};

struct PlatformSpec {
  Kind kind = Kind::HaecBox;
  std::array<int, 3> dims{1, 1, 1}; // cluster, fat-tree: {N,1,1}; hierarchical: {S,B,R}
  bool board_torus   = true;        // haec-box: optical board links wrap around
  bool wireless_full = false;       // haec-box: every node of board z to every node of board z+1
  std::vector<LinkType> link_types; // haec-box: {optical, wireless}; mesh/torus/fat-tree: {link};
                                    // cluster: {cable}; hierarchical: {l1, l2, l3}
  FatTreeShape fat_tree;            // fat-tree only
  int l3_links = 1;                 // hierarchical: parallel level-3 links per rack pair
  int indirect_routes = 0;          // hierarchical: extra routes through other racks (indirect=N)
  NodeSpec node;
  double loopback_bandwidth = 100e9; // bytes/s, same-node transfers
  double loopback_latency   = 10e-9; // s; positive so latency factors can scale it
  std::string spec_text;             // the spec string it came from, for summaries
};

// Limits: a platform has at most kMaxNodes nodes and kMaxLinks directed links (full wireless
// grows as (Z-1)*(X*Y)^2; link ids are uint32 and SimGrid needs ~1 KB per link).
constexpr long long kMaxNodes = 1LL << 22;
constexpr long long kMaxLinks = 1LL << 25;

// Parses a spec string; throws haec::InputError naming the spec, the problem and the fix.
// Keys apply left to right; preset= must come first so later keys override it.
PlatformSpec parse_spec(const std::string& spec);

// Checks every field (dims, limits, link types of the kind, bandwidths, latencies, BER, cores,
// speeds); throws haec::InputError naming `what`. parse_spec, from_json and Topology call it.
void validate(const PlatformSpec& spec, const std::string& what);

// Number of directed links the Topology of `spec` has (no loopbacks); valid specs only.
long long directed_link_count(const PlatformSpec& spec);

// Stable JSON form (platform.json). from_json validates like parse_spec.
nlohmann::json to_json(const PlatformSpec& spec);
PlatformSpec from_json(const nlohmann::json& j, const std::string& what);

std::string kind_name(Kind kind);

} // namespace haec::platform
