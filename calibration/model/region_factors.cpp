#include "region_factors.hpp"

#include "input_error.hpp"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace haec::calibration {
namespace {

std::vector<std::string> split(const std::string& line, char sep)
{
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, sep))
    out.push_back(field);
  if (!line.empty() && line.back() == sep)
    out.emplace_back();
  return out;
}

std::string where(const std::string& file, int line) { return file + ":" + std::to_string(line); }

double to_double(const std::string& text, const std::string& at, const std::string& what)
{
  char* end      = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    throw InputError(at, what + " '" + text + "' is not a number", "rewrite the file with the recorder");
  return v;
}

// A region key has four fields: prevfile:prevline:file:line.
bool valid_region(const std::string& key)
{
  auto f = split(key, ':');
  if (f.size() != 4 || f[2].empty())
    return false;
  for (int i : {1, 3}) {
    if (f[i].empty())
      return false;
    for (char c : f[i])
      if (c < '0' || c > '9')
        return false;
  }
  return true;
}

} // namespace

void add_rank_file(const std::string& text, const std::string& file, RegionRecord& record)
{
  if (text.empty())
    throw InputError(file, "empty file", "record the run again: MPI_Finalize writes it");
  std::istringstream in(text);
  std::string line;
  std::getline(in, line);
  if (line != "rank,region,count,total_s")
    throw InputError(where(file, 1), "header '" + line + "' is not rank,region,count,total_s",
                     "give a file written by calibration/regions/region_recorder.c");
  if (text.back() != '\n')
    throw InputError(file, "truncated: the last line has no end", "record the run again");
  int n = 1, rank = -1;
  std::map<std::string, RegionTotals> regions; // merged only once the whole file has parsed
  while (std::getline(in, line)) {
    ++n;
    const std::string at = where(file, n);
    auto f               = split(line, ',');
    if (f.size() != 4)
      throw InputError(at, "expected 4 fields rank,region,count,total_s, found " + std::to_string(f.size()),
                       "record the run again");
    const double r = to_double(f[0], at, "rank");
    if (r < 0 || r != std::floor(r) || r > 2147483647.0) // a rank is an int (found by fuzzing)
      throw InputError(at, "rank '" + f[0] + "' is not a rank number", "record the run again");
    if (rank >= 0 && static_cast<int>(r) != rank)
      throw InputError(at, "rank " + f[0] + " in the file of rank " + std::to_string(rank), "keep one rank per file");
    if (rank < 0) {
      rank = static_cast<int>(r);
      if (record.ranks.count(rank))
        throw InputError(at, "rank " + f[0] + " appears in two files of " + record.name,
                         "give each run its own directory");
    }
    if (!valid_region(f[1]))
      throw InputError(at, "region '" + f[1] + "' is not prevfile:prevline:file:line", "record the run again");
    const double count = to_double(f[2], at, "count");
    const double total = to_double(f[3], at, "total_s");
    if (count < 1 || count != std::floor(count) || count > 9007199254740992.0 || total < 0)
      throw InputError(at, "count must be a whole number in [1, 2^53] and total_s >= 0", "record the run again");
    auto& t = regions[f[1]];
    t.count += static_cast<uint64_t>(count);
    t.total += total;
  }
  if (rank >= 0)
    record.ranks.insert(rank);
  for (const auto& [key, t] : regions) {
    auto& sum = record.regions[key];
    sum.count += t.count;
    sum.total += t.total;
  }
}

std::vector<RegionFactor> fit_region_factors(const RegionRecord& real, const RegionRecord& smpi, double min_time)
{
  if (real.regions.empty())
    throw InputError(real.name, "holds no region", "record a run of at least two MPI calls");
  if (real.ranks != smpi.ranks)
    throw InputError(real.name + " vs " + smpi.name,
                     std::to_string(real.ranks.size()) + " ranks against " + std::to_string(smpi.ranks.size()),
                     "record both runs with the same number of ranks");
  for (const auto& [key, t] : smpi.regions)
    if (!real.regions.count(key))
      throw InputError(smpi.name, "region " + key + " never occurs in " + real.name,
                       "record both runs from the same source and arguments");
  std::vector<RegionFactor> out;
  for (const auto& [key, r] : real.regions) {
    auto it = smpi.regions.find(key);
    if (it == smpi.regions.end())
      throw InputError(real.name, "region " + key + " never occurs in " + smpi.name,
                       "record both runs from the same source and arguments");
    if (it->second.count != r.count)
      throw InputError(real.name + " vs " + smpi.name,
                       "region " + key + " ran " + std::to_string(r.count) + " times for real and " +
                           std::to_string(it->second.count) + " times under SMPI",
                       "record both runs with the same program and arguments");
    RegionFactor f;
    f.region = key;
    f.count  = r.count;
    f.t_real = r.total;
    f.t_smpi = it->second.total;
    if (f.t_real < min_time || f.t_smpi < min_time) {
      f.note = "below " + std::to_string(min_time) + " s: not corrected";
    } else {
      f.ratio   = f.t_smpi / f.t_real;
      f.written = true;
    }
    out.push_back(f);
  }
  return out;
}

std::string factor_file_text(const std::vector<RegionFactor>& factors)
{
  std::ostringstream out;
  out.precision(17);
  out << "\"location\",\"ratio\"\n"; // SimGrid skips the first line
  for (const auto& f : factors)
    if (f.written)
      out << '"' << f.region << "\"," << f.ratio << '\n';
  return out.str();
}

namespace {

struct FactorRow {
  std::string region;
  double ratio;
  int line; // 1-based line in the file
};

std::vector<FactorRow> parse_factor_rows(const std::string& text, const std::string& file)
{
  if (text.empty())
    throw InputError(file, "empty file", "write it with haec calibrate regions");
  std::istringstream in(text);
  std::string line;
  std::getline(in, line); // header
  std::vector<FactorRow> out;
  int n = 1;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty())
      continue;
    const std::string at = where(file, n);
    const auto comma     = line.rfind(',');
    if (comma == std::string::npos)
      throw InputError(at, "expected \"region\",ratio", "write it with haec calibrate regions");
    std::string key = line.substr(0, comma);
    if (key.size() >= 2 && key.front() == '"' && key.back() == '"')
      key = key.substr(1, key.size() - 2);
    if (!valid_region(key))
      throw InputError(at, "region '" + key + "' is not prevfile:prevline:file:line", "write it with haec calibrate regions");
    const double ratio = to_double(line.substr(comma + 1), at, "ratio");
    if (!(ratio > 0))
      throw InputError(at, "ratio must be > 0 (SimGrid divides the measured time by it)", "give t_SMPI / t_real");
    out.push_back({key, ratio, n});
  }
  return out;
}

} // namespace

std::vector<std::pair<std::string, double>> parse_factor_file(const std::string& text, const std::string& file)
{
  std::vector<std::pair<std::string, double>> out;
  for (const auto& row : parse_factor_rows(text, file))
    out.emplace_back(row.region, row.ratio);
  return out;
}

void check_factor_file(const std::string& text, const std::string& file, const RegionRecord& smpi)
{
  for (const auto& row : parse_factor_rows(text, file))
    if (!smpi.regions.count(row.region))
      throw InputError(where(file, row.line), "region " + row.region + " never occurs in " + smpi.name,
                       "fit the factors from a record of this program");
}

} // namespace haec::calibration
