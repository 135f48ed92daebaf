// SimGrid adapter of load balancing (MODELS.md §6): over-decomposed applications (more ranks
// than nodes) have their ranks migrated between nodes every K iterations, as the thesis's
// GreedyLB / RefineLB did, for unmodified applications.
//
//   - Each rank's load is the seconds it computed (single-host executions) since the last step.
//   - Iterations come from the same splitter as the DVFS plugin (haec/iterations); every K-th
//     boundary a rank reports its load for that window. When every rank has reported, the
//     strategy runs once (deterministic) and assigns nodes; each rank to move migrates at its
//     next boundary (the last reporter at once): it sends its memory footprint from the old node
//     to the new one (an s4u communication, so it costs network time and link energy), then
//     Actor::set_host. Boundaries are MPI call entries at the start of an iteration, where the
//     previous iteration's requests are complete, so no rank moves in the middle of a transfer.
//   - An application calling AMPI_Migrate (smpi/sampi.h) gets its calls as the balancing points
//     instead of every K iterations.
// Outputs: migrations.csv (time, iteration, rank, from, to, bytes) and balance.csv (each step's
// per-node load before and after), summary entries balance_steps and migrations.
#include "iteration_modes.hpp"
#include "input_error.hpp"
#include "mpi_calls.hpp"
#include "run_context.hpp"
#include "strategies.hpp"
#include "units.hpp"
#include "atomic_file.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>
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

simgrid::config::Flag<std::string> cfg_strategy{"haec/balance/strategy",
                                                "Load-balancing strategy: greedy or refine (empty: off)", ""};
simgrid::config::Flag<int> cfg_every{"haec/balance/every", "Balance every K iterations", 10};
simgrid::config::Flag<double> cfg_tolerance{"haec/balance/tolerance",
                                            "With refine, nodes above tolerance x mean load give ranks away", 1.05};
simgrid::config::Flag<double> cfg_footprint{"haec/balance/footprint",
                                            "Bytes of memory a migrating rank sends to its new node", 1e6};
simgrid::config::Flag<std::string> cfg_pinned{"haec/balance/pinned", "Ranks that never migrate, e.g. 0,3-5", ""};

struct RankState {
  int rank       = -1;
  sg4::Actor* actor = nullptr;
  std::unique_ptr<dvfs::IterationSplitter> splitter;
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
  void on_platform_created();
  void on_exec_start(const sg4::Exec& exec);
  void on_completion(const sg4::Activity& activity);
  void on_call(const suite::MpiCall& call);
  void write(const std::string& dir);

private:
  RankState& state(long pid);
  void report(RankState& rs, double now);
  void decide(double now, int iteration);
  void migrate(RankState& rs);

  bool enabled_ = false;
  std::unique_ptr<Strategy> strategy_;
  dvfs::IterationMode mode_;
  std::vector<sg4::Host*> nodes_;
  std::map<const sg4::Host*, int> node_index_;
  std::vector<RankState> ranks_; // by pid
  std::set<int> pinned_;
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

std::set<int> parse_ranks(const std::string& text, const std::string& what)
{
  std::set<int> out;
  std::stringstream in(text);
  std::string part;
  while (std::getline(in, part, ',')) {
    if (part.empty())
      continue;
    const size_t dash = part.find('-');
    long long a = units::parse_integer(part.substr(0, dash), what);
    long long b = dash == std::string::npos ? a : units::parse_integer(part.substr(dash + 1), what);
    if (a < 0 || b < a || b > 1 << 24)
      throw InputError(what, "'" + part + "' is not a rank or rank range", "write e.g. 0,3-5");
    for (long long r = a; r <= b; ++r)
      out.insert(static_cast<int>(r));
  }
  return out;
}

void BalancePlugin::on_platform_created()
{
  if (cfg_strategy.get().empty())
    return;
  try {
    strategy_ = make_strategy(cfg_strategy.get(), cfg_tolerance, "haec/balance/strategy");
    if (cfg_every.get() <= 0)
      throw InputError("haec/balance/every", std::to_string(cfg_every.get()) + " is not a positive iteration count",
                       "balance every K >= 1 iterations, e.g. --every 5");
    if (!(cfg_footprint.get() >= 0))
      throw InputError("haec/balance/footprint", "must not be negative", "give the bytes a rank's memory occupies");
    mode_   = dvfs::parse_iteration_mode(simgrid::config::get_value<std::string>("haec/iterations"), "haec/iterations");
    pinned_ = parse_ranks(cfg_pinned.get(), "haec/balance/pinned");
  } catch (const std::exception& e) {
    suite::fail_run(e.what());
  }
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
  enabled_ = true;
  suite::add_mpi_call_observer([this](const suite::MpiCall& c) { on_call(c); });
  suite::add_results_writer([this](const std::string& dir) { write(dir); });
}

RankState& BalancePlugin::state(long pid)
{
  if (pid >= static_cast<long>(ranks_.size()))
    ranks_.resize(static_cast<size_t>(pid) + 1);
  RankState& rs = ranks_[static_cast<size_t>(pid)];
  if (!rs.splitter) {
    rs.actor         = sg4::Actor::self();
    const char* rank = rs.actor ? rs.actor->get_property("rank") : nullptr;
    rs.rank          = rank ? std::atoi(rank) : -1;
    rs.pinned        = pinned_.count(rs.rank) > 0;
    rs.splitter      = std::make_unique<dvfs::IterationSplitter>(mode_);
  }
  return rs;
}

void BalancePlugin::on_exec_start(const sg4::Exec& exec)
{
  if (!enabled_ || exec.get_host_number() != 1 || sg4::Actor::self() == nullptr)
    return;
  running_[&exec] = {sg4::this_actor::get_pid(), sg4::Engine::get_clock()};
}

void BalancePlugin::on_completion(const sg4::Activity& activity)
{
  auto it = running_.find(&activity);
  if (it == running_.end())
    return;
  const double end = activity.get_finish_time() >= 0 ? activity.get_finish_time() : sg4::Engine::get_clock();
  state(it->second.first).load += end - it->second.second;
  running_.erase(it);
}

void BalancePlugin::on_call(const suite::MpiCall& call)
{
  if (!enabled_ || !call.enter)
    return;
  RankState& rs         = state(call.pid);
  const std::string& st = suite::site_text(call.site);
  const bool is_migrate = st.rfind("MPI_Migrate@", 0) == 0;
  if (is_migrate && !migrate_calls_) {
    migrate_calls_ = true;
    XBT_INFO("the application calls MPI_Migrate: balancing at those calls instead of every %d iterations",
             cfg_every.get());
  }
  const bool boundary = migrate_calls_ ? is_migrate : rs.splitter->boundary(st, call.site);
  if (!boundary)
    return;
  ++rs.iteration;
  if (migrate_calls_ || rs.iteration % cfg_every.get() == 0)
    report(rs, call.time);
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
    live += r.splitter != nullptr;
  while (window_reports_[windows_decided_] == live)
    decide(now, rs.iteration);
}

void BalancePlugin::decide(double now, int iteration)
{
  std::vector<RankLoad> loads;
  std::vector<RankState*> who;
  for (auto& r : ranks_)
    if (r.splitter && r.actor) {
      loads.push_back({r.rank, r.load, node_index_.at(r.actor->get_host()), r.pinned});
      who.push_back(&r);
    }
  const int nodes = static_cast<int>(nodes_.size());
  std::vector<int> before(loads.size());
  for (size_t i = 0; i < loads.size(); ++i)
    before[i] = loads[i].node;
  const auto after = strategy_->assign(loads, nodes);
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
  const double bytes = cfg_footprint;
  const double start = sg4::Engine::get_clock();
  if (bytes > 0)
    sg4::Comm::sendto(from, to, static_cast<uint64_t>(bytes));
  rs.actor->set_host(to);
  migrations_.push_back({start, rs.iteration, rs.rank, from->get_name(), to->get_name(), bytes});
}

void BalancePlugin::write(const std::string& dir)
{
  std::ostringstream m;
  m << "time,iteration,rank,from,to,bytes\n";
  for (auto const& x : migrations_)
    m << units::exact(x.time) << ',' << x.iteration << ',' << x.rank << ',' << x.from << ',' << x.to << ','
      << units::exact(x.bytes) << '\n';
  write_file_atomic(dir + "/migrations.csv", m.str());
  std::ostringstream b;
  b << "step,iteration,time,node,load_before_s,load_after_s\n";
  for (auto const& s : steps_)
    for (size_t n = 0; n < s.before.size(); ++n)
      b << s.window << ',' << s.iteration << ',' << units::exact(s.time) << ',' << nodes_[n]->get_name() << ','
        << units::exact(s.before[n]) << ',' << units::exact(s.after[n]) << '\n';
  write_file_atomic(dir + "/balance.csv", b.str());
  suite::add_summary_entry("balance_strategy", "\"" + cfg_strategy.get() + "\"");
  suite::add_summary_entry("balance_steps", std::to_string(steps_.size()));
  suite::add_summary_entry("migrations", std::to_string(migrations_.size()));
}

struct Registration {
  Registration()
  {
    sg4::Engine::on_platform_created_cb([] { plugin().on_platform_created(); });
    sg4::Exec::on_start_cb([](sg4::Exec const& e) { plugin().on_exec_start(e); });
    sg4::Activity::on_completion_cb([](sg4::Activity const& a) { plugin().on_completion(a); });
  }
} registration;

} // namespace
} // namespace haec::balance
