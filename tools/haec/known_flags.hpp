// The --cfg=haec/... keys the suite declares, so the CLI can reject a misspelled key before a
// run (SimGrid would only say "unknown option") and name the closest valid one. A test checks
// this list against `smpirun --help-cfg` with the suite loaded.
#pragma once
#include <string>
#include <vector>

namespace haec::cli {

const std::vector<std::string>& known_haec_flags();
// Throws InputError for an unknown haec/ key, naming the closest known key.
void check_haec_key(const std::string& key);

} // namespace haec::cli
