// Names of MPI call sites and of the code regions between them, as the PMPI layer reports them.
// Each SMPI rank runs its own copy of the binary (dlopen privatization), so a call site is
// (object, offset inside it), never a raw address: every rank then names a site alike.
// Pure C++: no SimGrid include.
//
//   call site  "MPI_Send@lu_like+0x1a2b"       (function, object base name, offset of the return address)
//   region     "MPI_Irecv@lu_like+0x11c9>MPI_Waitall@lu_like+0x1302"   the code between two calls
//   open region "MPI_Irecv@lu_like+0x11c9>*"   a computation the application starts itself
//              between two calls (smpi_execute_flops, SMPI_SAMPLE), before the next call is known
#pragma once
#include "call_site.hpp"

#include <absl/container/flat_hash_map.h>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace haec::core {

using haec::call_site_text; // libs/common/call_site.hpp
using haec::object_name;

constexpr uint32_t kNoSite = UINT32_MAX; // before the first MPI call: "start"

// Interns call sites and regions as small integers, so per-computation bookkeeping is cheap.
class SiteTable {
public:
  uint32_t site(const std::string& text);
  const std::string& site_text(uint32_t id) const; // "start" for kNoSite
  // The region between `from` (kNoSite: program start) and `to` (kNoSite: open end).
  uint32_t region(uint32_t from, uint32_t to);
  const std::string& region_text(uint32_t id) const { return regions_.at(id).text; }
  size_t region_count() const { return regions_.size(); }

private:
  struct Region {
    uint32_t from, to;
    std::string text;
  };
  std::vector<std::string> sites_;
  std::unordered_map<std::string, uint32_t> site_ids_;
  std::vector<Region> regions_;
  // (from << 32 | to) -> id; looked up once per computation. Open addressing: at 4096 ranks the
  // node-based map's bucket division and pointer chase were 1.4 % of a replay's CPU samples.
  absl::flat_hash_map<uint64_t, uint32_t> region_ids_;
};

} // namespace haec::core
