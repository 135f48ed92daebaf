// The traffic statistics of a recording run (MARS, seed 003 §2.8-2.9): per source/destination
// pair and per message size (transfer_stats.hpp), per link (link_usage.hpp) and, with
// haec/snapshot-period, per period of simulated time (snapshots.hpp). transfers.cpp hands each
// completed transfer over with its route and bandwidth phase; the application's messages come
// from the PMPI layer and the replayed trace. Everything is kept in the pure model; this file
// only names SimGrid's links and reads the clock.
#include "core_parts.hpp"
#include "link_usage.hpp"
#include "run.hpp"
#include "snapshots.hpp"
#include "transfer_stats.hpp"
#include "units.hpp"

#include <simgrid/s4u.hpp>

#include <boost/container_hash/hash.hpp>

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace sg4 = simgrid::s4u;

namespace haec::core::parts {
namespace {

struct TrafficStats {
  PairStats pairs;
  SizeHistogram sizes;
  LinkUsage links;
  std::unordered_map<const sg4::Link*, uint32_t> ids;
  std::vector<const sg4::Link*> link_of; // id -> link
  // Every route seen, with its links' ids: the entries never move, so transfers keep a pointer.
  std::unordered_map<std::vector<sg4::Link*>, std::vector<uint32_t>, boost::hash<std::vector<sg4::Link*>>> routes;
  std::optional<Snapshots> snapshots;

  uint32_t id_of(const sg4::Link* link);
  std::vector<uint32_t> links_by_name();
};

TrafficStats& stats()
{
  static TrafficStats s;
  return s;
}

uint32_t TrafficStats::id_of(const sg4::Link* link)
{
  auto it = ids.find(link);
  if (it != ids.end())
    return it->second;
  const char* type = link->get_property("haec:type");
  const uint32_t id = links.add_link(LinkInfo{link->get_name(), type ? type : "", link->get_bandwidth()});
  ids.emplace(link, id);
  if (link_of.size() <= id)
    link_of.resize(id + 1, nullptr);
  link_of[id] = link;
  return id;
}

// Every link of the platform, used or not, in name order (the row order of the tables).
std::vector<uint32_t> TrafficStats::links_by_name()
{
  auto all = sg4::Engine::get_instance()->get_all_links();
  std::sort(all.begin(), all.end(), [](sg4::Link* a, sg4::Link* b) { return a->get_name() < b->get_name(); });
  std::vector<uint32_t> order;
  for (const sg4::Link* l : all)
    order.push_back(id_of(l));
  return order;
}

} // namespace

void start_traffic_stats()
{
  if (!recording() || !settings().given("haec/snapshot-period"))
    return;
  stats().snapshots.emplace(units::parse_time(settings().text("haec/snapshot-period"), "haec/snapshot-period"));
}

namespace {

// Each source host remembers the routes of its latest destinations (a rank talks to few peers):
// found by comparing a few pointers instead of hashing the route. Checked against the links each
// time, since a per-message routing policy may send the next message another way.
struct RecentRoutes {
  struct Entry {
    const sg4::Host* dst;
    std::vector<sg4::Link*> links;
    const std::vector<uint32_t>* ids;
  };
  static constexpr size_t kKept = 8;
  std::vector<Entry> entries;
  size_t next = 0; // the entry replaced next when full
};
const size_t recent_routes_slot = sg4::Host::extension_create([](void* p) { delete static_cast<RecentRoutes*>(p); });

} // namespace

const std::vector<uint32_t>& route_ids(const sg4::Host* src, const sg4::Host* dst, const std::vector<sg4::Link*>& route)
{
  auto* recent = static_cast<RecentRoutes*>(src->extension(recent_routes_slot));
  if (recent == nullptr) {
    recent = new RecentRoutes;
    const_cast<sg4::Host*>(src)->extension_set(recent_routes_slot, recent);
  }
  for (auto const& e : recent->entries)
    if (e.dst == dst && e.links == route)
      return *e.ids;
  const std::vector<uint32_t>& ids = route_ids(route);
  if (recent->entries.size() < RecentRoutes::kKept)
    recent->entries.push_back({dst, route, &ids});
  else
    recent->entries[recent->next++ % RecentRoutes::kKept] = {dst, route, &ids};
  return ids;
}

const std::vector<uint32_t>& route_ids(const std::vector<sg4::Link*>& route)
{
  TrafficStats& s = stats();
  if (auto it = s.routes.find(route); it != s.routes.end()) // once per transfer: no allocation
    return it->second;
  std::vector<uint32_t> ids;
  ids.reserve(route.size());
  for (const sg4::Link* l : route)
    ids.push_back(s.id_of(l));
  return s.routes.emplace(route, std::move(ids)).first->second;
}

} // namespace haec::core::parts

namespace haec::core {
const sg4::Link* link_of_id(uint32_t id)
{
  return parts::stats().link_of.at(id);
}
} // namespace haec::core

namespace haec::core::parts {

double route_latency(const std::vector<sg4::Link*>& route)
{
  double sum = 0;
  for (const sg4::Link* l : route)
    sum += l->get_latency();
  return sum;
}

void record_transfer_stats(const Transfer& t, const std::vector<uint32_t>& route, double bw_begin)
{
  TrafficStats& s = stats();
  s.pairs.add(t);
  s.sizes.add_transfer(t);
  const double occupied = t.link_bytes >= 0 ? t.link_bytes : static_cast<double>(t.bytes + smpi_envelope());
  const RouteTransfer rt{&route, t.bytes, occupied, std::min(bw_begin, t.end), t.end};
  s.links.add_transfer(rt);
  if (s.snapshots)
    s.snapshots->add_transfer(rt);
}

void record_app_message(int src_rank, int dst_rank, uint64_t bytes, double time)
{
  TrafficStats& s = stats();
  s.sizes.add_app_message(bytes);
  if (s.snapshots)
    s.snapshots->add_app_message(src_rank, dst_rank, bytes, time);
}

void close_settled_link_intervals()
{
  TrafficStats& s = stats();
  if (!s.snapshots && transfers_observed())
    s.links.close_before(transfers_horizon());
}

// transfer_pairs.csv, msg_size_hist.csv and link_stats.csv when transfers were observed (else
// absent: no table of zeros), and the snapshots (their link table likewise).
void add_traffic_stats_results(Results& results, bool app_observed)
{
  TrafficStats& s       = stats();
  const double makespan = sg4::Engine::get_clock();
  const std::vector<uint32_t> order = s.links_by_name();
  if (transfers_observed()) {
    results.add_file("transfer_pairs.csv", s.pairs.csv(run_record().node_names()));
    results.add_file("link_stats.csv", s.links.csv(order, makespan));
    results.add_file("msg_size_hist.csv", s.sizes.csv(app_observed));
  }
  if (!s.snapshots)
    return;
  results.add_summary("snapshot_period_s", units::exact(s.snapshots->period()));
  results.add_summary("snapshot_periods", std::to_string(s.snapshots->periods(makespan)));
  if (app_observed)
    results.add_file("snapshot_traffic.csv", s.snapshots->traffic_csv(makespan));
  if (transfers_observed())
    results.add_file("snapshot_links.csv", s.snapshots->links_csv(s.links, order, makespan));
}

} // namespace haec::core::parts
