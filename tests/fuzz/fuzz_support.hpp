// Helpers shared by the libFuzzer targets (tests/fuzz/fuzz_*.cpp). Each target feeds bytes to one
// parser we own; a haec::InputError is the only acceptable failure. Anything else (another
// exception, a sanitizer report, a broken invariant checked with FUZZ_CHECK) is a finding.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

// An invariant of a successful parse: abort so libFuzzer saves the input as a crash.
#define FUZZ_CHECK(cond)                                                                           \
  do {                                                                                             \
    if (!(cond)) {                                                                                 \
      std::fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__);       \
      std::abort();                                                                                \
    }                                                                                              \
  } while (0)

namespace haec::fuzz {

inline std::string as_text(const uint8_t* data, size_t size)
{
  return std::string(reinterpret_cast<const char*>(data), size);
}

// The readers take a path: one anonymous in-memory file per process, rewritten for every input
// (no disk traffic, nothing left behind), opened by the reader through /proc/self/fd/N.
class MemFile {
public:
  explicit MemFile(const char* name) : fd_(memfd_create(name, 0))
  {
    if (fd_ < 0) {
      std::perror("memfd_create");
      std::abort();
    }
    path_ = "/proc/self/fd/" + std::to_string(fd_);
  }
  const std::string& write(const uint8_t* data, size_t size)
  {
    if (ftruncate(fd_, 0) != 0)
      std::abort();
    size_t done = 0;
    while (done < size) {
      ssize_t n = pwrite(fd_, data + done, size - done, static_cast<off_t>(done));
      if (n <= 0)
        std::abort();
      done += static_cast<size_t>(n);
    }
    return path_;
  }

private:
  int fd_;
  std::string path_;
};

// Whitespace fields of one line, split like the mapping model's readers (space, tab, \r).
inline std::vector<std::string> fields(const std::string& line)
{
  std::vector<std::string> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
      ++i;
    size_t b = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
      ++i;
    if (i > b)
      out.push_back(line.substr(b, i - b));
  }
  return out;
}

inline std::vector<std::string> lines(const std::string& text)
{
  std::vector<std::string> out;
  size_t b = 0;
  while (b < text.size()) {
    size_t e = text.find('\n', b);
    if (e == std::string::npos)
      e = text.size();
    out.push_back(text.substr(b, e - b));
    b = e + 1;
  }
  return out;
}

// Dense matrices cost ranks^2 * 16 bytes: a rank field in [kSlowRank, 8192) is accepted by the
// readers but makes one execution take up to 1 GiB and a second. The targets skip such inputs
// (ranks >= 8192 are still fed: the readers must reject them).
constexpr unsigned long long kSlowRank = 512;
constexpr unsigned long long kMatrixLimit = 8192;

// Whether `text` (after trimming blanks) is an optionally signed decimal integer whose magnitude
// lies in [kSlowRank, kMatrixLimit).
inline bool slow_rank(std::string text)
{
  const char* ws = " \t\r\n";
  size_t b = text.find_first_not_of(ws);
  if (b == std::string::npos)
    return false;
  text = text.substr(b, text.find_last_not_of(ws) - b + 1);
  if (!text.empty() && text[0] == '-')
    text = text.substr(1);
  if (text.empty() || text.size() > 20 || text.find_first_not_of("0123456789") != std::string::npos)
    return false;
  unsigned long long v = std::strtoull(text.c_str(), nullptr, 10);
  return v >= kSlowRank && v < kMatrixLimit;
}

} // namespace haec::fuzz
