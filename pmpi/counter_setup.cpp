// PAPI event sets for --counters: see counter_setup.hpp.
#include "counter_setup.hpp"

#include "papi_api.hpp"

#include <papi.h>

#include <algorithm>
#include <map>
#include <mutex>

namespace haec::papi {
namespace {

const char* kChoose = "list what this CPU counts with papi_avail -a and papi_native_avail";

// PAPI's generic hardware cycles event: absent exactly when the kernel exposes no CPU PMU
// (/sys/bus/event_source/devices has no cpu), as in VMs without PMU passthrough.
bool counts_cpu_cycles(const Api& a)
{
  int set = PAPI_NULL;
  if (a.create_eventset(&set) != PAPI_OK)
    return false;
  int code      = 0;
  const bool ok = a.event_name_to_code("perf::PERF_COUNT_HW_CPU_CYCLES", &code) == PAPI_OK &&
                  a.add_event(set, code) == PAPI_OK;
  a.cleanup_eventset(set);
  a.destroy_eventset(&set);
  return ok;
}

Verdict cannot_count(const std::string& why)
{
  return {Verdict::CannotCount, "--counters", "PAPI cannot count here (" + why + ")",
          "run on a machine with a CPU PMU, or drop --counters"};
}

void discard(const Api& a, int& set)
{
  a.cleanup_eventset(set);
  a.destroy_eventset(&set);
  set = PAPI_NULL;
}

} // namespace

std::vector<std::string> parse_event_list(const std::string& list, Verdict& verdict)
{
  std::vector<std::string> names;
  size_t at = 0;
  while (at <= list.size()) {
    const size_t end = std::min(list.find(',', at), list.size());
    const std::string name = list.substr(at, end - at);
    if (name.empty()) {
      verdict = {Verdict::BadInput, "--counters '" + list + "'", "holds an empty event name",
                 "give PAPI events separated by commas, e.g. PAPI_TOT_INS,PAPI_L3_TCM"};
      return {};
    }
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      verdict = {Verdict::BadInput, "--counters " + list, name + " is given twice", "give each event once"};
      return {};
    }
    names.push_back(name);
    at = end + 1;
  }
  return names;
}

Verdict classify_failure(const std::string& list, const std::string& event, int name_rc, int add_rc, bool cpu_pmu,
                         const std::string& description)
{
  if (name_rc != PAPI_OK)
    return {Verdict::BadInput, "--counters " + event, "PAPI knows no such event", kChoose};
  if (add_rc == PAPI_ECNFLCT || add_rc == PAPI_ECOUNT)
    return {Verdict::BadInput, "--counters " + list,
            "this CPU cannot count these events at once (" + event + ": " + description + ")",
            "ask for fewer events; papi_event_chooser PRESET|NATIVE EVENT... lists what can join a set"};
  if (add_rc == PAPI_ENOEVNT && !cpu_pmu)
    return cannot_count(event + ": " + description + "; no CPU PMU: perf::CYCLES does not count either");
  if (add_rc == PAPI_ENOEVNT)
    return {Verdict::BadInput, "--counters " + event, "this CPU cannot count it (" + description + ")", kChoose};
  return cannot_count(event + ": " + description);
}

// The events' codes, looked up once per process: PAPI 7.0.0's PAPI_event_name_to_code crashed
// when a second thread called it (measured; SMPI's thread contexts run each rank on its own).
// A name PAPI does not know is bad input, PMU or not.
bool event_codes(const Api& a, const std::vector<std::string>& events, const std::string& list, Verdict& verdict,
                 std::vector<int>& codes)
{
  static std::mutex mu;
  static std::map<std::string, int> known;
  std::lock_guard<std::mutex> lock(mu);
  codes.clear();
  for (auto const& event : events) {
    auto it = known.find(event);
    int code = 0;
    if (it == known.end() && a.event_name_to_code(event.c_str(), &code) != PAPI_OK) {
      verdict = classify_failure(list, event, PAPI_ENOEVNT, PAPI_ENOEVNT, false, "");
      return false;
    }
    codes.push_back(it == known.end() ? (known[event] = code) : it->second);
  }
  return true;
}

int open_event_set(const std::vector<std::string>& events, const std::string& list, Verdict& verdict)
{
  std::string why;
  const Api* a = api(why);
  if (a == nullptr) {
    verdict = cannot_count(why);
    return -1;
  }
  std::vector<int> codes;
  if (!event_codes(*a, events, list, verdict, codes))
    return -1;
  int set = PAPI_NULL;
  if (const int rc = a->create_eventset(&set); rc != PAPI_OK) {
    verdict = cannot_count("PAPI_create_eventset: " + describe(*a, rc));
    return -1;
  }
  for (size_t i = 0; i < events.size(); ++i) {
    const int add_rc = a->add_event(set, codes[i]);
    if (add_rc == PAPI_OK)
      continue;
    discard(*a, set);
    verdict = classify_failure(list, events[i], PAPI_OK, add_rc, counts_cpu_cycles(*a), describe(*a, add_rc));
    return -1;
  }
  // perf_event may only find the conflict when the set starts.
  if (const int rc = a->start(set); rc != PAPI_OK) {
    discard(*a, set);
    verdict = classify_failure(list, events.back(), PAPI_OK, rc, true, describe(*a, rc));
    return -1;
  }
  verdict = {};
  return set;
}

bool read_event_set(int set, long long* values)
{
  std::string why;
  const Api* a = api(why);
  return a != nullptr && a->read(set, values) == PAPI_OK;
}

} // namespace haec::papi
