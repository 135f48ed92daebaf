// Internal to the platform model: the pieces platform_spec.cpp (spec strings),
// platform_kinds.cpp (kinds, their keys, defaults and presets), platform_validate.cpp and
// platform_json.cpp share. Not for other libraries: platform_spec.hpp is the interface.
#pragma once
#include "platform_spec.hpp"

#include <string>
#include <vector>

namespace haec::platform::detail {

extern const char* const kValidKinds;
extern const std::vector<std::string> kLinkKeys;  // link-bw, link-lat, link-ber
extern const std::vector<std::string> kLevelKeys; // hierarchical: l3, indirect, l1-bw, ...

// The keys a spec of this kind accepts, in the order error messages list them.
std::vector<std::string> keys_of(Kind kind);
std::string join(const std::vector<std::string>& items);
bool parse_kind(const std::string& name, Kind& kind);
// The expected link type names of a kind, in PlatformSpec::link_types order.
std::vector<std::string> link_type_names(Kind kind);
// Defaults of each kind, each with a node power profile (docs/MODELS.md "Default node power").
PlatformSpec defaults(Kind kind);
// A node priced from taurus-8 for `cores` cores and `share` of its idle and static power.
void apply_taurus8_derived(NodeSpec& node, int cores, double share);
// preset=... (only as the first key, position 1): a published configuration later keys override.
void apply_preset(PlatformSpec& s, Kind kind, const std::string& value, size_t position, const std::string& spec);
// Throws when a link type's bandwidth, latency or bit error rate is out of range.
void check_link(const LinkType& t, const std::string& what);

} // namespace haec::platform::detail
