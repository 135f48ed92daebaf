// traffic_matrix.csv as `haec run` writes it: "src_rank,dst_rank,messages,bytes", one row per
// (src, dst) with integers. The matrix has 1 + the largest rank seen rows/columns; ranks that never
// appear get zero rows (callers pad further to -np).
#include "input_error.hpp"
#include "mapping_detail.hpp"

#include <algorithm>
#include <map>

namespace haec::mapping {

CommMatrix read_traffic_matrix(const std::string& path)
{
  using detail::where;
  static const std::string kHeader = "src_rank,dst_rank,messages,bytes";
  const auto lines = detail::split_lines(detail::read_text_file(path, "traffic matrix"));
  if (lines.empty() || lines[0] != kHeader)
    throw InputError(where(path, 1), "the header must be exactly '" + kHeader + "'",
                     "give a traffic_matrix.csv written by `haec run`");

  struct Row {
    uint64_t messages, bytes;
  };
  std::map<std::pair<uint64_t, uint64_t>, std::pair<Row, size_t>> rows; // (src,dst) -> row, line
  uint64_t max_rank = 0;
  const char* names[4] = {"src_rank", "dst_rank", "messages", "bytes"};
  for (size_t li = 1; li < lines.size(); ++li) {
    const size_t lineno = li + 1;
    if (detail::trim(lines[li]).empty())
      continue;
    std::vector<std::string> f;
    size_t b = 0;
    for (;;) {
      size_t e = lines[li].find(',', b);
      f.push_back(detail::trim(lines[li].substr(b, e == std::string::npos ? std::string::npos : e - b)));
      if (e == std::string::npos)
        break;
      b = e + 1;
    }
    if (f.size() != 4)
      throw InputError(where(path, lineno), "expected 4 comma-separated fields, got " + std::to_string(f.size()),
                       "write rows 'src_rank,dst_rank,messages,bytes'");
    uint64_t v[4];
    for (int k = 0; k < 4; ++k)
      if (!detail::parse_u64(f[k], v[k]))
        throw InputError(where(path, lineno), std::string(names[k]) + " '" + f[k] + "' is not a non-negative integer",
                         "write integers only");
    for (int k = 0; k < 2; ++k)
      if (v[k] >= static_cast<uint64_t>(detail::kMaxMatrixRanks))
        throw InputError(where(path, lineno), std::string(names[k]) + " " + f[k] + " is too large",
                         "ranks must be below " + std::to_string(detail::kMaxMatrixRanks));
    if (v[2] == 0 && v[3] > 0)
      throw InputError(where(path, lineno), "bytes without messages", "check the row: messages must be > 0");
    auto [prev, fresh] = rows.emplace(std::make_pair(v[0], v[1]), std::make_pair(Row{v[2], v[3]}, lineno));
    if (!fresh)
      throw InputError(where(path, lineno),
                       "pair " + f[0] + " -> " + f[1] + " already has a row on line " +
                           std::to_string(prev->second.second),
                       "give one row per (src_rank, dst_rank)");
    max_rank = std::max({max_rank, v[0], v[1]});
  }
  if (rows.empty())
    return CommMatrix{}; // no point-to-point traffic: an empty matrix
  CommMatrix m = detail::zero_matrix(static_cast<int>(max_rank) + 1, path);
  for (auto const& [key, row] : rows) {
    const size_t cell = key.first * static_cast<size_t>(m.ranks) + key.second;
    m.messages[cell]  = row.first.messages;
    m.bytes[cell]     = row.first.bytes;
  }
  return m;
}

} // namespace haec::mapping
