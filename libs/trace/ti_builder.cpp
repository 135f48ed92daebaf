// OTF2 events to TI actions: see ti_builder.hpp.
#include "ti_builder.hpp"

#include "counter_annotation.hpp"
#include "input_error.hpp"

#include <algorithm>
#include <cstdio>

namespace haec::trace {
namespace {
std::string num(double v)
{
  char b[40];
  std::snprintf(b, sizeof b, "%.17g", v);
  return b;
}
const char* kByte = " 6"; // SimGrid TI datatype id of MPI_BYTE
} // namespace

TiBuilder::TiBuilder(int ranks, double flops_per_second) : ranks_(static_cast<size_t>(ranks)), speed_(flops_per_second)
{
  for (int r = 0; r < ranks; ++r)
    ranks_[static_cast<size_t>(r)].lines.push_back(std::to_string(r) + " init");
}

TiBuilder::Rank& TiBuilder::at(int rank)
{
  if (rank < 0 || rank >= ranks())
    throw InputError("OTF2 event", "rank " + std::to_string(rank) + " outside 0.." + std::to_string(ranks() - 1),
                     "the trace is corrupt");
  return ranks_[static_cast<size_t>(rank)];
}

void TiBuilder::push(int rank, const std::string& s)
{
  at(rank).lines.push_back(std::to_string(rank) + " " + s);
}

// Regions nest; time at depth 0 (between MPI calls, or in the application's own regions) computes.
void TiBuilder::enter(int rank, double t, const std::string& region)
{
  Rank& r = at(rank);
  r.started      = true; // the computation before the first call starts at the trace's time 0
  const bool mpi = region.rfind("MPI_", 0) == 0;
  if (mpi && r.depth == 0 && t > r.since) {
    if (!counter_events_.empty())
      r.lines.push_back(counters_since_leave(rank, r, t, region));
    push(rank, "compute " + num((t - r.since) * speed_));
  }
  if (mpi || r.depth > 0)
    r.depth++;
}

void TiBuilder::leave(int rank, double t)
{
  Rank& r = at(rank);
  if (r.depth > 0 && --r.depth == 0) {
    r.since      = t;
    r.base_known = r.values_at == t;
    r.base       = r.values;
  }
}

void TiBuilder::counter_events(const std::vector<std::string>& names)
{
  counter_events_ = names;
  for (auto& r : ranks_)
    r.base.assign(names.size(), 0.0);
}

void TiBuilder::counter_values(int rank, double t, const std::vector<double>& accumulated)
{
  Rank& r     = at(rank);
  r.values    = accumulated;
  r.values_at = t;
}

// The annotation of the computation that ends at `t` when `region` is entered.
std::string TiBuilder::counters_since_leave(int rank, Rank& r, double t, const std::string& region)
{
  char at[64];
  std::snprintf(at, sizeof at, "rank %d at %.9g s", rank, t);
  const std::string when = at;
  const char* fix        = "each MPI enter and leave needs counter values (strictly synchronous metrics)";
  if (r.values_at != t || !r.base_known || r.values.size() != counter_events_.size())
    throw InputError(where, "counters missing around the computation before " + region + " (" + when + ")", fix);
  CounterSample sample{counter_events_, {}};
  for (size_t i = 0; i < r.values.size(); ++i) {
    const double d = r.values[i] - r.base[i];
    if (!(d >= 0))
      throw InputError(where, "counter " + counter_events_[i] + " decreases before " + region + " (" + when + ")",
                       "counters must accumulate from the start (OTF2_METRIC_ACCUMULATED_START)");
    sample.counts.push_back(d);
  }
  return format_counter_annotation(rank, sample);
}

void TiBuilder::send(int rank, int dst, uint32_t tag, uint64_t bytes)
{
  push(rank, "send " + std::to_string(dst) + " " + std::to_string(tag) + " " + std::to_string(bytes) + kByte);
}

void TiBuilder::isend(int rank, int dst, uint32_t tag, uint64_t bytes, uint64_t request)
{
  push(rank, "isend " + std::to_string(dst) + " " + std::to_string(tag) + " " + std::to_string(bytes) + kByte);
  Req q;
  q.send = true, q.peer = dst, q.tag = tag;
  at(rank).reqs[request] = q;
}

void TiBuilder::recv(int rank, int src, uint32_t tag, uint64_t bytes)
{
  push(rank, "recv " + std::to_string(src) + " " + std::to_string(tag) + " " + std::to_string(bytes) + kByte);
}

void TiBuilder::irecv_request(int rank, uint64_t request)
{
  Rank& r = at(rank);
  Req q;
  q.send = false, q.posted = true, q.line = r.lines.size();
  push(rank, "irecv ?"); // completed by irecv()
  r.reqs[request] = q;
}

void TiBuilder::irecv(int rank, int src, uint32_t tag, uint64_t bytes, uint64_t request)
{
  Rank& r = at(rank);
  auto it = r.reqs.find(request);
  const std::string line =
      std::to_string(rank) + " irecv " + std::to_string(src) + " " + std::to_string(tag) + " " + std::to_string(bytes) + kByte;
  if (it == r.reqs.end() || !it->second.posted)
    r.lines.push_back(line); // no request record: posted here
  else
    r.lines[it->second.line] = line;
  if (it != r.reqs.end())
    r.reqs.erase(it);
  push(rank, "wait " + std::to_string(src) + " " + std::to_string(rank) + " " + std::to_string(tag));
}

void TiBuilder::request_complete(int rank, uint64_t request)
{
  Rank& r = at(rank);
  auto it = r.reqs.find(request);
  if (it == r.reqs.end() || !it->second.send)
    return;
  push(rank, "wait " + std::to_string(rank) + " " + std::to_string(it->second.peer) + " " + std::to_string(it->second.tag));
  r.reqs.erase(it);
}

void TiBuilder::collective(int rank, const std::string& op, int root, uint64_t sent, uint64_t received)
{
  const uint64_t n = static_cast<uint64_t>(ranks());
  const std::string R = std::to_string(root < 0 ? 0 : root);
  const std::string b = kByte;
  if (op == "BARRIER")
    push(rank, "barrier");
  else if (op == "BCAST")
    push(rank, "bcast " + std::to_string(rank == root ? sent / std::max<uint64_t>(n - 1, 1) : received) + " " + R + b);
  else if (op == "REDUCE")
    push(rank, "reduce " + std::to_string(sent) + " 0 " + R + b);
  else if (op == "ALLREDUCE")
    push(rank, "allreduce " + std::to_string(sent) + " 0" + b);
  else if (op == "ALLTOALL")
    push(rank, "alltoall " + std::to_string(sent / n) + " " + std::to_string(received / n) + b + b);
  else if (op == "ALLGATHER")
    push(rank, "allgather " + std::to_string(sent) + " " + std::to_string(received / n) + b + b);
  else if (op == "GATHER")
    push(rank, "gather " + std::to_string(sent) + " " + std::to_string(rank == root ? received / n : sent) + " " + R + b + b);
  else if (op == "SCATTER")
    push(rank, "scatter " + std::to_string(rank == root ? sent / n : received) + " " + std::to_string(received) + " " + R + b + b);
  else if (op == "SCAN" || op == "EXSCAN")
    push(rank, (op == "SCAN" ? "scan " : "exscan ") + std::to_string(sent) + " 0" + b);
  else
    throw InputError("OTF2 collective " + op, "has no TI action here", "supported: barrier, bcast, reduce, allreduce, "
                                                                         "alltoall, allgather, gather, scatter, scan, exscan");
}

void TiBuilder::verbatim(int rank, const std::string& action)
{
  std::vector<std::string>& lines = at(rank).lines;
  // A call annotation of MPI_Init (call_annotation.hpp) goes before the rank's "init", which
  // opens every rank file here; finalize, written last, is already where its call's lines end.
  if (!action.empty() && action[0] == '#' && lines.size() == 1 && lines[0] == std::to_string(rank) + " init" &&
      action.find(" haec_call ") != std::string::npos)
    lines.insert(lines.begin(), action);
  else if (!action.empty() && action[0] == '#')
    lines.push_back(action);
  else if (action != "init" && action.rfind("init ", 0) != 0 && action != "finalize" && !action.empty())
    push(rank, action);
}

std::string TiBuilder::text(int rank) const
{
  std::string out;
  for (auto const& l : ranks_[static_cast<size_t>(rank)].lines)
    out += l + "\n";
  return out + std::to_string(rank) + " finalize\n";
}

} // namespace haec::trace
