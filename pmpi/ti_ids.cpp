// Ids of communicators and windows in a TI trace: see ti_ids.hpp.
#include "ti_ids.hpp"

namespace haec::pmpi {

void TiIds::ensure_ranks(int n)
{
  if (n > static_cast<int>(ranks_.size()))
    ranks_.resize(static_cast<size_t>(n));
}

TiIds::Rank* TiIds::at(int rank)
{
  return rank >= 0 && rank < static_cast<int>(ranks_.size()) ? &ranks_[static_cast<size_t>(rank)] : nullptr;
}

const TiIds::Rank* TiIds::at(int rank) const
{
  return rank >= 0 && rank < static_cast<int>(ranks_.size()) ? &ranks_[static_cast<size_t>(rank)] : nullptr;
}

int TiIds::comm(int rank, uint64_t handle) const
{
  const Rank* r = at(rank);
  if (r == nullptr)
    return kUnknown;
  auto it = r->comms.find(handle);
  return it == r->comms.end() ? kUnknown : it->second;
}

int TiIds::comm_created(int rank, uint64_t handle, int parent, const std::vector<int>& members)
{
  Rank* r = at(rank);
  if (r == nullptr)
    return kUnknown;
  const int nth = r->made[{parent, members}]++;
  auto [it, fresh] = comm_ids_.try_emplace(CommKey{parent, members, nth}, next_comm_);
  if (fresh)
    ++next_comm_;
  r->comms[handle] = it->second;
  return it->second;
}

void TiIds::comm_freed(int rank, uint64_t handle)
{
  if (Rank* r = at(rank))
    r->comms.erase(handle);
}

int TiIds::window(int rank, uint64_t handle) const
{
  const Rank* r = at(rank);
  if (r == nullptr)
    return kUnknown;
  auto it = r->windows.find(handle);
  return it == r->windows.end() ? kUnknown : it->second;
}

int TiIds::window_created(int rank, uint64_t handle, int comm)
{
  Rank* r = at(rank);
  if (r == nullptr)
    return kUnknown;
  // MPI_COMM_SELF is one id for a communicator of each rank alone: its windows are the rank's own
  const int on     = comm == 1 ? -1 - rank : comm;
  const int nth    = r->windows_on[on]++;
  auto [it, fresh] = window_ids_.try_emplace({on, nth}, next_window_);
  if (fresh)
    ++next_window_;
  r->windows[handle] = it->second;
  return it->second;
}

void TiIds::window_freed(int rank, uint64_t handle)
{
  if (Rank* r = at(rank))
    r->windows.erase(handle);
}

} // namespace haec::pmpi
