// A small cache on disk for facts that are costly to establish and depend only on files that have
// not changed since (a trace that passed its check, what SimGrid reports about an XML platform).
// Each kind has its directory, $XDG_CACHE_HOME/haec/<kind> (else ~/.cache/haec/<kind>). An entry is
// named by a hash of its key and holds the whole key, then the value, then an end mark: a hash
// collision, a truncated or foreign file is a miss. A cache that cannot be read or written only
// costs the work again. HAEC_CACHE=off turns every cache on disk off.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace haec::cli {

class DiskCache {
public:
  // `off_variable`: an older, kind-specific switch (e.g. HAEC_TRACE_CHECK_CACHE=off), or nullptr.
  DiskCache(const std::string& kind, const char* off_variable = nullptr);

  std::optional<std::string> find(const std::string& key) const;
  void store(const std::string& key, const std::string& value) const;

private:
  std::filesystem::path entry(const std::string& key) const;
  std::filesystem::path dir_;
};

// "absolute-path size mtime-ns\n" of a file, the part of a key that changes when the file does;
// empty when the file cannot be seen.
std::string file_identity(const std::string& path);

} // namespace haec::cli
