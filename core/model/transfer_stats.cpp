#include "transfer_stats.hpp"
#include "units.hpp"

#include <algorithm>
#include <sstream>

namespace haec::core {

using units::exact;

void Durations::add(uint64_t payload, double seconds)
{
  min = count == 0 ? seconds : std::min(min, seconds);
  max = count == 0 ? seconds : std::max(max, seconds);
  ++count;
  bytes += payload;
  sum += seconds;
}

std::string PairStats::csv(const std::vector<std::string>& node_names) const
{
  std::ostringstream out;
  out << "src_rank,dst_rank,src_node,dst_node,transfers,bytes,mean_transfer_s,min_transfer_s,max_transfer_s\n";
  std::vector<const std::pair<const Key, Durations>*> rows;
  rows.reserve(pairs_.size());
  for (auto const& row : pairs_)
    rows.push_back(&row);
  std::sort(rows.begin(), rows.end(), [](auto* a, auto* b) { return a->first < b->first; });
  for (auto const* row : rows) {
    auto const& [src_rank, dst_rank, src_node, dst_node] = row->first;
    const Durations& d = row->second;
    out << src_rank << ',' << dst_rank << ',' << node_names[src_node] << ',' << node_names[dst_node] << ',' << d.count
        << ',' << d.bytes << ',' << exact(d.sum / static_cast<double>(d.count)) << ',' << exact(d.min) << ','
        << exact(d.max) << '\n';
  }
  return out.str();
}

int size_bin(uint64_t bytes)
{
  int bin = 0;
  while (bytes != 0) { // bit width: 1 -> 1, 2..3 -> 2, 4..7 -> 3
    bytes >>= 1;
    ++bin;
  }
  return bin;
}

uint64_t bin_lower(int bin)
{
  return bin == 0 ? 0 : uint64_t{1} << (bin - 1);
}

uint64_t bin_max(int bin)
{
  return bin >= 64 ? UINT64_MAX : (uint64_t{1} << bin) - 1;
}

void SizeHistogram::add_app_message(uint64_t bytes)
{
  auto& cell = app_[size_bin(bytes)];
  ++cell.first;
  cell.second += bytes;
}

void SizeHistogram::add_transfer(const Transfer& t)
{
  transfers_[size_bin(t.bytes)].add(t.bytes, t.end - t.start);
}

std::string SizeHistogram::csv(bool app_observed) const
{
  int last = -1; // every bin from 0 to the largest used one, empty bins included (plots)
  if (!app_.empty())
    last = app_.rbegin()->first;
  if (!transfers_.empty())
    last = std::max(last, transfers_.rbegin()->first);
  std::ostringstream out;
  out << "min_bytes,max_bytes,app_messages,app_bytes,transfers,transfer_bytes,mean_transfer_s\n";
  for (int b = 0; b <= last; ++b) {
    out << bin_lower(b) << ',' << bin_max(b) << ',';
    auto a = app_.find(b);
    if (app_observed)
      out << (a == app_.end() ? 0 : a->second.first) << ',' << (a == app_.end() ? 0 : a->second.second);
    else
      out << ',';
    auto t = transfers_.find(b);
    if (t == transfers_.end())
      out << ",0,0,\n";
    else
      out << ',' << t->second.count << ',' << t->second.bytes << ','
          << exact(t->second.sum / static_cast<double>(t->second.count)) << '\n';
  }
  return out.str();
}

} // namespace haec::core
