// Energy of a network link: a static power while the platform exists plus an energy per bit
// carried. Pure C++.
//
// Parameters come as SimGrid's link_energy plugin takes them, idle and busy watts ("idle:busy",
// busy being the power at 100 % of the link's bandwidth). The energy per bit is the dynamic part
// of that linear model: e_bit = (busy - idle) / bandwidth_bits. Integrating SimGrid's
// P(t) = idle + (busy - idle) * usage(t) / bandwidth over a run gives exactly
// idle * T + e_bit * bits, where bits is the integral of the link's usage: what the flows that
// crossed it occupied (the adapter sums it per transfer, so no time integration is needed).
#pragma once
#include <map>
#include <string>

namespace haec::power {

struct LinkWattage {
  double idle = 0; // W, drawn while on
  double busy = 0; // W at full bandwidth
  double off  = 0; // W while switched off (Link::turn_off)
};

// "type:idle:busy[:off],..." (e.g. "optical:2.1:24.3,wireless:0:2.124"); empty text gives
// an empty table. Throws haec::InputError naming `what` on a malformed entry, a duplicate type,
// negative watts or busy < idle.
std::map<std::string, LinkWattage> parse_link_wattage_table(const std::string& text, const std::string& what);

// SimGrid's link properties wattage_range, "idle:busy", and wattage_off (nullptr: 0 W; SimGrid
// 3.32's link_energy plugin documents it but never charges it). Throws haec::InputError naming
// the link.
LinkWattage parse_wattage_range(const std::string& link, const std::string& text, const char* off_text = nullptr);

// Joules per bit carried by a link of `bandwidth_Bps` bytes/s.
double joules_per_bit(const LinkWattage& w, double bandwidth_Bps);

// Energy of a link on for `seconds` (and off for `off_seconds`) having carried `bytes`.
double link_energy_j(const LinkWattage& w, double bandwidth_Bps, double seconds, double bytes, double off_seconds = 0);

} // namespace haec::power
