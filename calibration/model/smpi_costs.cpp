#include "smpi_costs.hpp"

#include "text.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace haec::calibration {

const char* op_name(Op op)
{
  switch (op) {
    case Op::Send: return "MPI_Send";
    case Op::Isend: return "MPI_Isend";
    case Op::Recv: return "MPI_Recv";
    case Op::PingPong: return "PingPong";
    case Op::Ssend: return "MPI_Ssend";
  }
  return "?";
}

double Piecewise::at(double p) const
{
  if (thresholds.empty())
    return 0.0;
  size_t k = 0; // smpi_host.cpp: the first segment, then every segment whose threshold is < p
  while (k + 1 < thresholds.size() && p > static_cast<double>(thresholds[k + 1]))
    ++k;
  return startup[k] + per_byte[k] * p;
}

double Factors::at(double s) const
{
  double current = 1.0; // network_smpi.cpp: sizes up to the first threshold get 1
  for (size_t k = 0; k < thresholds.size(); ++k) {
    if (s <= static_cast<double>(thresholds[k]))
      return current;
    current = values[k];
  }
  return current;
}

std::string number_text(double v)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

std::string Piecewise::text() const
{
  std::string out;
  for (size_t k = 0; k < thresholds.size(); ++k)
    out += (k ? ";" : "") + std::to_string(thresholds[k]) + ":" + number_text(startup[k]) + ":" +
           number_text(per_byte[k]);
  return out;
}

std::string Factors::text() const
{
  std::string out;
  for (size_t k = 0; k < thresholds.size(); ++k)
    out += (k ? ";" : "") + std::to_string(thresholds[k]) + ":" + number_text(values[k]);
  return out;
}

double SmpiNet::transfer(double p) const
{
  const double s = p + 16;
  return latency * lat.at(s) + s * (1 + reverse_share) / (bandwidth * bw.at(s));
}

double SmpiNet::op_time(Op op, double p) const
{
  const bool is_detached = p < static_cast<double>(detached);
  const bool eager       = p < static_cast<double>(async_small);
  auto sleep          = [](double t) { return std::max(0.0, t); }; // SMPI sleeps only positive times
  const double o = sleep(os.at(p)), r = sleep(orecv.at(p)), t = transfer(p);
  switch (op) {
    case Op::Isend: return sleep(ois.at(p));
    case Op::Send: return is_detached ? o : t;
    case Op::Ssend: return o + t;
    case Op::Recv: return eager ? r : is_detached ? t + r : t;
    case Op::PingPong: return 2 * (is_detached ? o + t + r : t);
  }
  return 0;
}

namespace {

std::vector<std::vector<double>> chunks(const std::string& value, size_t fields, const std::string& key)
{
  std::vector<std::vector<double>> out;
  for (const auto& chunk : text::split(value, ';')) {
    const auto f = text::split(chunk, ':');
    if (f.size() != fields)
      throw std::invalid_argument(key + ": chunk '" + chunk + "' needs " + std::to_string(fields) + " fields");
    std::vector<double> v;
    for (const auto& x : f)
      v.push_back(std::stod(x));
    out.push_back(v);
  }
  std::sort(out.begin(), out.end()); // SimGrid sorts the chunks by threshold
  return out;
}

} // namespace

SmpiNet parse_smpi_cfg(const std::string& text, double bandwidth, double latency, double reverse_share)
{
  SmpiNet n;
  n.bandwidth     = bandwidth;
  n.latency       = latency;
  n.reverse_share = reverse_share;
  for (const auto& raw : text::split(text, '\n')) {
    const std::string line = text::trim(raw);
    const std::string prefix = "--cfg=smpi/";
    if (line.rfind(prefix, 0) != 0)
      continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos)
      throw std::invalid_argument(line + ": no value");
    const std::string key = line.substr(prefix.size(), colon - prefix.size()), value = line.substr(colon + 1);
    if (key == "os" || key == "ois" || key == "or") {
      Piecewise& p = key == "os" ? n.os : key == "ois" ? n.ois : n.orecv;
      p = {};
      for (const auto& c : chunks(value, 3, key)) {
        p.thresholds.push_back(static_cast<long long>(c[0]));
        p.startup.push_back(c[1]);
        p.per_byte.push_back(c[2]);
      }
    } else if (key == "bw-factor" || key == "lat-factor") {
      Factors& f = key == "bw-factor" ? n.bw : n.lat;
      f = {};
      for (const auto& c : chunks(value, 2, key)) {
        f.thresholds.push_back(static_cast<long long>(c[0]));
        f.values.push_back(c[1]);
      }
    } else if (key == "async-small-thresh") {
      n.async_small = std::stoll(value);
    } else if (key == "send-is-detached-thresh") {
      n.detached = std::stoll(value);
    }
  }
  if (n.bw.values.empty() || n.lat.values.empty()) // SimGrid's default tables are not modelled
    throw std::invalid_argument("smpi/bw-factor and smpi/lat-factor must both be given");
  return n;
}

} // namespace haec::calibration
