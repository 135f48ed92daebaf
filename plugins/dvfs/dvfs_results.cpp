// What the DVFS adapter writes at the end of a run: iterations.csv, dvfs.csv, the summary's
// governor figures and, for the performance governor, the offline optimum and the free-float bound.
#include "dvfs_adapter.hpp"

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(haec_dvfs);

namespace haec::dvfs::adapter {

void DvfsPlugin::contribute(core::Results& results)
{
  std::ostringstream it;
  it << "rank,iteration,start,end,flops,compute_s,mpi_s\n";
  std::vector<IterationRecord> rows = iterations_;
  std::stable_sort(rows.begin(), rows.end(), [](const IterationRecord& a, const IterationRecord& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.iteration < b.iteration;
  });
  for (auto const& r : rows)
    it << r.rank << ',' << r.iteration << ',' << units::exact(r.start) << ',' << units::exact(r.end) << ','
       << units::exact(r.flops) << ',' << units::exact(r.t_comp) << ',' << units::exact(r.t_mpi()) << '\n';
  results.add_file("iterations.csv", it.str());

  std::ostringstream dv;
  dv << "host,governor,switches\n";
  long switches = 0;
  for (auto* h : hosts_) {
    auto* hd = h->extension<HostDvfs>();
    dv << h->get_name() << ',' << hd->governor->name() << ',' << hd->switches << '\n';
    switches += hd->switches;
  }
  results.add_file("dvfs.csv", dv.str());
  results.add_summary("governor", "\"" + config_.governor + "\"");
  results.add_summary("pstate_switches", std::to_string(switches));
  results.add_summary("dvfs_switch_energy_j", units::exact(switch_energy_j_));
  if (planner_) {
    results.add_summary("dvfs_plans", std::to_string(planner_->plans()));
    results.add_summary("dvfs_plan_refused", planner_->refused() || plan_off_ ? "true" : "false");
    if (const char* why = plan_refusal())
      results.add_summary("dvfs_plan_refusal", std::string("\"") + why + "\"");
  }
  int max_iter = 0;
  for (auto const& r : rows)
    max_iter = std::max(max_iter, r.iteration);
  results.add_summary("iterations", std::to_string(max_iter));
  add_optimum(results, rows);
}

// The offline optimum from this run's iterations (meaningful for the performance governor: its
// computations ran at the fastest pstate). Slack of a host in an iteration: its MPI time minus
// the smallest MPI time any rank had in any iteration, the cost of communicating without
// waiting. (A rank's own smallest MPI time would not do: a rank that always waits for its
// neighbours would show no slack at all.)
void DvfsPlugin::add_optimum(core::Results& results, const std::vector<IterationRecord>& rows)
{
  if (config_.governor != "performance")
    return;
  std::vector<PstateTable> tables;
  std::vector<std::vector<OfflineIteration>> per_host(hosts_.size());
  double comm = -1;
  for (auto const& r : rows)
    if (r.iteration > 0 && (comm < 0 || r.t_mpi() < comm))
      comm = std::max(0.0, r.t_mpi());
  for (auto* h : hosts_) {
    auto* hd = h->extension<HostDvfs>();
    if (!hd->model.power.has_profile())
      return; // no power data: no bound
    tables.emplace_back(hd->model, "host " + h->get_name());
  }
  for (auto const& r : rows) {
    auto it = host_of_rank_.find(r.rank);
    if (r.iteration <= 0 || it == host_of_rank_.end())
      continue;
    per_host[it->second->index].push_back(
        OfflineIteration{r.t_comp, r.duration(), std::max(0.0, r.t_mpi() - comm)});
  }
  try {
    const OfflineResult o = offline_optimum(tables, per_host);
    results.add_summary("dvfs_optimum_performance_j", units::exact(o.performance_j));
    results.add_summary("dvfs_optimum_saving_j", units::exact(o.performance_j - o.mix_j));
    results.add_summary("dvfs_optimum_single_saving_j", units::exact(o.performance_j - o.single_j));
    results.add_summary("dvfs_optimum_static_saving_j", units::exact(o.performance_j - o.static_j));
    add_free_float_bound(results, tables);
  } catch (const std::exception& e) {
    XBT_WARN("no offline optimum: %s", e.what());
  }
}

// With peer_slack, peer_float or peer_chain: the saving reachable without moving any other event, each
// computation stretched only into its free float (peer_slack.hpp), and the run's graph for
// scripts/dvfs_float_lp.py. Only when every governed host holds one rank (messages name their
// ranks only then) and the messages explain the run's schedule (its racing makespan is the run's).
void DvfsPlugin::add_free_float_bound(core::Results& results, const std::vector<PstateTable>& tables)
{
  if (!peers_)
    return;
  for (auto* h : hosts_)
    if (h->extension<HostDvfs>()->local_ranks != 1)
      return;
  std::vector<int> ranks;
  for (auto const& [rank, hd] : host_of_rank_)
    ranks.push_back(rank);
  const FloatGraph graph = peers_->graph(ranks);
  const double run = sg4::Engine::get_clock(), racing = racing_makespan(graph);
  if (!(run > 0) || std::abs(racing / run - 1) > 1e-4) {
    XBT_WARN("no float bounds: the messages explain a makespan of %.9g s, not the run's %.9g s (blocking sends or "
             "collectives the graph does not hold)", racing, run);
    return;
  }
  std::vector<std::vector<OfflineIteration>> per_host(hosts_.size());
  for (size_t i = 0; i < ranks.size(); ++i)
    per_host[host_of_rank_.at(ranks[i])->index] = free_float_windows(peers_->floats(ranks[i]), graph.gap[i]);
  const OfflineResult o = offline_optimum(tables, per_host);
  results.add_summary("dvfs_optimum_free_float_saving_j", units::exact(o.performance_j - o.mix_j));
  results.add_file("dvfs_float_graph.json", float_graph_json(graph, tables));
}

// The performance run's graph (PeerLedger::graph) and each rank's pstates (speed, busy and idle
// watts, fastest first), for scripts/dvfs_float_lp.py.
std::string DvfsPlugin::float_graph_json(const FloatGraph& g, const std::vector<PstateTable>& tables) const
{
  nlohmann::json ranks = nlohmann::json::array(), nodes = nlohmann::json::array(), edges = nlohmann::json::array();
  size_t i = 0;
  for (auto const& [rank, hd] : host_of_rank_) {
    const PstateTable& t     = tables[hd->index];
    nlohmann::json pstates = nlohmann::json::array();
    for (int l = 0; l < t.levels(); ++l)
      pstates.push_back({t.speed(t.pstate(l)), t.busy_watts(t.pstate(l)), t.idle_watts(t.pstate(l))});
    ranks.push_back({{"rank", rank}, {"gap", g.gap[i++]}, {"pstates", pstates}});
  }
  for (auto const& n : g.nodes)
    nodes.push_back({n.rank, n.start, n.compute});
  for (auto const& e : g.edges)
    edges.push_back({e.from, e.to, e.delay});
  return nlohmann::json{{"ranks", ranks}, {"nodes", nodes}, {"edges", edges}}.dump() + "\n";
}

} // namespace haec::dvfs::adapter
