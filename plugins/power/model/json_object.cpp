#include "json_object.hpp"
#include "input_error.hpp"
#include "json_input.hpp"

#include <algorithm>

namespace haec::power {

nlohmann::json parse_json_object(const std::string& text, const std::string& file, const std::string& fix,
                                 const std::vector<std::string>& keys)
{
  const nlohmann::json j = parse_json_input(text, file, fix, false); // a key given twice is refused too
  if (!j.is_object())
    throw InputError(file, "is not a JSON object", fix);
  for (auto const& [key, value] : j.items())
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      std::string known;
      for (auto const& k : keys)
        known += (known.empty() ? "" : ", ") + k;
      throw InputError(file, "unknown key '" + key + "'", "use " + known);
    }
  return j;
}

} // namespace haec::power
