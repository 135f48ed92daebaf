// TI trace recorder: see ti_recorder.hpp.
#include "ti_recorder.hpp"

#include "counter_annotation.hpp"

#include <algorithm>
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

// The time before the call whose actions follow, in the order it ran. Computations SMPI charged
// after the call's end (leave) are the next gap's.
void TiRecorder::flush(Rank& r)
{
  if (r.in_call) // every computation so far ran before the call's end
    make_due(r);
  for (auto const& p : r.due) {
    if (p.flops > 0 && !p.counts.empty())
      r.lines.push_back(trace::format_counter_annotation(r.rank, {counter_events_, p.counts}));
    if (p.flops > 0)
      push(r, "compute " + ti_number(p.flops));
    else if (p.sleep > kMinSleep)
      push(r, "sleep " + ti_number(p.sleep));
  }
  r.due.clear();
  r.awaiting.clear(); // counts handed over that no computation took (below smpi/cpu-threshold)
}

namespace {
void add_counts(std::vector<double>& to, const std::vector<double>& counts)
{
  to.resize(std::max(to.size(), counts.size()), 0.0);
  for (size_t i = 0; i < counts.size(); ++i)
    to[i] += counts[i];
}
} // namespace

// What ran so far becomes due: it is written before the actions of the call that just ended.
void TiRecorder::make_due(Rank& r)
{
  for (auto& p : r.pieces) {
    Piece* last = r.due.empty() ? nullptr : &r.due.back();
    if (last != nullptr && (last->flops > 0) == (p.flops > 0)) { // consecutive ones of a kind add up
      last->flops += p.flops;
      last->sleep += p.sleep;
      add_counts(last->counts, p.counts);
    } else {
      r.due.push_back(std::move(p));
    }
  }
  r.pieces.clear();
}

// Simulated time no computation explains (sleeps, MPI_Wtime, a polling call's own time).
void TiRecorder::add_sleep(Rank& r, double seconds)
{
  if (seconds <= kMinSleep)
    return;
  if (r.pieces.empty() || r.pieces.back().flops > 0)
    r.pieces.emplace_back();
  r.pieces.back().sleep += seconds;
}

void TiRecorder::add_flops(Rank& r, double flops)
{
  if (r.pieces.empty() || r.pieces.back().flops <= 0)
    r.pieces.emplace_back();
  Piece& p = r.pieces.back();
  p.flops += flops;
  if (!r.awaiting.empty()) { // this computation takes the counts handed over before it
    add_counts(p.counts, r.awaiting);
    r.awaiting.clear();
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
  r->cursor  = now;
  r->in_call = false;
}

void TiRecorder::enter(int rank, double now)
{
  Rank* r = at(rank);
  if (!r)
    return;
  add_sleep(*r, now - r->cursor); // the end of the gap, that no computation explains
  r->cursor         = now;
  r->seconds_inside = 0;
  r->slept_in_call  = 0;
  r->entered        = now;
  r->in_call        = true;
}

void TiRecorder::leave(int rank, double now, bool timed)
{
  Rank* r = at(rank);
  if (!r)
    return;
  if (timed) // the call's own time, less the computations SMPI ran inside it (written before it)
    add_sleep(*r, now - r->entered - r->seconds_inside);
  r->cursor  = now;
  r->in_call = false;
  make_due(*r);
}

void TiRecorder::computation_started(int rank, double flops, double start)
{
  if (Rank* r = at(rank)) {
    if (!r->in_call)
      add_sleep(*r, start - r->cursor); // what passed since the last call or computation, in its place
    add_flops(*r, flops);
    r->running_inside = r->in_call;
    r->running_start  = start;
  }
}

void TiRecorder::computation_ended(int rank, double end)
{
  if (Rank* r = at(rank)) {
    if (r->running_inside)
      r->seconds_inside += end - r->running_start;
    else
      r->cursor = end;
  }
}

void TiRecorder::slept(int rank, double seconds)
{
  if (Rank* r = at(rank); r != nullptr && r->in_call)
    r->slept_in_call += seconds;
}

double TiRecorder::slept_in_call(int rank) const
{
  return rank >= 0 && rank < ranks() ? ranks_[static_cast<size_t>(rank)].slept_in_call : 0;
}

// Written before the rank's next action (after those of the call that just ended).
void TiRecorder::sleep(int rank, double seconds)
{
  Rank* r = at(rank);
  if (r == nullptr || seconds <= kMinSleep)
    return;
  if (r->due.empty() || r->due.back().flops > 0)
    r->due.emplace_back();
  r->due.back().sleep += seconds;
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
  const size_t line = r->lines.size();
  push(*r, std::string(blocking ? "send " : "isend ") + std::to_string(dst) + " " + std::to_string(tag) + " " +
               ti_number(count) + " " + std::to_string(dtype));
  if (!blocking) {
    Pending p;
    p.kind = Pending::Send;
    p.line = line;
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
  p.line = r->lines.size();
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

void TiRecorder::cancelled(int rank, uint64_t request)
{
  Rank* r = at(rank);
  if (!r)
    return;
  auto it = r->pending.find(request);
  if (it == r->pending.end())
    return;
  r->lines[it->second.line].clear(); // never happened: rank_text leaves the line out
  r->pending.erase(it);
}

bool TiRecorder::knows(int rank, uint64_t request) const
{
  return rank >= 0 && rank < ranks() && ranks_[static_cast<size_t>(rank)].pending.count(request) > 0;
}

void TiRecorder::freed(int rank, uint64_t request)
{
  Rank* r = at(rank);
  if (!r)
    return;
  auto it = r->pending.find(request);
  if (it == r->pending.end())
    return;
  const Pending p = it->second;
  r->pending.erase(it);
  if (p.kind == Pending::Collective) {
    flush(*r);
    push(*r, "haec_request_free " + std::to_string(p.id));
  }
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
    if (!l.empty())
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
