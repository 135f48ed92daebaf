// Fuzzes the DOR/PNC link model's parameters as users give them (--cfg haec/link/KEY:VALUE, read
// with the units parsers exactly like `haec run` validates them) and evaluates T(m, route).
// Input: lines "KEY:VALUE" with KEY one of packet-size, d-out, d-in, d-p, window-id, ff-symbol
// (numbers), window (integer), units (physical|byte-slip), partial-window
// (no-partial|seed-literal); "m:BYTES" adds a message size, "hop:LATENCY,BANDWIDTH" a hop of the
// route (SimGrid units, e.g. hop:10ns,250Gbps). Other lines are ignored.
// Invariants when the model accepts its parameters: T is a non-negative number, at least the
// bottleneck serialisation, non-decreasing in the message size, and n_p >= 1.
#include "dor_pnc_model.hpp"
#include "fuzz_support.hpp"
#include "input_error.hpp"
#include "units.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

using namespace haec::link;
namespace units = haec::units;

namespace {

struct Input {
  NodeParams params;
  std::vector<uint64_t> sizes;
  std::vector<Hop> hops;
};

// Throws haec::InputError on a value `haec run` would reject.
Input parse(const std::string& text)
{
  Input in;
  for (const auto& line : haec::fuzz::lines(text)) {
    const size_t colon = line.find(':');
    if (colon == std::string::npos)
      continue;
    const std::string key = line.substr(0, colon), value = line.substr(colon + 1);
    auto& p = in.params;
    if (key == "packet-size")
      p.packet_size = units::parse_number(value, key);
    else if (key == "d-out")
      p.d_out = units::parse_number(value, key);
    else if (key == "d-in")
      p.d_in = units::parse_number(value, key);
    else if (key == "d-p")
      p.d_p = units::parse_number(value, key);
    else if (key == "window-id")
      p.window_id = units::parse_number(value, key);
    else if (key == "ff-symbol")
      p.ff_symbol = units::parse_number(value, key);
    else if (key == "window")
      p.window = static_cast<int>(units::parse_integer(value, key)); // as tools/haec/cmd_run.cpp
    else if (key == "units")
      p.units = value == "byte-slip" ? Units::ByteSlip : Units::Physical;
    else if (key == "partial-window")
      p.partial_window = value == "seed-literal" ? PartialWindow::SeedLiteral : PartialWindow::NoPartial;
    else if (key == "m" && in.sizes.size() < 16)
      in.sizes.push_back(static_cast<uint64_t>(units::parse_integer(value, key)));
    else if (key == "hop" && in.hops.size() < 64) {
      const size_t comma = value.find(',');
      if (comma == std::string::npos)
        continue;
      Hop h;
      h.latency   = units::parse_time(value.substr(0, comma), key);
      h.bandwidth = units::parse_bandwidth(value.substr(comma + 1), key);
      // A platform's links pass validate(): bandwidth > 0, latency >= 0, both finite.
      if (!(h.bandwidth > 0) || !(h.latency >= 0) || !std::isfinite(h.bandwidth) || !std::isfinite(h.latency))
        continue;
      in.hops.push_back(h);
    }
  }
  return in;
}

void check(const DorPncModel& model, const Input& in)
{
  std::vector<uint64_t> sizes = in.sizes;
  sizes.insert(sizes.end(), {0, 1, 255, 256, 1000, 1 << 20});
  std::sort(sizes.begin(), sizes.end());
  for (size_t h : {size_t{0}, std::min<size_t>(1, in.hops.size()), in.hops.size()}) {
    double previous = 0;
    for (uint64_t m : sizes) {
      FUZZ_CHECK(model.packets(m) >= 1);
      const double t = model.transfer_time(m, in.hops.data(), h);
      const double s = model.bottleneck_serialisation(m, in.hops.data(), h);
      FUZZ_CHECK(!std::isnan(t) && t >= 0);
      FUZZ_CHECK(!std::isnan(s) && s >= 0);
      FUZZ_CHECK(s <= t * (1 + 1e-12));
      FUZZ_CHECK(t >= previous * (1 - 1e-12));
      previous = t;
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
  Input in;
  try {
    in = parse(haec::fuzz::as_text(data, size));
  } catch (const haec::InputError&) {
    return 0;
  }
  for (auto proto : {Protocol::DOR, Protocol::PNC}) {
    std::optional<DorPncModel> model;
    try {
      model.emplace(proto, in.params);
    } catch (const haec::InputError&) {
      continue;
    }
    check(*model, in);
  }
  return 0;
}
