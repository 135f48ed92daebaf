#include "calibrate_files.hpp"

#include "input_error.hpp"
#include "install_paths.hpp"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace haec::cli {

namespace fs = std::filesystem;

void write_dir_atomic(const std::string& dir, const std::function<void(const fs::path&)>& fill)
{
  const fs::path out = fs::absolute(dir);
  if (fs::exists(out))
    throw InputError("--out " + dir, "already exists", "choose another directory or remove it");
  fs::create_directories(out.parent_path());
  const fs::path stage = out.string() + ".tmp-" + std::to_string(::getpid());
  fs::remove_all(stage);
  fs::create_directories(stage);
  try {
    fill(stage);
    fs::rename(stage, out);
  } catch (...) {
    std::error_code ec;
    fs::remove_all(stage, ec);
    throw;
  }
}

namespace {

std::string python()
{
  const char* p = std::getenv("HAEC_PYTHON");
  return p && *p ? p : "/usr/bin/python3";
}

std::string shell_quote(const std::string& s)
{
  std::string q = "'";
  for (char c : s)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

} // namespace

void plot(const std::string& script, const std::vector<std::string>& args, const fs::path& png)
{
  const fs::path path = fs::path(self_dir()) / ".." / "share" / "haec" / "calibration" / script;
  std::string cmd = shell_quote(python()) + " " + shell_quote(path.string());
  for (const auto& a : args)
    cmd += " " + shell_quote(a);
  cmd += " >/dev/null 2>&1";
  if (!fs::exists(path) || std::system(cmd.c_str()) != 0 || !fs::exists(png))
    std::printf("# note: no plot (%s failed; needs %s with numpy and matplotlib)\n", script.c_str(), python().c_str());
}

} // namespace haec::cli
