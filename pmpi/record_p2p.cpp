// TI recording of point-to-point calls and of the calls that complete requests (recording.hpp):
// SimGrid's send/isend/recv/irecv, every completed request as its own "wait" at the call that
// completed it, a wildcard receive with the source and tag it matched.
#include "wrappers.hpp"

namespace haec::pmpi::record {
namespace {

// A request `before` the call completed with `status` (may be null: no status). A request the
// program cancelled did nothing: its start is taken out of the trace.
void complete(const Recording& rec, MPI_Request before, const MPI_Status* status)
{
  TiState& s = ti_state();
  if (before == MPI_REQUEST_NULL || !rec.recorder().knows(rec.rank(), ti_key(before)))
    return;
  int cancelled = 0;
  if (status != nullptr && status != MPI_STATUS_IGNORE)
    PMPI_Test_cancelled(status, &cancelled);
  int src = TiRecorder::kAny, tag = TiRecorder::kAny;
  auto it = s.recv_comm.find(before);
  if (it != s.recv_comm.end()) {
    if (status != nullptr && !cancelled) {
      src = to_world(it->second, status->MPI_SOURCE);
      tag = status->MPI_TAG;
    }
    s.recv_comm.erase(it);
  }
  if (cancelled)
    rec.recorder().cancelled(rec.rank(), ti_key(before));
  else
    rec.recorder().complete(rec.rank(), ti_key(before), src, tag);
}

// Buffered and synchronous sends: SMPI detaches a buffered send whatever its size (the sender never
// waits for the receiver) and never detaches a synchronous one (the sender waits for the match),
// which SimGrid's send and isend actions do not do: our haec_bsend / haec_ssend (and haec_ibsend /
// haec_issend ID, completed by haec_wait ID), replayed with the same MPI call
// (core/replay_p2p_actions.cpp). `mode` is "b" or "s".
void moded_send(const Recording& rec, const char* mode, MPI_Request req, bool blocking, MPI_Comm comm, int dst,
                int tag, int count, MPI_Datatype type)
{
  const int w = to_world(comm, dst);
  if (w < 0 || (!blocking && req == MPI_REQUEST_NULL))
    return;
  const std::string fields = std::to_string(w) + " " + std::to_string(tag) + " " + ti_count_type(count, type);
  if (blocking)
    rec.action("haec_" + std::string(mode) + "send " + fields);
  else
    rec.recorder().collective_start(rec.rank(), "i" + std::string(mode) + "send", fields, ti_key(req));
}

void send(const Recording& rec, bool blocking, MPI_Request req, MPI_Comm comm, int dst, int tag, int count,
          MPI_Datatype type)
{
  int w = to_world(comm, dst);
  if (w < 0 || (!blocking && req == MPI_REQUEST_NULL))
    return;
  double c = count;
  int id   = ti_type(type, c);
  rec.recorder().send(rec.rank(), blocking, w, tag, c, id, blocking ? 0 : ti_key(req));
}

void irecv(const Recording& rec, MPI_Request req, MPI_Comm comm, int src, int tag, int count, MPI_Datatype type)
{
  if (src == MPI_PROC_NULL || req == MPI_REQUEST_NULL)
    return;
  int w = src == MPI_ANY_SOURCE ? TiRecorder::kAny : to_world(comm, src);
  if (w == -1 && src != MPI_ANY_SOURCE)
    return;
  double c = count;
  int id   = ti_type(type, c);
  rec.recorder().irecv(rec.rank(), w, tag == MPI_ANY_TAG ? TiRecorder::kAny : tag, c, id, ti_key(req));
  ti_state().recv_comm[req] = comm;
}

// A sendrecv is written as isend, recv, wait (with the real tags; SimGrid's sendRecv action uses
// tag 0 for both halves): the same requests and completion as SMPI's own sendrecv. The source and
// tag are those the caller named (the status only for wildcards: SMPI 3.32 and 4.1 report a wrong
// source for a rank's sendrecv with itself). That one SMPI only copies locally: nothing is written.
void sendrecv(const Recording& rec, int dst, int sendtag, int sendcount, MPI_Datatype sendtype, int src, int recvtag,
              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const MPI_Status* status)
{
  const int wd = to_world(comm, dst);
  const int ws = src == MPI_ANY_SOURCE ? TiRecorder::kAny : to_world(comm, src);
  if (wd == rec.rank() && ws == rec.rank())
    return;
  if (wd >= 0) {
    double c = sendcount;
    int id   = ti_type(sendtype, c);
    rec.recorder().send(rec.rank(), false, wd, sendtag, c, id, ~0ULL);
  }
  if (src != MPI_PROC_NULL && status != nullptr) {
    double c = recvcount;
    int id   = ti_type(recvtype, c);
    const int from = ws != TiRecorder::kAny ? ws : to_world(comm, status->MPI_SOURCE);
    rec.recorder().recv(rec.rank(), from, recvtag == MPI_ANY_TAG ? status->MPI_TAG : recvtag, c, id);
  }
  if (wd >= 0)
    rec.recorder().complete(rec.rank(), ~0ULL, 0, 0);
}

// Persistent requests are written as isend/irecv at each MPI_Start.
void remember(MPI_Request* req, bool is_send, int peer, int tag, int count, MPI_Datatype type, MPI_Comm comm,
              const char* mode = "")
{
  if (req != nullptr && *req != MPI_REQUEST_NULL)
    ti_state().persistent[*req] = TiPersistent{is_send, mode, peer, tag, count, type, comm};
}

void started(const Recording& rec, MPI_Request req)
{
  TiState& s = ti_state();
  auto it    = s.persistent.find(req);
  if (it == s.persistent.end())
    return;
  const TiPersistent& p = it->second;
  if (p.send && *p.mode != '\0')
    moded_send(rec, p.mode, req, false, p.comm, p.peer, p.tag, p.count, p.type);
  else if (p.send)
    send(rec, false, req, p.comm, p.peer, p.tag, p.count, p.type);
  else
    irecv(rec, req, p.comm, p.peer, p.tag, p.count, p.type);
}

MPI_Request value(const MPI_Request* req)
{
  return req != nullptr ? *req : MPI_REQUEST_NULL;
}

} // namespace

// ---- sends and receives -----------------------------------------------------------------------
void Send(Recording& rec, const void*, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm)
{
  send(rec, true, MPI_REQUEST_NULL, comm, dst, tag, count, type);
}
void Ssend(Recording& rec, const void*, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm)
{
  moded_send(rec, "s", MPI_REQUEST_NULL, true, comm, dst, tag, count, type);
}
void Bsend(Recording& rec, const void*, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm)
{
  moded_send(rec, "b", MPI_REQUEST_NULL, true, comm, dst, tag, count, type);
}
void Rsend(Recording& rec, const void*, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm)
{
  send(rec, true, MPI_REQUEST_NULL, comm, dst, tag, count, type);
}
void Isend(Recording& rec, const void*, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
           MPI_Request* request)
{
  send(rec, false, value(request), comm, dst, tag, count, type);
}
void Issend(Recording& rec, const void*, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
            MPI_Request* request)
{
  moded_send(rec, "s", value(request), false, comm, dst, tag, count, type);
}
void Ibsend(Recording& rec, const void*, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
            MPI_Request* request)
{
  moded_send(rec, "b", value(request), false, comm, dst, tag, count, type);
}
void Irsend(Recording& rec, const void*, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
            MPI_Request* request)
{
  send(rec, false, value(request), comm, dst, tag, count, type);
}

void Sendrecv(Recording& rec, const void*, int sendcount, MPI_Datatype sendtype, int dst, int sendtag, void*,
              int recvcount, MPI_Datatype recvtype, int src, int recvtag, MPI_Comm comm, MPI_Status* status)
{
  sendrecv(rec, dst, sendtag, sendcount, sendtype, src, recvtag, recvcount, recvtype, comm, status);
}
void Sendrecv_replace(Recording& rec, void*, int count, MPI_Datatype type, int dst, int sendtag, int src, int recvtag,
                      MPI_Comm comm, MPI_Status* status)
{
  sendrecv(rec, dst, sendtag, count, type, src, recvtag, count, type, comm, status);
}

void Recv(Recording& rec, void*, int count, MPI_Datatype type, int src, int, MPI_Comm comm, MPI_Status* status)
{
  if (src == MPI_PROC_NULL)
    return;
  double c = count;
  int id   = ti_type(type, c);
  rec.recorder().recv(rec.rank(), to_world(comm, status->MPI_SOURCE), status->MPI_TAG, c, id);
}
void Irecv(Recording& rec, void*, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Request* request)
{
  irecv(rec, value(request), comm, src, tag, count, type);
}
// Probes only take time (written as a sleep: they are timed).
void Probe(Recording&, int, int, MPI_Comm, MPI_Status*) {}
void Iprobe(Recording&, int, int, MPI_Comm, int*, MPI_Status*) {}

// ---- persistent requests ----------------------------------------------------------------------
void Send_init(Recording&, const void*, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
               MPI_Request* request)
{
  remember(request, true, dst, tag, count, type, comm);
}
void Ssend_init(Recording&, const void*, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
                MPI_Request* request)
{
  remember(request, true, dst, tag, count, type, comm, "s");
}
void Bsend_init(Recording&, const void*, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
                MPI_Request* request)
{
  remember(request, true, dst, tag, count, type, comm, "b");
}
void Rsend_init(Recording&, const void*, int count, MPI_Datatype type, int dst, int tag, MPI_Comm comm,
                MPI_Request* request)
{
  remember(request, true, dst, tag, count, type, comm);
}
void Recv_init(Recording&, void*, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm, MPI_Request* request)
{
  remember(request, false, src, tag, count, type, comm);
}
void Start(Recording& rec, MPI_Request* request)
{
  if (request != nullptr)
    started(rec, *request);
}
void Startall(Recording& rec, int count, MPI_Request requests[])
{
  for (int i = 0; requests != nullptr && i < count; ++i)
    started(rec, requests[i]);
}
void Request_free(Recording& rec, const Requests& before, MPI_Request*)
{
  TiState& s            = ti_state();
  const MPI_Request req = before.at(0);
  rec.recorder().freed(rec.rank(), ti_key(req));
  s.persistent.erase(req);
  s.recv_comm.erase(req);
}

// ---- completion -------------------------------------------------------------------------------
void Wait(Recording& rec, const Requests& before, MPI_Request*, MPI_Status* status)
{
  complete(rec, before.at(0), status);
}
void Waitall(Recording& rec, const Requests& before, int count, MPI_Request[], MPI_Status statuses[])
{
  for (int i = 0; i < count; ++i)
    complete(rec, before.at(i), &statuses[i]);
}
void Waitany(Recording& rec, const Requests& before, int count, MPI_Request[], int* index, MPI_Status* status)
{
  if (index != nullptr && *index >= 0 && *index < count)
    complete(rec, before.at(*index), status);
}
// SMPI's Waitsome waits for one request, then tests each other active one, sleeping smpi/test
// seconds per test: a sleep the replay's waits would not make, written after the first completion.
void Waitsome(Recording& rec, const Requests& before, int incount, MPI_Request[], int* outcount, int* indices,
              MPI_Status statuses[])
{
  if (outcount == nullptr || *outcount == MPI_UNDEFINED)
    return;
  for (int k = 0; k < *outcount; ++k) {
    if (indices[k] >= 0 && indices[k] < incount)
      complete(rec, before.at(indices[k]), &statuses[k]);
    if (k == 0)
      rec.recorder().sleep(rec.rank(), rec.recorder().slept_in_call(rec.rank()));
  }
}
void Test(Recording& rec, const Requests& before, MPI_Request*, int* flag, MPI_Status* status)
{
  if (*flag)
    complete(rec, before.at(0), status);
}
void Testall(Recording& rec, const Requests& before, int count, MPI_Request requests[], int* flag,
             MPI_Status statuses[])
{
  for (int i = 0; i < count; ++i)
    if (*flag || requests[i] == MPI_REQUEST_NULL)
      complete(rec, before.at(i), &statuses[i]);
}
void Testany(Recording& rec, const Requests& before, int count, MPI_Request[], int* index, int* flag,
             MPI_Status* status)
{
  if (*flag && *index >= 0 && *index < count)
    complete(rec, before.at(*index), status);
}
void Testsome(Recording& rec, const Requests& before, int incount, MPI_Request[], int* outcount, int* indices,
              MPI_Status statuses[])
{
  if (outcount == nullptr || *outcount == MPI_UNDEFINED) // the call's own time is already a sleep (timed)
    return;
  for (int k = 0; k < *outcount; ++k)
    if (indices[k] >= 0 && indices[k] < incount)
      complete(rec, before.at(indices[k]), &statuses[k]);
}

} // namespace haec::pmpi::record
