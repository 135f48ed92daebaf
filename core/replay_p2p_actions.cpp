// Replay of buffered and synchronous sends (pmpi/record_p2p.cpp; formats in libs/trace/README.md):
//   haec_bsend DST TAG COUNT TYPE        haec_ibsend ID DST TAG COUNT TYPE
//   haec_ssend DST TAG COUNT TYPE        haec_issend ID DST TAG COUNT TYPE
// on MPI_COMM_WORLD (DST a world rank), where SimGrid's recv and irecv actions receive them. SMPI
// detaches a buffered send whatever its size and never a synchronous one, unlike its send/isend:
// the replay makes the program's call. MPI_Bsend needs an attached buffer large enough for the
// message (SMPI checks the size, never uses it): each rank attaches one, grown as needed.
#include "core_parts.hpp"
#include "replay_state.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <xbt/replay.hpp>

#include <unordered_map>
#include <vector>

namespace haec::core::parts {
namespace {

namespace sg4 = simgrid::s4u;

struct Message {
  int dst, tag, count;
  MPI_Datatype type;
  size_t bytes() const { return static_cast<size_t>(count) * type_size(type); }
};

Message message(const Action& a, size_t i) // DST TAG COUNT TYPE
{
  return Message{rank_field(a, i), small_field(a, i + 1), small_field(a, i + 2), datatype_field(a, i + 3)};
}

void attach_for(const Action& a, const Message& m)
{
  static std::unordered_map<long, std::vector<char>> attached;
  std::vector<char>& mine = attached[sg4::this_actor::get_pid()];
  const size_t need       = m.bytes() + MPI_BSEND_OVERHEAD;
  if (mine.size() >= need)
    return;
  if (!mine.empty()) {
    void* old = nullptr;
    int size  = 0;
    MPI_Buffer_detach(&old, &size);
  }
  mine.resize(need);
  check_call(a, MPI_Buffer_attach(mine.data(), static_cast<int>(mine.size())));
}

void send(Action& a, bool buffered)
{
  const Message m = message(a, 2);
  std::vector<char> data(std::max<size_t>(m.bytes(), 1));
  if (buffered) {
    attach_for(a, m);
    check_call(a, MPI_Bsend(data.data(), m.count, m.type, m.dst, m.tag, MPI_COMM_WORLD));
  } else {
    check_call(a, MPI_Ssend(data.data(), m.count, m.type, m.dst, m.tag, MPI_COMM_WORLD));
  }
}

void isend(Action& a, bool buffered)
{
  const Message m   = message(a, 3);
  PendingRequest& p = start_request(a, 2);
  void* data        = p.buffers.send_buffer(m.bytes());
  if (buffered) {
    attach_for(a, m);
    check_call(a, MPI_Ibsend(data, m.count, m.type, m.dst, m.tag, MPI_COMM_WORLD, &p.request));
  } else {
    check_call(a, MPI_Issend(data, m.count, m.type, m.dst, m.tag, MPI_COMM_WORLD, &p.request));
  }
}

} // namespace

void register_p2p_replay_actions()
{
  register_replay_action("haec_bsend", [](Action& a) { send(a, true); });
  register_replay_action("haec_ssend", [](Action& a) { send(a, false); });
  register_replay_action("haec_ibsend", [](Action& a) { isend(a, true); });
  register_replay_action("haec_issend", [](Action& a) { isend(a, false); });
}

} // namespace haec::core::parts
