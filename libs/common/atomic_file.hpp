// Result files are written to a temporary name and renamed into place, so a reader (or a crash)
// never sees half a file.
#pragma once
#include <string>

namespace haec {

// Writes `content` to `path` atomically (temp file in the same directory + rename).
// Throws std::runtime_error naming the path on failure.
void write_file_atomic(const std::string& path, const std::string& content);

// Reads a whole file; throws haec::InputError naming `what` and the path if it cannot be read.
std::string read_file(const std::string& path, const std::string& what);

} // namespace haec
