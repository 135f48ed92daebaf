#include "text.hpp"
#include "power_profile.hpp"
#include "input_error.hpp"
#include "units.hpp"

#include <algorithm>
#include <cmath>

namespace haec::power {
namespace {

using text::split;
using text::trim;

// A wattage: a finite number >= 0 (whitespace around it is allowed, as in the thesis's XML).
double watts(const std::string& text, const std::string& what, const std::string& fix)
{
  std::string t = trim(text);
  double v      = 0;
  try {
    v = units::parse_number(t, what);
  } catch (const InputError&) {
    throw InputError(what, "'" + t + "' is not a number of watts", fix);
  }
  if (v < 0)
    throw InputError(what, "negative wattage " + t, fix);
  return v;
}

} // namespace

PstatePower from_simgrid(double idle, double epsilon, double all_cores, int sockets, double socket_w)
{
  const double steps = (sockets - 1) * socket_w; // 0 without sockets: SimGrid's own slope, bit for bit
  return {idle, epsilon, all_cores, all_cores - epsilon - steps, sockets > 1 ? socket_w : 0};
}

PstatePower from_calibration(double idle, double one_core, double all_cores, int cores, int sockets,
                             double socket_w)
{
  const double n       = cores;
  const double steps   = (sockets - 1) * socket_w;
  const double dynamic = (all_cores - one_core - steps) * n / (n - 1);
  return from_simgrid(idle, all_cores - dynamic - steps, all_cores, sockets, socket_w);
}

HostPowerProfile::HostPowerProfile(std::vector<PstatePower> pstates, double off_watts, int cores, int sockets)
    : pstates_(std::move(pstates)), off_(off_watts), cores_(cores), sockets_(sockets)
{
}

double HostPowerProfile::watts(int pstate, double busy_cores) const
{
  if (pstates_.empty())
    return 0.0;
  return watts(pstate, busy_cores, pstates_.at(static_cast<size_t>(pstate)).slope);
}

double HostPowerProfile::watts(int pstate, double busy_cores, double slope) const
{
  if (pstates_.empty())
    return 0.0;
  const PstatePower& p = pstates_.at(static_cast<size_t>(pstate));
  // SimGrid 3.32 (host_energy.cpp): load = busy/cores, capped at 1; idle when nothing runs.
  double load = busy_cores / cores_;
  if (load > 1)
    load = 1;
  if (!(load > 0))
    return p.idle;
  double w = p.epsilon + load * slope;
  if (sockets_ > 1) { // sockets fill one after the other
    const double per_socket = static_cast<double>(cores_ / sockets_);
    const double busy       = busy_cores < cores_ ? busy_cores : cores_;
    const double awake      = std::ceil(busy / per_socket);
    w += (awake - 1) * p.socket;
  }
  return w;
}

namespace {

// The old names SimGrid 3.32 ignores (0 W), both power forms at once: refused.
void check_property_names(const std::string& where, const PropertyLookup& property)
{
  for (auto const& [old_name, new_name] : {std::pair<const char*, const char*>{"watt_per_state", "wattage_per_state"},
                                           {"watt_off", "wattage_off"}})
    if (property(old_name) != nullptr)
      throw InputError(where + " property " + old_name, "is the old SimGrid name, ignored by SimGrid 3.32 (0 W)",
                       std::string("rename it ") + new_name);
  if (property("wattage_per_state") && property("haec:wattage_calibration"))
    throw InputError(where, "has both wattage_per_state and haec:wattage_calibration",
                     "give one of them (wattage_per_state is idle:epsilon:all_cores, the other idle:one_core:all_cores)");
}

// haec:sockets: S equal groups of cores (1 without the property).
int read_sockets(const std::string& where, const PropertyLookup& property, int cores)
{
  const char* text = property("haec:sockets");
  if (text == nullptr)
    return 1;
  const std::string what = where + " property haec:sockets";
  double v               = 0;
  try {
    v = units::parse_number(trim(text), what);
  } catch (const InputError&) {
    v = -1;
  }
  if (!(v >= 1) || v != std::floor(v) || v > cores || cores % static_cast<int>(v) != 0)
    throw InputError(what, "'" + trim(text) + "' is not a socket count dividing the " + std::to_string(cores) + " cores",
                     "give a whole number of sockets that divides the core count, e.g. 2");
  return static_cast<int>(v);
}

// haec:socket_wattage: the watts each awake socket beyond the first adds, per pstate.
std::vector<double> read_socket_watts(const std::string& where, const PropertyLookup& property, int sockets,
                                      size_t pstate_count)
{
  std::vector<double> socket_w(pstate_count, 0.0);
  const char* text = property("haec:socket_wattage");
  if (sockets > 1 && text == nullptr)
    throw InputError(where + " property haec:sockets", "has no haec:socket_wattage",
                     "give the watts each extra awake socket adds, e.g. haec:socket_wattage=5");
  if (text == nullptr)
    return socket_w;
  const std::string what = where + " property haec:socket_wattage";
  if (sockets < 2)
    throw InputError(what, "is set but the host has one socket", "set haec:sockets to 2 or more, or drop it");
  auto values = split(text, ',');
  if (values.size() != 1 && values.size() != pstate_count)
    throw InputError(what, std::to_string(values.size()) + " values for " + std::to_string(pstate_count) + " pstates",
                     "give one value for every pstate or one per pstate");
  for (size_t i = 0; i < pstate_count; ++i)
    socket_w[i] = watts(values[values.size() == 1 ? 0 : i], what, "give watts >= 0, e.g. 5");
  return socket_w;
}

// How one pstate's entry reads: the property, its form, the host's cores and sockets.
struct EntryForm {
  bool simgrid;       // wattage_per_state (else haec:wattage_calibration)
  std::string fix;    // how to write an entry
  int cores, sockets;
};

// One pstate's "idle:epsilon:all_cores" (SimGrid) or "idle:one_core:all_cores" (thesis) entry.
PstatePower read_pstate(const std::string& entry, const std::string& what, const EntryForm& f, double socket_w)
{
  auto fields = split(entry, ':');
  if (fields.size() != 3 && !(f.simgrid && fields.size() == 2))
    throw InputError(what, "'" + trim(entry) + "' has " + std::to_string(fields.size()) + " values", f.fix);
  std::vector<double> v;
  std::vector<std::string> text; // idle, epsilon or one_core, all_cores as written
  for (auto const& field : fields) {
    v.push_back(watts(field, what, f.fix));
    text.push_back(trim(field));
  }
  if (fields.size() == 2) { // SimGrid's "idle:all_cores": epsilon = idle
    v.insert(v.begin() + 1, v[0]);
    text.insert(text.begin() + 1, text[0]);
  }
  PstatePower p;
  if (f.simgrid) {
    p = from_simgrid(v[0], v[1], v[2], f.sockets, socket_w);
  } else {
    if (v[2] < v[1])
      throw InputError(what, "all_cores " + text[2] + " W is below one_core " + text[1] + " W",
                       "give idle:one_core:all_cores with all_cores >= one_core");
    if (f.sockets > 1 && v[2] - v[1] < (f.sockets - 1) * socket_w)
      throw InputError(what, "the socket steps exceed all_cores - one_core",
                       "lower haec:socket_wattage or check the calibration");
    p = from_calibration(v[0], v[1], v[2], f.cores, f.sockets, socket_w);
    if (p.epsilon < 0)
      throw InputError(what, "the calibration implies a negative static power",
                       "check one_core and all_cores (P_static = PN - (PN - P1) * n / (n - 1))");
  }
  if (p.all_cores < p.idle)
    throw InputError(what, "all_cores " + text[2] + " W is below idle " + text[0] + " W", "give all_cores >= idle");
  if (p.slope < 0)
    throw InputError(what,
                     f.sockets > 1 ? "all_cores " + text[2] + " W is below epsilon plus the socket steps"
                                   : "all_cores " + text[2] + " W is below epsilon " + text[1] + " W",
                     "give all_cores >= epsilon (P_static)" + std::string(f.sockets > 1 ? " + (S - 1) * socket" : ""));
  return p;
}

} // namespace

HostPowerProfile parse_host_power(const std::string& host, const PropertyLookup& property, size_t pstate_count,
                                  int cores)
{
  const std::string where = "host " + host;
  check_property_names(where, property);
  const char* simgrid_form = property("wattage_per_state");
  const char* thesis_form  = property("haec:wattage_calibration");
  double off               = 0;
  if (const char* off_text = property("wattage_off"))
    off = watts(off_text, where + " property wattage_off", "give the watts drawn when off, e.g. 10");
  if (!simgrid_form && !thesis_form)
    return HostPowerProfile({}, off, cores);

  const int sockets                 = read_sockets(where, property, cores);
  const std::vector<double> socket_w = read_socket_watts(where, property, sockets, pstate_count);
  const std::string name = simgrid_form ? "wattage_per_state" : "haec:wattage_calibration";
  const std::string form = simgrid_form ? "idle:epsilon:all_cores (or idle:all_cores)" : "idle:one_core:all_cores";
  const std::string prop = where + " property " + name;
  auto states            = split(simgrid_form ? simgrid_form : thesis_form, ',');
  if (states.size() != pstate_count)
    throw InputError(prop,
                     std::to_string(states.size()) + " power states for " + std::to_string(pstate_count) + " pstates",
                     "give one " + form + " entry per pstate");
  if (thesis_form && cores < 2)
    throw InputError(prop, "one_core and all_cores coincide on a single-core host",
                     "use wattage_per_state (idle:epsilon:all_cores) instead");
  const EntryForm f{simgrid_form != nullptr, "write " + form + " per pstate, comma separated", cores, sockets};
  std::vector<PstatePower> pstates;
  for (size_t i = 0; i < states.size(); ++i)
    pstates.push_back(read_pstate(states[i], prop + " (pstate " + std::to_string(i) + ")", f, socket_w[i]));
  return HostPowerProfile(std::move(pstates), off, cores, sockets);
}

} // namespace haec::power
