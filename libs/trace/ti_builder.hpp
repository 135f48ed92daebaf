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
  // A line starting with '#' (a counter annotation) is kept as it is.
  void verbatim(int rank, const std::string& action);
  // Hardware counters as Score-P records PAPI metrics: accumulated since the start, read at every
  // region enter and leave (a metric event just before it, at the same time). Each compute line
  // gets the difference between the values at the enter of the MPI call that ends it and at the
  // leave of the previous one, as its `# RANK haec_counters` annotation; a compute without values
  // at either end throws (counters missing from part of the trace).
  void counter_events(const std::vector<std::string>& names);
  void counter_values(int rank, double t, const std::vector<double>& accumulated);
  std::string where = "OTF2 event"; // errors name this (the reader sets it per event)
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
    std::vector<double> values, base; // counters: latest read, and at the last MPI leave
    double values_at = -1;            // time of the latest read
    bool base_known  = true;          // the last MPI leave had values (the start counts from 0)
  };
  std::string counters_since_leave(int rank, Rank& r, double t, const std::string& region);
  Rank& at(int rank);
  void push(int rank, const std::string& s);
  std::vector<Rank> ranks_;
  std::vector<std::string> counter_events_;
  double speed_;
};

} // namespace haec::trace
