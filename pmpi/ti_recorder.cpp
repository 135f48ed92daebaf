// TI trace recorder: see ti_recorder.hpp.
#include "ti_recorder.hpp"

#include "counter_annotation.hpp"

#include <cstdio>

namespace haec::pmpi {

namespace {
// Below this a gap is floating-point noise of clock subtractions, not a sleep.
constexpr double kMinSleep = 1e-12;
} // namespace

std::string ti_number(double v)
{
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

void TiRecorder::ensure_ranks(int n)
{
  if (n > ranks())
    ranks_.resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    ranks_[static_cast<size_t>(i)].rank = i;
}

TiRecorder::Rank* TiRecorder::at(int rank)
{
  return rank >= 0 && rank < ranks() ? &ranks_[static_cast<size_t>(rank)] : nullptr;
}

void TiRecorder::push(Rank& r, const std::string& text)
{
  r.lines.push_back(std::to_string(r.rank) + " " + text);
}

// The time before the call whose actions follow: its computations first, then what remains as a
// sleep. Computations SMPI charged after the call's end (leave) are the next gap's.
void TiRecorder::flush(Rank& r)
{
  if (r.in_call) // every computation so far ran before the call's end
    make_due(r);
  if (r.due_flops > 0 && !r.due_counts.empty())
    r.lines.push_back(trace::format_counter_annotation(r.rank, {counter_events_, r.due_counts}));
  if (r.due_flops > 0)
    push(r, "compute " + ti_number(r.due_flops));
  if (r.sleep > kMinSleep)
    push(r, "sleep " + ti_number(r.sleep));
  r.due_flops = r.sleep = 0;
  r.due_counts.clear();
  r.awaiting.clear(); // counts handed over that no computation took (below smpi/cpu-threshold)
}

// What ran so far becomes due: it is written before the actions of the call that just ended.
void TiRecorder::make_due(Rank& r)
{
  r.due_flops += r.flops;
  r.flops = 0;
  if (!r.counts.empty()) {
    r.due_counts.resize(r.counts.size(), 0.0);
    for (size_t i = 0; i < r.counts.size(); ++i)
      r.due_counts[i] += r.counts[i];
    r.counts.clear();
  }
}

void TiRecorder::counter_events(const std::vector<std::string>& events)
{
  counter_events_ = events;
}

void TiRecorder::counters(int rank, const std::vector<double>& counts)
{
  Rank* r = at(rank);
  if (r != nullptr && counts.size() == counter_events_.size())
    r->awaiting = counts; // replaces a hand-over no computation took
}

void TiRecorder::init(int rank, double now)
{
  Rank* r = at(rank);
  if (!r)
    return;
  push(*r, "init");
  r->last_exit = now;
  r->in_call   = false;
  make_due(*r);
}

void TiRecorder::enter(int rank, double now)
{
  Rank* r = at(rank);
  if (!r)
    return;
  // Simulated time between the calls that no computation explains (sleeps, MPI_Wtime, ...).
  double gap = now - r->last_exit - r->seconds_outside;
  if (gap > kMinSleep)
    r->sleep += gap;
  r->seconds_outside = 0;
  r->seconds_inside  = 0;
  r->entered         = now;
  r->in_call         = true;
}

void TiRecorder::leave(int rank, double now, bool timed)
{
  Rank* r = at(rank);
  if (!r)
    return;
  if (timed) { // SMPI computes the gap's benchmark at the call's start: that part stays a compute
    double own = now - r->entered - r->seconds_inside;
    if (own > kMinSleep)
      r->sleep += own;
  }
  r->last_exit = now;
  r->in_call   = false;
  make_due(*r);
}

void TiRecorder::computation_started(int rank, double flops)
{
  if (Rank* r = at(rank)) {
    r->flops += flops;
    r->running_inside = r->in_call;
    if (!r->awaiting.empty()) { // this computation takes the counts handed over before it
      r->counts.resize(r->awaiting.size(), 0.0);
      for (size_t i = 0; i < r->awaiting.size(); ++i)
        r->counts[i] += r->awaiting[i];
      r->awaiting.clear();
    }
  }
}

void TiRecorder::computation_ended(int rank, double seconds)
{
  if (Rank* r = at(rank))
    (r->running_inside ? r->seconds_inside : r->seconds_outside) += seconds;
}

void TiRecorder::action(int rank, const std::string& text)
{
  if (Rank* r = at(rank)) {
    flush(*r);
    push(*r, text);
  }
}

void TiRecorder::send(int rank, bool blocking, int dst, int tag, double count, int dtype, uint64_t request)
{
  Rank* r = at(rank);
  if (!r)
    return;
  flush(*r);
  push(*r, std::string(blocking ? "send " : "isend ") + std::to_string(dst) + " " + std::to_string(tag) + " " +
               ti_number(count) + " " + std::to_string(dtype));
  if (!blocking) {
    Pending p;
    p.kind = Pending::Send;
    p.src = rank, p.dst = dst, p.tag = tag;
    r->pending[request] = p;
  }
}

void TiRecorder::recv(int rank, int src, int tag, double count, int dtype)
{
  action(rank, "recv " + std::to_string(src) + " " + std::to_string(tag) + " " + ti_number(count) + " " +
                   std::to_string(dtype));
}

void TiRecorder::irecv(int rank, int src, int tag, double count, int dtype, uint64_t request)
{
  Rank* r = at(rank);
  if (!r)
    return;
  flush(*r);
  Pending p;
  p.kind = Pending::Recv;
  p.src = src, p.dst = rank, p.tag = tag, p.count = count, p.dtype = dtype;
  p.line = r->lines.size();
  push(*r, "irecv " + std::to_string(src) + " " + std::to_string(tag) + " " + ti_number(count) + " " +
               std::to_string(dtype));
  r->pending[request] = p;
}

void TiRecorder::collective_start(int rank, const std::string& op, const std::string& args, uint64_t request)
{
  Rank* r = at(rank);
  if (!r)
    return;
  flush(*r);
  Pending p;
  p.kind = Pending::Collective;
  p.id   = r->next_id++;
  push(*r, "haec_" + op + " " + std::to_string(p.id) + (args.empty() ? "" : " " + args));
  r->pending[request] = p;
}

void TiRecorder::complete(int rank, uint64_t request, int src, int tag)
{
  Rank* r = at(rank);
  if (!r)
    return;
  auto it = r->pending.find(request);
  if (it == r->pending.end())
    return; // a request we never saw (MPI_PROC_NULL, persistent receive not started, ...)
  Pending p = it->second;
  r->pending.erase(it);
  flush(*r);
  if (p.kind == Pending::Collective) {
    push(*r, "haec_wait " + std::to_string(p.id));
    return;
  }
  if (p.kind == Pending::Recv && (p.src == kAny || p.tag == kAny)) {
    // A wildcard receive: the replay must post it for the message it actually matched.
    if (p.src == kAny)
      p.src = src;
    if (p.tag == kAny)
      p.tag = tag;
    r->lines[p.line] = std::to_string(rank) + " irecv " + std::to_string(p.src) + " " + std::to_string(p.tag) + " " +
                       ti_number(p.count) + " " + std::to_string(p.dtype);
  }
  push(*r, "wait " + std::to_string(p.src) + " " + std::to_string(p.dst) + " " + std::to_string(p.tag));
}

bool TiRecorder::knows(int rank, uint64_t request) const
{
  return rank >= 0 && rank < ranks() && ranks_[static_cast<size_t>(rank)].pending.count(request) > 0;
}

void TiRecorder::forget(int rank, uint64_t request)
{
  if (Rank* r = at(rank))
    r->pending.erase(request);
}

void TiRecorder::finalize(int rank)
{
  Rank* r = at(rank);
  if (!r)
    return;
  make_due(*r);
  flush(*r);
  push(*r, "finalize");
  r->finalized = true;
}

void TiRecorder::unsupported(int rank, const std::string& call, const std::string& why)
{
  if (error_.empty())
    error_ = call + " (rank " + std::to_string(rank) + ") cannot be replayed: " + why;
}

void TiRecorder::failed(const std::string& why)
{
  if (error_.empty())
    error_ = why;
}

std::string TiRecorder::rank_text(int rank) const
{
  std::string out;
  if (rank < 0 || rank >= ranks())
    return out;
  for (auto const& l : ranks_[static_cast<size_t>(rank)].lines)
    out += l + "\n";
  return out;
}

bool TiRecorder::finished() const
{
  for (auto const& r : ranks_)
    if (!r.finalized)
      return false;
  return !ranks_.empty();
}

} // namespace haec::pmpi
