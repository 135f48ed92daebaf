// One exception type for every bad input a user can give us. Its message is the one-line error
// printed by the CLI and the suite: "<input>: <problem>; <fix>", with control bytes escaped
// (what() is a C string, a NUL byte quoted from the input would cut it) and at most about
// text::kMessageBudget characters however long the input it quotes (text::error_line).
#pragma once
#include "text.hpp"

#include <stdexcept>
#include <string>

namespace haec {

class InputError : public std::runtime_error {
public:
  InputError(const std::string& input, const std::string& problem, const std::string& fix)
      : std::runtime_error(text::error_line(input, problem, fix))
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
