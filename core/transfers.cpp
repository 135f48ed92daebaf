// Network transfers: the core installs SimGrid's bandwidth/latency factor callbacks when a link
// model is set (set_transfer_model) or routes are chosen per message, announces each transfer
// from them (they run in maestro, once per transfer: bandwidth then latency) and completes it from
// Link::on_communication_state_change, publishing TransferCompleted with the model time.
// A recording run with neither, on a SimGrid that tells the hosts of a network action
// (simgrid_compat::kNetworkActionHosts), observes each transfer at its completion alone (SMPI's own
// factor tables, smpi_factors.hpp, give its flow bytes and latency phase): no callback, nothing
// pending. Elsewhere the callbacks observe it, with the same results.
#include "checks.hpp"
#include "core_parts.hpp"
#include "haec_zone.hpp"
#include "run.hpp"
#include "simgrid_compat.hpp"
#include "smpi_factors.hpp"

#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/kernel/resource/Model.hpp>
#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <absl/container/flat_hash_map.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <deque>
#include <optional>
#include <unordered_map>

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(haec_transfers, smpi, "haec-smpi: network transfers");

namespace sg4 = simgrid::s4u;
namespace compat = haec::simgrid_compat;
using simgrid::kernel::resource::Action;

namespace haec::core::parts {
namespace {

// The MPI payload of a transfer of `size` network bytes (SMPI adds its envelope to each message).
uint64_t payload_bytes(double size)
{
  return static_cast<uint64_t>(std::max(0.0, size - smpi_envelope()));
}

// The factor table SimGrid applies under `key` (SMPI's, or the user's own).
SmpiFactorTable factor_table(const char* key)
{
  return SmpiFactorTable(simgrid::config::get_value<std::string>(key), key, compat::kFactorSingleValue);
}

// The links a transfer crosses; none between two ranks of one host (its loopback is not a hop).
int hops_of(const sg4::Host* src, const sg4::Host* dst, const std::vector<sg4::Link*>& links)
{
  return src == dst ? 0 : static_cast<int>(links.size());
}

// A completed action's end: its finish time when the kernel knows it, else now.
double end_time(const simgrid::kernel::resource::Action& action)
{
  return action.get_finish_time() >= 0 ? action.get_finish_time() : sg4::Engine::get_clock();
}

class Transfers {
public:
  void connect();
  void on_state_change(simgrid::kernel::resource::NetworkAction& action);
  void add_results(Results& results) const;
  void forget_hosts() { ++host_generation_; }
  bool installed() const { return installed_; }
  double horizon() const; // the earliest start in flight (transfers_horizon)
  TransferModel model;

private:
  double factor(bool bandwidth, double size, const sg4::Host* src, const sg4::Host* dst,
                const std::vector<sg4::Link*>& links);
  TransferTiming timing(double size, uint64_t payload, const sg4::Host* src, const sg4::Host* dst,
                        const std::vector<sg4::Link*>& links);
  void announce(double size, const sg4::Host* src, const sg4::Host* dst, const std::vector<sg4::Link*>& links,
                const TransferTiming& t, double now);

  std::optional<SmpiFactorTable> smpi_bw_, smpi_lat_;
  // Factor callbacks come in pairs (bandwidth then latency) for one transfer: evaluate once.
  struct {
    double size = -1;
    const sg4::Host* src = nullptr;
    const sg4::Host* dst = nullptr;
    double clock = -1;
    TransferTiming value;
    int hops = 0;
  } last_;
  // Transfers announced by the callbacks, completed by the state-change signal. Each announcement
  // is kept under its own network action: SimGrid creates the action before it asks for the
  // factors (created_action), so the completion finds exactly its own.
  struct Announced {
    Transfer transfer;
    const sg4::Host* src;
    const sg4::Host* dst;
    const std::vector<uint32_t>* link_ids; // link ids (traffic_stats.cpp, interned per route), when recording
    double bw_begin;                 // start of the bandwidth phase: start + lat_factor x route latency
    // Per-message routes only (platform::message_routing()): the router's token, the links taken
    // and those of the reverse flow SimGrid charged.
    uint64_t route_token = 0;
    std::vector<sg4::Link*> route, back_route;
  };
  void take_route(Announced& a, const std::vector<sg4::Link*>& links, double size) const;

  // Observation at completion (no link model, no per-message routes): the route of each pair of
  // nodes, found once (static routes).
  bool at_completion_ = false;
  struct CompletedRoute {
    std::vector<sg4::Link*> links;
    const std::vector<uint32_t>* ids; // interned (route_ids)
  };
  std::unordered_map<uint64_t, CompletedRoute> completed_routes_; // src node << 32 | dst node
  bool observe_at_completion() const;
  void connect_at_completion();
  void complete(const Action& action);
  const CompletedRoute& completed_route(const sg4::Host* src, const sg4::Host* dst, uint32_t src_node,
                                        uint32_t dst_node);
  void find_network_model();
  void connect_completions();
  Transfer new_transfer(const sg4::Host* src, const sg4::Host* dst, double size, int hops, double start);
  void add_still_running(RunRecord::PairCounts& started) const;
  // Announcement records of the transfers in flight, recycled (a deque: their addresses stay),
  // each under its network action.
  std::deque<Announced> records_;
  std::vector<Announced*> free_records_;
  absl::flat_hash_map<const Action*, Announced*> in_flight_;
  Announced* keep(Announced&& a);
  void release(Announced* a) { free_records_.push_back(a); }
  simgrid::kernel::resource::Model* net_model_ = nullptr;
  const Action& created_action(double size, const sg4::Host* src, const sg4::Host* dst, double now);
  void complete_announced(const Action& action);
  bool crosstraffic_ = true;
  // Per host, looked up once: its run-record node index and its sole rank (the name and rank maps
  // cost ~4 % of a 4096-rank replay when searched per transfer; bench/scale, measured).
  struct HostIds {
    uint32_t node;
    int rank;
  };
  // Kept in an extension slot of the host (the host owns it); a migration makes every entry stale.
  struct CachedHostIds {
    HostIds ids;
    uint64_t generation;
  };
  const size_t host_slot_ =
      sg4::Host::extension_create([](void* p) { delete static_cast<CachedHostIds*>(p); });
  uint64_t host_generation_ = 0;
  const HostIds& host_ids(const sg4::Host* host);
  // The network check: what started is what completed (the run record counts those per node
  // pair) plus what is still in the network model, so nothing is counted per transfer here.
  RunRecord::PairCounts started_by_pair() const;
  uint64_t unmatched_ = 0;
  bool installed_     = false;
};

Transfers& transfers()
{
  static Transfers t;
  return t;
}

void Transfers::connect()
{
  const bool routed = platform::message_routing() != nullptr; // the router learns of each message here
  if (!model && !recording() && !routed)
    return; // nothing asked: leave SimGrid's network untouched
  if (!model && !routed && observe_at_completion()) {
    connect_at_completion();
    return;
  }
  if (!model) {
    // Observing routes needs the callbacks; reproduce SMPI's own factor tables exactly.
    const bool user_factors =
        !simgrid::config::is_default(compat::kBandwidthFactor) || !simgrid::config::is_default(compat::kLatencyFactor);
    const std::string factor_keys = std::string(compat::kBandwidthFactor) + " or " + compat::kLatencyFactor;
    if (routed && user_factors)
      reject_setting("--cfg=haec/routing: per-message routes need the suite's factor callbacks, which " + factor_keys +
                     " replaces; drop those settings or use haec/routing:static");
    if (user_factors) {
      if (settings().given("haec/snapshot-period")) // half a snapshot (no links) is not what was asked
        reject_setting(settings().what("haec/snapshot-period") +
                       ": link snapshots need the network transfers, not observed when " + factor_keys +
                       " is set; drop them or use a link model (--link)"); // fits one line with 4.1's longer names
      XBT_WARN("%s was set: transfers are counted but routes are not recorded", factor_keys.c_str());
      return;
    }
    smpi_bw_.emplace(factor_table(compat::kBandwidthFactor));
    smpi_lat_.emplace(factor_table(compat::kLatencyFactor));
  }
  installed_    = true;
  crosstraffic_ = simgrid::config::get_value<bool>("network/crosstraffic");
  find_network_model();
  compat::set_network_factor_callbacks(
      [this](double size, const sg4::Host* src, const sg4::Host* dst, const std::vector<sg4::Link*>& links,
             const std::unordered_set<sg4::NetZone*>&) { return factor(true, size, src, dst, links); },
      [this](double size, const sg4::Host* src, const sg4::Host* dst, const std::vector<sg4::Link*>& links,
             const std::unordered_set<sg4::NetZone*>&) { return factor(false, size, src, dst, links); });
  connect_completions();
}

// The network model as a resource model: its started and failed actions (a transfer's, when it is
// created; those still running at the end).
void Transfers::find_network_model()
{
  net_model_ = compat::network_model();
  if (net_model_ == nullptr)
    fail_run("SimGrid's network model was not found among its models: transfers cannot be observed");
}

// Both ways complete a transfer from SimGrid's state-change signal; a migration makes the cached
// host ids stale.
void Transfers::connect_completions()
{
  sg4::Link::on_communication_state_change_cb(
      [](simgrid::kernel::resource::NetworkAction& a, Action::State) { transfers().on_state_change(a); });
  bus().rank_migrated.subscribe([](const RankMigrated&) { transfers().forget_hosts(); });
}

// At completion when nothing needs the callbacks: a SimGrid that tells a network action's hosts,
// its own SMPI network model (whose factor tables the suite reproduces) and not
// --cfg=haec/transfer-observation:callbacks.
bool Transfers::observe_at_completion() const
{
  return compat::kNetworkActionHosts && settings().text("haec/transfer-observation") == "auto" &&
         simgrid::config::get_value<std::string>("network/model") == "SMPI";
}

void Transfers::connect_at_completion()
{
  smpi_bw_.emplace(factor_table(compat::kBandwidthFactor));
  smpi_lat_.emplace(factor_table(compat::kLatencyFactor));
  installed_     = true;
  at_completion_ = true;
  find_network_model();
  connect_completions();
}

const Transfers::CompletedRoute& Transfers::completed_route(const sg4::Host* src, const sg4::Host* dst,
                                                            uint32_t src_node, uint32_t dst_node)
{
  const uint64_t key = uint64_t{src_node} << 32 | dst_node;
  auto it            = completed_routes_.find(key);
  if (it == completed_routes_.end()) {
    std::vector<sg4::Link*> links;
    src->route_to(dst, links, nullptr); // the route SimGrid's network model took (static routing)
    const std::vector<uint32_t>* ids = &route_ids(links);
    it = completed_routes_.emplace(key, CompletedRoute{std::move(links), ids}).first;
  }
  return it->second;
}

// A transfer's record as far as its start: its ranks and nodes, payload, hops and start time.
Transfer Transfers::new_transfer(const sg4::Host* src, const sg4::Host* dst, double size, int hops, double start)
{
  const HostIds& s = host_ids(src);
  const HostIds& d = host_ids(dst);
  Transfer t;
  t.src_rank = s.rank;
  t.dst_rank = d.rank;
  t.src_node = s.node;
  t.dst_node = d.node;
  t.bytes    = payload_bytes(size);
  t.hops     = hops;
  t.start    = start;
  return t;
}

// What the callbacks would have announced, from the completed action: the same Transfer, the
// same flow bytes (size over SMPI's bandwidth factor) and the same start of the bandwidth phase.
void Transfers::complete(const Action& action)
{
  if constexpr (compat::kNetworkActionHosts) { // else never connected (observe_at_completion)
    const auto [src, dst] = compat::network_action_hosts(action);
    const CompletedRoute& r = completed_route(src, dst, host_ids(src).node, host_ids(dst).node);
    const double size       = action.get_cost();
    Transfer t   = new_transfer(src, dst, size, hops_of(src, dst, r.links), action.get_start_time());
    t.end        = end_time(action);
    t.link_bytes = size / smpi_bw_->lookup(size);
    log_transfer(t, *r.ids, t.start + smpi_lat_->lookup(size) * route_latency(r.links));
    bus().transfer_completed.publish(TransferCompleted{t, src, dst, nullptr, nullptr, r.ids});
  }
}

TransferTiming Transfers::timing(double size, uint64_t payload, const sg4::Host* src, const sg4::Host* dst,
                                 const std::vector<sg4::Link*>& links)
{
  if (model)
    return model(size, payload, src, dst, links);
  return TransferTiming{-1, smpi_bw_->lookup(size), smpi_lat_->lookup(size)};
}

double Transfers::factor(bool bandwidth, double size, const sg4::Host* src, const sg4::Host* dst,
                         const std::vector<sg4::Link*>& links)
{
  const double now = sg4::Engine::get_clock();
  if (!(last_.size == size && last_.src == src && last_.dst == dst && last_.clock == now && !bandwidth)) {
    last_ = {size, src, dst, now, timing(size, payload_bytes(size), src, dst, links), hops_of(src, dst, links)};
  }
  const TransferTiming& t = last_.value;
  if (!bandwidth) { // the latency callback comes last: the transfer is now announced
    announce(size, src, dst, links, t, now);
    last_.size = -1; // the next pair belongs to another transfer
  }
  return bandwidth ? t.bw_factor : t.lat_factor;
}

void Transfers::announce(double size, const sg4::Host* src, const sg4::Host* dst, const std::vector<sg4::Link*>& links,
                         const TransferTiming& tm, double now)
{
  Transfer t   = new_transfer(src, dst, size, last_.hops, now);
  t.model_time = tm.total;
  t.link_bytes = size / tm.bw_factor; // what its flow occupies on each link (power plugin)
  // CM02 keeps a flow out of the bandwidth sharing for its latency (route latency x latency
  // factor): what the link statistics call its bandwidth phase starts after it.
  const bool stats = recording();
  static const std::vector<uint32_t> no_links;
  Announced a{t, src, dst, stats ? &route_ids(src, dst, links) : &no_links,
              now + tm.lat_factor * (stats ? route_latency(links) : 0.0), 0, {}, {}};
  take_route(a, links, size);
  in_flight_.emplace(&created_action(size, src, dst, now), keep(std::move(a)));
}

Transfers::Announced* Transfers::keep(Announced&& a)
{
  if (free_records_.empty()) {
    records_.push_back(std::move(a));
    return &records_.back();
  }
  Announced* r = free_records_.back();
  free_records_.pop_back();
  *r = std::move(a);
  return r;
}

// The action SimGrid is creating for the transfer whose factors it asks: the newest of the
// network model's started actions (of its failed ones when a link of the route is down), checked
// against the transfer: its size, its start, and not already announced.
const Action& Transfers::created_action(double size, const sg4::Host* src, const sg4::Host* dst, double now)
{
  for (auto* set : {net_model_->get_started_action_set(), net_model_->get_failed_action_set()}) {
    if (set->empty())
      continue;
    const Action& newest = set->back();
    if (newest.get_cost() == size && newest.get_start_time() == now && !in_flight_.contains(&newest))
      return newest;
  }
  fail_run("the network action of a transfer " + src->get_name() + " -> " + dst->get_name() +
           " was not the network model's newest: transfers cannot be observed with this SimGrid");
}

// SimGrid asked the zone for this message's route and for its reverse flow's (crosstraffic) just
// before these callbacks: both are still the pair's "next" routes until start() says it left.
void Transfers::take_route(Announced& a, const std::vector<sg4::Link*>& links, double size) const
{
  platform::MessageRouting* routing = platform::message_routing();
  if (!routing)
    return;
  a.route = links;
  if (crosstraffic_)
    a.dst->route_to(a.src, a.back_route, nullptr);
  a.route_token = routing->start(*a.src, *a.dst, size);
}

// What started and has not completed is still in the network model: announced and in flight, or
// (observed at completion) among the model's started actions.
void Transfers::add_still_running(RunRecord::PairCounts& started) const
{
  auto add = [&started](const sg4::Host* src, const sg4::Host* dst, double size) {
    auto& cell = started[{static_cast<int>(run_record().node_index(src->get_name())),
                          static_cast<int>(run_record().node_index(dst->get_name()))}];
    ++cell.first;
    cell.second += payload_bytes(size);
  };
  for (auto const& [action, announced] : in_flight_)
    add(announced->src, announced->dst, action->get_cost());
  if (compat::kNetworkActionHosts && at_completion_ && net_model_ != nullptr)
    for (const Action& action : *net_model_->get_started_action_set()) {
      const auto [src, dst] = compat::network_action_hosts(action);
      add(src, dst, action.get_cost());
    }
}

double Transfers::horizon() const
{
  double earliest = sg4::Engine::get_clock();
  if (net_model_ != nullptr)
    for (auto* set : {net_model_->get_started_action_set(), net_model_->get_failed_action_set()})
      for (auto const& action : *set)
        earliest = std::min(earliest, action.get_start_time());
  return earliest;
}

RunRecord::PairCounts Transfers::started_by_pair() const
{
  RunRecord::PairCounts started = run_record().transfers_by_node_pair();
  add_still_running(started);
  return started;
}

const Transfers::HostIds& Transfers::host_ids(const sg4::Host* host)
{
  auto* cached = static_cast<CachedHostIds*>(host->extension(host_slot_));
  if (cached == nullptr || cached->generation != host_generation_) {
    cached = new CachedHostIds{{run_record().node_index(host->get_name()), sole_rank_on(host)}, host_generation_};
    const_cast<sg4::Host*>(host)->extension_set(host_slot_, cached); // deletes the stale entry
  }
  return cached->ids;
}

void Transfers::on_state_change(simgrid::kernel::resource::NetworkAction& net_action)
{
  const Action& action = compat::as_action(net_action);
  auto state           = action.get_state();
  if (state != Action::State::FINISHED && state != Action::State::FAILED)
    return;
  if (at_completion_) {
    complete(action);
    return;
  }
  complete_announced(action);
}

void Transfers::complete_announced(const Action& action)
{
  auto it = in_flight_.find(&action);
  if (it == in_flight_.end()) {
    if (unmatched_++ == 0)
      XBT_WARN("a transfer completed that the factor callbacks never announced; it is not recorded");
    return;
  }
  Announced* done = it->second;
  in_flight_.erase(it);
  done->transfer.end = end_time(action);
  if (recording())
    log_transfer(done->transfer, *done->link_ids, done->bw_begin);
  const bool routed = platform::message_routing() != nullptr;
  if (routed)
    platform::message_routing()->end(done->route_token);
  bus().transfer_completed.publish(TransferCompleted{done->transfer, done->src, done->dst,
                                                     routed ? &done->route : nullptr,
                                                     routed ? &done->back_route : nullptr,
                                                     recording() ? done->link_ids : nullptr});
  release(done);
}

void Transfers::add_results(Results& results) const
{
  if (platform::message_routing()) { // which per-message policy chose the routes recorded
    nlohmann::json r = {{"policy", settings().text("haec/routing")}};
    if (settings().text("haec/routing") == "random")
      r["seed"] = settings().integer("haec/routing/seed");
    results.add_summary("routing", r.dump());
  }
  const std::string name = "network_sent_equals_received";
  if (!installed_) {
    results.add_check(not_checked(name, std::string("transfers were not observed (") + compat::kBandwidthFactor + " or " +
                                            compat::kLatencyFactor + " set)"));
    return;
  }
  Check c = pairs_match(name, started_by_pair(), run_record().transfers_by_node_pair(), "network transfer");
  if (c.result == Check::Result::Passed && unmatched_ > 0)
    c = Check{name, Check::Result::Failed,
              std::to_string(unmatched_) + " transfers completed that were never announced"};
  results.add_check(c);
}

} // namespace

void connect_transfers()
{
  transfers().connect();
}

bool transfers_observed()
{
  return transfers().installed();
}

double transfers_horizon()
{
  return transfers().horizon();
}

void add_transfer_results(Results& results)
{
  transfers().add_results(results);
}

} // namespace haec::core::parts

namespace haec::core {

void set_transfer_model(TransferModel model)
{
  parts::transfers().model = std::move(model);
}

} // namespace haec::core
