// RAPL through the kernel's powercap interface (the files PAPI's powercap component reads too):
// <root>/sys/class/powercap/intel-rapl:*/energy_uj. The root is an argument so tests can point
// it at a fake tree.
#pragma once
#include <string>
#include <vector>

namespace haec::calibration {

struct RaplZone {
  std::string name;        // contents of `name` (package-0, dram, ...)
  std::string energy_file; // .../energy_uj
  double max_energy_uj = 0; // wrap-around of the counter (max_energy_range_uj), 0 if unknown
};

// Top-level zones, sorted by directory name; empty when the machine exposes none.
std::vector<RaplZone> find_rapl_zones(const std::string& root);

// One line for the user: what was found, or why the files are needed.
std::string rapl_status_line(const std::string& root, const std::vector<RaplZone>& zones);

// Average power of a zone between two counter readings (handles one wrap-around).
double rapl_watts(double uj_before, double uj_after, double seconds, double max_energy_uj);

} // namespace haec::calibration
