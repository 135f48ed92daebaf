// haec trace import / export (OTF2 through libotf2): see libs/trace/README.md.
#pragma once
#include <string>

namespace haec::cli {

// A result directory of haec run --events as OTF2 archive OUT/traces.otf2 (trace_otf2_export.cpp);
// a replay's calls carry their TI lines from `trace` (default: the trace the run replayed).
int export_run(const std::string& result_dir, const std::string& out, const std::string& trace);
// An OTF2 archive as a TI trace: the list OUT and the rank files OUT_files/ (trace_otf2_import.cpp).
int import_otf2(const std::string& anchor, const std::string& out, const std::string& speed_text);

} // namespace haec::cli
