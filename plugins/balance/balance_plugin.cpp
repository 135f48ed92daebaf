// SimGrid adapter of load balancing (MODELS.md §6): over-decomposed applications (more ranks
// than nodes) have their ranks migrated between nodes every K iterations, as the thesis's
// GreedyLB / RefineLB did, for unmodified applications.
//
//   - Each rank's load is the seconds it computed (single-host executions) since the last step.
//   - Iterations are the core's iteration boundaries (haec/iterations); every K-th boundary a
//     rank reports its load for that window. When every rank has reported, the
//     strategy runs once (deterministic) and assigns nodes; each rank to move migrates at its
//     next boundary (the last reporter at once): it sends its memory footprint from the old node
//     to the new one (an s4u communication, so it costs network time and link energy), then
//     Actor::set_host, and tells the core (RankMigrated). Boundaries are MPI call entries at the start of an iteration, where the
//     previous iteration's requests are complete, so no rank moves in the middle of a transfer.
//   - An application calling AMPI_Migrate (smpi/sampi.h) gets its calls as the balancing points
//     instead of every K iterations.
// Outputs: migrations.csv (time, iteration, rank, from, to, bytes) and balance.csv (each step's
// per-node load before and after), summary entries balance_steps and migrations.
#include "balance_settings.hpp"
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
  double load    = 0; // seconds computed in the current window
  int reported   = 0; // windows reported
  int move_to    = -1; // node index to migrate to at the next boundary
  bool pinned    = false;
};

struct Step {
  int window;
  int iteration;
  double time;
  std::vector<double> before, after;
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
  void migrate(RankState& rs);

  BalanceConfig config_;
  std::vector<sg4::Host*> nodes_;
  std::map<const sg4::Host*, int> node_index_;
  std::vector<RankState> ranks_; // by pid
  std::unordered_map<const sg4::Activity*, std::pair<long, double>> running_; // exec -> pid, start
  std::vector<Step> steps_;
  std::vector<Migration> migrations_;
  std::map<int, int> window_reports_; // window -> ranks reported
  int windows_decided_ = 0;
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
  if (e.exec.get_host_number() == 1 && e.pid >= 0)
    running_[&e.exec] = {e.pid, e.time};
}

void BalancePlugin::on_computation_ended(const core::ComputationEnded& e)
{
  auto it = running_.find(&e.exec);
  if (it == running_.end())
    return;
  state(it->second.first).load += e.end - it->second.second;
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
  const int nodes = static_cast<int>(nodes_.size());
  std::vector<int> before(loads.size());
  for (size_t i = 0; i < loads.size(); ++i)
    before[i] = loads[i].node;
  const auto after = config_.strategy->assign(loads, nodes);
  steps_.push_back({windows_decided_, iteration, now, node_loads(loads, before, nodes), node_loads(loads, after, nodes)});
  for (size_t i = 0; i < who.size(); ++i) {
    who[i]->load    = 0;
    who[i]->move_to = after[i] != before[i] ? after[i] : -1;
  }
  ++windows_decided_;
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
  b << "step,iteration,time,node,load_before_s,load_after_s\n";
  for (auto const& s : steps_)
    for (size_t n = 0; n < s.before.size(); ++n)
      b << s.window << ',' << s.iteration << ',' << units::exact(s.time) << ',' << nodes_[n]->get_name() << ','
        << units::exact(s.before[n]) << ',' << units::exact(s.after[n]) << '\n';
  results.add_file("balance.csv", b.str());
  results.add_summary("balance_strategy", "\"" + config_.strategy_name + "\"");
  results.add_summary("balance_steps", std::to_string(steps_.size()));
  results.add_summary("migrations", std::to_string(migrations_.size()));
}

struct Registration {
  Registration()
  {
    core::register_plugin("balance", 40, [] { plugin().start(); });
  }
} registration;

} // namespace
} // namespace haec::balance
