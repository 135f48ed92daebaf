// Reading a failed simulation: the simulator's log (smpirun's stderr: SimGrid's messages, ours
// as "haec: ..." lines, and the program's own stderr) and the exit status tell what happened.
#include "run_failure.hpp"
#include "atomic_file.hpp"
#include "run_output.hpp"
#include "text.hpp"

#include <nlohmann/json.hpp>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

namespace fs = std::filesystem;

namespace haec::cli {
namespace {

constexpr size_t kOutputLines = 3;   // last lines of the program's output shown after a crash
constexpr size_t kOutputWidth = 160; // characters per shown line
constexpr size_t kLastLineWidth = 120; // the last line of output quoted in the one-line error

struct Diagnosis {
  int status = 3;
  std::string what;          // the one line, without "haec: " and the log note
  bool show_output = false;  // a crash: the program's last lines help
  bool keep_log    = true;   // bad input found by the simulator keeps nothing
};

std::vector<std::string> lines_of(const fs::path& file)
{
  std::vector<std::string> lines;
  std::ifstream in(file, std::ios::binary);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

std::string text_after(const std::string& line, const std::string& marker)
{
  return line.substr(line.find(marker) + marker.size());
}

// "[node-1:1:(2) 0.000068] ./src/...": the rank is the actor name, between the first two colons.
std::string rank_in_prefix(const std::string& line)
{
  if (line.empty() || line[0] != '[')
    return "";
  size_t a = line.find(':'), b = a == std::string::npos ? a : line.find(':', a + 1);
  if (b == std::string::npos || line.find(']') < b)
    return "";
  return line.substr(a + 1, b - a - 1);
}

// The simulator's own lines (SimGrid's log, smpirun's trailer, SimGrid's crash handler) as
// opposed to what the program wrote.
bool simulator_line(const std::string& line, bool log)
{
  static const char* texts[] = {"Execution failed with code", "Segmentation fault", "Aborted",
                                "Access violation or Bus error", "This probably comes from a programming error",
                                "overflow. If you are certain", "--cfg=contexts/stack-size", "If it does not help",
                                "a bug in SimGrid", "Failing hardware", " --cfg=smpi/privatization:"};
  if (line.empty() || (log && (line[0] == '[' || line.rfind("haec: ", 0) == 0)))
    return true;
  for (const char* t : texts)
    if (line.find(t) != std::string::npos)
      return true;
  return false;
}

struct LogFacts {
  std::string haec_line, deadlock, critical, abort_rank, returned_rank, returned_value, stack_failure;
  bool access_violation = false;
};

LogFacts read_log(const std::vector<std::string>& log)
{
  LogFacts f;
  for (const auto& line : log) {
    if (line.rfind("haec: deadlock: ", 0) == 0 && f.deadlock.empty())
      f.deadlock = line.substr(6);
    else if (line.rfind("haec: ", 0) == 0 && f.haec_line.empty())
      f.haec_line = line.substr(6);
    else if (line.find("MPI_Abort was called") != std::string::npos && f.abort_rank.empty())
      f.abort_rank = rank_in_prefix(line);
    else if (line.find("SMPI process did not return 0. Return value : ") != std::string::npos && f.returned_value.empty()) {
      f.returned_rank  = rank_in_prefix(line);
      f.returned_value = text_after(line, "Return value : ");
    } else if (line.find("Failed to protect stack") != std::string::npos ||
               line.find("Failed to allocate stack") != std::string::npos)
      f.stack_failure = text_after(line, "] ");
    else if (line.find("/CRITICAL] ") != std::string::npos && line.find("Deadlock detected") == std::string::npos &&
             f.critical.empty())
      f.critical = text_after(line, "/CRITICAL] ");
    else if (line.find("Access violation or Bus error") != std::string::npos)
      f.access_violation = true;
  }
  return f;
}

// The simulator's exit: smpirun hands on smpimain's status, 128 + N when a signal N killed it.
int crash_signal(const ChildResult& c)
{
  if (c.signal != 0)
    return c.signal;
  return c.exit_code > 128 && c.exit_code < 128 + 65 ? c.exit_code - 128 : 0;
}

// A full disk explains failures whose messages could not even be written to the log.
std::string disk_note(const fs::path& dir)
{
  std::error_code ec;
  const auto space = fs::space(dir, ec);
  return !ec && space.available < (64u << 10) ? " (the disk holding " + dir.parent_path().string() + " is full)" : "";
}

Diagnosis diagnose(const FailedRun& run, const LogFacts& f, bool summary_written)
{
  const ChildResult& c = run.child;
  Diagnosis d;
  if (!f.stack_failure.empty()) {
    d = {2, "-np " + std::to_string(run.ranks) + ": the simulator cannot create " + std::to_string(run.ranks) +
                " ranks on this machine (" + f.stack_failure + "); use fewer ranks, a smaller --cfg contexts/stack-size, "
                "or raise vm.max_map_count", false, false};
  } else if (!f.abort_rank.empty()) {
    d.what = "run failed: rank " + f.abort_rank + " called MPI_Abort";
  } else if (!f.returned_value.empty()) {
    d.what = "run failed: rank " + f.returned_rank + " ended with status " + f.returned_value +
             " (its main returned or called exit)";
  } else if (!f.deadlock.empty()) {
    d.status = 4;
    d.what   = f.deadlock;
  } else if (c.exit_code == 2 && !f.haec_line.empty()) {
    d = {2, f.haec_line, false, false}; // a setting the suite refused inside the simulator
  } else if (int sig = crash_signal(c); sig != 0) {
    d.show_output = true;
    d.what        = "run failed: the simulation crashed with " + signal_name(sig);
    if (!f.critical.empty())
      d.what += " (SimGrid: " + f.critical + ")";
    else if (f.access_violation)
      d.what += " (an access violation: a bug in the program or a stack overflow; a larger "
                "--cfg contexts/stack-size may help)";
    else
      d.what += " (in the program or the simulator)";
  } else if (c.exit_code != 0) {
    d.what = "run failed (simulator exit " + std::to_string(c.exit_code) + ")" +
             (!f.haec_line.empty() ? ": " + f.haec_line : !f.critical.empty() ? ": SimGrid: " + f.critical : "") +
             disk_note(run.stage);
  } else if (!summary_written) {
    d.what = "run failed: the simulator ended without writing summary.json" + disk_note(run.stage);
  }
  return d;
}

// `log`: the simulator's stderr, else the program's stdout (where smpirun also writes its trailer).
std::vector<std::string> last_program_lines(const std::vector<std::string>& lines, bool log)
{
  std::vector<std::string> kept;
  for (const auto& l : lines)
    if (!simulator_line(l, log))
      kept.push_back(l);
  if (kept.size() > kOutputLines)
    kept.erase(kept.begin(), kept.end() - kOutputLines);
  return kept;
}

void print_last_output(const std::vector<std::string>& stdout_lines, const std::vector<std::string>& log)
{
  auto out = last_program_lines(stdout_lines, false);
  auto err = last_program_lines(log, true);
  if (out.empty() && err.empty())
    return;
  std::fprintf(stderr, "haec: last output of the program (stdout, then stderr):\n");
  for (const auto* block : {&out, &err})
    for (const auto& l : *block) {
      std::string shown = text::escaped(l);
      if (shown.size() > kOutputWidth)
        shown = shown.substr(0, kOutputWidth - 3) + "...";
      std::fprintf(stderr, "  | %s\n", shown.c_str());
    }
}

std::string failed_log_text(const FailedRun& run)
{
  std::ostringstream text;
  text << std::ifstream(run.stage / "simgrid.log", std::ios::binary).rdbuf();
  text << "\n==== the program's standard output (stdout.txt) ====\n";
  text << std::ifstream(run.stage / "stdout.txt", std::ios::binary).rdbuf();
  return text.str();
}

// --keep-failed: the directory stays, summary.json says why it is not a result.
fs::path keep_directory(const FailedRun& run, const Diagnosis& d)
{
  const fs::path summary = run.stage / "summary.json";
  nlohmann::ordered_json s = nlohmann::ordered_json::object();
  std::error_code ec;
  if (fs::exists(summary, ec))
    s = nlohmann::ordered_json::parse(read_file(summary.string(), "summary.json"), nullptr, false);
  if (!s.is_object())
    s = nlohmann::ordered_json::object();
  s["status"]      = "failed";
  s["failure"]     = d.what;
  s["exit_status"] = d.status;
  write_file_atomic(summary.string(), s.dump(2) + "\n");
  const fs::path dir = failed_dir_path(run.out);
  fs::remove_all(dir, ec);
  fs::rename(run.stage, dir);
  return dir;
}

} // namespace

bool simulation_failed(const ChildResult& child, const fs::path& stage)
{
  std::error_code ec;
  if (child.exit_code != 0 || !fs::exists(stage / "summary.json", ec))
    return true;
  for (const auto& line : lines_of(stage / "simgrid.log"))
    if (line.find("MPI_Abort was called") != std::string::npos)
      return true;
  return false;
}

int report_failed_run(const FailedRun& run)
{
  const auto log          = lines_of(run.stage / "simgrid.log");
  const auto stdout_lines = lines_of(run.stage / "stdout.txt");
  std::error_code ec;
  const Diagnosis d = diagnose(run, read_log(log), fs::exists(run.stage / "summary.json", ec));
  std::string where;
  try {
    if (d.keep_log && run.keep_failed) {
      where = "; kept in " + keep_directory(run, d).string();
    } else if (d.keep_log) {
      const fs::path log_path = failed_log_path(run.out);
      write_file_atomic(log_path.string(), failed_log_text(run));
      where = "; log: " + log_path.string();
    }
  } catch (const std::exception& e) {
    where = "; the log could not be kept (" + std::string(e.what()) + ")";
  }
  std::string last;
  if (d.status == 3 && d.what.rfind("run failed: ", 0) == 0) { // the program's last words, in the line
    auto err = last_program_lines(log, true), out = last_program_lines(stdout_lines, false);
    last = !err.empty() ? err.back() : !out.empty() ? out.back() : "";
    last = text::escaped(last);
    if (last.size() > kLastLineWidth)
      last = last.substr(0, kLastLineWidth - 3) + "...";
    if (!last.empty())
      last = "; its last output: " + last;
  }
  std::fprintf(stderr, "haec: %s%s%s\n", text::one_line(d.what).c_str(), last.c_str(), text::escaped(where).c_str());
  if (d.show_output)
    print_last_output(stdout_lines, log);
  fs::remove_all(run.stage, ec);
  return d.status;
}

} // namespace haec::cli
