// Call reporting of persistent requests: a persistent send reports one logical message each time
// it is started (MPI_Start/MPI_Startall), until MPI_Request_free forgets it.
#include "wrappers.hpp"

namespace haec::pmpi::report {
namespace {

void remember(const Call& call, int rc, const MPI_Request* request, MPI_Comm comm, int dst, int count,
              MPI_Datatype type)
{
  int w = to_world(comm, dst);
  if (rc != MPI_SUCCESS || request == nullptr || *request == MPI_REQUEST_NULL || call.rank < 0 || w < 0)
    return;
  ReportState& s = report_state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.persistent[*request] = PersistentSend{call.rank, w, payload(count, type)};
}

void started(MPI_Request request)
{
  ReportState& s = report_state();
  PersistentSend p;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    auto it = s.persistent.find(request);
    if (it == s.persistent.end())
      return; // receive or unknown request
    p = it->second;
  }
  deliver(p.src, p.dst, p.bytes);
}

} // namespace

void Send_init_done(Call& call, int rc, const void*, int count, MPI_Datatype type, int dst, int, MPI_Comm comm,
                    MPI_Request* request)
{
  remember(call, rc, request, comm, dst, count, type);
}

void Ssend_init_done(Call& call, int rc, const void*, int count, MPI_Datatype type, int dst, int, MPI_Comm comm,
                     MPI_Request* request)
{
  remember(call, rc, request, comm, dst, count, type);
}

void Bsend_init_done(Call& call, int rc, const void*, int count, MPI_Datatype type, int dst, int, MPI_Comm comm,
                     MPI_Request* request)
{
  remember(call, rc, request, comm, dst, count, type);
}

void Rsend_init_done(Call& call, int rc, const void*, int count, MPI_Datatype type, int dst, int, MPI_Comm comm,
                     MPI_Request* request)
{
  remember(call, rc, request, comm, dst, count, type);
}

void Start(Call&, MPI_Request* request)
{
  if (request != nullptr)
    started(*request);
}

void Startall(Call&, int count, MPI_Request requests[])
{
  for (int i = 0; requests != nullptr && i < count; ++i)
    started(requests[i]);
}

void Request_free(Call&, MPI_Request* request)
{
  if (request == nullptr)
    return;
  ReportState& s = report_state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.persistent.erase(*request);
  s.request_peers.erase(*request);
}

} // namespace haec::pmpi::report
