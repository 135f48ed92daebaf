#include "run_record.hpp"
#include "units.hpp"

#include <algorithm>
#include <sstream>

namespace haec::core {

using units::exact;

uint32_t RunRecord::node_index(const std::string& host)
{
  auto [it, inserted] = node_ids_.try_emplace(host, static_cast<uint32_t>(node_names_.size()));
  if (inserted)
    node_names_.push_back(host);
  return it->second;
}

void RunRecord::add_transfer(const Transfer& t)
{
  ++transfers_;
  bytes_ += t.bytes;
  count(node_pairs_, static_cast<int>(t.src_node), static_cast<int>(t.dst_node), t.bytes);
  transfer_hops_ += static_cast<uint64_t>(t.hops);
  ++hop_histogram_[t.hops];
  double duration = t.end - t.start;
  auto& s         = by_size_[t.bytes];
  if (s.count == 0) {
    s.min = s.max = duration;
  } else {
    s.min = std::min(s.min, duration);
    s.max = std::max(s.max, duration);
  }
  ++s.count;
  s.sum += duration;
  s.model_sum += t.model_time;
  if (keep_transfers_)
    kept_.push_back(t);
}

void RunRecord::count(HashedCounts& counts, int src_rank, int dst_rank, uint64_t bytes)
{
  auto& cell = counts[(static_cast<uint64_t>(static_cast<uint32_t>(src_rank)) << 32) | static_cast<uint32_t>(dst_rank)];
  ++cell.first;
  cell.second += bytes;
}

RunRecord::PairCounts RunRecord::sorted(const HashedCounts& counts)
{
  PairCounts out;
  for (auto const& [key, cell] : counts)
    out.emplace(std::pair{static_cast<int>(static_cast<uint32_t>(key >> 32)), static_cast<int>(static_cast<uint32_t>(key))},
                cell);
  return out;
}

void RunRecord::add_logical_message(int src_rank, int dst_rank, uint64_t bytes)
{
  ++logical_messages_;
  count(traffic_, src_rank, dst_rank, bytes);
}

void RunRecord::add_logical_receive(int src_rank, int dst_rank, uint64_t bytes)
{
  count(received_, src_rank, dst_rank, bytes);
}

std::string RunRecord::messages_csv() const
{
  std::ostringstream out;
  out << "src_rank,dst_rank,src_node,dst_node,bytes,hops,start,end,model_time\n";
  for (auto const& t : kept_)
    out << t.src_rank << ',' << t.dst_rank << ',' << node_names_[t.src_node] << ',' << node_names_[t.dst_node] << ','
        << t.bytes << ',' << t.hops << ',' << exact(t.start) << ',' << exact(t.end) << ','
        << (t.model_time < 0 ? std::string() : exact(t.model_time)) << '\n';
  return out.str();
}

std::string RunRecord::msg_sizes_csv() const
{
  std::ostringstream out;
  out << "bytes,count,mean_transfer_s,min_transfer_s,max_transfer_s,mean_model_s\n";
  for (auto const& [bytes, s] : by_size_) {
    double n = static_cast<double>(s.count);
    out << bytes << ',' << s.count << ',' << exact(s.sum / n) << ',' << exact(s.min) << ',' << exact(s.max) << ','
        << (s.model_sum < 0 ? std::string() : exact(s.model_sum / n)) << '\n';
  }
  return out.str();
}

std::string RunRecord::hops_csv() const
{
  std::ostringstream out;
  out << "hops,transfers\n";
  for (auto const& [hops, count] : hop_histogram_)
    out << hops << ',' << count << '\n';
  out << "transfer_hops," << transfer_hops_ << '\n';
  return out.str();
}

std::string RunRecord::traffic_matrix_csv() const
{
  std::ostringstream out;
  out << "src_rank,dst_rank,messages,bytes\n";
  for (auto const& [pair, cell] : traffic())
    out << pair.first << ',' << pair.second << ',' << cell.first << ',' << cell.second << '\n';
  return out.str();
}

} // namespace haec::core
