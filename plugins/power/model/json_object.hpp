// The opening of every JSON input file of the power model (workloads, counter coefficients): the
// text must be a JSON object whose keys are all known. Pure C++: no SimGrid include.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace haec::power {

// Throws haec::InputError naming `file`: not JSON or not an object (fix: `fix`), a key outside
// `keys` (fix: "use " + the keys).
nlohmann::json parse_json_object(const std::string& text, const std::string& file, const std::string& fix,
                                 const std::vector<std::string>& keys);

} // namespace haec::power
