// haec-exec WORDS PROGRAM [ARG...]: runs PROGRAM with every @@haec-N@@ in its arguments replaced
// by word N of the file WORDS (NUL-separated). haec run puts it first in smpirun's -wrapper, so
// that words smpirun would split at blanks reach the simulator whole (smpirun_words.hpp).
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

std::vector<std::string> read_words(const char* path)
{
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::string> words;
  for (size_t b = 0; b < text.size();) {
    size_t e = text.find('\0', b);
    if (e == std::string::npos)
      e = text.size();
    words.push_back(text.substr(b, e - b));
    b = e + 1;
  }
  return words;
}

// One pass: the words put back are not searched again.
std::string restore(const std::string& arg, const std::vector<std::string>& words)
{
  static const std::string open = "@@haec-";
  std::string out;
  size_t at = 0;
  for (size_t p = arg.find(open); p != std::string::npos; p = arg.find(open, at)) {
    size_t d = p + open.size(), n = 0;
    while (d < arg.size() && arg[d] >= '0' && arg[d] <= '9' && n < words.size())
      n = n * 10 + static_cast<size_t>(arg[d++] - '0');
    if (d == p + open.size() || arg.compare(d, 2, "@@") != 0 || n >= words.size()) {
      out += arg.substr(at, d - at);
      at = d;
      continue;
    }
    out += arg.substr(at, p - at) + words[n];
    at = d + 2;
  }
  return out + arg.substr(at);
}

} // namespace

int main(int argc, char** argv)
{
  if (argc < 3) {
    std::fprintf(stderr, "haec-exec: usage: haec-exec WORDS PROGRAM [ARG...] (run by haec run, not by hand)\n");
    return 127;
  }
  const std::vector<std::string> words = read_words(argv[1]);
  std::vector<std::string> args;
  for (int i = 2; i < argc; ++i)
    args.push_back(restore(argv[i], words));
  std::vector<char*> c_args;
  for (auto& a : args)
    c_args.push_back(a.data());
  c_args.push_back(nullptr);
  ::execvp(c_args[0], c_args.data());
  std::fprintf(stderr, "haec-exec: cannot start %s: %s\n", c_args[0], std::strerror(errno));
  return 127;
}
