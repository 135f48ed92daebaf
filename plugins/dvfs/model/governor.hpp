// The adapter's view of a governor (dvfs_plugin.cpp): events in, pstate decisions out. Bridges
// the pure governors of plugins/dvfs/model to what the adapter observes, and splits each rank's
// MPI call stream into iterations. No SimGrid include.
#pragma once
#include "dvfs_observer.hpp"
#include "power_profile.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace haec::dvfs {

// A pstate to set now (-1: keep), optionally followed by `then_pstate` after `first_seconds`
// (a two-pstate plan within one computation).
struct Decision {
  int pstate           = -1;
  double first_seconds = 0;
  int then_pstate      = -1;
};

struct GovernorSettings {
  double period         = 0.1;
  double up_threshold   = 0.8;
  double down_threshold = 0.2;
  std::string params;   // "key=value,..." for the governor's own parameters
};

class GovernorBridge {
public:
  virtual ~GovernorBridge() = default;
  virtual std::string name() const = 0;
  virtual int initial_pstate() const = 0; // -1: keep the host's
  virtual bool samples_load() const  = 0; // wants load_sampled every period
  virtual Decision task_starting(uint64_t key, double flops, double now) = 0;
  virtual void task_ended(const TaskRecord& task, double now) = 0;
  virtual Decision iteration_ended(const IterationRecord& iteration, double now) = 0;
  virtual Decision load_sampled(double load, double now) = 0;
  virtual void pstate_changed(int pstate) = 0;
};

// Throws haec::InputError naming `what` (unknown name: lists the valid ones; bad thresholds,
// parameters or range).
std::unique_ptr<GovernorBridge> make_governor_bridge(const std::string& name, const GovernorSettings& settings,
                                                     const std::vector<double>& speeds,
                                                     const power::HostPowerProfile& power, int cores, int min_pstate,
                                                     int max_pstate, const std::string& what);

// How iterations are found in a rank's sequence of MPI call sites.
struct IterationMode {
  enum Kind { Auto, Marker, Site, Every } kind = Auto;
  std::string site;     // Site: the call site text; Every: the function name ("MPI_Waitall")
  long every = 1;       // Every: each k-th call
};
// "auto" | "marker" | "site:SITE" | "every:K:MPI_Function"; throws haec::InputError naming `what`.
IterationMode parse_iteration_mode(const std::string& text, const std::string& what);

class IterationSplitter {
public:
  explicit IterationSplitter(IterationMode mode);
  ~IterationSplitter();
  // True when the call entering `site` starts a new iteration.
  bool boundary(const std::string& site_text, uint32_t site);

private:
  IterationMode mode_;
  long count_ = 0;
  struct Auto;
  std::unique_ptr<Auto> auto_;
};

} // namespace haec::dvfs
