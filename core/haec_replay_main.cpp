// haec-replay: the trace replayer `haec run --replay` gives smpirun (`smpirun -replay TRACE
// haec-replay`; SimGrid's smpireplaymain otherwise). It does what smpireplaymain does, through
// SMPI's public replay API (smpi/smpi.h: smpi_replay_init, smpi_replay_main; SimGrid's
// examples/smpi/replay shows the same way to extend a replay), and in between hands the rank to the
// preloaded suite (core/replay_actions.cpp), which wraps SMPI's replay actions so that they are
// seen as MPI calls, adds its own actions and resolves the rank's trace file. Without the suite
// (plain smpirun) it replays exactly as smpireplaymain.
#include <simgrid/s4u/Actor.hpp>
#include <smpi/smpi.h>
#include <xbt/asserts.h>
#include <xbt/replay.hpp>
#include <xbt/str.h>

#include <string>

// The suite's hook (weak: absent without the suite). Returns the trace file to replay for this
// rank: `trace`, or its path relative to the trace list's directory; `shared`: the one file every
// rank reads (SMPI's form of a one-rank trace).
extern "C" const char* haec_suite_replay_rank(int rank, const char* trace, int shared) __attribute__((weak));

int main(int argc, char* argv[])
{
  xbt_assert(simgrid::s4u::Actor::self() != nullptr, "haec-replay runs under smpirun -replay");
  const auto* properties = simgrid::s4u::Actor::self()->get_properties();
  xbt_assert(properties->find("smpi_replay") != properties->end(), "haec-replay runs under smpirun -replay");

  const char* instance_id  = properties->at("instance_id").c_str();
  const int rank           = static_cast<int>(xbt_str_parse_int(properties->at("rank").c_str(), "Cannot parse rank"));
  const char* shared_trace = simgrid::s4u::Actor::self()->get_property("tracefile");
  const char* private_trace = argc > 1 ? argv[1] : nullptr;
  const double start_delay_flops = argc > 2 ? xbt_str_parse_double(argv[2], "Cannot parse start_delay_flops") : 0;

  smpi_replay_init(instance_id, rank, start_delay_flops); // registers SMPI's actions (again, for this rank)
  if (haec_suite_replay_rank != nullptr) {
    private_trace = haec_suite_replay_rank(rank, private_trace, 0);
    if (shared_trace != nullptr)
      shared_trace = haec_suite_replay_rank(rank, shared_trace, 1);
  }
  if (shared_trace != nullptr)
    xbt_replay_set_tracefile(shared_trace);
  smpi_replay_main(rank, private_trace);
  return 0;
}
