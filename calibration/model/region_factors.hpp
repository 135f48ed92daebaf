// Region correction factors (issue 9 part 4; calibration/README.md): per-region times recorded by
// calibration/regions in a real MPI run and in an uncorrected SMPI run, aligned by region key
// "prevfile:prevline:file:line", turned into SimGrid 3.32's smpi/comp-adjustment-file. SimGrid
// divides a region's measured time by the file's value, so the value is t_SMPI / t_real (the
// thesis's text says "multiply", contradicting its own example). Pure C++.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace haec::calibration {

struct RegionTotals {
  uint64_t count = 0;
  double total   = 0; // seconds, summed over ranks
};

// One run's record: every rank file's regions summed over ranks.
struct RegionRecord {
  std::string name; // the directory, for errors
  std::map<std::string, RegionTotals> regions;
  std::set<int> ranks;
};

// Adds one rank file (rank,region,count,total_s) to `record`. Throws haec::InputError with
// "file:line" on an empty file, a wrong header, a truncated or malformed row, a rank seen twice.
void add_rank_file(const std::string& text, const std::string& file, RegionRecord& record);

struct RegionFactor {
  std::string region;
  uint64_t count = 0;
  double t_real = 0, t_smpi = 0;
  double ratio  = 1;  // t_smpi / t_real
  bool written  = false; // false: too short to correct (see note)
  std::string note;
};

// Aligns the two records region by region. Throws haec::InputError when they do not describe the
// same program run (different ranks, a region in one run only, different counts). Regions whose
// real or SMPI total is below `min_time` seconds are listed but not written (SMPI does not simulate
// computations below smpi/cpu-threshold, 1 us by default, so their ratio means nothing).
std::vector<RegionFactor> fit_region_factors(const RegionRecord& real, const RegionRecord& smpi, double min_time);

// The SimGrid file: a header line, then "region",ratio per written factor.
std::string factor_file_text(const std::vector<RegionFactor>& factors);

// Parses a factor file; throws haec::InputError "file:line: ..." on malformed rows or ratios <= 0.
std::vector<std::pair<std::string, double>> parse_factor_file(const std::string& text, const std::string& file);

// Every factor must name a region of `smpi`: else "file:line: region K never occurs in DIR".
void check_factor_file(const std::string& text, const std::string& file, const RegionRecord& smpi);

} // namespace haec::calibration
