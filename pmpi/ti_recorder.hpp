// Time-independent (TI) trace recorder of the PMPI layer (`haec trace record`). Pure C++: the
// wrappers (pmpi_wrappers.cpp) translate MPI objects into world ranks, SimGrid datatype ids and
// request keys; SimGrid's clock and computations come from ti_capture.cpp. One recorder serves
// every rank (SMPI ranks are actors of one process), so all state is per rank.
//
// What is written, per rank, in the order of the rank's calls (SimGrid 3.32 replay syntax):
//   - the time between two calls, in the order it ran: "compute F" for each computation SMPI
//     executed (benchmarked code or smpi_execute_flops: one line each, as a per-task DVFS governor
//     sees them) and "sleep S" (the rest of the simulated time: sleeps, MPI_Wtime, ...,
//     consecutive ones summed);
//   - each call, given its site, as a `# RANK haec_call ...` annotation where the rank announced
//     it, before the computation SMPI charged at its entry, counting the actions it spans (the
//     computations SMPI charged inside it, its polling sleep, its actions:
//     libs/trace/call_annotation.hpp), so that a replay names and groups them as the emulation did;
//   - point-to-point calls as SimGrid's own actions, a wildcard receive with the source and tag
//     it actually matched (an irecv line is completed when its request completes);
//   - every completed request as "wait src dst tag" at the call that completed it (so Waitall on a
//     subset, Waitany and requests waited one by one replay the right requests);
//   - polling calls (Test*, Iprobe, Probe) as "sleep" of the simulated time they took, then a wait
//     for every request they completed: replay then takes exactly the emulated time;
//   - non-blocking collectives as our actions "haec_<op> ID ..." and "haec_wait ID"
//     (core/replay_extra_actions.cpp);
//   - the rest as our haec_* actions (communicators, one-sided communication, buffered and
//     synchronous sends); calls replay cannot express as an error.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace haec::pmpi {

class TiRecorder {
public:
  static constexpr int kAny = -1; // source or tag not known yet (MPI_ANY_SOURCE / MPI_ANY_TAG)

  void ensure_ranks(int n);
  int ranks() const { return static_cast<int>(ranks_.size()); }

  // ---- time ----
  // After MPI_Init: writes "init" (a call of `site`, when given), starts the clock.
  void init(int rank, double now, const std::string& site = "");
  // A call of `site` (empty: not annotated) starts: the gap since the last one is known. `polling`:
  // the rank polls during the call (MPI_Test*).
  void enter(int rank, double now, const std::string& site = "", bool polling = false);
  void leave(int rank, double now, bool timed); // timed: the call's own time becomes a sleep
  // Where SMPI charges a computation: between calls, at the entry of the call the rank announced
  // (the next enter's), or in a call (inside SimGrid's function, or after it returned and before
  // the call ends for the suite: such a one is the call's last action).
  enum class Charged { Between, AtEntry, InCall };
  // A computation SMPI runs for the rank, from `start` to `end` (simulated times). The time
  // before a call is written in the order it ran: computations and what passed between them
  // (sleeps, MPI_Wtime's pause) alternate as in the run, so that a replay whose pstate changes
  // meanwhile (a governor's timer) runs the same sequence.
  void computation_started(int rank, double flops, double start, Charged charged = Charged::Between);
  void computation_ended(int rank, double end);
  // SimGrid's sleeps (SMPI injects some into MPI calls: the tests of MPI_Waitsome): their time
  // inside the current call, and a sleep written before the rank's next action.
  void slept(int rank, double seconds);
  double slept_in_call(int rank) const;
  void sleep(int rank, double seconds);
  // Hardware counters (counting.hpp): the events, then the counts handed over at a call's entry
  // (or a yield point). As in the suite (core/computation_counters.cpp), counts belong to the
  // rank's next computation and are replaced by the next hand-over when SMPI charged none (below
  // smpi/cpu-threshold); counts with a computation add up like its flops until the next compute
  // line, written just before it as `# RANK haec_counters EVENT=COUNT ...`.
  void counter_events(const std::vector<std::string>& events);
  void counters(int rank, const std::vector<double>& counts);

  // ---- actions (written after the gap's compute/sleep) ----
  void action(int rank, const std::string& text); // a complete SimGrid action without request
  void send(int rank, bool blocking, int dst, int tag, double count, int dtype, uint64_t request);
  void recv(int rank, int src, int tag, double count, int dtype); // blocking, src/tag as matched
  void irecv(int rank, int src, int tag, double count, int dtype, uint64_t request);
  // A non-blocking collective: "haec_<op> ID <args>"; completed by "haec_wait ID".
  void collective_start(int rank, const std::string& op, const std::string& args, uint64_t request);
  // A request completed; src and tag are the status of a receive (ignored for sends).
  void complete(int rank, uint64_t request, int src, int tag);
  // A request the program cancelled completed: it did nothing, its start line is taken out.
  void cancelled(int rank, uint64_t request);
  bool knows(int rank, uint64_t request) const;
  // MPI_Request_free of a pending request: one with an ID gets "haec_request_free ID".
  void freed(int rank, uint64_t request);
  void finalize(int rank);

  // The first call that cannot be replayed; the trace is then not written.
  void unsupported(int rank, const std::string& call, const std::string& why);
  // Any other reason the trace must not be written (the first one is kept).
  void failed(const std::string& why);
  const std::string& error() const { return error_; }

  // The rank's trace file, one action per line.
  std::string rank_text(int rank) const;
  bool finished() const; // every rank finalized

private:
  struct Pending {
    enum Kind { Send, Recv, Collective } kind = Send;
    size_t line = 0;  // the start line (an irecv's is completed with the matched source)
    int src = 0, dst = 0, tag = 0;
    double count = 0;
    int dtype    = 0;
    uint64_t id  = 0; // collectives
  };
  struct Piece { // of the time before a call's actions: a computation (flops > 0) or a sleep
    enum Zone { Gap, Entry, Inside, After } zone = Gap; // before the call, at its entry, inside it, after its end
    double flops = 0, sleep = 0;
    std::vector<double> counts; // hardware counters of a computation
  };
  struct Call { // the rank's last call, its lines being written (libs/trace/call_annotation.hpp)
    std::string site; // empty: no annotation
    bool polling = false;
    bool pending = false;    // entered, its lines not written yet
    bool annotated = false;  // its annotation line is `line`
    bool entry = false;      // a computation SMPI charged at its entry precedes it
    bool counting = false;   // the lines written now are its actions
    size_t line      = 0;
    uint64_t actions = 0; // action lines after its entry
  };
  struct Rank {
    std::vector<std::string> lines;
    std::unordered_map<uint64_t, Pending> pending;
    double entered = 0;
    double cursor  = 0;        // the rank's time is accounted for up to here (a call's or a computation's end)
    std::vector<Piece> pieces; // since the last call's end, not written yet
    // What ran up to the last call's end, written before that call's actions: SMPI may charge a
    // computation right after a call returns, which belongs to the next gap (pieces above).
    std::vector<Piece> due;
    std::vector<double> awaiting; // counts handed over, no computation since
    double seconds_inside = 0;    // computation time inside the current call
    double running_start  = 0;    // of the computation running now
    double slept_in_call  = 0;    // SimGrid sleeps inside the current call
    bool in_call = false, running_inside = false, finalized = false;
    uint64_t next_id = 1;
    int rank = 0;
    Call call;
    std::unordered_map<std::string, uint32_t> site_ids; // call annotations' IDs, by site
  };
  Rank* at(int rank);
  void flush(Rank& r);
  void write_piece(Rank& r, const Piece& p);
  void close_call(Rank& r);
  static void make_due(Rank& r);
  static void add_sleep(Rank& r, double seconds, Piece::Zone zone);
  void add_flops(Rank& r, double flops, Piece::Zone zone);
  void push(Rank& r, const std::string& text);

  std::vector<Rank> ranks_;
  std::vector<std::string> counter_events_;
  std::string error_;
};

// Decimal text that parses back to the same double (%.17g, trimmed).
std::string ti_number(double v);

} // namespace haec::pmpi
