#include "checks.hpp"
#include "csv.hpp"
#include "units.hpp"

#include <algorithm>
#include <cmath>

namespace haec::core {
namespace {

std::string pair_text(const std::pair<int, int>& p)
{
  return std::to_string(p.first) + "->" + std::to_string(p.second);
}

Check passed(const std::string& name, const std::string& figures)
{
  return Check{name, Check::Result::Passed, figures};
}

Check failed(const std::string& name, const std::string& figures)
{
  return Check{name, Check::Result::Failed, figures};
}

std::pair<uint64_t, uint64_t> totals(const PairCounts& counts)
{
  std::pair<uint64_t, uint64_t> t{0, 0};
  for (auto const& [pair, cell] : counts) {
    t.first += cell.first;
    t.second += cell.second;
  }
  return t;
}

// The first pair where `bad(sent cell, received cell)`, or nullopt-like (-1,-1).
template <class Bad> std::pair<int, int> first_mismatch(const PairCounts& sent, const PairCounts& received, Bad bad)
{
  std::set<std::pair<int, int>> pairs;
  for (auto const& [p, c] : sent)
    pairs.insert(p);
  for (auto const& [p, c] : received)
    pairs.insert(p);
  const std::pair<uint64_t, uint64_t> zero{0, 0};
  for (auto const& p : pairs) {
    auto s = sent.find(p);
    auto r = received.find(p);
    if (bad(s == sent.end() ? zero : s->second, r == received.end() ? zero : r->second))
      return p;
  }
  return {-1, -1};
}

std::string cell_text(const PairCounts& counts, const std::pair<int, int>& p)
{
  auto it = counts.find(p);
  const auto c = it == counts.end() ? std::pair<uint64_t, uint64_t>{0, 0} : it->second;
  return std::to_string(c.first) + " messages, " + std::to_string(c.second) + " bytes";
}

} // namespace

Check pairs_match(const std::string& name, const PairCounts& sent, const PairCounts& received, const std::string& what)
{
  auto bad = first_mismatch(sent, received, [](auto const& s, auto const& r) { return s != r; });
  if (bad.first >= 0)
    return failed(name, what + " " + pair_text(bad) + ": " + cell_text(sent, bad) + " started, " +
                            cell_text(received, bad) + " completed");
  auto t = totals(sent);
  return passed(name, std::to_string(t.first) + " " + what + "s (" + std::to_string(t.second) + " bytes) on " +
                          std::to_string(sent.size()) + " pairs: every one started completed");
}

Check receives_match_sends(const PairCounts& sent, const PairCounts& received)
{
  const std::string name = "messages_sent_equals_received";
  auto bad = first_mismatch(sent, received,
                            [](auto const& s, auto const& r) { return s.first != r.first || s.second > r.second; });
  if (bad.first >= 0)
    return failed(name, "rank pair " + pair_text(bad) + ": " + cell_text(sent, bad) + " sent, " +
                            cell_text(received, bad) + " received");
  auto t = totals(sent);
  return passed(name, std::to_string(t.first) + " messages (" + std::to_string(t.second) + " bytes) on " +
                          std::to_string(sent.size()) + " rank pairs: each sent message has its receive");
}

Check traffic_matrix_total(const std::string& table, uint64_t app_messages)
{
  const std::string name = "traffic_matrix_total";
  uint64_t total         = 0;
  csv::for_each_row(table, "traffic_matrix.csv", "src_rank,dst_rank,messages,bytes", 4,
                    [&](const std::vector<std::string>& c, const std::string&) { total += std::stoull(c[2]); });
  if (total != app_messages)
    return failed(name, "traffic_matrix.csv holds " + std::to_string(total) + " messages, app_messages is " +
                            std::to_string(app_messages));
  return passed(name, "traffic_matrix.csv holds " + std::to_string(total) + " messages = app_messages");
}

Check column_sum(const std::string& name, const std::string& table, const std::string& column, double total,
                 const std::string& what)
{
  const auto header = csv::cells(table.substr(0, table.find('\n')));
  const size_t col  = static_cast<size_t>(std::find(header.begin(), header.end(), column) - header.begin());
  double sum        = 0;
  size_t rows       = 0;
  if (col < header.size())
    csv::for_each_row(table, what, header.front(), col + 1, [&](const std::vector<std::string>& c, const std::string&) {
      sum += std::stod(c[col]);
      ++rows;
    });
  const std::string figures = what + " " + units::exact(total) + ", sum of " + std::to_string(rows) + " " + column +
                              " rows " + units::exact(sum);
  if (col == header.size() || !(std::abs(sum - total) <= 1e-12 * std::max(std::abs(total), 1e-300)))
    return failed(name, figures);
  return passed(name, figures);
}

Check all_ranks_finalized(const std::set<int>& finalized, int ranks)
{
  const std::string name = "ranks_finalized";
  for (int r = 0; r < ranks; ++r)
    if (!finalized.count(r))
      return failed(name, "rank " + std::to_string(r) + " never called MPI_Finalize (" +
                              std::to_string(finalized.size()) + " of " + std::to_string(ranks) + " ranks did)");
  return passed(name, "all " + std::to_string(ranks) + " ranks called MPI_Finalize");
}

Check not_checked(const std::string& name, const std::string& why)
{
  return Check{name, Check::Result::NotChecked, why};
}

} // namespace haec::core
