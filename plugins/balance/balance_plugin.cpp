// SimGrid adapter of load balancing (MODELS.md §6): over-decomposed applications (more ranks
// than nodes) have their ranks migrated between nodes every K iterations, as the thesis's
// GreedyLB / RefineLB did, for unmodified applications.
//
//   - Each rank's load is the flops it computed (single-host executions) since the last step; a
//     node's capacity is its core count and its current pstate's speed, read from SimGrid at each
//     step (node_capacity.hpp turns both into predicted node times).
//   - Iterations are the core's iteration boundaries (haec/iterations); every K-th boundary a
//     rank reports its load for that window. When every rank has reported, the
//     strategy runs once (deterministic) and proposes nodes. The plan is kept only if it lowers
//     the predicted makespan by more than its migrations cost (footprint over the route's
//     bandwidth plus its latency, per node); otherwise nobody moves. Each rank to move migrates at its
//     next boundary (the last reporter at once): it sends its memory footprint from the old node
//     to the new one (an s4u communication, so it costs network time and link energy), then
//     Actor::set_host, and tells the core (RankMigrated). Boundaries are MPI call entries at the start of an iteration, where the
//     previous iteration's requests are complete, so no rank moves in the middle of a transfer.
//   - An application calling AMPI_Migrate (smpi/sampi.h) gets its calls as the balancing points
//     instead of every K iterations.
// Outputs: migrations.csv (time, iteration, rank, from, to, bytes) and balance.csv (each step's
// predicted node times before and after, and whether the plan ran), summary entries
// balance_steps, migrations and balance_plans_skipped.
#include "balance_settings.hpp"
#include "node_capacity.hpp"
#include "run.hpp"
#include "units.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <unordered_map>

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(haec_balance, smpi, "HAEC load balancing");

namespace sg4 = simgrid::s4u;

namespace haec::balance {
namespace {

struct RankState {
  int rank       = -1;
  sg4::Actor* actor = nullptr;
  bool tracked   = false;
  int iteration  = 0;
  double load    = 0; // flops computed in the current window
  int reported   = 0; // windows reported
  int move_to    = -1; // node index to migrate to at the next boundary
  bool pinned    = false;
};

struct Step {
  int window;
  int iteration;
  double time;
  std::vector<double> before, after; // predicted node times (s): current, and what will run
  bool executed;
};

struct Migration {
  double time;
  int iteration, rank;
  std::string from, to;
  double bytes;
};

class BalancePlugin {
public:
  void start();

private:
  void on_computation_started(const core::ComputationStarted& e);
  void on_computation_ended(const core::ComputationEnded& e);
  void on_call(const core::MpiCall& call);
  void on_boundary(const core::IterationBoundary& b);
  void at_boundary(RankState& rs, double now);
  void contribute(core::Results& results) const;
  RankState& state(long pid);
  void report(RankState& rs, double now);
  void decide(double now, int iteration);
  std::vector<NodeCapacity> capacities() const;
  std::vector<double> move_costs(const std::vector<RankLoad>& loads, const std::vector<int>& plan) const;
  void migrate(RankState& rs);

  BalanceConfig config_;
  std::vector<sg4::Host*> nodes_;
  std::map<const sg4::Host*, int> node_index_;
  std::vector<RankState> ranks_; // by pid
  std::unordered_map<const sg4::Activity*, std::pair<long, double>> running_; // exec -> pid, flops
  std::vector<Step> steps_;
  std::vector<Migration> migrations_;
  std::map<int, int> window_reports_; // window -> ranks reported
  int windows_decided_ = 0;
  int plans_skipped_   = 0; // plans not worth their migrations
  bool migrate_calls_  = false; // the app calls AMPI_Migrate: those are the balancing points
};

BalancePlugin& plugin()
{
  static BalancePlugin instance;
  return instance;
}

void BalancePlugin::start()
{
  config_ = core::configure(balance_config);
  if (!config_.strategy)
    return;
  for (auto* h : sg4::Engine::get_instance()->get_all_hosts())
    if (!dynamic_cast<sg4::VirtualMachine*>(h))
      nodes_.push_back(h);
  std::sort(nodes_.begin(), nodes_.end(), [](sg4::Host* a, sg4::Host* b) {
    const char *na = a->get_property("haec:node"), *nb = b->get_property("haec:node");
    if (na && nb)
      return std::atol(na) < std::atol(nb);
    return a->get_name() < b->get_name();
  });
  for (size_t i = 0; i < nodes_.size(); ++i)
    node_index_[nodes_[i]] = static_cast<int>(i);
  auto& bus = core::bus();
  bus.computation_started.subscribe([this](const core::ComputationStarted& e) { on_computation_started(e); });
  bus.computation_ended.subscribe([this](const core::ComputationEnded& e) { on_computation_ended(e); });
  bus.iteration_boundaries.subscribe([this](const core::IterationBoundary& b) { on_boundary(b); });
  bus.mpi_calls.subscribe([this](const core::MpiCall& c) { on_call(c); });
  core::add_results_writer([this](core::Results& r) { contribute(r); });
}

RankState& BalancePlugin::state(long pid)
{
  if (pid >= static_cast<long>(ranks_.size()))
    ranks_.resize(static_cast<size_t>(pid) + 1);
  RankState& rs = ranks_[static_cast<size_t>(pid)];
  if (!rs.tracked) {
    rs.tracked = true;
    rs.actor   = sg4::Actor::self();
    rs.rank    = core::rank_of(pid);
    rs.pinned  = config_.pinned.count(rs.rank) > 0;
  }
  return rs;
}

void BalancePlugin::on_computation_started(const core::ComputationStarted& e)
{
  if (e.host != nullptr && e.pid >= 0)
    running_[&e.exec] = {e.pid, e.exec.get_remaining()};
}

void BalancePlugin::on_computation_ended(const core::ComputationEnded& e)
{
  auto it = running_.find(&e.exec);
  if (it == running_.end())
    return;
  // Flops done (what remains of a cancelled execution does not count): independent of the
  // host's speed and of the ranks sharing it.
  state(it->second.first).load += it->second.second - e.exec.get_remaining();
  running_.erase(it);
}

// An application calling AMPI_Migrate gets those calls as its balancing points.
void BalancePlugin::on_call(const core::MpiCall& call)
{
  if (!call.enter)
    return;
  RankState& rs = state(call.pid);
  if (core::site_text(call.site).rfind("MPI_Migrate@", 0) != 0)
    return;
  if (!migrate_calls_)
    XBT_INFO("the application calls MPI_Migrate: balancing at those calls instead of every %d iterations",
             config_.every);
  migrate_calls_ = true;
  at_boundary(rs, call.time);
}

// Every K-th iteration boundary is a balancing point, unless the application calls MPI_Migrate
// (its own call's boundary is handled as that call, on_call).
void BalancePlugin::on_boundary(const core::IterationBoundary& b)
{
  if (!migrate_calls_ && core::site_text(b.site).rfind("MPI_Migrate@", 0) != 0)
    at_boundary(state(b.pid), b.time);
}

void BalancePlugin::at_boundary(RankState& rs, double now)
{
  ++rs.iteration;
  if (migrate_calls_ || rs.iteration % config_.every == 0)
    report(rs, now);
  if (rs.move_to >= 0)
    migrate(rs);
}

// A rank's window is complete; once every rank completed it the strategy runs. Ranks ahead of
// the others keep computing meanwhile: their load then already counts some of the next window.
void BalancePlugin::report(RankState& rs, double now)
{
  window_reports_[rs.reported++]++;
  int live = 0;
  for (auto const& r : ranks_)
    live += r.tracked;
  while (window_reports_[windows_decided_] == live)
    decide(now, rs.iteration);
}

void BalancePlugin::decide(double now, int iteration)
{
  std::vector<RankLoad> loads;
  std::vector<RankState*> who;
  for (auto& r : ranks_)
    if (r.tracked && r.actor) {
      loads.push_back({r.rank, r.load, node_index_.at(r.actor->get_host()), r.pinned});
      who.push_back(&r);
    }
  const auto nodes = capacities();
  std::vector<int> before(loads.size());
  for (size_t i = 0; i < loads.size(); ++i)
    before[i] = loads[i].node;
  const auto plan    = config_.strategy->assign(loads, nodes);
  const auto verdict = judge_plan(loads, plan, nodes, move_costs(loads, plan));
  const auto& after  = verdict.execute ? plan : before;
  if (!verdict.execute && verdict.moves > 0) {
    ++plans_skipped_;
    XBT_DEBUG("step %d: plan of %d moves skipped: predicted makespan %g -> %g s, migrations %g s", windows_decided_,
              verdict.moves, verdict.makespan_before, verdict.makespan_after, verdict.migration_cost);
  }
  steps_.push_back({windows_decided_, iteration, now, node_times(loads, before, nodes), node_times(loads, after, nodes),
                    verdict.execute});
  for (size_t i = 0; i < who.size(); ++i) {
    who[i]->load    = 0;
    who[i]->move_to = after[i] != before[i] ? after[i] : -1;
  }
  ++windows_decided_;
}

// Each node's cores and the speed of its current pstate (a governor may have changed it).
std::vector<NodeCapacity> BalancePlugin::capacities() const
{
  std::vector<NodeCapacity> c;
  for (auto* h : nodes_)
    c.push_back({h->get_core_count(), h->get_speed()});
  return c;
}

// Seconds each planned move takes alone: its route's latency plus the footprint at the route's
// narrowest bandwidth (0 for ranks that stay).
std::vector<double> BalancePlugin::move_costs(const std::vector<RankLoad>& loads, const std::vector<int>& plan) const
{
  std::vector<double> cost(loads.size(), 0.0);
  for (size_t i = 0; i < loads.size(); ++i) {
    if (plan[i] == loads[i].node)
      continue;
    std::vector<sg4::Link*> links;
    double latency = 0;
    nodes_.at(static_cast<size_t>(loads[i].node))->route_to(nodes_.at(static_cast<size_t>(plan[i])), links, &latency);
    double bandwidth = 0;
    for (auto* l : links)
      bandwidth = bandwidth > 0 ? std::min(bandwidth, l->get_bandwidth()) : l->get_bandwidth();
    cost[i] = latency + (bandwidth > 0 ? config_.footprint / bandwidth : 0);
  }
  return cost;
}

// Runs in the rank's own actor, at an MPI call entry (no request of its pending).
void BalancePlugin::migrate(RankState& rs)
{
  sg4::Host* from = rs.actor->get_host();
  sg4::Host* to   = nodes_.at(static_cast<size_t>(rs.move_to));
  rs.move_to      = -1;
  if (from == to)
    return;
  const double bytes = config_.footprint;
  const double start = sg4::Engine::get_clock();
  if (bytes > 0)
    sg4::Comm::sendto(from, to, static_cast<uint64_t>(bytes));
  rs.actor->set_host(to);
  migrations_.push_back({start, rs.iteration, rs.rank, from->get_name(), to->get_name(), bytes});
  core::bus().rank_migrated.publish(core::RankMigrated{rs.actor->get_pid(), rs.rank, from, to, start});
}

void BalancePlugin::contribute(core::Results& results) const
{
  std::ostringstream m;
  m << "time,iteration,rank,from,to,bytes\n";
  for (auto const& x : migrations_)
    m << units::exact(x.time) << ',' << x.iteration << ',' << x.rank << ',' << x.from << ',' << x.to << ','
      << units::exact(x.bytes) << '\n';
  results.add_file("migrations.csv", m.str());
  std::ostringstream b;
  b << "step,iteration,time,node,load_before_s,load_after_s,executed\n";
  for (auto const& s : steps_)
    for (size_t n = 0; n < s.before.size(); ++n)
      b << s.window << ',' << s.iteration << ',' << units::exact(s.time) << ',' << nodes_[n]->get_name() << ','
        << units::exact(s.before[n]) << ',' << units::exact(s.after[n]) << ',' << s.executed << '\n';
  results.add_file("balance.csv", b.str());
  results.add_summary("balance_strategy", "\"" + config_.strategy_name + "\"");
  results.add_summary("balance_steps", std::to_string(steps_.size()));
  results.add_summary("migrations", std::to_string(migrations_.size()));
  results.add_summary("balance_plans_skipped", std::to_string(plans_skipped_));
}

struct Registration {
  Registration()
  {
    core::register_plugin("balance", 40, [] { plugin().start(); });
  }
} registration;

} // namespace
} // namespace haec::balance
