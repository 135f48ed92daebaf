// Lagrange's coordinated plan in the adapter (lagrange_plan, plan_horizon.hpp): each rank's
// levels, the ledger's messages fed to the planner, each computation's planned stretch, and the
// plan made when every rank completed an iteration.
#include "dvfs_adapter.hpp"

XBT_LOG_EXTERNAL_DEFAULT_CATEGORY(haec_dvfs);

namespace haec::dvfs::adapter {


// lagrange_plan: each rank's levels as the plan prices them.
void DvfsPlugin::set_plan_levels(const RankTrack& rt)
{
  if (!planning() || rt.rank < 0)
    return;
  planner_->rank_levels(static_cast<size_t>(rt.rank), plan_levels(rt.host->governor->table()));
}

// The messages the ledger matched to computations since the last call.
void DvfsPlugin::feed_messages()
{
  const auto& all = peers_->consumed();
  for (; messages_fed_ < all.size(); ++messages_fed_) {
    auto const& m = all[messages_fed_];
    if (m.from >= 0 && m.to >= 0)
      planner_->message(static_cast<size_t>(m.from), m.sent_by, static_cast<size_t>(m.to), m.needed_by, m.transfer);
  }
}

// The plan's stretch of this computation, run at the cheapest pstates of that length; no plan: race.
Plan DvfsPlugin::planned(const RankTrack& rt, const HostDvfs& hd) const
{
  const PstateTable& t = hd.governor->table();
  const double stretch = rt.rank < 0 ? -1
                                    : planner_->stretch(static_cast<size_t>(rt.rank), rt.comp_iteration,
                                                        rt.comp_position, rt.comp_flops / t.fastest_speed());
  return stretched_plan(t, rt.comp_flops, stretch);
}

// Why Lagrange kept its local rules instead of the coordinated plan (nullptr: it did not).
const char* DvfsPlugin::plan_refusal() const
{
  if (plan_off_)
    return "a node holds several ranks";
  if (planner_->too_large())
    return "a plan would hold more computations than lagrange_plan_max: every computation raced";
  if (planner_->refused())
    return "the messages do not explain the run's schedule (blocking sends or collectives)";
  return nullptr;
}

// Every rank completed the iteration: plan the next ones (one rank per node only: messages name
// their ranks only then).
void DvfsPlugin::iteration_completed(int iteration)
{
  if (++completed_[iteration] < ranks_seen_)
    return;
  completed_.erase(iteration);
  for (auto* h : hosts_)
    if (h->extension<HostDvfs>()->local_ranks > 1) {
      plan_off_ = true;
      return;
    }
  planner_->plan_after(static_cast<size_t>(iteration));
  if (planner_->too_large())
    XBT_WARN("Lagrange races: a coordinated plan of this run would hold more than %d computations "
             "(haec/dvfs/params:lagrange_plan_max); raise it, or give 0 for no limit, to plan",
             config_.params.lagrange_plan_max);
}

} // namespace haec::dvfs::adapter
