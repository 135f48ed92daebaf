#include "calibrate_counters.hpp"
#include "atomic_file.hpp"
#include "counter_fit.hpp"
#include "counter_model.hpp"
#include "input_error.hpp"
#include "units.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>

namespace haec::cli {
namespace {

namespace cal = haec::calibration;

// What the fit measured, kept in the coefficients file ("fit", not read by the model).
std::string fit_json(const cal::CounterFit& fit, const std::string& power_log, const std::string& samples)
{
  nlohmann::ordered_json j;
  j["power_log"]     = power_log;
  j["counter_samples"] = samples;
  j["held_out"]      = "every " + std::to_string(cal::kHoldOutEvery) + "th interval of each pstate";
  j["skipped_intervals"] = fit.skipped;
  j["pstates"]       = nlohmann::ordered_json::array();
  for (auto const& p : fit.pstates)
    j["pstates"].push_back({{"fitted", p.fitted},
                            {"held_out", p.held_out},
                            {"r2", p.r2},
                            {"held_out_rms_w", p.held_out_rms_w},
                            {"held_out_max_rel", p.held_out_max_rel}});
  return j.dump();
}

void print_fit(const cal::CounterFit& fit)
{
  for (size_t p = 0; p < fit.pstates.size(); ++p) {
    const auto& f = fit.pstates[p];
    std::printf("pstate %zu: P_static %s W", p, units::exact(f.p_static).c_str());
    for (size_t k = 0; k < f.coefficients.size(); ++k)
      std::printf(", %s %s W/(1/s)", fit.events[k].c_str(), units::exact(f.coefficients[k]).c_str());
    std::printf("\n  %zu intervals fitted: R^2 %.6f; %zu held out: RMS error %.4g W, max %.3g %%\n", f.fitted, f.r2,
                f.held_out, f.held_out_rms_w, 100 * f.held_out_max_rel);
  }
  if (fit.skipped > 0)
    std::printf("# %zu counter intervals outside the power log were not used\n", fit.skipped);
}

} // namespace

void run_counter_fit(const std::string& power_log, const std::string& samples, const std::string& out)
{
  if (out.empty())
    throw InputError("--counters", "needs the coefficients file to write", "give --out FILE (e.g. coefficients.json)");
  if (std::filesystem::exists(out))
    throw InputError("--out " + out, "already exists", "remove it or choose another file");
  const auto log    = cal::parse_power_log(read_file(power_log, "--counters"), power_log);
  const auto counts = cal::parse_counter_samples(read_file(samples, "--counters"), samples);
  const auto fit    = cal::fit_counter_model(log, counts, power_log + " and " + samples);
  std::vector<power::CounterPstate> pstates;
  for (auto const& p : fit.pstates)
    pstates.push_back({p.p_static, p.coefficients});
  const power::CounterCoefficients coefficients(fit.events, pstates);
  write_file_atomic(out, coefficients.to_json(fit_json(fit, power_log, samples)));
  print_fit(fit);
  std::printf("# wrote %s (haec run --power-model counters --counter-coefficients %s)\n", out.c_str(), out.c_str());
}

} // namespace haec::cli
