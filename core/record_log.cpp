// A recording run's transfers and application messages are appended to a log as they happen and
// folded into the run record and the traffic statistics in batches, in the order they happened
// (so every table is what folding them one by one gives). Why: folded one at a time, between the
// simulator's own work, their hash tables were mostly out of the cache; this change with the
// others of its commit took the suite from 11.4 % to 8.8 % of a replay's CPU samples (perf, the
// overhead trace; README, section Performance).
#include "core_parts.hpp"

#include <vector>

namespace haec::core::parts {
namespace {

constexpr size_t kBatch = 1 << 12; // entries of one kind folded at once: bounded memory (about 330 KiB)

struct LoggedTransfer {
  Transfer transfer;
  const std::vector<uint32_t>* route; // interned link ids (route_ids)
  double bw_begin;
};

struct LoggedMessage {
  int src_rank, dst_rank;
  uint64_t bytes;
  double time;
};

struct RecordLog {
  std::vector<LoggedTransfer> transfers;
  std::vector<LoggedMessage> sent, received;

  void fold()
  {
    RunRecord& record = run_record();
    for (auto const& t : transfers) {
      record.add_transfer(t.transfer);
      record_transfer_stats(t.transfer, *t.route, t.bw_begin);
    }
    for (auto const& m : sent) {
      record.add_logical_message(m.src_rank, m.dst_rank, m.bytes);
      record_app_message(m.src_rank, m.dst_rank, m.bytes, m.time);
    }
    for (auto const& m : received)
      record.add_logical_receive(m.src_rank, m.dst_rank, m.bytes);
    transfers.clear();
    sent.clear();
    received.clear();
    close_settled_link_intervals(); // everything completed so far is folded
  }

  template <class Entry> void add(std::vector<Entry>& to, Entry&& e)
  {
    if (to.capacity() == 0)
      to.reserve(kBatch);
    to.push_back(std::move(e));
    if (to.size() == kBatch)
      fold();
  }
};

RecordLog& record_log()
{
  static RecordLog log;
  return log;
}

} // namespace

void log_transfer(const Transfer& t, const std::vector<uint32_t>& route, double bw_begin)
{
  RecordLog& log = record_log();
  log.add(log.transfers, LoggedTransfer{t, &route, bw_begin});
}

void log_app_message(int src_rank, int dst_rank, uint64_t bytes, double time)
{
  RecordLog& log = record_log();
  log.add(log.sent, LoggedMessage{src_rank, dst_rank, bytes, time});
}

void log_app_receive(int src_rank, int dst_rank, uint64_t bytes)
{
  RecordLog& log = record_log();
  log.add(log.received, LoggedMessage{src_rank, dst_rank, bytes, 0});
}

void fold_record_log()
{
  record_log().fold();
}

} // namespace haec::core::parts
