// An MPI call of the recording run, carried in a TI trace as a comment line of ours, so that a
// replay groups the actions into calls and names them as the emulation did:
//
//   # <rank> haec_call <ID> <ENTER> <ACTIONS> <POLL> [<SITE>]
//
// written where the rank announced the call, before the computation SMPI charged at its entry. The
// replay announces call site ID there (that computation is then in the code region that ends at
// this call, as in emulation), enters the call after the next ENTER actions of the rank (0 or 1:
// that computation), and leaves it after the ACTIONS actions that follow (computations SMPI charged
// inside the call, the polling sleep, the call's own actions; 0: entered and left at once). POLL
// is 1 when the rank polls during the call (MPI_Test*), else 0. SITE comes with the first use of
// an ID in a rank's file: the site's name as in the emulation's regions.csv and events.csv
// (`MPI_Send@lu_like+0x1a2b`), with bytes up to the space, '%' and DEL written %XX. SimGrid's replay
// reader skips every line starting with '#': plain `smpirun -replay` reads such a trace as before.
// Pure C++: no SimGrid include.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace haec::trace {

inline constexpr const char* call_annotation_action = "haec_call";

struct CallAnnotation {
  uint32_t id      = 0;
  uint32_t enter   = 0; // actions before the call's entry (0 or 1)
  uint64_t actions = 0; // actions inside the call, after its entry
  bool polling     = false;
  std::string site; // on the ID's first use in the rank's file, else empty
};

std::string format_call_annotation(int rank, const CallAnnotation& a);

// The annotation of a line's replay fields; nullopt for any other line. Throws haec::InputError
// naming `where` when the line is one but is malformed.
std::optional<CallAnnotation> parse_call_annotation(const std::vector<std::string>& fields, const std::string& where);

// One rank's calls through its actions, in file order: for the trace check and the replay.
class CallGroups {
public:
  struct Step {
    bool enter = false, leave = false;
  };
  // A call annotation of this rank: its site's name; `now` is what happens at once (ENTER 0:
  // entered; and ACTIONS 0: left). Throws haec::InputError naming `where` for an ID used before it
  // is named, an ID named twice differently, or a call announced while another is open.
  const std::string& announce(const CallAnnotation& a, const std::string& where, Step& now);
  // One action of the rank ran: whether the open call is entered, or left, after it.
  Step action();
  bool open() const { return open_; }
  // The end of the rank's actions: throws if a call is still open.
  void end(const std::string& where) const;
  bool any() const { return !names_.empty(); }

private:
  std::vector<std::string> names_; // by ID
  bool open_ = false, inside_ = false;
  uint32_t to_enter_  = 0;
  uint64_t remaining_ = 0;
  std::string opened_at_;
};

} // namespace haec::trace
