#include "rapl.hpp"

#include "text.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace haec::calibration {

namespace fs = std::filesystem;

namespace {
std::string read_line(const fs::path& p)
{
  std::ifstream in(p);
  std::string s;
  std::getline(in, s);
  return text::trim(s);
}
} // namespace

std::vector<RaplZone> find_rapl_zones(const std::string& root)
{
  std::vector<RaplZone> zones;
  const fs::path dir = fs::path(root) / "sys/class/powercap";
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return zones;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string d = entry.path().filename().string();
    // intel-rapl:0 is a package; intel-rapl:0:1 a subzone (counted in its package).
    if (d.rfind("intel-rapl:", 0) != 0 || std::count(d.begin(), d.end(), ':') != 1)
      continue;
    const fs::path energy = entry.path() / "energy_uj";
    if (!fs::exists(energy, ec))
      continue;
    RaplZone z{read_line(entry.path() / "name"), energy.string(), 0};
    if (z.name.empty())
      z.name = d;
    try {
      z.max_energy_uj = std::stod(read_line(entry.path() / "max_energy_range_uj"));
    } catch (...) {
      z.max_energy_uj = 0;
    }
    zones.push_back(z);
  }
  std::sort(zones.begin(), zones.end(), [](const RaplZone& a, const RaplZone& b) { return a.energy_file < b.energy_file; });
  return zones;
}

std::string rapl_status_line(const std::string& root, const std::vector<RaplZone>& zones)
{
  const std::string where = (fs::path(root) / "sys/class/powercap").string();
  if (zones.empty())
    return "no RAPL counters (" + where + " has no intel-rapl zone; PAPI's powercap component reads the same "
           "files): using the wattmeter logs";
  std::string names;
  for (const auto& z : zones)
    names += (names.empty() ? "" : ", ") + z.name;
  return "RAPL counters in " + where + ": " + names;
}

double rapl_watts(double before, double after, double seconds, double max_energy_uj)
{
  double d = after - before;
  if (d < 0 && max_energy_uj > 0)
    d += max_energy_uj;
  return d * 1e-6 / seconds;
}

} // namespace haec::calibration
