// TI trace recorder: see ti_recorder.hpp.
#include "ti_recorder.hpp"

#include "call_annotation.hpp"
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
  if (r.call.counting)
    ++r.call.actions;
}

void TiRecorder::write_piece(Rank& r, const Piece& p)
{
  if (p.flops > 0) {
    // A computation without counts in a counting run (inside a call, or a second one at a yield
    // point) counts zeros, as the suite gives it: every compute line of the trace is annotated.
    if (!p.counts.empty() || !counter_events_.empty())
      r.lines.push_back(trace::format_counter_annotation(
          r.rank, {counter_events_, p.counts.empty() ? std::vector<double>(counter_events_.size(), 0.0) : p.counts}));
    push(r, "compute " + ti_number(p.flops));
  } else if (p.sleep > kMinSleep) {
    push(r, "sleep " + ti_number(p.sleep));
  }
}

// The time before the actions about to be written, in the order it ran. For the call that ended
// (leave), with its site: what ran before the rank announced it, the annotation, the computation
// SMPI charged at its entry, then what ran inside it (counted as the call's actions, with the
// action lines that follow until the next call). Computations SMPI charged after the call's end
// (leave) are the next gap's.
void TiRecorder::flush(Rank& r)
{
  if (r.in_call) // every computation so far ran before the call's end
    make_due(r);
  Call& c = r.call;
  if (!c.pending) {
    for (auto const& p : r.due)
      write_piece(r, p);
  } else {
    // The entry: the last computation SMPI charged at an entry (an earlier one was at the entry of
    // a call that is not recorded), else the first piece inside the call.
    size_t split = r.due.size();
    bool entry   = false;
    for (size_t i = r.due.size(); i-- > 0;)
      if (r.due[i].zone == Piece::Entry) {
        split = i, entry = true;
        break;
      }
    if (!entry)
      for (size_t i = 0; i < r.due.size(); ++i)
        if (r.due[i].zone == Piece::Inside) {
          split = i;
          break;
        }
    for (size_t i = 0; i < split; ++i)
      write_piece(r, r.due[i]);
    if (!c.site.empty()) {
      c.line      = r.lines.size();
      c.annotated = true;
      c.entry     = entry;
      r.lines.emplace_back(); // written when the call is closed, with its count of actions
    }
    size_t next = split;
    if (entry)
      write_piece(r, r.due[next++]);
    c.counting = true;
    for (size_t i = next; i < r.due.size(); ++i)
      write_piece(r, r.due[i]);
    c.pending = false;
  }
  r.due.clear();
  r.awaiting.clear(); // counts handed over that no computation took (below smpi/cpu-threshold)
}

// The call's lines are all written (the next call starts, or the rank ends): its annotation. The
// computations SMPI charged after the call's end (leave) but before the wrapper returned are its
// last actions: the suite counts them in the call, as a replay then does.
void TiRecorder::close_call(Rank& r)
{
  Call& c = r.call;
  if (c.pending)
    flush(r);
  size_t after = 0;
  while (after < r.pieces.size() && r.pieces[after].zone == Piece::After)
    write_piece(r, r.pieces[after++]);
  r.pieces.erase(r.pieces.begin(), r.pieces.begin() + static_cast<std::ptrdiff_t>(after));
  if (c.annotated) {
    trace::CallAnnotation a;
    auto [it, fresh] = r.site_ids.try_emplace(c.site, static_cast<uint32_t>(r.site_ids.size()));
    a.id             = it->second;
    a.enter          = c.entry ? 1 : 0;
    a.actions        = c.actions;
    a.polling        = c.polling;
    if (fresh)
      a.site = c.site;
    r.lines[c.line] = trace::format_call_annotation(r.rank, a);
  }
  c = Call{};
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
    if (last != nullptr && last->flops <= 0 && p.flops <= 0 && last->zone == p.zone) // consecutive sleeps add up
      last->sleep += p.sleep;
    else
      r.due.push_back(std::move(p));
  }
  r.pieces.clear();
}

// Simulated time no computation explains (sleeps, MPI_Wtime, a polling call's own time).
void TiRecorder::add_sleep(Rank& r, double seconds, Piece::Zone zone)
{
  if (seconds <= kMinSleep)
    return;
  if (r.pieces.empty() || r.pieces.back().flops > 0 || r.pieces.back().zone != zone) {
    r.pieces.emplace_back();
    r.pieces.back().zone = zone;
  }
  r.pieces.back().sleep += seconds;
}

// Each computation is a piece of its own: a replay runs the same computations, which a per-task
// DVFS governor sees one by one.
void TiRecorder::add_flops(Rank& r, double flops, Piece::Zone zone)
{
  Piece& p = r.pieces.emplace_back();
  p.zone   = zone;
  p.flops  = flops;
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

void TiRecorder::init(int rank, double now, const std::string& site)
{
  Rank* r = at(rank);
  if (!r)
    return;
  if (!site.empty()) { // entered and left at once, around the init action
    r->call.site      = site;
    r->call.annotated = true;
    r->call.line      = r->lines.size();
    r->lines.emplace_back();
    r->call.counting = true;
  }
  push(*r, "init");
  close_call(*r);
  r->cursor  = now;
  r->in_call = false;
}

void TiRecorder::enter(int rank, double now, const std::string& site, bool polling)
{
  Rank* r = at(rank);
  if (!r)
    return;
  close_call(*r);
  // The end of the gap, that no computation explains (after the entry's computation: none).
  const bool after_entry = !r->pieces.empty() && r->pieces.back().zone == Piece::Entry;
  add_sleep(*r, now - r->cursor, after_entry ? Piece::Inside : Piece::Gap);
  r->cursor         = now;
  r->seconds_inside = 0;
  r->slept_in_call  = 0;
  r->entered        = now;
  r->in_call        = true;
  r->call.site      = site;
  r->call.polling   = polling;
  r->call.pending   = true;
}

void TiRecorder::leave(int rank, double now, bool timed)
{
  Rank* r = at(rank);
  if (!r)
    return;
  if (timed) // the call's own time, less the computations SMPI ran inside it (written before it)
    add_sleep(*r, now - r->entered - r->seconds_inside, Piece::Inside);
  r->cursor  = now;
  r->in_call = false;
  make_due(*r);
}

void TiRecorder::computation_started(int rank, double flops, double start, Charged charged)
{
  if (Rank* r = at(rank)) {
    if (!r->in_call)
      add_sleep(*r, start - r->cursor, Piece::Gap); // what passed since the last call or computation, in its place
    const Piece::Zone zone = r->in_call                       ? Piece::Inside
                             : charged == Charged::AtEntry    ? Piece::Entry
                             : charged == Charged::InCall     ? Piece::After
                                                              : Piece::Gap;
    add_flops(*r, flops, zone);
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
  close_call(*r);
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

namespace {
std::vector<std::string> words(const std::string& line)
{
  std::vector<std::string> w;
  for (size_t i = 0; i < line.size();) {
    const size_t end = std::min(line.find(' ', i), line.size());
    if (end > i)
      w.push_back(line.substr(i, end - i));
    i = end + 1;
  }
  return w;
}

// The call annotation at lines[at], less the action lines of its call that were left out since
// (cleared: a cancelled receive that never happened).
std::string without_cleared(const std::vector<std::string>& lines, size_t at, int rank)
{
  auto a = trace::parse_call_annotation(words(lines[at]), "recorder");
  if (!a)
    return lines[at];
  uint64_t left = a->enter + a->actions, cleared = 0;
  for (size_t j = at + 1; j < lines.size() && left > 0; ++j) {
    if (!lines[j].empty() && lines[j][0] == '#')
      continue; // a counter annotation
    --left;
    cleared += lines[j].empty() ? 1 : 0;
  }
  if (cleared == 0)
    return lines[at];
  a->actions -= std::min(cleared, a->actions);
  return trace::format_call_annotation(rank, *a);
}
} // namespace

std::string TiRecorder::rank_text(int rank) const
{
  std::string out;
  if (rank < 0 || rank >= ranks())
    return out;
  const auto& lines = ranks_[static_cast<size_t>(rank)].lines;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].empty())
      continue;
    out += (lines[i][0] == '#' && lines[i].find(" haec_call ") != std::string::npos ? without_cleared(lines, i, rank)
                                                                                     : lines[i]) +
           "\n";
  }
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
