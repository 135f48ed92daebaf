// How a run chooses its resilient link model (DOR_r, PNC_r, NCD_r): the preset, the loss source,
// the mode and every haec/link override, read from KEY -> VALUE text exactly as given on the
// command line. One function serves both the `haec` CLI (which checks before anything runs) and
// the suite (which reads SimGrid's config), so the two can never disagree. Pure C++.
#pragma once
#include "resilient_params.hpp"

#include <cstdint>
#include <map>
#include <vector>
#include <string>

namespace haec::link::resilient {

struct Setup {
  Protocol protocol = Protocol::DOR_r;
  Params params;
  std::string preset = "physical";
  bool sampled       = false; // haec/link/mode: expected (default) or sampled
  double loss        = -1;    // haec/link/loss: one loss probability for every link; < 0: each link's BER
  uint64_t seed      = 1;     // haec/link/seed: the sampled mode's random stream
};

bool is_resilient_model(const std::string& name); // dor_r, pnc_r, ncd_r

// `settings` holds only the keys the user gave (e.g. "haec/link/window" -> "16"). Throws
// haec::InputError naming the key on any bad value.
Setup setup_from_settings(const std::string& model, const std::map<std::string, std::string>& settings);

// The keys setup_from_settings reads (the CLI lists them as known flags).
const std::vector<std::string>& setup_keys();

} // namespace haec::link::resilient
