// A deadlock is a failed run, not a result: when SimGrid finds that no rank can progress
// (Engine::on_deadlock), print one line naming every blocked rank and the MPI call it waits in,
// mark summary.json failed, and end the simulator with exit status 4 once the results are written
// (docs/guide/errors.md). What a rank waits in comes from what the core already knows:
// the call reported by the PMPI layer (haec_suite_mpi_enter, plus haec_suite_mpi_peer for the
// peer and tag) in emulation, the replayed action ("MPI_Recv@trace:1:0": peer, tag) in replay.
// Only runs that write results (haec/out) are changed; a bare preload stays a no-op.
#include "blocked_ranks.hpp"
#include "core_parts.hpp"
#include "run.hpp"
#include "site_table.hpp"
#include "text.hpp"

#include <simgrid/s4u.hpp>
#include <xbt/log.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <vector>

XBT_LOG_NEW_DEFAULT_SUBCATEGORY(haec_deadlock, smpi, "haec-smpi: deadlock report");

namespace sg4 = simgrid::s4u;

namespace haec::core {
namespace {

constexpr size_t kLineBudget = 240;
constexpr int kDeadlockStatus = 4;

struct PeerReport {
  uint32_t site = kNoSite; // the call it was reported for
  int peer = -1, tag = -1;
};

std::vector<PeerReport>& peer_reports() // by actor pid
{
  static std::vector<PeerReport> reports;
  return reports;
}

std::map<int, bool>& ended_ranks() // rank -> reached MPI_Finalize
{
  static std::map<int, bool> ended;
  return ended;
}

int actor_rank(const sg4::Actor& actor)
{
  const char* rank = actor.get_property("rank");
  return rank ? std::atoi(rank) : -1;
}

std::string function_of(uint32_t site)
{
  const std::string& text = site_text(site);
  return text.substr(0, text.find('@'));
}

// The peer and tag of a replayed action, from its site "MPI_Recv@trace:<peer>:<tag>" or
// "MPI_Wait@trace:<src>:<dst>:<tag>".
void replay_peer(const std::string& text, int rank, BlockedRank& b)
{
  std::vector<std::string> f;
  std::istringstream in(text.substr(text.find("@trace") + 6));
  for (std::string field; std::getline(in, field, ':');)
    if (!field.empty())
      f.push_back(field);
  const bool sends = b.call.find("send") != std::string::npos || b.call.find("Send") != std::string::npos;
  if (f.size() == 2) {
    b.peer = (sends ? "to " : "from ") + f[0];
    b.tag  = std::atoi(f[1].c_str());
  } else if (f.size() == 3) { // wait: which of src/dst is the peer
    const bool receive = std::atoi(f[1].c_str()) == rank;
    b.peer = receive ? "for a receive from " + f[0] : "for a send to " + f[1];
    b.tag  = std::atoi(f[2].c_str());
  }
}

BlockedRank blocked_rank(const sg4::Actor& actor)
{
  BlockedRank b;
  b.rank            = actor_rank(actor);
  const long pid    = actor.get_pid();
  const uint32_t in = parts::pending_site(pid);
  if (in == kNoSite)
    return b; // call unknown: not built with haec cc, or blocked outside the calls we see
  b.call                  = function_of(in);
  const std::string& text = site_text(in);
  if (text.find("@trace") != std::string::npos) {
    replay_peer(text, b.rank, b);
  } else if (static_cast<size_t>(pid) < peer_reports().size() && peer_reports()[pid].site == in) {
    const PeerReport& p = peer_reports()[pid];
    if (p.peer >= 0)
      b.peer = (b.call.find("end") != std::string::npos ? "to " : "from ") + std::to_string(p.peer);
    b.tag = p.tag;
  }
  return b;
}

void report_deadlock()
{
  if (!recording())
    return;
  std::vector<BlockedRank> blocked;
  for (auto const& actor : sg4::Engine::get_instance()->get_all_actors())
    if (actor_rank(*actor) >= 0)
      blocked.push_back(blocked_rank(*actor));
  std::vector<int> ended;
  for (auto const& [rank, finalized] : ended_ranks())
    if (!finalized)
      ended.push_back(rank);
  std::string full;
  const std::string line = "deadlock: " + describe_blocked_ranks(blocked, ended, kLineBudget, &full);
  parts::end_progress();
  std::fprintf(stderr, "haec: %s\n", text::one_line(line).c_str());
  if (full.size() + 10 > line.size())
    XBT_INFO("every blocked rank: %s", full.c_str());
  parts::mark_run_failed(line, kDeadlockStatus); // run_end.cpp writes summary.json marked failed, then exits 4
}

struct Registration {
  Registration()
  {
    sg4::Engine::on_deadlock_cb(report_deadlock);
    sg4::Actor::on_termination_cb([](sg4::Actor const& actor) {
      const int rank = actor_rank(actor);
      if (rank < 0 || !calls_reported())
        return;
      const long pid = actor.get_pid();
      ended_ranks()[rank] = function_of(parts::pending_site(pid)) == "MPI_Finalize" ||
                            function_of(parts::previous_site(pid)) == "MPI_Finalize";
    });
  }
} registration;

} // namespace
} // namespace haec::core

// Called by our PMPI layer (weak reference there) right after haec_suite_mpi_enter for calls
// with one peer: its world rank and the tag (-1 when unknown, e.g. MPI_ANY_SOURCE).
extern "C" void haec_suite_mpi_peer(int peer_world_rank, int tag)
{
  using namespace haec::core;
  if (!recording() || sg4::Actor::self() == nullptr) // only a recording run reports a deadlock
    return;
  const long pid = sg4::this_actor::get_pid();
  auto& reports  = peer_reports();
  if (pid >= static_cast<long>(reports.size()))
    reports.resize(static_cast<size_t>(pid) + 1);
  reports[static_cast<size_t>(pid)] = {parts::pending_site(pid), peer_world_rank, tag};
}
