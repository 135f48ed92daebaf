#include "run_output.hpp"
#include "input_error.hpp"

#include <cstdlib>
#include <system_error>
#include <unistd.h>

namespace fs = std::filesystem;

namespace haec::cli {
namespace {

// What only haec run writes: a directory holding these is a result directory.
bool is_result_dir(const fs::path& dir)
{
  std::error_code ec;
  return fs::is_regular_file(dir / "command.txt", ec) || fs::is_regular_file(dir / "summary.json", ec);
}

std::string reason(const std::error_code& ec)
{
  return ec.message();
}

} // namespace

void check_out_dir(const std::string& given, const fs::path& out, bool force)
{
  if (given.empty())
    throw InputError("--out ''", "is empty", "give the result directory, e.g. --out results/run1");
  std::error_code ec;
  const auto st = fs::status(out, ec);
  if (!fs::exists(st))
    return;
  if (!fs::is_directory(st))
    throw InputError("--out " + given, "is an existing file, not a result directory",
                     "choose another name (--force replaces result directories only)");
  if (!force)
    throw InputError("--out " + given, "already exists", "choose another directory or add --force to replace it");
  if (!fs::is_empty(out, ec) && !is_result_dir(out))
    throw InputError("--out " + given, "is a directory that holds no haec result (no summary.json or command.txt)",
                     "--force replaces result directories only: choose another name");
}

fs::path make_stage(const std::string& given, const fs::path& out)
{
  std::error_code ec;
  fs::create_directories(out.parent_path(), ec);
  if (ec)
    throw InputError("--out " + given, "cannot create " + out.parent_path().string() + " (" + reason(ec) + ")",
                     "choose a writable location");
  fs::path stage = out.string() + ".tmp-" + std::to_string(::getpid());
  fs::remove_all(stage, ec);
  if (!fs::create_directory(stage, ec) || ec)
    throw InputError("--out " + given, "cannot create a directory in " + out.parent_path().string() + " (" +
                                           (ec ? reason(ec) : "it exists") + ")",
                     "choose a writable location");
  return stage;
}

void check_map_out(const std::string& dir, bool force)
{
  if (dir.empty())
    throw InputError("--out ''", "is empty", "give the directory receiving hostfile, mapping.txt and metrics.json");
  std::error_code ec;
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw InputError("--out " + dir, "is an existing file, not a directory", "choose another name");
  for (const char* name : {"hostfile", "mapping.txt", "metrics.json"})
    if (!force && fs::exists(fs::path(dir) / name, ec))
      throw InputError("--out " + dir, "already holds " + std::string(name),
                       "choose another directory or add --force to replace it");
}

void make_directory(const std::string& what, const fs::path& dir)
{
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw InputError(what, "cannot create " + dir.string() + " (" + reason(ec) + ")", "choose a writable location");
}

fs::path failed_log_path(const fs::path& out)
{
  const char* prefix = std::getenv("HAEC_FAILED_PREFIX");
  return (prefix && *prefix ? std::string(prefix) : out.string()) + ".failed.log";
}

fs::path failed_dir_path(const fs::path& out)
{
  const char* prefix = std::getenv("HAEC_FAILED_PREFIX");
  if (prefix && *prefix)
    return std::string(prefix) + ".failed";
  std::error_code ec;
  return fs::exists(out, ec) ? fs::path(out.string() + ".failed") : out;
}

void move_into_place(const fs::path& stage, const fs::path& out)
{
  std::error_code ec;
  if (fs::exists(out, ec))
    fs::remove_all(out);
  fs::rename(stage, out);
}

} // namespace haec::cli
