// The layer's own work kept out of SMPI's benchmark: see own_work.hpp.
#include "own_work.hpp"

#include "call_reporting.hpp"
#include "counting.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <smpi/smpi.h>

#include <atomic>
#include <cstdlib>
#include <ctime>

namespace haec::pmpi {
namespace {

// How deep in MPI calls each rank is, by actor pid: chunks allocated once and never moved, so
// ranks running on parallel threads never see a table being reallocated.
class Depths {
public:
  unsigned char& of(long pid)
  {
    const auto p = static_cast<unsigned long>(pid);
    const unsigned long c = p / kChunk;
    if (pid < 0 || c >= kChunks)
      return spare_;
    unsigned char* chunk = chunks_[c].load(std::memory_order_acquire);
    if (chunk == nullptr) {
      auto* fresh = new unsigned char[kChunk]();
      if (chunks_[c].compare_exchange_strong(chunk, fresh, std::memory_order_acq_rel))
        chunk = fresh;
      else
        delete[] fresh; // another thread made it: `chunk` holds it
    }
    return chunk[p % kChunk];
  }

private:
  static constexpr unsigned long kChunk = 4096, kChunks = 4096; // 16 M pids
  std::atomic<unsigned char*> chunks_[kChunks] = {};
  unsigned char spare_ = 0; // no actor: nothing to track
};

Depths depths; // never destroyed before the ranks stop calling (static storage, trivial destructor)

unsigned char* depth()
{
  return &depths.of(simgrid::s4u::this_actor::get_pid());
}

double read_burn_seconds()
{
  const char* v = std::getenv("HAEC_PMPI_TEST_BURN");
  return v != nullptr ? std::atof(v) : 0;
}
const double burn_seconds = read_burn_seconds();

double thread_cpu_seconds()
{
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The entry's announcement: which call the rank is entering, before the computation SMPI charges
// at smpi_bench_end() starts (its code region ends at this call).
void announce(Fn f, const void* caller)
{
  if (AnnounceSink sink = report_state().announce)
    sink(fn_name(f), caller);
}

} // namespace

void burn_for_test()
{
  if (burn_seconds <= 0)
    return;
  const double until = thread_cpu_seconds() + burn_seconds;
  while (thread_cpu_seconds() < until) {
  }
}

// The depth's top bit is set while the outermost call's entry has SMPI charge the application's
// computation (OwnWork's smpi_bench_end): the computation SimGrid starts then is the call's.
constexpr unsigned char kAtEntry = 0x80;

bool at_call_entry()
{
  return (*depth() & kAtEntry) != 0;
}

bool inside_mpi_call()
{
  return *depth() != 0;
}

OwnWork::OwnWork(Fn f, const void* caller) : caller_(caller), depth_(depth())
{
  if ((*depth_)++ != 0)
    return;
  outermost_ = true;
  counted_   = counting_call_entry(fn_name(f)); // first: the computation lets other ranks run
  announce(f, caller);
  *depth_ |= kAtEntry;
  smpi_bench_end();
  *depth_ &= static_cast<unsigned char>(~kAtEntry);
  paused_ = true;
  burn_for_test();
}

OwnWork::~OwnWork()
{
  --*depth_;
  if (!outermost_)
    return;
  counting_call_exit(counted_); // the next burst starts as the call returns
  if (paused_) {
    burn_for_test();
    smpi_bench_begin();
  }
}

void OwnWork::resume()
{
  burn_for_test();
  paused_ = false;
  smpi_bench_begin();
}

void OwnWork::pause()
{
  if (ExitSink returned = report_state().returned) // the call's end, before SMPI may charge the span below
    returned();
  smpi_bench_end(); // the span since SimGrid's function returned: below smpi/cpu-threshold, dropped
  paused_ = true;
  burn_for_test();
}

AfterInit::AfterInit() : depth_(depth())
{
  outermost_ = (*depth_)++ == 0;
}

AfterInit::~AfterInit()
{
  --*depth_;
}

} // namespace haec::pmpi
