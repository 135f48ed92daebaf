// What a replaying rank keeps between the core's actions: see replay_state.hpp.
#include "replay_state.hpp"

#include <simgrid/s4u/Actor.hpp>

#include <algorithm>
#include <unordered_map>

namespace haec::core::parts {
namespace {

namespace sg4 = simgrid::s4u;

std::unordered_map<long long, MPI_Comm>& comms() // this rank's
{
  static std::unordered_map<long, std::unordered_map<long long, MPI_Comm>> per_rank;
  return per_rank[sg4::this_actor::get_pid()];
}

std::unordered_map<long, std::unordered_map<long long, PendingRequest>>& requests()
{
  static std::unordered_map<long, std::unordered_map<long long, PendingRequest>> r;
  return r;
}

} // namespace

void errors_return(MPI_Comm comm)
{
  if (comm != MPI_COMM_NULL)
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
}

void errors_return(MPI_Win win)
{
  if (win != MPI_WIN_NULL)
    MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
}

void replay_rank_started()
{
  errors_return(MPI_COMM_WORLD);
  errors_return(MPI_COMM_SELF);
}

MPI_Comm comm_field(const Action& a, size_t i)
{
  const long long id = field(a, i);
  if (id == 0)
    return MPI_COMM_WORLD;
  if (id == 1)
    return MPI_COMM_SELF;
  auto it = comms().find(id);
  if (it == comms().end())
    fail_action(a, "communicator " + a[i] + " was not made by this rank (or was freed)");
  return it->second;
}

void add_comm(const Action& a, long long id, MPI_Comm comm)
{
  if (id < 2 || !comms().emplace(id, comm).second)
    fail_action(a, "communicator " + std::to_string(id) + " is made twice");
  errors_return(comm);
}

void remove_comm(const Action& a, long long id)
{
  if (comms().erase(id) == 0)
    fail_action(a, "communicator " + std::to_string(id) + " was not made by this rank (or was freed)");
}

void* CallBuffers::send_buffer(size_t bytes)
{
  send.resize(std::max<size_t>(bytes, 1));
  return send.data();
}

void* CallBuffers::recv_buffer(size_t bytes)
{
  recv.resize(std::max<size_t>(bytes, 1));
  return recv.data();
}

PendingRequest& start_request(const Action& a, size_t i)
{
  const long long id = field(a, i);
  auto [it, fresh]   = requests()[sg4::this_actor::get_pid()].try_emplace(id);
  if (!fresh)
    fail_action(a, "request " + a[i] + " is started twice");
  return it->second;
}

void wait_request(const Action& a)
{
  const long long id = field(a, 2);
  auto& mine         = requests()[sg4::this_actor::get_pid()];
  auto it            = mine.find(id);
  if (it == mine.end())
    fail_action(a, "no request " + a[2] + " was started by this rank");
  check_call(a, MPI_Wait(&it->second.request, MPI_STATUS_IGNORE));
  mine.erase(it);
}

void free_request(const Action& a)
{
  const long long id = field(a, 2);
  auto& mine         = requests()[sg4::this_actor::get_pid()];
  auto it            = mine.find(id);
  if (it == mine.end())
    fail_action(a, "no request " + a[2] + " was started by this rank");
  check_call(a, MPI_Request_free(&it->second.request));
  // its transfer may still run: its buffers live as long as the replay
  static std::vector<CallBuffers> kept;
  kept.push_back(std::move(it->second.buffers));
  mine.erase(it);
}

size_t unfinished_requests()
{
  size_t n = 0;
  for (auto const& [pid, mine] : requests())
    n += mine.size();
  return n;
}

} // namespace haec::core::parts
