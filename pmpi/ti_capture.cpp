// Feeds the TI recorder with SMPI's computations: every exec named "computation" (SMPI's
// benchmark of the code between MPI calls, smpi_execute_flops) of a recorded rank, its flops at
// start and its duration at completion. Other execs (MPI_Iprobe's "iprobe") are time inside
// a polling call, which the recorder writes as a sleep. Also the rank's sleeps (SMPI sleeps in
// MPI_Waitsome's tests), which the recorder writes where the replay would not sleep them.
#include "ti_capture.hpp"
#include "simgrid_compat.hpp"
#include "own_work.hpp"

#include <simgrid/s4u.hpp>

#include <unordered_map>

namespace sg4 = simgrid::s4u;

namespace haec::pmpi {
namespace {

struct Capture {
  TiRecorder* recorder = nullptr;
  std::unordered_map<long, int> rank_of_pid;
  std::unordered_map<const sg4::Activity*, int> running; // exec -> rank
  std::unordered_map<long, double> asleep;                // pid -> when its sleep began
};

Capture& capture()
{
  static auto* c = new Capture; // never destroyed: callbacks may fire during exit
  return *c;
}

void install()
{
  sg4::Exec::on_start_cb([](sg4::Exec const& exec) {
    Capture& c = capture();
    if (c.recorder == nullptr || sg4::Actor::self() == nullptr || exec.get_name() != "computation")
      return;
    auto it = c.rank_of_pid.find(sg4::this_actor::get_pid());
    if (it == c.rank_of_pid.end())
      return;
    c.running[&exec] = it->second;
    const auto charged = at_call_entry()     ? TiRecorder::Charged::AtEntry
                        : inside_mpi_call() ? TiRecorder::Charged::InCall
                                            : TiRecorder::Charged::Between;
    c.recorder->computation_started(it->second, exec.get_cost(), sg4::Engine::get_clock(), charged);
  });
  sg4::Actor::on_sleep_cb([](sg4::Actor const& actor) {
    Capture& c = capture();
    if (c.recorder != nullptr && c.rank_of_pid.count(actor.get_pid()))
      c.asleep[actor.get_pid()] = sg4::Engine::get_clock();
  });
  sg4::Actor::on_wake_up_cb([](sg4::Actor const& actor) {
    Capture& c = capture();
    auto it    = c.asleep.find(actor.get_pid());
    if (it == c.asleep.end())
      return;
    c.recorder->slept(c.rank_of_pid.at(actor.get_pid()), sg4::Engine::get_clock() - it->second);
    c.asleep.erase(it);
  });
  haec::simgrid_compat::on_exec_completion([](sg4::Activity const& a) {
    Capture& c = capture();
    auto it    = c.running.find(&a);
    if (it == c.running.end())
      return;
    double end = a.get_finish_time() >= 0 ? a.get_finish_time() : sg4::Engine::get_clock();
    c.recorder->computation_ended(it->second, end);
    c.running.erase(it);
  });
}

} // namespace

double ti_clock()
{
  return sg4::Engine::get_clock();
}

void ti_capture_rank(TiRecorder* recorder, int rank)
{
  Capture& c = capture();
  if (c.recorder == nullptr) {
    c.recorder = recorder;
    install();
  }
  if (sg4::Actor::self() != nullptr)
    c.rank_of_pid[sg4::this_actor::get_pid()] = rank;
}

} // namespace haec::pmpi
