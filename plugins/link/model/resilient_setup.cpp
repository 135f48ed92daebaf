#include "resilient_setup.hpp"

#include "input_error.hpp"
#include "units.hpp"

#include <cmath>

namespace haec::link::resilient {

bool is_resilient_model(const std::string& name)
{
  return name == "dor_r" || name == "pnc_r" || name == "ncd_r";
}

const std::vector<std::string>& setup_keys()
{
  static const std::vector<std::string> keys = {
      "haec/link/preset", "haec/link/loss",        "haec/link/mode",       "haec/link/seed",
      "haec/link/d-mpi",  "haec/link/rto-margin",  "haec/link/ncd-target", "haec/link/d-sign",
      "haec/link/d-verify"};
  return keys;
}

namespace {

std::string flag(const std::string& key, const std::string& value) { return "--cfg " + key + ":" + value; }

double number(const std::map<std::string, std::string>& s, const std::string& key, double fallback)
{
  auto it = s.find(key);
  return it == s.end() ? fallback : units::parse_number(it->second, flag(key, it->second));
}

} // namespace

Setup setup_from_settings(const std::string& model, const std::map<std::string, std::string>& s)
{
  Setup out;
  out.protocol = parse_protocol(model);
  if (auto it = s.find("haec/link/preset"); it != s.end())
    out.preset = it->second;
  try {
    out.params = preset(out.preset);
  } catch (const InputError&) {
    throw InputError(flag("haec/link/preset", out.preset), "unknown preset", "use paper or physical");
  }
  Params& p = out.params;
  // The error-free models' node parameters, when given, override the preset's.
  p.packet_size = number(s, "haec/link/packet-size", p.packet_size);
  p.d_out       = number(s, "haec/link/d-out", p.d_out);
  p.d_in        = number(s, "haec/link/d-in", p.d_in);
  p.d_p         = number(s, "haec/link/d-p", p.d_p);
  p.window_id   = number(s, "haec/link/window-id", p.window_id);
  p.ff_symbol   = number(s, "haec/link/ff-symbol", p.ff_symbol);
  p.d_mpi       = number(s, "haec/link/d-mpi", p.d_mpi);
  p.d_sign      = number(s, "haec/link/d-sign", p.d_sign);
  p.d_verify    = number(s, "haec/link/d-verify", p.d_verify);
  p.rto_margin  = number(s, "haec/link/rto-margin", p.rto_margin);
  p.ncd_target  = number(s, "haec/link/ncd-target", p.ncd_target);
  if (auto it = s.find("haec/link/window"); it != s.end()) {
    long long w = units::parse_integer(it->second, flag("haec/link/window", it->second));
    if (w < 1 || w > 255) // GF(2^8): at most 255 independent packets per generation matter here
      throw InputError(flag("haec/link/window", it->second), "window size must be 1..255 packets",
                       "use e.g. haec/link/window:5");
    p.window = static_cast<int>(w);
  }
  if (auto it = s.find("haec/link/units"); it != s.end()) {
    if (it->second == "physical")
      p.units = Units::Physical;
    else if (it->second == "byte-slip")
      p.units = Units::ByteSlip;
    else
      throw InputError(flag("haec/link/units", it->second), "unknown unit convention", "use physical or byte-slip");
  }
  if (auto it = s.find("haec/link/mode"); it != s.end()) {
    if (it->second != "expected" && it->second != "sampled")
      throw InputError(flag("haec/link/mode", it->second), "unknown mode", "use expected or sampled");
    out.sampled = it->second == "sampled";
  }
  if (auto it = s.find("haec/link/loss"); it != s.end() && it->second != "ber") {
    out.loss = units::parse_number(it->second, flag("haec/link/loss", it->second));
    if (!(out.loss >= 0 && out.loss < 1))
      throw InputError(flag("haec/link/loss", it->second), "loss probability outside [0,1)",
                       "give a probability such as 0.01");
  }
  if (auto it = s.find("haec/link/seed"); it != s.end()) {
    long long seed = units::parse_integer(it->second, flag("haec/link/seed", it->second));
    if (seed < 0)
      throw InputError(flag("haec/link/seed", it->second), "negative seed", "use a seed >= 0");
    out.seed = static_cast<uint64_t>(seed);
  }
  validate(p, out.protocol);
  return out;
}

} // namespace haec::link::resilient
