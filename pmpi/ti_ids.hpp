// The ids a TI trace gives communicators and windows (libs/trace/README.md, "Communicators"):
// 0 is MPI_COMM_WORLD, 1 is each rank's MPI_COMM_SELF, and every other communicator gets the next
// id when its first member records its creation; the other members find the same id, so a
// communicator has one id on every rank. Members recognise "the same communicator" by what they
// all share: the parent's id, the members (world ranks in rank order) and how many communicators
// with exactly these members this rank made from that parent before (collective calls on one set
// of ranks are ordered alike on all of them). Windows likewise: the communicator's id and how many
// windows this rank created on it before (on MPI_COMM_SELF: the rank's own windows). Pure:
// handles are opaque keys (the MPI objects of one rank). One table serves every rank (SMPI's
// ranks are actors of one process).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace haec::pmpi {

class TiIds {
public:
  static constexpr int kWorld   = 0;
  static constexpr int kSelf    = 1;
  static constexpr int kUnknown = -2;

  void ensure_ranks(int n);

  // ---- communicators ----
  // The id of a communicator handle of `rank`, kUnknown when it was not recorded (created before
  // the recording or by a call the recorder does not see).
  int comm(int rank, uint64_t handle) const;
  // `rank` got communicator `handle` with `members` (world ranks in rank order) from `parent`.
  int comm_created(int rank, uint64_t handle, int parent, const std::vector<int>& members);
  void comm_freed(int rank, uint64_t handle);

  // ---- windows ----
  int window(int rank, uint64_t handle) const; // kUnknown when not recorded
  int window_created(int rank, uint64_t handle, int comm);
  void window_freed(int rank, uint64_t handle);

private:
  using CommKey = std::tuple<int, std::vector<int>, int>; // parent, members, n-th such creation
  struct Rank {
    std::unordered_map<uint64_t, int> comms, windows;
    std::map<std::pair<int, std::vector<int>>, int> made; // (parent, members) -> creations so far
    std::unordered_map<int, int> windows_on;              // communicator -> windows created on it
  };
  Rank* at(int rank);
  const Rank* at(int rank) const;

  std::vector<Rank> ranks_;
  std::map<CommKey, int> comm_ids_;
  std::map<std::pair<int, int>, int> window_ids_; // (communicator, n-th window on it)
  int next_comm_   = 2;
  int next_window_ = 0;
};

} // namespace haec::pmpi
