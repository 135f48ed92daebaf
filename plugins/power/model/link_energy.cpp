#include "text.hpp"
#include "link_energy.hpp"
#include "input_error.hpp"
#include "units.hpp"

#include <vector>

namespace haec::power {
namespace {

using text::split;
using text::trim;

LinkWattage idle_busy(const std::string& idle_text, const std::string& busy_text, const std::string& what,
                      const std::string& fix)
{
  LinkWattage w;
  w.idle = units::parse_number(trim(idle_text), what);
  w.busy = units::parse_number(trim(busy_text), what);
  if (w.idle < 0 || w.busy < 0)
    throw InputError(what, "negative wattage", fix);
  if (w.busy < w.idle)
    throw InputError(what, "busy power " + trim(busy_text) + " W is below idle power " + trim(idle_text) + " W", fix);
  return w;
}

} // namespace

std::map<std::string, LinkWattage> parse_link_wattage_table(const std::string& text, const std::string& what)
{
  std::map<std::string, LinkWattage> table;
  if (trim(text).empty())
    return table;
  const std::string fix = "write type:idle_W:busy_W[:off_W] entries, e.g. optical:2.1:24.3,wireless:0:2.124";
  for (auto const& entry : split(text, ',')) {
    auto f = split(entry, ':');
    if ((f.size() != 3 && f.size() != 4) || trim(f[0]).empty())
      throw InputError(what, "'" + trim(entry) + "' is not type:idle:busy[:off]", fix);
    std::string type = trim(f[0]);
    if (table.count(type))
      throw InputError(what, "link type '" + type + "' given twice", "give each type once");
    table[type] = idle_busy(f[1], f[2], what + " [" + type + "]", fix);
    if (f.size() == 4) {
      table[type].off = units::parse_number(trim(f[3]), what + " [" + type + "]");
      if (table[type].off < 0)
        throw InputError(what + " [" + type + "]", "negative off wattage", fix);
    }
  }
  return table;
}

LinkWattage parse_wattage_range(const std::string& link, const std::string& text, const char* off_text)
{
  const std::string what = "link " + link + " property wattage_range";
  auto f                 = split(text, ':');
  if (f.size() != 2)
    throw InputError(what, "'" + text + "' is not idle:busy", "write the idle and full-bandwidth watts, e.g. 2.1:24.3");
  LinkWattage w = idle_busy(f[0], f[1], what, "give 0 <= idle <= busy watts, e.g. 2.1:24.3");
  if (off_text != nullptr) {
    const std::string off_what = "link " + link + " property wattage_off";
    w.off                      = units::parse_number(trim(off_text), off_what);
    if (w.off < 0)
      throw InputError(off_what, "negative wattage", "give the watts drawn when off, e.g. 0.5");
  }
  return w;
}

double joules_per_bit(const LinkWattage& w, double bandwidth_Bps)
{
  return bandwidth_Bps > 0 ? (w.busy - w.idle) / (8 * bandwidth_Bps) : 0.0;
}

double link_energy_j(const LinkWattage& w, double bandwidth_Bps, double seconds, double bytes, double off_seconds)
{
  // (busy - idle) * bytes / bandwidth: the same product SimGrid's usage integral forms.
  double dynamic = bandwidth_Bps > 0 ? (w.busy - w.idle) * bytes / bandwidth_Bps : 0.0;
  double energy  = w.idle * seconds + dynamic;
  return off_seconds > 0 ? energy + w.off * off_seconds : energy;
}

} // namespace haec::power
