// Shared by unit tests of parsers: the one-line message of the haec::InputError a call throws.
#pragma once

#include "input_error.hpp"

#include <string>

namespace haec::test {

// What `call` throws as an InputError, "" when it throws nothing.
template <class Call>
std::string input_error_of(Call&& call)
{
  try {
    call();
  } catch (const haec::InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace haec::test
