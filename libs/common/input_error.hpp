// One exception type for every bad input a user can give us. Its message is the one-line error
// printed by the CLI and the suite: "<input>: <problem>; <fix>", with control bytes escaped
// (text::escaped: what() is a C string, a NUL byte quoted from the input would cut it).
#pragma once
#include "text.hpp"

#include <stdexcept>
#include <string>

namespace haec {

class InputError : public std::runtime_error {
public:
  InputError(const std::string& input, const std::string& problem, const std::string& fix)
      : std::runtime_error(text::escaped(input + ": " + problem + (fix.empty() ? "" : "; " + fix)))
  {
  }
};

} // namespace haec

namespace haec {

// A deadlock found before or during a simulation (exit status 4): "deadlock: rank 0 waits in ...".
class DeadlockError : public std::runtime_error {
public:
  explicit DeadlockError(const std::string& message) : std::runtime_error(message) {}
};

} // namespace haec
