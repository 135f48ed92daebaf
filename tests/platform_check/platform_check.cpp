// haec_platform_check SPEC|platform.json [--pairs N] [--seed S] [--write-json FILE] [--ping BYTES]
//                     [SimGrid --cfg/--log args]
//
// Builds the platform in an s4u::Engine (no smpirun) and checks it against the pure Topology:
// hosts (names, pstates, cores, haec:* properties), link count, and for all node pairs (or N
// random pairs, seeded) that src->route_to(dst) is a connected path src -> dst of
// Topology::dor_distance links, whose latency sum SimGrid reports, and whose links carry the
// haec:type their endpoints imply. --ping also simulates (network model CM02, no TCP window
// bound) a BYTES transfer node 0 -> node 0 and node 0 -> the farthest node and checks the time
// is latency sum + BYTES / narrowest bandwidth, i.e. SimGrid really uses our routes. Prints load time and peak RSS; exits 1 on any mismatch,
// 2 on bad input.
#include "fat_tree.hpp"
#include "atomic_file.hpp"
#include "haec_zone.hpp"
#include "input_error.hpp"
#include "platform_spec.hpp"
#include "simgrid_compat.hpp"
#include "topology.hpp"
#include "units.hpp"

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

namespace hp = haec::platform;
namespace s4u = simgrid::s4u;

namespace {

long peak_rss_kib()
{
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0)
      return std::strtol(line.c_str() + 6, nullptr, 10);
  return -1;
}

struct Checker {
  const hp::Topology& topo;
  std::unordered_map<const s4u::Link*, uint32_t> link_id; // SimGrid link -> topology link id
  std::vector<s4u::Host*> hosts;
  std::vector<s4u::Link*> loopbacks;
  long errors = 0;

  void fail(const std::string& msg)
  {
    if (errors < 20)
      std::fprintf(stderr, "MISMATCH: %s\n", msg.c_str());
    ++errors;
  }

  // hierarchical: the level the endpoints imply (1 same board, 2 same rack, 3 across racks).
  int level_of(const hp::DirectedLink& l) const
  {
    auto a = topo.coords(l.from), b = topo.coords(l.to);
    return a[2] != b[2] ? 3 : a[1] != b[1] ? 2 : 1;
  }

  // The haec:type the endpoints of a link imply.
  std::string expected_type(const hp::DirectedLink& l) const
  {
    switch (topo.spec().kind) {
      case hp::Kind::Cluster:
        return "cable";
      case hp::Kind::Mesh:
      case hp::Kind::Torus:
      case hp::Kind::FatTree:
        return "link";
      case hp::Kind::Hierarchical:
        return "l" + std::to_string(level_of(l));
      case hp::Kind::HaecBox:
        break;
    }
    auto a = topo.coords(l.from), b = topo.coords(l.to);
    return a[2] != b[2] ? "wireless" : "optical";
  }

  // One hop along a grid dimension (with wrap-around where the dimension wraps), or a full
  // wireless jump between adjacent boards.
  bool is_neighbour(const hp::DirectedLink& l) const
  {
    auto a = topo.coords(l.from), b = topo.coords(l.to);
    const auto& spec = topo.spec();
    if (spec.kind == hp::Kind::Hierarchical) // fully connected groups: any two distinct switches
      return l.from != l.to && level_of(l) == l.dim + 1;
    if (spec.kind == hp::Kind::HaecBox && spec.wireless_full && a[2] != b[2])
      return std::abs(a[2] - b[2]) == 1;
    int changed = 0;
    for (int d = 0; d < 3; ++d) {
      if (a[d] == b[d])
        continue;
      ++changed;
      int diff = std::abs(a[d] - b[d]);
      if (!(diff == 1 || (topo.wraps(d) && diff == spec.dims[d] - 1)))
        return false;
    }
    return changed == 1;
  }

  void check_static(s4u::Engine& e)
  {
    const auto& spec = topo.spec();
    if (e.get_host_count() != topo.num_nodes())
      fail("host count " + std::to_string(e.get_host_count()) + " != " + std::to_string(topo.num_nodes()));
    // The engine also lists the network model's internal "__loopback__" link, which we never use.
    size_t link_count = 0;
    for (auto const* l : e.get_all_links())
      link_count += l->get_name() != "__loopback__";
    const size_t want_links = static_cast<size_t>(hp::directed_link_count(spec)) + topo.num_nodes();
    if (link_count != want_links)
      fail("link count " + std::to_string(link_count) + " != " + std::to_string(want_links) + " (links + loopbacks)");
    if (spec.kind == hp::Kind::FatTree)
      check_fat_tree_cables(e);
    for (uint32_t n = 0; n < topo.num_nodes(); ++n) {
      s4u::Host* h = e.host_by_name_or_null(topo.host_name(n));
      hosts.push_back(h);
      loopbacks.push_back(e.link_by_name_or_null(topo.loopback_name(n)));
      if (!h) {
        fail("no host " + topo.host_name(n));
        continue;
      }
      auto c           = topo.coords(n);
      std::string want = std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]);
      const char* got  = h->get_property("haec:coords");
      if (!got || want != got)
        fail(h->get_name() + ": haec:coords " + (got ? got : "(none)") + " != " + want);
      const char* node = h->get_property("haec:node");
      if (!node || std::to_string(n) != node)
        fail(h->get_name() + ": haec:node wrong");
      if (h->get_core_count() != spec.node.cores)
        fail(h->get_name() + ": core count " + std::to_string(h->get_core_count()));
      if (h->get_pstate_count() != spec.node.speeds.size())
        fail(h->get_name() + ": pstate count " + std::to_string(h->get_pstate_count()));
      else
        for (unsigned long p = 0; p < spec.node.speeds.size(); ++p)
          if (h->get_pstate_speed(p) != spec.node.speeds[p])
            fail(h->get_name() + ": pstate " + std::to_string(p) + " speed differs");
      if (!loopbacks.back() || loopbacks.back()->get_sharing_policy() != s4u::Link::SharingPolicy::FATPIPE ||
          loopbacks.back()->get_bandwidth() != spec.loopback_bandwidth ||
          loopbacks.back()->get_latency() != spec.loopback_latency)
        fail("loopback of " + topo.host_name(n) + " missing or misconfigured");
    }
    for (uint32_t id = 0; id < topo.links().size(); ++id) {
      const auto& l = topo.links()[id];
      s4u::Link* link = e.link_by_name_or_null(topo.link_name(id));
      if (!link) {
        fail("no link " + topo.link_name(id));
        continue;
      }
      link_id[link]           = id;
      const hp::LinkType& t   = spec.link_types[l.type];
      const char* type        = link->get_property("haec:type");
      const char* ber         = link->get_property("haec:ber");
      if (!type || expected_type(l) != type || t.name != type)
        fail(link->get_name() + ": haec:type " + (type ? type : "(none)") + ", coordinates imply " + expected_type(l));
      if (!ber || std::strtod(ber, nullptr) != t.ber)
        fail(link->get_name() + ": haec:ber wrong");
      if (link->get_bandwidth() != t.bandwidth || link->get_latency() != t.latency ||
          link->get_sharing_policy() != s4u::Link::SharingPolicy::SHARED)
        fail(link->get_name() + ": bandwidth/latency/sharing policy differ from the spec");
      if (spec.kind != hp::Kind::Cluster && !is_neighbour(l))
        fail(link->get_name() + ": endpoints are not neighbours");
    }
  }

  // fat-tree: SimGrid's cables are simplex, typed, and carry their level's bandwidth.
  void check_fat_tree_cables(s4u::Engine& e)
  {
    const auto& spec = topo.spec();
    for (auto const* l : e.get_all_links()) {
      if (l->get_name().rfind("link_from_", 0) != 0)
        continue;
      const char* type  = l->get_property("haec:type");
      const char* level = l->get_property("haec:level");
      if (!type || std::string(type) != "link" || !level)
        fail(l->get_name() + ": haec:type or haec:level missing");
      else if (l->get_bandwidth() != hp::fat_tree_level_bandwidth(spec.fat_tree, spec.link_types[0].bandwidth, std::atoi(level)) ||
               l->get_latency() != spec.link_types[0].latency || l->get_sharing_policy() != s4u::Link::SharingPolicy::SHARED)
        fail(l->get_name() + ": bandwidth/latency/sharing policy differ from the spec");
    }
  }

  // fat-tree: route_to() goes up l levels and down again: cable i is at level i+1 going up (_UP)
  // and 2l-i coming down (_DOWN).
  void check_fat_tree_route(const std::string& pair, const std::vector<s4u::Link*>& route)
  {
    const int l = static_cast<int>(route.size()) / 2;
    for (int i = 0; i < static_cast<int>(route.size()); ++i) {
      const bool up         = i < l;
      const int want_level  = up ? i + 1 : 2 * l - i;
      const std::string& nm = route[i]->get_name();
      const char* level     = route[i]->get_property("haec:level");
      const std::string end = up ? "_UP" : "_DOWN";
      if (!level || std::atoi(level) != want_level || nm.size() < end.size() ||
          nm.compare(nm.size() - end.size(), end.size(), end) != 0)
        fail(pair + ": cable " + nm + " out of place (want level " + std::to_string(want_level) + end + ")");
    }
  }

  void check_pair(uint32_t s, uint32_t d, std::vector<s4u::Link*>& route)
  {
    route.clear();
    double lat = 0;
    hosts[s]->route_to(hosts[d], route, &lat);
    const std::string pair = topo.host_name(s) + " -> " + topo.host_name(d);
    double sum = 0;
    for (auto* l : route)
      sum += l->get_latency();
    if (std::fabs(lat - sum) > 1e-12 * std::fabs(sum))
      fail(pair + ": latency " + haec::units::exact(lat) + " != sum of link latencies " + haec::units::exact(sum));
    if (s == d) {
      if (route.size() != 1 || route[0] != loopbacks[s])
        fail(pair + ": same-node route is not the node's loopback");
      return;
    }
    if (static_cast<int>(route.size()) != topo.dor_distance(s, d))
      fail(pair + ": " + std::to_string(route.size()) + " links, dor_distance " + std::to_string(topo.dor_distance(s, d)));
    if (topo.spec().kind == hp::Kind::FatTree) {
      check_fat_tree_route(pair, route);
      return;
    }
    // The route must be a connected path src -> dst (cluster: up link of src, down link of dst).
    uint32_t cur = s;
    for (size_t i = 0; i < route.size(); ++i) {
      auto it = link_id.find(route[i]);
      if (it == link_id.end()) {
        fail(pair + ": unknown link " + route[i]->get_name());
        return;
      }
      const auto& l = topo.links()[it->second];
      if (topo.spec().kind == hp::Kind::Cluster) {
        bool ok = i == 0 ? (l.dim == 0 && l.from == s) : (l.dim == 1 && l.to == d);
        if (!ok)
          fail(pair + ": link " + route[i]->get_name() + " out of place");
        cur = d;
        continue;
      }
      if (l.from != cur) {
        fail(pair + ": link " + route[i]->get_name() + " does not start where the previous one ended");
        return;
      }
      cur = l.to;
    }
    if (cur != d)
      fail(pair + ": route ends at " + topo.host_name(cur));
  }
};

// Simulated duration of one `bytes` message from host `src` to host `dst` (the platform is idle).
double simulate_transfer(s4u::Host* src, s4u::Host* dst, double bytes)
{
  static int token = 0;
  double start = -1, end = -1;
  auto* mb     = s4u::Mailbox::by_name("haec-check-" + src->get_name() + "-" + dst->get_name());
  haec::simgrid_compat::add_actor("receiver", dst, [mb]() { mb->get<int>(); });
  haec::simgrid_compat::add_actor("sender", src, [mb, bytes, &start, &end]() {
    start = s4u::Engine::get_clock();
    mb->put(&token, static_cast<uint64_t>(bytes));
    end = s4u::Engine::get_clock();
  });
  s4u::Engine::get_instance()->run();
  return end - start;
}

int usage()
{
  std::fprintf(stderr, "usage: haec_platform_check SPEC|platform.json [--pairs N] [--seed S] [--write-json FILE] "
                       "[--cfg=... --log=...]\n");
  return 2;
}

} // namespace

int main(int argc, char** argv)
{
  std::string source, json_out;
  long long pairs = -1; // all
  unsigned long long seed = 1;
  double ping_bytes = 0;
  std::vector<char*> sg_args{argv[0]};
  try {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      auto next     = [&]() -> std::string {
        if (i + 1 >= argc)
          throw haec::InputError(a, "needs a value", "see --help");
        return argv[++i];
      };
      if (a == "--help" || a == "-h")
        return usage();
      if (a == "--pairs")
        pairs = haec::units::parse_integer(next(), "--pairs");
      else if (a == "--seed")
        seed = haec::units::parse_integer(next(), "--seed");
      else if (a == "--ping")
        ping_bytes = static_cast<double>(haec::units::parse_integer(next(), "--ping"));
      else if (a == "--write-json")
        json_out = next();
      else if (a.rfind("--cfg=", 0) == 0 || a.rfind("--log=", 0) == 0)
        sg_args.push_back(argv[i]);
      else if (source.empty())
        source = a;
      else
        throw haec::InputError(a, "unexpected argument", "give one platform spec or platform.json");
    }
    if (source.empty())
      return usage();

    auto t0 = std::chrono::steady_clock::now();
    hp::PlatformSpec spec;
    if (source.size() > 5 && source.compare(source.size() - 5, 5, ".json") == 0) {
      auto j = nlohmann::json::parse(haec::read_file(source, "platform"), nullptr, false);
      if (j.is_discarded())
        throw haec::InputError(source, "is not valid JSON", "give a platform.json");
      spec = hp::from_json(j, source);
    } else {
      spec = hp::parse_spec(source);
    }
    if (!json_out.empty()) {
      std::ofstream out(json_out);
      out << hp::to_json(spec).dump(2) << "\n";
      if (!out)
        throw haec::InputError(json_out, "cannot write", "check the directory");
    }
    hp::Topology topo(spec);
    auto t1 = std::chrono::steady_clock::now();

    std::string model = "--cfg=network/model:CM02", gamma = "--cfg=network/TCP-gamma:1e30";
    if (ping_bytes > 0) { // plain latency + size/bandwidth: no factors, no TCP window bound
      sg_args.insert(sg_args.begin() + 1, gamma.data());
      sg_args.insert(sg_args.begin() + 1, model.data());
    }
    int sg_argc = static_cast<int>(sg_args.size());
    sg_args.push_back(nullptr);
    s4u::Engine engine(&sg_argc, sg_args.data());
    // Plugins (energy, ...) initialise per host/link on these signals: each must fire once.
    size_t host_signals = 0, link_signals = 0;
    s4u::Host::on_creation_cb([&host_signals](s4u::Host&) { ++host_signals; });
    s4u::Link::on_creation_cb([&link_signals](s4u::Link& l) { link_signals += l.get_name() != "__loopback__"; });
    hp::build_in_simgrid(topo);
    auto t2 = std::chrono::steady_clock::now();

    Checker check{topo, {}, {}, {}, 0};
    // SimGrid 3.32's FatTree zone seals each cable when it creates it and again with the zone (as
    // for XML platforms): its cables signal twice there, once on 4.x; our hosts and loopbacks once.
    const size_t cable_signals =
        spec.kind == hp::Kind::FatTree ? static_cast<size_t>(haec::simgrid_compat::kFatTreeCableCreationSignals) : 1;
    const auto want_signals =
        cable_signals * static_cast<size_t>(hp::directed_link_count(spec)) + topo.num_nodes();
    if (host_signals != topo.num_nodes() || link_signals != want_signals)
      check.fail("creation signals fired " + std::to_string(host_signals) + " times for hosts and " +
                 std::to_string(link_signals) + " for links (want once each)");
    check.check_static(engine);
    std::vector<s4u::Link*> route;
    long long checked = 0;
    const uint32_t n  = topo.num_nodes();
    if (pairs < 0) {
      for (uint32_t s = 0; s < n; ++s)
        for (uint32_t d = 0; d < n; ++d, ++checked)
          check.check_pair(s, d, route);
    } else {
      std::mt19937_64 rng(seed);
      for (; checked < pairs; ++checked)
        check.check_pair(static_cast<uint32_t>(rng() % n), static_cast<uint32_t>(rng() % n), route);
    }
    auto t3 = std::chrono::steady_clock::now();
    auto secs = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };

    std::printf("platform: %s\n", spec.spec_text.c_str());
    std::printf("nodes: %u  links: %lld (+%u loopbacks)\n", n, hp::directed_link_count(spec), n);
    std::printf("topology time: %.4f s\n", secs(t0, t1));
    std::printf("load time: %.4f s\n", secs(t1, t2));
    std::printf("pairs checked: %lld (%.4f s)\n", checked, secs(t2, t3));
    std::printf("peak RSS: %.1f MiB\n", peak_rss_kib() / 1024.0);
    if (ping_bytes > 0) {
      uint32_t far = 0;
      for (uint32_t d = 0; d < n; ++d)
        if (topo.dor_distance(0, d) > topo.dor_distance(0, far))
          far = d;
      for (uint32_t dst : {0u, far}) {
        std::vector<uint32_t> ids;
        double lat = dst == 0 ? spec.loopback_latency : 0, bw = dst == 0 ? spec.loopback_bandwidth : 1e300;
        if (spec.kind == hp::Kind::FatTree) { // 2l cables; the top level's are the narrowest
          const int hops = topo.dor_distance(0, dst);
          ids.resize(static_cast<size_t>(hops));
          if (hops > 0) {
            lat = hops * spec.link_types[0].latency;
            bw  = hp::fat_tree_level_bandwidth(spec.fat_tree, spec.link_types[0].bandwidth, hops / 2);
          }
        } else {
          topo.route(0, dst, ids);
        }
        for (uint32_t id : spec.kind == hp::Kind::FatTree ? std::vector<uint32_t>{} : ids) {
          const auto& t = spec.link_types[topo.links()[id].type];
          lat += t.latency;
          bw = std::min(bw, t.bandwidth);
        }
        double expected = lat + ping_bytes / bw;
        double got      = simulate_transfer(check.hosts[0], check.hosts[dst], ping_bytes);
        std::printf("ping %s -> %s (%zu hops): %.9g s, expected %.9g s\n", topo.host_name(0).c_str(),
                    topo.host_name(dst).c_str(), ids.size(), got, expected);
        if (!(std::fabs(got - expected) <= 1e-6 * expected))
          check.fail("simulated transfer time " + haec::units::exact(got) + " != " + haec::units::exact(expected));
      }
    }
    std::printf("mismatches: %ld\n", check.errors);
    std::fflush(stdout);
    return check.errors == 0 ? 0 : 1;
  } catch (const haec::InputError& e) {
    std::fprintf(stderr, "haec_platform_check: %s\n", e.what());
    return 2;
  }
}
