#include "peer_slack.hpp"

#include <algorithm>

namespace haec::dvfs {

AttributedWait attribute_wait(double wait, double own, double peer)
{
  if (!(wait > 0)) // no wait: the message was there (or arrived as the rank got ready)
    return {0, own};
  if (peer < 0)
    return {wait, own};
  const double slack = std::clamp(wait - (peer - own), 0.0, wait);
  return {slack, std::min(own + wait, peer)};
}

double end_lateness(double start_lateness, double t_comp, double race)
{
  return start_lateness + std::max(0.0, t_comp - race);
}

void PeerLedger::computation_ended(int rank, double end, double t_comp, double race, uint64_t key)
{
  Rank& r           = ranks_[rank];
  r.key_before      = r.key;
  r.key             = key;
  if (chain_) { // the candidates offered since its last occurrence are its chain float
    auto next = r.chain_next.find(key);
    if (next != r.chain_next.end()) {
      r.chain[key] = next->second;
      r.chain_next.erase(next);
      if (t_comp > 0) {
        const double ratio = r.chain[key] / t_comp;
        r.share.chain_ratio = r.share.chain_ratio < 0 ? ratio : std::min(r.share.chain_ratio, ratio);
      }
    }
  }
  r.late_end_before = r.late_end;
  r.comp_before     = r.comp;
  r.late_end        = end_lateness(r.late_start, t_comp, race);
  r.comp            = t_comp;
  r.end             = end;
  r.raced           = t_comp <= race * (1 + 1e-6);
  ++r.ended;
  if (keep_floats_)
    r.floats.push_back(ComputationFloat{end - t_comp, t_comp, -1, std::numeric_limits<double>::infinity()});
}

// The message carries the lateness of the computation that ended before it was sent (the
// sender may have started and even ended another one while it travelled).
void PeerLedger::message(int from, int to, double sent, double arrival)
{
  const Rank& s       = ranks_[from];
  const bool last_one = s.end <= sent;
  const size_t before = last_one ? 1 : 2; // the sending computation, counted from the last one ended
  ranks_[to].inbox.push_back(Heard{from, sent, arrival, last_one ? s.late_end : s.late_end_before,
                                   last_one ? s.comp : s.comp_before, s.ended >= before ? s.ended - before : kNone,
                                   last_one ? s.key : s.key_before});
}

double PeerLedger::computation_starts(int rank, double now, double wait, uint64_t key)
{
  Rank& r            = ranks_[rank];
  const Heard* last  = nullptr; // the last message that arrived while it waited
  for (auto const& h : r.inbox)
    if (h.at >= r.end && (last == nullptr || h.at >= last->at))
      last = &h;
  const AttributedWait a = attribute_wait(wait, r.late_end, last ? last->late : -1);
  const double slack     = attribute_ ? a.slack : std::max(0.0, wait);
  blame_or_float(r, now, wait, a.slack, last);
  if (chain_)
    learn_chain(r, now, wait, key);
  if (keep_floats_)
    note_floats(rank, r, now);
  r.late_start = a.start_lateness;
  r.inbox.clear();
  return slack;
}

// Only a rank that raced: a rank running slower has slack of its own to absorb a late message.
void PeerLedger::blame_or_float(Rank& r, double now, double wait, double slack, const Heard* last)
{
  if (!r.raced)
    return;
  if (attribute_ && last && last->comp > 0 && wait - slack > 0) {
    Share& peer = ranks_[last->from].share;
    peer.blame  = std::max(peer.blame, (wait - slack) / last->comp);
  }
  if (float_cap_)
    for (auto const& h : r.inbox)
      if (h.comp > 0) {
        Share& peer       = ranks_[h.from].share;
        const double f    = (now - h.at) / h.comp;
        peer.float_ratio  = peer.float_ratio < 0 ? f : std::min(peer.float_ratio, f);
      }
}

void PeerLedger::offer_chain(Rank& r, uint64_t key, double candidate)
{
  auto [at, fresh] = r.chain_next.emplace(key, candidate);
  if (!fresh)
    at->second = std::min(at->second, candidate);
}

// The computation starting now (task `key`) can be later by its own chain float, learnt at its
// last occurrence (not known yet: 0, nothing beyond the waits themselves). A rank that raced and
// waited at most kCriticalWait per second of its last computation is taken as critical: nothing
// before it may be later (the anchor that ends the chains; README, "Chain float").
void PeerLedger::learn_chain(Rank& r, double now, double wait, uint64_t key)
{
  const auto known        = r.chain.find(key);
  const bool critical     = r.raced && !(wait > kCriticalWait * r.comp);
  const double downstream = critical || known == r.chain.end() ? 0.0 : known->second;
  if (r.end >= 0)
    offer_chain(r, r.key, std::max(0.0, wait) + downstream);
  for (auto const& h : r.inbox)
    if (h.index != kNone)
      offer_chain(ranks_[h.from], h.key, std::max(0.0, now - h.at) + downstream);
}

// The MPI time after the rank's last computation ends now; each message it got was needed now.
void PeerLedger::note_floats(int rank, Rank& r, double now)
{
  if (!r.floats.empty() && r.floats.back().t_lib < 0)
    r.floats.back().t_lib = now - r.end;
  for (auto const& h : r.inbox) {
    auto& sent = ranks_[h.from].floats;
    if (h.index < sent.size()) {
      sent[h.index].message_float = std::min(sent[h.index].message_float, now - h.at);
      consumed_.push_back(Consumed{h.from, h.index, rank, r.ended, std::max(0.0, h.at - h.sent)});
    }
  }
}

FloatGraph PeerLedger::graph(const std::vector<int>& ranks) const
{
  FloatGraph g;
  std::unordered_map<int, size_t> dense, first_node;
  // A rank's own least gap may be a wait it always has: communicating takes the run's least.
  double least = -1;
  for (size_t i = 0; i < ranks.size(); ++i) {
    dense[ranks[i]]      = i;
    first_node[ranks[i]] = g.nodes.size();
    for (auto const& f : floats(ranks[i])) {
      g.nodes.push_back(FloatGraph::Node{i, f.start, f.t_comp});
      if (f.t_lib >= 0 && (least < 0 || f.t_lib < least))
        least = f.t_lib;
    }
  }
  g.gap.assign(ranks.size(), std::max(0.0, least));
  for (auto const& c : consumed_) {
    if (!dense.count(c.from) || !dense.count(c.to) || c.needed_by >= floats(c.to).size())
      continue; // its receiver never computed again
    g.edges.push_back(FloatGraph::Edge{first_node[c.from] + c.sent_by, first_node[c.to] + c.needed_by, c.transfer});
  }
  return g;
}

double PeerLedger::Share::capped(double slack_ratio, double chain_share) const
{
  if (slack_ratio < 0)
    return slack_ratio;
  if (float_ratio >= 0)
    slack_ratio = std::min(slack_ratio, float_ratio);
  if (chain_ratio >= 0)
    slack_ratio = std::min(slack_ratio, chain_share * chain_ratio);
  return slack_ratio;
}

PeerLedger::Share PeerLedger::close_iteration(int rank)
{
  Rank& r     = ranks_[rank];
  Share share = r.share;
  r.share     = Share{};
  return share;
}

double PeerLedger::chain_float(int rank, uint64_t key) const
{
  auto r = ranks_.find(rank);
  if (r == ranks_.end())
    return -1;
  auto c = r->second.chain.find(key);
  return c == r->second.chain.end() ? -1 : c->second;
}

double PeerLedger::lateness(int rank) const
{
  auto it = ranks_.find(rank);
  return it == ranks_.end() ? 0 : it->second.late_end;
}

const std::vector<PeerLedger::ComputationFloat>& PeerLedger::floats(int rank) const
{
  static const std::vector<ComputationFloat> none;
  auto it = ranks_.find(rank);
  return it == ranks_.end() ? none : it->second.floats;
}

double racing_makespan(const FloatGraph& g)
{
  std::vector<std::vector<const FloatGraph::Edge*>> into(g.nodes.size());
  for (auto const& e : g.edges)
    into[e.to].push_back(&e);
  std::vector<size_t> order(g.nodes.size());
  for (size_t k = 0; k < order.size(); ++k)
    order[k] = k;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return g.nodes[a].start < g.nodes[b].start; });
  std::vector<double> end(g.nodes.size(), 0);
  std::vector<long> last(g.gap.size(), -1); // by rank, its latest computation placed
  double makespan = 0;
  for (size_t k : order) { // a rank's computations keep their order: nodes are in start order
    const size_t rank = g.nodes[k].rank;
    double start      = last[rank] < 0 ? g.nodes[k].start : end[static_cast<size_t>(last[rank])] + g.gap[rank];
    for (auto const* e : into[k])
      start = std::max(start, end[e->from] + e->delay);
    end[k]     = start + g.nodes[k].compute;
    last[rank] = static_cast<long>(k);
    makespan   = std::max(makespan, end[k]);
  }
  return makespan;
}

std::vector<OfflineIteration> free_float_windows(const std::vector<PeerLedger::ComputationFloat>& floats, double comm)
{
  std::vector<OfflineIteration> windows;
  for (auto const& f : floats)
    if (f.t_lib >= 0)
      windows.push_back(
          OfflineIteration{f.t_comp, f.t_comp + f.t_lib, std::max(0.0, std::min(f.t_lib - comm, f.message_float))});
  return windows;
}

} // namespace haec::dvfs
