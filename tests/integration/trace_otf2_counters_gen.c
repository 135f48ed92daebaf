/* Writes an OTF2 archive in Score-P's layout of PAPI metrics for test_trace_counters.sh: 2 MPI
 * ranks, timer 1e9 ticks/s, one strictly synchronous metric class (recorder CPU) with members
 * PAPI_TOT_INS and PAPI_L3_TCM (PAPI, accumulated from the start, UINT64) and ru_maxrss (absolute:
 * not a counter), one metric event on the rank's own location just before every enter and leave.
 *   rank 0: MPI_Send [1,1.1) ms, MPI_Allreduce [2,2.5) ms; TOT_INS 1000 | 1005 | 3005 | 3100, L3_TCM 10 | 10 | 14 | 15
 *   rank 1: MPI_Recv [0.5,1.2) ms, MPI_Allreduce [2,2.5) ms; TOT_INS 400 | 450 | 1250 | 1300, L3_TCM 2 | 3 | 7 | 7
 * so the computations carry (1000, 10), (2000, 4) on rank 0 and (400, 2), (800, 4) on rank 1.
 * Usage: trace_otf2_counters_gen DIR [missing|gap]  (missing: rank 1 records no metric; gap: rank 0
 * has none before its MPI_Allreduce) */
#include <otf2/otf2.h>
#include <stdio.h>
#include <string.h>

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

static uint64_t written[2];

static void metric(OTF2_EvtWriter* w, int rank, OTF2_TimeStamp t, uint64_t tot_ins, uint64_t l3_tcm)
{
  OTF2_Type types[3] = {OTF2_TYPE_UINT64, OTF2_TYPE_UINT64, OTF2_TYPE_INT64};
  OTF2_MetricValue v[3];
  v[0].unsigned_int = tot_ins;
  v[1].unsigned_int = l3_tcm;
  v[2].signed_int   = 123456; /* ru_maxrss: absolute, not a counter */
  OTF2_EvtWriter_Metric(w, NULL, t, 0, 3, types, v);
  written[rank]++;
}

int main(int argc, char** argv)
{
  if (argc < 2)
    return 2;
  const char* mode = argc > 2 ? argv[2] : "";
  const int rank1_metrics = strcmp(mode, "missing") != 0, rank0_gap = strcmp(mode, "gap") == 0;
  OTF2_Archive* ar = OTF2_Archive_Open(argv[1], "traces", OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20, OTF2_SUBSTRATE_POSIX,
                                       OTF2_COMPRESSION_NONE);
  OTF2_FlushCallbacks fl = {pre, post};
  OTF2_Archive_SetFlushCallbacks(ar, &fl, NULL);
  OTF2_Archive_SetSerialCollectiveCallbacks(ar);
  OTF2_Archive_OpenEvtFiles(ar);
  const uint64_t us = 1000; /* ticks per microsecond */
  OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(ar, 0);
  metric(w, 0, 1000 * us, 1000, 10);
  OTF2_EvtWriter_Enter(w, NULL, 1000 * us, 0);
  OTF2_EvtWriter_MpiSend(w, NULL, 1000 * us, 1, 0, 3, 800);
  metric(w, 0, 1100 * us, 1005, 10);
  OTF2_EvtWriter_Leave(w, NULL, 1100 * us, 0);
  if (!rank0_gap)
    metric(w, 0, 2000 * us, 3005, 14);
  OTF2_EvtWriter_Enter(w, NULL, 2000 * us, 2);
  OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, 2000 * us);
  OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, 2500 * us, OTF2_COLLECTIVE_OP_ALLREDUCE, 0, OTF2_UNDEFINED_UINT32, 16, 16);
  metric(w, 0, 2500 * us, 3100, 15);
  OTF2_EvtWriter_Leave(w, NULL, 2500 * us, 2);
  OTF2_Archive_CloseEvtWriter(ar, w);
  w = OTF2_Archive_GetEvtWriter(ar, 1);
  if (rank1_metrics)
    metric(w, 1, 500 * us, 400, 2);
  OTF2_EvtWriter_Enter(w, NULL, 500 * us, 1);
  OTF2_EvtWriter_MpiRecv(w, NULL, 1200 * us, 0, 0, 3, 800);
  if (rank1_metrics)
    metric(w, 1, 1200 * us, 450, 3);
  OTF2_EvtWriter_Leave(w, NULL, 1200 * us, 1);
  if (rank1_metrics)
    metric(w, 1, 2000 * us, 1250, 7);
  OTF2_EvtWriter_Enter(w, NULL, 2000 * us, 2);
  OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, 2000 * us);
  OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, 2500 * us, OTF2_COLLECTIVE_OP_ALLREDUCE, 0, OTF2_UNDEFINED_UINT32, 16, 16);
  if (rank1_metrics)
    metric(w, 1, 2500 * us, 1300, 7);
  OTF2_EvtWriter_Leave(w, NULL, 2500 * us, 2);
  OTF2_Archive_CloseEvtWriter(ar, w);
  OTF2_Archive_CloseEvtFiles(ar);
  OTF2_GlobalDefWriter* d = OTF2_Archive_GetGlobalDefWriter(ar);
  OTF2_GlobalDefWriter_WriteClockProperties(d, 1000000000, 0, 3000 * us, OTF2_UNDEFINED_TIMESTAMP);
  const char* s[] = {"", "machine", "node", "MPI_Send", "MPI_Recv", "MPI_Allreduce", "rank 0", "rank 1", "MPI_COMM_WORLD",
                     "PAPI_TOT_INS", "PAPI_L3_TCM", "ru_maxrss", "#", "KiB"};
  for (uint32_t i = 0; i < 14; ++i)
    OTF2_GlobalDefWriter_WriteString(d, i, s[i]);
  OTF2_GlobalDefWriter_WriteSystemTreeNode(d, 0, 1, 2, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  for (uint32_t r = 0; r < 3; ++r)
    OTF2_GlobalDefWriter_WriteRegion(d, r, 3 + r, 3 + r, 0, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_MPI,
                                     OTF2_REGION_FLAG_NONE, 0, 0, 0);
  for (uint32_t r = 0; r < 2; ++r) {
    OTF2_GlobalDefWriter_WriteLocationGroup(d, r, 6 + r, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0, OTF2_UNDEFINED_LOCATION_GROUP);
    OTF2_GlobalDefWriter_WriteLocation(d, r, 6 + r, OTF2_LOCATION_TYPE_CPU_THREAD, 7 + written[r], r);
  }
  OTF2_GlobalDefWriter_WriteMetricMember(d, 0, 9, 9, OTF2_METRIC_TYPE_PAPI, OTF2_METRIC_ACCUMULATED_START, OTF2_TYPE_UINT64,
                                         OTF2_BASE_DECIMAL, 0, 12);
  OTF2_GlobalDefWriter_WriteMetricMember(d, 1, 10, 10, OTF2_METRIC_TYPE_PAPI, OTF2_METRIC_ACCUMULATED_START,
                                         OTF2_TYPE_UINT64, OTF2_BASE_DECIMAL, 0, 12);
  OTF2_GlobalDefWriter_WriteMetricMember(d, 2, 11, 11, OTF2_METRIC_TYPE_RUSAGE, OTF2_METRIC_ABSOLUTE_POINT,
                                         OTF2_TYPE_INT64, OTF2_BASE_DECIMAL, 0, 13);
  OTF2_MetricMemberRef class_members[3] = {0, 1, 2};
  OTF2_GlobalDefWriter_WriteMetricClass(d, 0, 3, class_members, OTF2_METRIC_SYNCHRONOUS_STRICT, OTF2_RECORDER_KIND_CPU);
  uint64_t members[2] = {0, 1};
  OTF2_GlobalDefWriter_WriteGroup(d, 0, 8, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2, members);
  OTF2_GlobalDefWriter_WriteComm(d, 0, 8, 0, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  OTF2_Archive_CloseGlobalDefWriter(ar, d);
  OTF2_Archive_Close(ar);
  return 0;
}
