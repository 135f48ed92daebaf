// The progress line of a long run, on the terminal haec/progress names (haec run gives its stderr's
// when that is a terminal: the simulator's own stderr goes to a log). Nothing is connected without
// the setting, so a run without a terminal pays nothing. With it, Engine::on_time_advance (every
// step of the simulated clock) reads a coarse wall clock and, 2 s into the run and then at most 4
// times a second, rewrites the line: the simulated clock, the transfers completed (the bus's
// TransferCompleted, which the suite publishes anyway) and, in a replay, the share of the trace's
// bytes the replayed actions make up (each action's fields and separators: its line) and the time
// left at that pace. The line is erased at the end of the simulation and before any line of the
// suite's own on stderr; haec run erases it again once the simulator has ended, however it ended.
#include "core_parts.hpp"
#include "progress_line.hpp"
#include "run.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <csignal>
#include <ctime>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace sg4 = simgrid::s4u;

namespace haec::core::parts {
namespace {

constexpr double kFirstDraw = 2.0;  // s of wall clock before the line appears (short runs show none)
constexpr double kPeriod    = 0.25; // s between two draws

struct Progress {
  int fd = -1; // the terminal, -1: no line
  double start = 0, next_draw = 0, replay_start = -1;
  uint64_t transfers      = 0;
  uint64_t trace_bytes    = 0; // of the rank files the replay reads
  uint64_t replayed_bytes = 0; // of the actions replayed so far
  bool shared_counted     = false;
  bool drawn              = false;
};

Progress& progress()
{
  static Progress p;
  return p;
}

// CLOCK_MONOTONIC_COARSE: a few nanoseconds a read, resolution a few milliseconds.
double wall_now()
{
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void put(const std::string& text)
{
  Progress& p = progress();
  size_t done = 0;
  while (p.fd >= 0 && done < text.size()) {
    const ssize_t n = ::write(p.fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) { // the terminal went away: no more line
      ::close(p.fd);
      p.fd = -1;
      return;
    }
    done += static_cast<size_t>(n);
  }
}

size_t terminal_width(int fd)
{
  winsize w{};
  return ::ioctl(fd, TIOCGWINSZ, &w) == 0 ? w.ws_col : 0;
}

void draw(double now)
{
  Progress& p = progress();
  ProgressFigures f;
  f.simulated_s     = sg4::Engine::get_clock();
  f.wall_s          = now - p.start;
  f.transfers_known = transfers_observed();
  f.transfers       = p.transfers;
  f.replay          = p.trace_bytes > 0;
  if (f.replay) {
    f.replayed      = static_cast<double>(p.replayed_bytes) / static_cast<double>(p.trace_bytes);
    f.replay_wall_s = p.replay_start < 0 ? 0 : now - p.replay_start;
  }
  put("\r" + progress_line(f, terminal_width(p.fd)) + "\033[K");
  p.drawn = true;
}

void on_time_advance(double)
{
  Progress& p = progress();
  if (p.fd < 0)
    return;
  const double now = wall_now();
  if (now < p.next_draw)
    return;
  p.next_draw = now + kPeriod;
  draw(now);
}

// The bytes of text's lines that are not comments: SimGrid's reader skips comments (the call and
// counter annotations), so progress_replayed never counts them.
uint64_t action_line_bytes(const std::string& text)
{
  uint64_t bytes = 0;
  for (size_t start = 0; start < text.size();) {
    const size_t newline = text.find('\n', start);
    const size_t end     = newline == std::string::npos ? text.size() : newline + 1;
    if (text[start] != '#')
      bytes += end - start;
    start = end;
  }
  return bytes;
}

} // namespace

void start_progress()
{
  const std::string& terminal = settings().text("haec/progress");
  if (terminal.empty())
    return;
  Progress& p = progress();
  p.fd        = ::open(terminal.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (p.fd < 0)
    return; // validated a moment ago; a terminal gone since then only loses the line
  // haec run's children run in a process group of their own, in the background of the terminal:
  // with `stty tostop` writing would stop the simulator, unless SIGTTOU is ignored.
  std::signal(SIGTTOU, SIG_IGN);
  p.start     = wall_now();
  p.next_draw = p.start + kFirstDraw;
  bus().transfer_completed.subscribe([](const TransferCompleted&) { ++progress().transfers; });
  sg4::Engine::on_time_advance_cb(on_time_advance);
  sg4::Engine::on_simulation_end_cb(end_progress);
}

void end_progress()
{
  Progress& p = progress();
  if (p.fd >= 0 && p.drawn)
    put("\r\033[K");
  p.drawn = false;
}

void progress_trace_file(const std::string& path, bool shared, const std::string* text)
{
  Progress& p = progress();
  if (p.fd < 0 || (shared && p.shared_counted))
    return;
  p.shared_counted = p.shared_counted || shared;
  if (text != nullptr) {
    p.trace_bytes += action_line_bytes(*text);
    return;
  }
  struct stat st{};
  if (::stat(path.c_str(), &st) == 0)
    p.trace_bytes += static_cast<uint64_t>(st.st_size);
}

void progress_replayed(const std::vector<std::string>& fields)
{
  Progress& p = progress();
  if (p.fd < 0)
    return;
  if (p.replay_start < 0)
    p.replay_start = wall_now();
  uint64_t bytes = fields.size(); // the separators and the end of the line
  for (auto const& field : fields)
    bytes += field.size();
  p.replayed_bytes += bytes;
}

} // namespace haec::core::parts
