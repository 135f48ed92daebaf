// MapLib's communication matrices (github.com/unibas-dmi-hpc/MapLib, mapping-matters-commMatrices):
// dense, square, comma-separated, no header; row = sender, column = receiver. "comm_matrix.p2p.size.csv"
// holds bytes and "comm_matrix.p2p.count.csv" messages. Given one, the other is read from the same
// directory when it is there; otherwise that quantity stays unknown (CommMatrix::has_*).
#include "input_error.hpp"
#include "mapping_detail.hpp"

#include <filesystem>

namespace haec::mapping {
namespace {

const std::string kSize = ".size.csv", kCount = ".count.csv";

bool ends_with(const std::string& s, const std::string& tail)
{
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

std::vector<std::string> split_commas(const std::string& line)
{
  std::vector<std::string> f;
  size_t b = 0;
  for (;;) {
    size_t e = line.find(',', b);
    f.push_back(detail::trim(line.substr(b, e == std::string::npos ? std::string::npos : e - b)));
    if (e == std::string::npos)
      return f;
    b = e + 1;
  }
}

std::vector<uint64_t> read_dense(const std::string& path, int& n)
{
  return detail::parse_dense_matrix(detail::read_text_file(path, "communication matrix"), path, n);
}

} // namespace

namespace detail {

std::vector<uint64_t> parse_dense_matrix(const std::string& text, const std::string& path, int& n)
{
  using detail::where;
  auto lines = detail::split_lines(text);
  while (!lines.empty() && detail::trim(lines.back()).empty())
    lines.pop_back();
  if (lines.empty())
    throw InputError(path, "the matrix is empty", "give a square comma-separated matrix, one row per sender");
  const size_t rows = lines.size();
  if (rows > static_cast<size_t>(detail::kMaxMatrixRanks))
    throw InputError(path, "has " + std::to_string(rows) + " rows; dense matrices are limited to " +
                               std::to_string(detail::kMaxMatrixRanks) + " ranks",
                     "give a smaller matrix");
  std::vector<uint64_t> cells(rows * rows, 0);
  for (size_t r = 0; r < rows; ++r) {
    const auto f = split_commas(lines[r]);
    if (f.size() != rows)
      throw InputError(where(path, r + 1), "row has " + std::to_string(f.size()) + " fields but the matrix has " +
                                               std::to_string(rows) + " rows",
                       "give a square matrix: as many comma-separated values per row as rows");
    for (size_t c = 0; c < rows; ++c) {
      if (detail::parse_u64(f[c], cells[r * rows + c]))
        continue;
      const bool negative = !f[c].empty() && f[c][0] == '-';
      throw InputError(where(path, r + 1),
                       (negative ? "negative weight '" : "value '") + f[c] + "' in column " + std::to_string(c + 1) +
                           (negative ? "" : " is not a non-negative integer"),
                       "write message counts or byte sizes as non-negative integers");
    }
  }
  n = static_cast<int>(rows);
  return cells;
}

} // namespace detail

CommMatrix read_maplib_matrix(const std::string& path)
{
  const bool is_size = ends_with(path, kSize);
  if (!is_size && !ends_with(path, kCount))
    throw InputError(path, "a MapLib matrix must say what it counts",
                     "name it *.size.csv (bytes) or *.count.csv (messages), as MapLib does");
  const std::string stem    = path.substr(0, path.size() - (is_size ? kSize : kCount).size());
  const std::string sibling = stem + (is_size ? kCount : kSize);
  CommMatrix m;
  std::vector<uint64_t> main = read_dense(path, m.ranks), other;
  m.has_bytes    = is_size;
  m.has_messages = !is_size;
  if (std::filesystem::is_regular_file(sibling)) {
    int n = 0;
    other = read_dense(sibling, n);
    if (n != m.ranks)
      throw InputError(sibling, "has " + std::to_string(n) + " ranks but " + path + " has " + std::to_string(m.ranks),
                       "give the size and count matrices of one run");
    m.has_bytes = m.has_messages = true;
  } else {
    other.assign(main.size(), 0);
  }
  m.bytes    = is_size ? std::move(main) : std::move(other);
  m.messages = is_size ? std::move(other) : std::move(main);
  return m;
}

} // namespace haec::mapping
