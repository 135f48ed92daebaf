// A TI trace as the checker's matching simulation (ti_match) and `haec trace repair` (ti_repair)
// see it: per rank, the communication actions in order, with their peers, tags, sizes and line.
// Computations are dropped (the matching ignores time). Pure: no SimGrid.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace haec::trace {

struct TiAction {
  enum Kind : uint8_t {
    Init,
    Finalize,
    Send,     // send, Ssend, bsend: blocking; haec_bsend (detached whatever its size), haec_ssend (waits for its match)
    Isend,    // isend, ISsend, ibsend
    Recv,
    Irecv,
    Wait,     // wait <src> <dst> <tag>: the oldest pending request with that key
    Waitall,  // every pending request (SimGrid 3.32's WaitAllAction ignores the count)
    Test,     // test <src> <dst> <tag>: completes the request if it can, never blocks
    SendRecv, // sendRecv: isend to peer, irecv from peer2, both tag 0, then wait both
    Coll,     // blocking collective `name` on communicator `comm`: its members call the same sequence
    NbColl,   // haec_i<op> ID: posts collective `name` on `comm`
    NbWait,   // haec_wait ID: completes a non-blocking collective or any request with an ID
    IdFree,   // haec_request_free ID: the program freed request ID (never waited for)
    IdSend,   // haec_ibsend / haec_issend ID: a send request completed by haec_wait ID
    Comm,     // haec_comm_*: makes (or frees) a communicator (fields())
    Win,      // haec_win_* and the transfers on windows (fields())
    Other     // comm_size, location, ...: no effect on matching
  };
  Kind kind         = Other;
  int peer          = -1;  // send/recv: the other rank; wait/test: src; sendRecv: dst
  int peer2         = -1;  // wait/test: dst; sendRecv: src
  long long tag     = -1;  // point-to-point tag; NbColl/NbWait/IdSend: the ID
  uint64_t bytes    = 0;   // bytes a send puts on the wire (count * datatype size)
  uint64_t bytes2   = 0;   // sendRecv: bytes received
  uint32_t line     = 0;   // line in the rank's file
  uint16_t name     = 0;   // the action as written ("recv", "barrier", ...): action_name(name)
  uint8_t mode      = 0;   // Send/IdSend: 'b' buffered (detached), 's' synchronous, 0 otherwise
  int32_t comm      = 0;   // Coll/NbColl: the communicator's id (0: MPI_COMM_WORLD)
  uint32_t first    = 0;   // haec_* actions: their numbers in RankActions::fields (ti_schema.hpp order)
  uint32_t count    = 0;
};
// Action names are interned (a trace holds millions of actions and a few dozen names).
uint16_t intern_action_name(const std::string& name);
const std::string& action_name(uint16_t id);

// A rank's actions, computations and other actions without effect on matching left out.
struct RankActions {
  std::string file; // where the actions are (shared by every rank of a single-file trace)
  std::vector<TiAction> actions;
  std::vector<long long> fields; // the numbers of the haec_* actions (TiAction::first, count)
  const long long* fields_of(const TiAction& a) const { return fields.data() + a.first; }
  int default_type_size = 1; // MPI_DEFAULT_TYPE: MPI_BYTE, MPI_DOUBLE after "init <x>"
  uint32_t first_line = 0;   // the rank's first action of any kind, its line and name
  std::string first_action;
  uint32_t lines = 0;        // actions of any kind
};

struct TiProgram {
  std::vector<RankActions> ranks;
};

// Turns one checked line's fields ("<rank> <action> args...") into an action. `default_type_size`
// is MPI_DEFAULT_TYPE's size for the rank (1, or 8 after "init" with an argument); a haec_* action's
// numbers go to `numbers` (ti_schema.hpp's haec_fields).
TiAction to_action(const std::vector<std::string>& fields, uint32_t line, int default_type_size,
                   std::vector<long long>& numbers);

// Size in bytes of a SimGrid 3.32 TI datatype id ("0" = MPI_DOUBLE ... "59"), -1 when unknown.
int datatype_size(const std::string& id);

} // namespace haec::trace
