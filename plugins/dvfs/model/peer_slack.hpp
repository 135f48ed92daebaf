// Peer-aware slack (GovernorParams::peer_slack, peer_float, peer_chain): which rank a
// rank waited for, and whether that wait is slack. Pure: the adapter reports computations and messages
// (sender and receiver rank, when each node holds one rank) and asks, when a rank's next
// computation starts, how much of its wait was slack.
//
// Lateness of an event of a rank: how much later it happens than in the same run with every
// rank computing at its fastest pstate (the network unchanged). A computation that started
// L_start late and ran d = t_comp - race longer than racing ends L_end = L_start + d late. A rank
// that ended its computation L_own late and then waited w (beyond the cost of communicating) for
// a message its peer sent L_peer late would, all racing, have been ready L_own earlier and got
// the message L_peer earlier: it starts L_start = min(L_own + w, L_peer) late, and of its wait
// only max(0, w - (L_peer - L_own)) (at most w) is its own slack; the rest is the peer's
// lateness beyond its own, which a slowed neighbour caused (README, "Peer-aware slack"). With
// several messages the last one to arrive is taken: L_start is then an upper bound.
//
// peer_slack (attribute): a wait is slack only as far as attribute_wait() says; and when a rank
// that raced (it cannot absorb a delay) waited for a peer's excess lateness, the peer is
// blamed: its next window shrinks by that wait (IterationStats::blame).
// peer_float (float cap): a message's float at a receiver that raced is the time from its
// arrival to the start of the receiver's next computation; the sender's slack ratio is at most
// the least float of its messages per second of the computation that sent them, so a rank slows
// down only as far as its messages can be later without delaying a racing rank.
//
// peer_chain (chain float cap): a computation's *chain float* is how much later it could end
// without delaying a computation that raced and hardly waited (taken as critical): along the
// rank's next computation (its wait beyond the floor plus that one's chain float) and along
// every message it sent (the message's float at its receiver plus the chain float of the
// receiver's computation that needed it), the least. It is learnt backwards, one hop per
// iteration, each task from its last occurrence (the run is taken as steady). A rank's slack
// ratio is at most `share` x its computations' chain float per second of them: the float of a
// chain is shared by the ranks along it, which all see it.
//
// Free float (the offline bound of a performance run with peer_slack or peer_float): a
// computation can be stretched, delaying no other event, by the least of the wait after it and
// the float of every message sent after it (at every receiver, racing or not). The run's graph
// of computations and messages (FloatGraph) is written for scripts/dvfs_float_lp.py, which
// finds the least energy that keeps the makespan with float shared along wait-for chains.
#pragma once
#include "offline_optimum.hpp"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

namespace haec::dvfs {

// A run's computations and the messages between them: `to` starts no earlier than `from` ends
// plus `delay`, the message's time on the network (a rendezvous message's transfer may start
// later than the sender's computation ends, when the receiver posts its receive: not counted, so
// the graph constrains no more than the program does).
struct FloatGraph {
  struct Node {
    size_t rank;    // position in the ranks given to PeerLedger::graph
    double start;   // as measured
    double compute; // seconds
  };
  struct Edge {
    size_t from, to;
    double delay;
  };
  std::vector<Node> nodes; // rank by rank, each rank's in order
  std::vector<Edge> edges; // messages (a rank's consecutive computations are implied)
  std::vector<double> gap; // by rank: the least time between two computations of any rank
};

struct AttributedWait {
  double slack          = 0; // the part of the wait that is the rank's own slack
  double start_lateness = 0; // lateness of the computation the wait ends
};

// wait: seconds waited beyond the cost of communicating (<= 0: none); own: lateness of the
// rank's last computation's end; peer: lateness of the peer's computation whose message ended
// the wait (< 0: unknown: the whole wait is slack and the lateness carries over).
AttributedWait attribute_wait(double wait, double own, double peer);

// Lateness at the end of a computation that started `start_lateness` late, took t_comp seconds
// and would have taken `race` seconds at the fastest pstate.
double end_lateness(double start_lateness, double t_comp, double race);

class PeerLedger {
public:
  // keep_floats: remember every computation's free float (ComputationFloat) for the offline bound.
  PeerLedger(bool attribute, bool float_cap, bool keep_floats = false, bool chain = false)
      : attribute_(attribute), float_cap_(float_cap), keep_floats_(keep_floats), chain_(chain)
  {
  }

  // A computation of `rank` ended at `end`, after t_comp seconds (race: at the fastest pstate);
  // key: its task key (peer_chain).
  void computation_ended(int rank, double end, double t_comp, double race, uint64_t key = 0);
  // A message from `from` to `to`, sent (transfer start) at `sent`, arrived at `arrival`.
  void message(int from, int to, double sent, double arrival);
  // The next computation of `rank` starts at `now`, after waiting `wait` seconds beyond the cost
  // of communicating (0: none, or its first computation); key: the starting task's (peer_chain).
  // Returns the part of the wait that is slack.
  double computation_starts(int rank, double now, double wait, uint64_t key = 0);

  struct Share {
    double blame       = 0;  // IterationStats::blame
    double float_ratio = -1; // the least float per second of sending computation (-1: none)
    double chain_ratio = -1; // peer_chain: the least chain float per second of its computation (-1: none)

    // The slack ratio the iteration may use: at most its messages' float (peer_float) and
    // `chain_share` x its chains' float (peer_chain), where known; -1 (no slack measured) stays.
    double capped(double slack_ratio, double chain_share) const;
  };
  // What the rank's messages did to others since the last call (its iteration), then forgotten.
  Share close_iteration(int rank);

  double lateness(int rank) const; // of its last computation's end (tests, traces)
  double chain_float(int rank, uint64_t key) const; // peer_chain: the task's chain float (-1: not known yet)

  struct ComputationFloat {
    double start         = 0;
    double t_comp        = 0;
    double t_lib         = -1; // MPI time until the rank's next computation (-1: none followed)
    double message_float = std::numeric_limits<double>::infinity(); // least, over the messages sent after it
  };
  // With keep_floats: the rank's computations in order (empty otherwise).
  const std::vector<ComputationFloat>& floats(int rank) const;
  struct Consumed { // a message, from the computation that sent it to the one that needed it
    int from;
    size_t sent_by; // index among the sender's computations
    int to;
    size_t needed_by; // index among the receiver's computations
    double transfer;  // seconds on the network
  };
  // With keep_floats: every message so far, recorded when the computation that needed it started.
  const std::vector<Consumed>& consumed() const { return consumed_; }
  // With keep_floats: the run's computations and the messages between them (FloatGraph), the
  // ranks numbered by their position in `ranks`; a rank not listed is left out.
  FloatGraph graph(const std::vector<int>& ranks) const;

private:
  static constexpr size_t kNone = static_cast<size_t>(-1);
  // peer_chain: a rank that raced and waited at most this per second of its computation is
  // critical (1 %: with 0, any wait at all, 300 iterations +0.46 % instead of +0.19 %; README)
  static constexpr double kCriticalWait = 0.01;
  struct Heard {
    int from;
    double sent, at, late, comp; // transfer start, arrival; the sending computation's end lateness and duration
    size_t index;          // the sending computation among the sender's (kNone: before its first)
    uint64_t key;          // the sending computation's task key
  };
  struct Rank {
    double late_start = 0, late_end = 0, late_end_before = 0;
    double comp = 0, comp_before = 0, end = -1;
    uint64_t key = 0, key_before = 0;
    // peer_chain, by task key: the chain float learnt at its last occurrence, and the least
    // candidate since then
    std::unordered_map<uint64_t, double> chain, chain_next;
    bool raced = true; // its last computation ran at the fastest speed
    Share share;
    std::vector<Heard> inbox; // messages received since its last computation started
    size_t ended = 0;         // computations ended
    std::vector<ComputationFloat> floats;
  };
  void blame_or_float(Rank& r, double now, double wait, double slack, const Heard* last);
  void learn_chain(Rank& r, double now, double wait, uint64_t key);
  static void offer_chain(Rank& r, uint64_t key, double candidate);

  void note_floats(int rank, Rank& r, double now);
  std::vector<Consumed> consumed_;

  bool attribute_, float_cap_, keep_floats_, chain_;
  std::unordered_map<int, Rank> ranks_;
};

// The makespan of the graph with every computation racing: each starts when the computations it
// needs have ended plus the delays (a rank's first one as measured). Equal to the run's makespan
// when the messages explain its schedule; shorter when the run had dependencies the graph lacks
// (a blocking send waiting for its receiver, collectives): then no float bound holds.
double racing_makespan(const FloatGraph& graph);

// The offline bound's windows from one rank's free floats: every computation followed by MPI
// time, its slack the least of its wait (t_lib beyond `comm`, the least t_lib of the run) and its
// messages' float.
std::vector<OfflineIteration> free_float_windows(const std::vector<PeerLedger::ComputationFloat>& floats,
                                                 double comm);

} // namespace haec::dvfs
