// OTF2 import, the format-independent part: per-rank MPI events (as OTF2 records them) to SimGrid
// TI actions. Time spent outside MPI regions becomes "compute" at the given host speed; MPI
// point-to-point and collective records become the matching actions (bytes, datatype MPI_BYTE).
// Only MPI_COMM_WORLD-like communicators are accepted (the caller checks), as TI replay runs every
// collective on MPI_COMM_WORLD.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace haec::trace {

class TiBuilder {
public:
  TiBuilder(int ranks, double flops_per_second);
  void enter(int rank, double t, const std::string& region);
  void leave(int rank, double t);
  void send(int rank, int dst, uint32_t tag, uint64_t bytes);
  void isend(int rank, int dst, uint32_t tag, uint64_t bytes, uint64_t request);
  void recv(int rank, int src, uint32_t tag, uint64_t bytes);
  void irecv_request(int rank, uint64_t request); // posted; source known at completion
  void irecv(int rank, int src, uint32_t tag, uint64_t bytes, uint64_t request);
  void request_complete(int rank, uint64_t request); // an isend completed (MpiIsendComplete)
  // OTF2 collective operation name ("BARRIER", "BCAST", ...) as in OTF2_CollectiveOp.
  void collective(int rank, const std::string& op, int root, uint64_t sent, uint64_t received);
  // A TI action as written (without the rank), e.g. "compute 1e6"; init and finalize are implied.
  void verbatim(int rank, const std::string& action);
  std::string text(int rank) const; // "init" ... "finalize", one action a line
  int ranks() const { return static_cast<int>(ranks_.size()); }

private:
  struct Req {
    bool send = true;
    int peer = 0;
    uint32_t tag = 0;
    size_t line  = 0; // posted irecv (completed with the source)
    bool posted  = false;
  };
  struct Rank {
    std::vector<std::string> lines;
    int depth = 0;
    double since = 0; // start of the current computation
    bool started = false;
    std::unordered_map<uint64_t, Req> reqs;
  };
  Rank& at(int rank);
  void push(int rank, const std::string& s);
  std::vector<Rank> ranks_;
  double speed_;
};

} // namespace haec::trace
