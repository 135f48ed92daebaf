#include "campaign_inputs.hpp"
#include "text.hpp"

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

namespace fs = std::filesystem;

namespace haec::cli {
namespace {

bool regular_file(const std::string& path, struct stat& st)
{
  return !path.empty() && ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

} // namespace

std::string content_digest(const std::string& path)
{
  static std::map<std::string, std::string> known; // path, size and mtime -> digest
  struct stat st {};
  if (!regular_file(path, st))
    return "";
  const std::string identity = path + '\0' + std::to_string(st.st_size) + '\0' + std::to_string(st.st_mtim.tv_sec) +
                               '.' + std::to_string(st.st_mtim.tv_nsec);
  if (auto it = known.find(identity); it != known.end())
    return it->second;
  std::ifstream in(path, std::ios::binary);
  uint64_t h = 1469598103934665603ull;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    for (std::streamsize i = 0; i < in.gcount(); ++i)
      h = (h ^ static_cast<unsigned char>(buf[i])) * 1099511628211ull;
    if (!in)
      break;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return known[identity] = std::string(hex) + "/" + std::to_string(st.st_size);
}

namespace {

std::string resolve(const std::string& name, const std::string& workdir)
{
  return name.empty() || name[0] == '/' || workdir.empty() ? name : workdir + "/" + name;
}

// A trace list names one file per rank (relative names from the run's directory): their digests,
// in order. A file whose first line names no file is a trace itself: nothing more.
std::string rank_files_digest(const std::string& list, const std::string& workdir)
{
  std::ifstream in(list);
  std::string line, key;
  for (bool first = true; std::getline(in, line); first = false) {
    line = text::trim(line);
    if (line.empty())
      continue;
    const std::string digest = content_digest(resolve(line, workdir));
    if (digest.empty() && first)
      return "";
    key += "\n" + line + " " + (digest.empty() ? "missing" : digest);
  }
  return key;
}

// A value written as a number, in one spelling: "01", "1.0" and "1e0" are 1 (haec run reads them
// alike). Anything else (hexadecimal, inf, words) stays as written.
std::string canonical_number(const std::string& value)
{
  if (value.empty() || value.find_first_of("xXnN") != std::string::npos)
    return value;
  char* end       = nullptr;
  const double v  = std::strtod(value.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v))
    return value;
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", v);
  return text;
}

// One argument with the file it names, if any, replaced by its content ("--replay=<digest>"); an
// option's number in one spelling when `option` (a program's own arguments stay as written).
std::string argument_key(const std::string& arg, const std::string& workdir, bool option)
{
  const size_t eq          = arg.rfind("--", 0) == 0 ? arg.find('=') : std::string::npos;
  std::string head         = eq == std::string::npos ? "" : arg.substr(0, eq + 1);
  if (head == "--cfg=" && arg.find(':', eq) != std::string::npos) // --cfg=KEY:FILE
    head = arg.substr(0, arg.find(':', eq) + 1);
  const std::string value  = arg.substr(head.size());
  const std::string path   = resolve(value, workdir);
  const std::string digest = content_digest(path);
  if (digest.empty())
    return option && !head.empty() ? head + canonical_number(value) : arg;
  return head + "file:" + digest + (head == "--replay=" ? rank_files_digest(path, workdir) : "");
}

} // namespace

std::string run_inputs_key(const std::vector<std::string>& options, const std::vector<std::string>& tail,
                           const std::string& workdir)
{
  std::string key;
  for (const auto& a : options)
    key += argument_key(a, workdir, true) + '\0';
  for (const auto& a : tail)
    key += argument_key(a, workdir, false) + '\0';
  return key;
}

} // namespace haec::cli
