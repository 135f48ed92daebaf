// What the core offers the plugins compiled into libhaec_suite.so: registration, the run's
// settings, the run context (ranks, regions, call sites), the transfer-timing hook of the link
// model, result contributions and the two ways a run ends early. Plugins include this header and
// events.hpp, never another plugin's.
#pragma once
#include "events.hpp"
#include "results.hpp"
#include "settings.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace simgrid::s4u {
class Host;
class Link;
} // namespace simgrid::s4u

namespace haec::core {

// --- registration -------------------------------------------------------------------------
// A plugin registers from a static initialiser; once the platform exists and the settings are
// read and validated, the core calls every `start` in `order` (smaller first), then connects the
// SimGrid signals the subscriptions need.
void register_plugin(const char* name, int order, std::function<void()> start);

// --- settings -----------------------------------------------------------------------------
// Every --cfg=haec/... value of this run (core/model/core_settings.hpp), validated before any
// plugin starts.
const settings::Values& settings();
// A plugin's configuration from the run's settings (its model's *_config function, the one the
// CLI calls too); a value it refuses ends the run as a rejected setting (exit 2).
template <class Config> Config configure(Config (*make)(const settings::Values&));
// Bytes SMPI adds to every message on the network (haec/link/smpi-envelope).
int smpi_envelope();
// True when the run writes results (haec/out given).
bool recording();
// True when the suite was loaded without any haec setting: the PMPI layer's reports are ignored,
// so a bare preload costs the program nothing per MPI call.
bool passive();

// --- run context --------------------------------------------------------------------------
// The rank running on `host` when it carries exactly one SMPI rank, -1 otherwise.
int sole_rank_on(const simgrid::s4u::Host* host);
// The rank of an actor (its SMPI "rank" property), -1 for other actors; cached by pid.
int rank_of(long pid);

// The region of a computation actor `pid` starts now (the code between its last MPI call and the
// one it is in; open-ended outside a call). kNoRegion without call reports or outside an actor (-1).
uint32_t current_region(long pid);
const std::string& region_text(uint32_t region);
const std::string& site_text(uint32_t site);
// True once MPI calls are reported (PMPI layer or replay): regions and messages are observed.
bool calls_reported();

// --- hardware counters ----------------------------------------------------------------------
// The events of the counts computations carry (ComputationStarted::counters), in their order; empty
// until a computation carried some. Every computation of a run carries the same events.
const std::vector<std::string>& counter_events();

// --- transfers ----------------------------------------------------------------------------
struct TransferTiming {
  double total      = -1; // T(m, route) in seconds; -1: no model
  double bw_factor  = 1;
  double lat_factor = 1;
};
// A link model: the time of a transfer of `size` network bytes (`payload` MPI bytes) over `links`.
using TransferModel = std::function<TransferTiming(double size, uint64_t payload, const simgrid::s4u::Host* src,
                                                   const simgrid::s4u::Host* dst,
                                                   const std::vector<simgrid::s4u::Link*>& links)>;
// Installs the link model (at most one). Without one, transfers are only observed when recording.
void set_transfer_model(TransferModel model);
// The link a core link id names (TransferCompleted::link_ids); ids are dense, from 0.
const simgrid::s4u::Link* link_of_id(uint32_t id);

// --- results ------------------------------------------------------------------------------
// Called at the end of a recording run, in plugin order, before any file is written: add files,
// summary entries and checks to `results`.
void add_results_writer(std::function<void(Results& results)> writer);

// --- ending a run -------------------------------------------------------------------------
// The program's buffered output, before the process ends without running its exit handlers: the C
// library's streams and a Fortran program's units (libgfortran buffers them itself).
void flush_program_output();
// A setting (or its file) is unusable: "haec: <message>" and exit 2, before anything runs.
[[noreturn]] void reject_setting(const std::string& message);
// The simulation cannot go on or its results are wrong: "haec: <message>" and exit 3.
[[noreturn]] void fail_run(const std::string& message);

template <class Config> Config configure(Config (*make)(const settings::Values&))
{
  try {
    return make(settings());
  } catch (const std::exception& e) {
    reject_setting(e.what());
  }
}

} // namespace haec::core
