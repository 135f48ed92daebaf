// A campaign file (JSON): one program or trace, fixed `haec run` options and axes to sweep. It
// expands into runs, each a `haec run` argument list, named by a stable id so a re-run finds the
// runs it already finished. Format: docs/guide/campaigns.md.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace haec::cli {

struct CampaignRun {
  std::string id;                                       // directory name under DIR/runs (campaign_inputs.hpp)
  std::vector<std::pair<std::string, std::string>> axes; // axis name -> value, in the file's order
  std::vector<std::string> args;                        // haec run arguments, without --out
};

struct Campaign {
  std::string file;                 // as given (for error messages)
  std::vector<std::string> axis_names;
  // Where the runs start: the trace's directory (SimGrid opens a trace list's relative rank files
  // from the working directory), else the campaign file's. Every path in the runs' arguments is
  // absolute.
  std::string workdir;
  std::vector<CampaignRun> runs;    // the cartesian product of the axes
};

// Reads and expands FILE. Throws InputError "<file>: <problem>; <fix>" for malformed JSON, a key
// given twice, unknown keys, empty axes, an axis giving one run twice (2 and "2"), an option set
// twice for one run, a missing program or trace. Does not check the runs themselves. `environment`
// (haec's and SimGrid's versions) goes into every run id with the content of the files it names.
Campaign read_campaign(const std::string& file, const std::string& environment = "");

} // namespace haec::cli
