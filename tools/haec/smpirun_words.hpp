// smpirun is a shell script: it splits the values of --cfg=..., -hostfile and -replay, the -wrapper
// command and the program's arguments at blanks, and expands * ? [ in them as file patterns. A
// result directory 'r s', a trace 'd x/t.trace', an install path with a space or a program
// argument "in put.dat" would reach the simulator in pieces. SmpirunWords rewrites smpirun's
// command line so that every word arrives whole:
//   - a file smpirun itself opens (-hostfile, -replay) is given as a symbolic link with a safe
//     name in a private directory (smpirun checks that the file exists);
//   - a --cfg value naming a path with a blank or a comma, which SimGrid itself would split, is
//     given as a link to it (or to its directory) in that private directory;
//   - any other word smpirun would split (a --cfg value, a program argument) is given as a
//     placeholder @@haec-N@@, and `haec-exec --restore`, put first in smpirun's -wrapper, puts the
//     word back into the simulator's command line (the words travel in a file of the private
//     directory);
//   - a "--" goes before the program's arguments when one starts with "--" (the simulator would
//     take --cfg=, --log=, --help... from them);
//   - the install directory in the -wrapper command (LD_PRELOAD's libraries) is given as a link;
//   - TMPDIR, where smpirun makes its own directory, is that private directory when the user's
//     has a blank.
// The result directory still ends where the user asked: the simulator writes through the links. When
// every word is safe already (the usual case) nothing changes and no directory is made.
//
// haec-exec (exec_words_main.cpp) does the rewriting: haec run starts `haec-exec smpirun ...`
// when some word needs it, so that its command.txt is a line a user can paste as it is.
#pragma once
#include <string>
#include <vector>

namespace haec::cli {

class SmpirunWords {
public:
  // `argv`: smpirun's command line as haec run builds it (smpirun, its options, then the program
  // and its arguments, or -replay TRACE). Throws std::runtime_error when the private directory
  // cannot be made.
  explicit SmpirunWords(const std::vector<std::string>& argv) : SmpirunWords(argv, false) {}
  ~SmpirunWords(); // removes the private directory
  SmpirunWords(const SmpirunWords&)            = delete;
  SmpirunWords& operator=(const SmpirunWords&) = delete;

  const std::vector<std::string>& argv() const { return argv_; }
  // "NAME=value" entries for the child's environment (TMPDIR), possibly none.
  const std::vector<std::string>& env() const { return env_; }

  // Whether smpirun would take `argv` apart: some word needs rewriting (nothing is made on disk).
  static bool needed(const std::vector<std::string>& argv);
  // Whether smpirun would pass `word` on unchanged (no blank, no pattern character, not empty).
  static bool safe(const std::string& word);

private:
  SmpirunWords(const std::vector<std::string>& argv, bool dry);
  std::string dir(); // the private directory, made on first use
  std::string link(const std::string& target, const std::string& name);
  std::string cfg_setting(const std::string& setting);
  std::string placeholder(const std::string& word);
  std::string wrapper(const std::string& command);

  bool dry_     = false; // needed(): only note that something would change
  bool changed_ = false;
  std::vector<std::string> argv_, env_, words_;
  std::string dir_;
  int links_ = 0;
};

// The placeholder of word N (haec-exec replaces it).
std::string smpirun_placeholder(size_t n);

// Removes the private directories (haec-words-PID-*) left by haec-exec processes that are gone,
// killed before they could remove their own (SIGKILL); only the user's own. Called when a new one
// is made and by haec run's supervisor after it killed a run whose haec died.
void remove_stale_words_dirs();

} // namespace haec::cli
