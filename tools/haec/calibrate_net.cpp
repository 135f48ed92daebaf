#include "calibrate_net.hpp"

#include "atomic_file.hpp"
#include "calibrate_files.hpp"
#include "input_error.hpp"
#include "net_checks.hpp"
#include "net_fit.hpp"
#include "samples.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>

namespace haec::cli {

namespace fs  = std::filesystem;
namespace cal = haec::calibration;
using cal::number_text;

namespace {

std::string percent(double e)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f %%", 100 * e);
  return buf;
}

std::string error_text(const cal::PredictionError& e)
{
  return "error median " + percent(e.median) + ", max " + percent(std::fabs(e.worst)) + " (" +
         cal::op_name(e.worst_op) + " at " + number_text(e.worst_size) + " B)";
}

std::string gap_text(const cal::MedianTable& t, size_t gap)
{
  if (gap == 0)
    return "below " + number_text(t.sizes.front()) + " B";
  if (gap >= t.sizes.size())
    return "above " + number_text(t.sizes.back()) + " B";
  return "between " + number_text(t.sizes[gap - 1]) + " and " + number_text(t.sizes[gap]) + " B";
}

std::string held_out_text(const cal::HeldOut& h)
{
  return h.computed ? "fitted on half of every (operation, size)'s samples, on the other half: " + error_text(h.error)
                    : "not computed (" + h.reason + ")";
}

// The `# ...` lines after the settings: what the factors refer to, how well the settings fit.
std::string summary_lines(const cal::NetCalibration& c, const NetArgs& a, const cal::HeldOut& h)
{
  std::ostringstream o;
  const auto& s = c.settings;
  o << "# route: bandwidth " << number_text(s.bandwidth) << " Bps, latency " << number_text(s.latency) << " s ("
    << (a.bandwidth > 0 ? "given" : "the best measured bandwidth") << ", "
    << (a.latency > 0 ? "given" : "the smallest measured latency") << "; the factors refer to them"
    << (s.reverse_share > 0 ? ", on SHARED links with network/crosstraffic" : ", without reverse-traffic share")
    << ")\n";
  o << "# fit: " << c.table.sizes.size() << " sizes, " << c.segments.size()
    << (c.segments.size() == 1 ? " segment" : " segments") << "; eager limit "
    << gap_text(c.table, c.eager_gap) << ", detached limit " << gap_text(c.table, c.detached_gap) << "\n";
  o << "# in-sample: " << c.table.sizes.size() * 5 << " (operation, size) medians, "
    << error_text(cal::prediction_error(s, c.table)) << "\n";
  o << "# held-out: " << held_out_text(h) << "\n";
  for (const auto& n : c.notes)
    o << "# note: " << n << '\n';
  return o.str();
}

void add_segments(std::ostringstream& seg, const std::string& path, const cal::NetCalibration& c)
{
  const auto& xs = c.table.sizes;
  for (const auto& g : c.segments) {
    const std::pair<const char*, const double*> q[] = {
        {"os", g.os}, {"ois", g.ois}, {"or", g.orecv}, {"transfer", g.transfer}};
    for (const auto& [name, v] : q)
      seg << path << ',' << name << ',' << number_text(xs[g.first]) << ',' << number_text(xs[g.last]) << ','
          << number_text(v[0]) << ',' << number_text(v[1]) << '\n';
  }
}

// Measured medians against the settings' predictions, and the predictions on a dense grid.
void add_points(std::ostringstream& pts, std::ostringstream& model, const std::string& path,
                const cal::NetCalibration& c)
{
  const auto& t = c.table;
  for (size_t k = 0; k < t.sizes.size(); ++k)
    for (cal::Op op : cal::kAllOps) {
      const double m = t.median[k][static_cast<size_t>(op)] * (op == cal::Op::PingPong ? 2 : 1);
      const double p = c.settings.op_time(op, t.sizes[k]);
      pts << path << ',' << cal::op_name(op) << ',' << number_text(t.sizes[k]) << ',' << number_text(m) << ','
          << number_text(p) << ',' << number_text((p - m) / std::max(std::fabs(m), 1e-9)) << '\n';
    }
  const double lo = std::max(1.0, t.sizes.front()), hi = std::max(lo, t.sizes.back());
  for (int i = 0; i <= 400; ++i) {
    const double x = std::floor(lo * std::pow(hi / lo, i / 400.0));
    for (cal::Op op : cal::kAllOps)
      model << path << ',' << cal::op_name(op) << ',' << number_text(x) << ','
            << number_text(c.settings.op_time(op, x)) << '\n';
  }
}

// Refuses a fit the checks do not trust, or turns its problems into `# warning:` lines.
std::string problems_gate(const cal::NetCalibration& c, const std::string& file, bool accept)
{
  if (c.problems.empty())
    return "";
  if (!accept) {
    const auto& p          = c.problems.front();
    const std::string more = c.problems.size() > 1 ? " (and " + std::to_string(c.problems.size() - 1) + " more)" : "";
    throw InputError(file, p.what + more, p.fix + ", or --accept-poor-fit");
  }
  std::string out;
  for (const auto& p : c.problems)
    out += "# warning: " + file + ": " + p.what + "; " + p.fix + "\n";
  return out;
}

std::string loopback_lines(const cal::LoopbackCalibration& lo, const cal::HeldOut& h)
{
  std::ostringstream o;
  o << "# loopback: bandwidth " << number_text(lo.bandwidth) << " Bps, latency " << number_text(lo.latency) << " s\n";
  o << "# intra-node in-sample: " << error_text(cal::prediction_error(lo.path.settings, lo.path.table)) << "\n";
  o << "# intra-node held-out: " << held_out_text(h) << "\n";
  // SimGrid 3.32 takes os/or/ois per host (host properties), not per route: intra-node values
  // can only be shown, not applied to the loopback path alone.
  for (const auto& [key, value] : cal::smpi_settings(lo.path.settings))
    if (key == "smpi/os" || key == "smpi/ois" || key == "smpi/or")
      o << "# intra-node " << key << ':' << value << '\n';
  for (const auto& n : lo.notes)
    o << "# note: " << n << '\n';
  return o.str();
}

std::string config_xml(const cal::NetCalibration& c, const std::optional<cal::LoopbackCalibration>& lo,
                       const std::string& samples)
{
  std::ostringstream xml;
  xml << "<!-- haec calibrate net " << samples << ": SMPI 3.32 settings for the platform file. The factors refer to"
      << " a route of bandwidth " << number_text(c.settings.bandwidth) << " Bps and latency "
      << number_text(c.settings.latency) << " s. -->\n<config id=\"haec-calibration\">\n";
  for (const auto& [key, value] : cal::smpi_settings(c.settings))
    xml << "  <prop id=\"" << key << "\" value=\"" << value << "\"/>\n";
  xml << "</config>\n";
  if (lo)
    xml << "<!-- loopback (intra-node) link; SMPI applies the factors above to it as well -->\n"
        << "<link id=\"loopback\" bandwidth=\"" << number_text(lo->bandwidth) << "Bps\" latency=\""
        << number_text(lo->latency) << "s\" sharing_policy=\"FATPIPE\"/>\n";
  return xml.str();
}

} // namespace

void run_net(const NetArgs& a)
{
  cal::NetOptions opt;
  opt.bandwidth = a.bandwidth;
  opt.latency   = a.latency;
  if (a.no_crosstraffic)
    opt.reverse_share = 0;
  const auto samples = cal::parse_samples(read_file(a.samples, a.samples), a.samples);
  const auto c       = cal::calibrate_network(samples, a.samples, opt);
  std::optional<cal::LoopbackCalibration> lo;
  std::vector<cal::Sample> samples_intra;
  if (!a.intra.empty()) {
    samples_intra = cal::parse_samples(read_file(a.intra, a.intra), a.intra);
    lo            = cal::calibrate_loopback(samples_intra, a.intra, c, opt);
  }
  std::string warnings = problems_gate(c, a.samples, a.accept_poor_fit);
  if (lo)
    warnings += problems_gate(lo->path, a.intra, a.accept_poor_fit);

  std::ostringstream cfg, seg, pts, model;
  for (const auto& [key, value] : cal::smpi_settings(c.settings))
    cfg << "--cfg=" << key << ':' << value << '\n';
  cfg << summary_lines(c, a, cal::held_out_validation(samples, a.samples, opt));
  seg << "path,quantity,first_size,last_size,startup,per_byte\n";
  pts << "path,op,size,median,predicted,error\n";
  model << "path,op,size,predicted\n";
  add_segments(seg, "inter", c);
  add_points(pts, model, "inter", c);
  if (lo) {
    cal::NetOptions intra = opt;
    intra.bandwidth = intra.latency = 0;
    intra.reverse_share             = 0; // as calibrate_loopback fits them
    cfg << loopback_lines(*lo, cal::held_out_validation(samples_intra, a.intra, intra));
    add_segments(seg, "intra", lo->path);
    add_points(pts, model, "intra", lo->path);
  }
  cfg << warnings;

  write_dir_atomic(a.out, [&](const fs::path& stage) {
    write_file_atomic((stage / "smpi.cfg").string(), cfg.str());
    write_file_atomic((stage / "config.xml").string(), config_xml(c, lo, a.samples));
    write_file_atomic((stage / "segments.csv").string(), seg.str());
    write_file_atomic((stage / "points.csv").string(), pts.str());
    write_file_atomic((stage / "model.csv").string(), model.str());
    if (!a.no_plot) {
      std::vector<std::string> args = {fs::absolute(a.samples).string(), stage.string()};
      if (!a.intra.empty())
        args.push_back(fs::absolute(a.intra).string());
      plot("plot_net.py", args, stage / "net.png");
    }
  });
  std::fputs(cfg.str().c_str(), stdout);
  std::printf("# wrote %s/{smpi.cfg,config.xml,segments.csv,points.csv,model.csv%s}\n", a.out.c_str(),
              fs::exists(fs::path(a.out) / "net.png") ? ",net.png" : "");
}

} // namespace haec::cli
