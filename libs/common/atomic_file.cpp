#include "atomic_file.hpp"
#include "input_error.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace haec {

void write_file_atomic(const std::string& path, const std::string& content)
{
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw std::runtime_error(path + ": cannot create file (" + std::strerror(errno) + ")");
    out << content;
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw std::runtime_error(path + ": write failed (" + std::strerror(errno) + ")");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    std::remove(tmp.c_str());
    throw std::runtime_error(path + ": cannot rename into place (" + std::strerror(err) + ")");
  }
}

std::string read_file(const std::string& path, const std::string& what)
{
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InputError(what, "'" + path + "' is a directory, not a file", "give the path of a file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(what, "cannot read '" + path + "' (" + std::strerror(errno) + ")", "check the path and its permissions");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace haec
