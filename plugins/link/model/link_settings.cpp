#include "link_settings.hpp"
#include "input_error.hpp"
#include "units.hpp"

namespace haec::link {
namespace {

using settings::Need;
using settings::Setting;

// Functions, not globals: the suite builds the table from a static initialiser of another file.
std::vector<std::string> models() { return {"none", "dor", "pnc", "dor_r", "pnc_r", "ncd_r"}; }
Need with_model() { return Need{"haec/link/model", {"dor", "pnc", "dor_r", "pnc_r", "ncd_r"}}; }
Need resilient_model() { return Need{"haec/link/model", {"dor_r", "pnc_r", "ncd_r"}}; }

void check_window(const std::string& value, const std::string& what)
{
  if (units::parse_integer(value, what) > 1000000)
    throw InputError(what, "window too large", "use at most 1000000 packets");
}

Setting node(const char* key, const char* description, const char* fallback)
{
  return Setting{key, description, fallback, settings::check_number, {with_model()}};
}

Setting resilient_setting(const char* key, const char* description, const char* fallback)
{
  // Checked as a whole by resilient::setup_from_settings (link_config).
  return Setting{key, description, fallback, nullptr, {resilient_model()}};
}

} // namespace

std::vector<Setting> settings_rows()
{
  Setting model{"haec/link/model", "HAEC link model: none, dor, pnc, dor_r, pnc_r or ncd_r", "none",
                settings::one_of(models(), "link model")};
  model.option   = "--link";
  model.reserved = true;
  Setting window{"haec/link/window", "Window / generation size s_w in packets", "5", check_window,
                 {with_model()}};
  return {
      model,
      node("haec/link/packet-size", "Packet size s_p in bytes", "288"),
      node("haec/link/d-out", "Sending delay d_out in seconds", "100e-9"),
      node("haec/link/d-in", "Receiving delay d_in in seconds", "100e-9"),
      node("haec/link/d-p", "PNC packet processing delay d_p in seconds", "0.625e-9"),
      window,
      node("haec/link/window-id", "Window id size s_wid in bytes", "4"),
      node("haec/link/ff-symbol", "Finite field symbol size s_ff in bytes (PNC)", "1"),
      Setting{"haec/link/units", "physical (8*s_p/b) or byte-slip (s_p bytes over b bits/s, as the published tables)",
              "physical", settings::one_of({"physical", "byte-slip"}, "unit convention"),
              {with_model()}},
      Setting{"haec/link/partial-window",
              "no-partial (n_r=0 sends no partial window) or seed-literal (Eq. 2 as printed)", "no-partial",
              settings::one_of({"no-partial", "seed-literal"}, "rule"), {Need{"haec/link/model", {"dor", "pnc"}}}},
      resilient_setting("haec/link/preset",
                        "Parameter preset of the resilient models, physical (8*s_p/b) or paper (MODELS.md 3.2 "
                        "Table 2, d_h,p = 1.544 us)",
                        "physical"),
      resilient_setting("haec/link/loss",
                        "Loss probability of every link for the resilient models (default ber: each link's haec:ber)",
                        "ber"),
      resilient_setting("haec/link/mode",
                        "Resilient models' mode, expected (mean time) or sampled (each message draws its time)",
                        "expected"),
      resilient_setting("haec/link/seed", "Seed of the resilient models' sampled mode", "1"),
      resilient_setting("haec/link/d-mpi", "Injection latency d_mpi of the resilient models (s)", "500e-9"),
      resilient_setting("haec/link/rto-margin",
                        "Seconds the resilient models' retransmission timer adds to the loss-free round time", "0"),
      resilient_setting("haec/link/ncd-target", "Probability NCD_r wants one round to give the receiver full rank",
                        "0.99"),
      resilient_setting("haec/link/d-sign", "Signing delay d_sign of the resilient models (s)", "40e-9"),
      resilient_setting("haec/link/d-verify", "Verification delay d_verify of the resilient models (s)", "100e-9"),
  };
}

LinkConfig link_config(const settings::Values& v)
{
  LinkConfig c;
  c.model          = v.text("haec/link/model");
  c.units          = v.text("haec/link/units");
  c.partial_window = v.text("haec/link/partial-window");
  if (resilient::is_resilient_model(c.model)) {
    // Only what the user gave: the preset supplies the rest.
    c.resilient = resilient::setup_from_settings(c.model, v.given_values("haec/link/"));
    return c;
  }
  if (c.model == "none")
    return c;
  NodeParams p;
  p.packet_size    = v.number("haec/link/packet-size");
  p.d_out          = v.number("haec/link/d-out");
  p.d_in           = v.number("haec/link/d-in");
  p.d_p            = v.number("haec/link/d-p");
  p.window         = static_cast<int>(v.integer("haec/link/window"));
  p.window_id      = v.number("haec/link/window-id");
  p.ff_symbol      = v.number("haec/link/ff-symbol");
  p.units          = c.units == "byte-slip" ? Units::ByteSlip : Units::Physical;
  p.partial_window = c.partial_window == "seed-literal" ? PartialWindow::SeedLiteral : PartialWindow::NoPartial;
  c.dor_pnc.emplace(parse_protocol(c.model), p); // throws on bad parameters
  return c;
}

} // namespace haec::link
