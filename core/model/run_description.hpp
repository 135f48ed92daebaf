// What `haec run` knows and the simulator does not: the platform as the user named it, the run's
// mode and program or trace, and the rank placement. The CLI writes it as run.json into the
// result directory (--cfg=haec/run:FILE); the core reads it, puts it into summary.json and
// computes the mapping's metrics there, so summary.json has one writer. Pure C++.
#pragma once
#include "mapping.hpp"
#include "results.hpp"
#include "run_record.hpp"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace haec::core {

struct RunDescription {
  std::string platform;         // as given to haec run
  int ranks = 0;
  std::string mode;             // "emulation" or "replay"
  std::string program, trace;   // one of them, as given
  std::string simgrid_library; // the SimGrid installation haec ran (install_paths.hpp, simgrid_description)
  std::string allocator = "system";       // the simulator's malloc: "system" or "jemalloc: <lib>" (--allocator)
  std::string strategy;         // the mapping (mapping.txt's first line)
  std::optional<uint64_t> seed; // random mappings
  std::string traffic_file;     // --traffic as given ("": none)
  std::optional<mapping::CommMatrix> traffic; // its matrix, read by haec run: the metrics use it
  std::vector<int> placement;   // rank -> node index (the platform's xyz order)
  std::map<int, std::array<int, 3>> coords; // node index -> coordinates, for the nodes used
  std::map<int, std::string> hosts;          // node index -> host name, for the nodes used (XML platforms)
};

std::string to_json_text(const RunDescription& d);
// Throws haec::InputError naming `path` when the file is not a run description.
RunDescription read_run_description(const std::string& path);

// The mapping metrics of the run's placement, from the --traffic matrix when given, else from the
// run's own logical messages (nullopt when they were not observed, or the matrix has more ranks).
// `hops` between node indices (links of the platform's routes); empty: message_hops is absent.
std::optional<mapping::Metrics> run_metrics(const RunDescription& d, const RunRecord& record, bool messages_observed,
                                            const std::function<int(int, int)>& hops);
// summary.json's platform, ranks, mode, program or trace, and mapping (with metrics when given).
void add_run_description(Results& results, const RunDescription& d, const std::optional<mapping::Metrics>& metrics);

} // namespace haec::core
