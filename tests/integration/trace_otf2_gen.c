/* Writes a small OTF2 archive for test_trace_otf2.sh: 2 MPI ranks, timer 1e9 ticks/s.
 *   rank 0: [0,1ms) compute, MPI_Send 800 B to 1 (tag 3) in [1,1.1) ms, compute to 2 ms, MPI_Allreduce 16 B [2,2.5) ms
 *   rank 1: [0,0.5ms) compute, MPI_Recv from 0 [0.5,1.2) ms, compute to 2 ms, MPI_Allreduce [2,2.5) ms
 * Usage: trace_otf2_gen DIR [comm-ranks]   (comm-ranks 1: the communicator holds one rank only) */
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>

static OTF2_FlushType pre(void* a, OTF2_FileType b, OTF2_LocationRef c, void* d, bool e)
{
  (void)a, (void)b, (void)c, (void)d, (void)e;
  return OTF2_FLUSH;
}
static OTF2_TimeStamp post(void* a, OTF2_FileType b, OTF2_LocationRef c)
{
  (void)a, (void)b, (void)c;
  return 0;
}

int main(int argc, char** argv)
{
  if (argc < 2)
    return 2;
  int comm_ranks = argc > 2 ? atoi(argv[2]) : 2;
  OTF2_Archive* ar = OTF2_Archive_Open(argv[1], "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20, OTF2_SUBSTRATE_POSIX,
                                       OTF2_COMPRESSION_NONE);
  OTF2_FlushCallbacks fl = {pre, post};
  OTF2_Archive_SetFlushCallbacks(ar, &fl, NULL);
  OTF2_Archive_SetSerialCollectiveCallbacks(ar);
  OTF2_Archive_OpenEvtFiles(ar);
  const uint64_t us = 1000; /* ticks per microsecond */
  OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(ar, 0);
  OTF2_EvtWriter_Enter(w, NULL, 1000 * us, 0);
  OTF2_EvtWriter_MpiSend(w, NULL, 1000 * us, 1, 0, 3, 800);
  OTF2_EvtWriter_Leave(w, NULL, 1100 * us, 0);
  OTF2_EvtWriter_Enter(w, NULL, 2000 * us, 2);
  OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, 2000 * us);
  OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, 2500 * us, OTF2_COLLECTIVE_OP_ALLREDUCE, 0, OTF2_UNDEFINED_UINT32, 16, 16);
  OTF2_EvtWriter_Leave(w, NULL, 2500 * us, 2);
  OTF2_Archive_CloseEvtWriter(ar, w);
  w = OTF2_Archive_GetEvtWriter(ar, 1);
  OTF2_EvtWriter_Enter(w, NULL, 500 * us, 1);
  OTF2_EvtWriter_MpiRecv(w, NULL, 1200 * us, 0, 0, 3, 800);
  OTF2_EvtWriter_Leave(w, NULL, 1200 * us, 1);
  OTF2_EvtWriter_Enter(w, NULL, 2000 * us, 2);
  OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, 2000 * us);
  OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, 2500 * us, OTF2_COLLECTIVE_OP_ALLREDUCE, 0, OTF2_UNDEFINED_UINT32, 16, 16);
  OTF2_EvtWriter_Leave(w, NULL, 2500 * us, 2);
  OTF2_Archive_CloseEvtWriter(ar, w);
  OTF2_Archive_CloseEvtFiles(ar);
  OTF2_GlobalDefWriter* d = OTF2_Archive_GetGlobalDefWriter(ar);
  OTF2_GlobalDefWriter_WriteClockProperties(d, 1000000000, 0, 3000 * us, OTF2_UNDEFINED_TIMESTAMP);
  const char* s[] = {"", "machine", "node", "MPI_Send", "MPI_Recv", "MPI_Allreduce", "rank 0", "rank 1", "MPI_COMM_WORLD"};
  for (uint32_t i = 0; i < 9; ++i)
    OTF2_GlobalDefWriter_WriteString(d, i, s[i]);
  OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, 1, 2, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  for (uint32_t r = 0; r < 3; ++r)
    OTF2_GlobalDefWriter_WriteRegion(d, r, 3 + r, 3 + r, 0, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI,
                                     OTF2_REGION_FLAG_NONE, 0, 0, 0);
  for (uint32_t r = 0; r < 2; ++r) {
    OTF2_GlobalDefWriter_WriteLocationGroup(d, r, 6 + r, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(d, r, 6 + r, OTF2_LOCATION_TYPE_CPU_THREAD, 7, r);
  }
  uint64_t members[2] = {0, 1};
  OTF2_GlobalDefWriter_WriteGroup(d, 0, 8, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                  (uint32_t)comm_ranks, members);
  OTF2_GlobalDefWriter_WriteComm(d, 0, 8, 0, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  OTF2_Archive_CloseGlobalDefWriter(ar, d);
  OTF2_Archive_Close(ar);
  return 0;
}
