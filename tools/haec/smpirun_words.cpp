#include "smpirun_words.hpp"
#include "atomic_file.hpp"
#include "install_paths.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <csignal>
#include <filesystem>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace haec::cli {
namespace {

// smpirun's options that take a value (its own parsing loop; the first other word is the program).
bool takes_value(const std::string& option)
{
  for (const char* o : {"-np", "-platform", "-hostfile", "-machinefile", "-replay", "-wrapper", "-map", "-trace-file",
                        "-trace-comment", "-trace-comment-file"})
    if (option == o)
      return true;
  return false;
}

bool is_setting(const std::string& word)
{
  return word.rfind("--cfg=", 0) == 0 || word.rfind("--log=", 0) == 0;
}

// A name for a link: the target's file name with every unsafe byte replaced.
std::string safe_name(const std::string& target)
{
  std::string name = fs::path(target).filename().string();
  for (char& c : name)
    if (!SmpirunWords::safe(std::string(1, c)) || c == ',' || static_cast<unsigned char>(c) >= 0x80)
      c = '_';
  return name.empty() ? "file" : name.substr(0, 40);
}

std::string install_prefix()
{
  return fs::weakly_canonical(fs::path(self_dir()) / "..").string();
}

const char* const kSimGridSeparators = " \t\n,"; // between --cfg settings (xbt's set_parse)

// Whether smpirun and then SimGrid pass `value` on whole as the value of a --cfg setting.
bool whole_in_cfg(const std::string& value)
{
  return SmpirunWords::safe(value) && value.find_first_of(kSimGridSeparators) == std::string::npos;
}

// Where the private directories go: TMPDIR when smpirun could take its path, else /tmp.
std::string words_base()
{
  const char* tmp = std::getenv("TMPDIR");
  std::error_code ec;
  return tmp && *tmp && whole_in_cfg(tmp) && fs::is_directory(tmp, ec) ? tmp : "/tmp";
}

const std::string kWordsPrefix = "haec-words-"; // then the pid of the haec-exec that made it

bool process_gone(pid_t pid)
{
  return pid > 0 && ::kill(pid, 0) != 0 && errno == ESRCH;
}

} // namespace

void remove_stale_words_dirs()
{
  std::error_code ec;
  for (fs::directory_iterator it(words_base(), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    struct stat st {};
    if (name.rfind(kWordsPrefix, 0) != 0 || ::lstat(it->path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
        st.st_uid != ::getuid())
      continue;
    const pid_t owner = static_cast<pid_t>(std::atol(name.c_str() + kWordsPrefix.size()));
    if (process_gone(owner)) {
      std::error_code ignored;
      fs::remove_all(it->path(), ignored);
    }
  }
}

std::string smpirun_placeholder(size_t n)
{
  return "@@haec-" + std::to_string(n) + "@@";
}

bool SmpirunWords::safe(const std::string& word)
{
  return !word.empty() && word.find_first_of(" \t\n\r\v\f*?[]\\") == std::string::npos &&
         word.find("@@haec-") == std::string::npos;
}

bool SmpirunWords::needed(const std::vector<std::string>& argv)
{
  return SmpirunWords(argv, true).changed_;
}

SmpirunWords::SmpirunWords(const std::vector<std::string>& argv, bool dry) : dry_(dry)
{
  size_t i = 1, wrapper_at = 0;
  argv_.push_back(argv.empty() ? "smpirun" : argv[0]);
  for (; i < argv.size() && (takes_value(argv[i]) || is_setting(argv[i])); ++i) {
    const std::string& w = argv[i];
    argv_.push_back(w);
    if (is_setting(w)) { // smpirun splits what follows the '='
      const std::string value = w.rfind("--cfg=", 0) == 0 ? cfg_setting(w.substr(6)) : w.substr(6);
      argv_.back() = w.substr(0, 6) + (safe(value) ? value : placeholder(value));
      continue;
    }
    if (i + 1 >= argv.size())
      break;
    const std::string& value = argv[++i];
    if (w == "-wrapper")
      wrapper_at = argv_.size();
    argv_.push_back((w == "-hostfile" || w == "-machinefile" || w == "-replay" || w == "-trace-comment-file") &&
                            !whole_in_cfg(value) // smpirun passes these as --cfg values
                        ? link(fs::absolute(value).string(), safe_name(value))
                        : value);
  }
  if (i < argv.size()) // the program: smpirun quotes it
    argv_.push_back(argv[i++]);
  // The simulator takes --cfg=, --log=, --help, --version... from the program's arguments too, up
  // to a "--", which it removes: one goes first when an argument starts with "--".
  if (std::any_of(argv.begin() + static_cast<long>(i), argv.end(), [](const std::string& a) { return a.rfind("--", 0) == 0; })) {
    argv_.push_back("--");
    changed_ = true;
  }
  for (; i < argv.size(); ++i) // its arguments: split, and --cfg=/--log= ones taken by smpirun
    argv_.push_back(safe(argv[i]) && !is_setting(argv[i]) ? argv[i] : placeholder(argv[i]));
  const std::string command = wrapper_at ? argv_[wrapper_at] : "";
  if (!words_.empty() || (!command.empty() && !safe(install_prefix()))) {
    if (!wrapper_at) {
      argv_.insert(argv_.begin() + 1, {"-wrapper", ""});
      wrapper_at = 2;
    }
    argv_[wrapper_at] = wrapper(command);
  }
  if (const char* tmp = std::getenv("TMPDIR"); tmp && *tmp && !whole_in_cfg(tmp)) { // smpirun: --cfg=smpi/tmpdir:
    changed_ = true;
    if (!dry_)
      env_.push_back("TMPDIR=" + dir());
  }
}

SmpirunWords::~SmpirunWords()
{
  if (dir_.empty())
    return;
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

std::string SmpirunWords::dir()
{
  if (!dir_.empty())
    return dir_;
  remove_stale_words_dirs();
  const std::string base = words_base();
  std::string templ      = base + "/" + kWordsPrefix + std::to_string(::getpid()) + "-XXXXXX";
  if (::mkdtemp(templ.data()) == nullptr)
    throw std::runtime_error("cannot make a directory in " + base + " (" + std::strerror(errno) +
                             ") to pass paths with blanks to smpirun; free space there or set TMPDIR");
  return dir_ = templ;
}

std::string SmpirunWords::link(const std::string& target, const std::string& name)
{
  changed_ = true;
  if (dry_)
    return target;
  const std::string path = dir() + "/" + std::to_string(links_++) + "-" + name;
  fs::create_symlink(target, path);
  return path;
}

// SimGrid splits a --cfg value at blanks and commas itself (xbt's set_parse), whatever reaches it:
// a path holding one goes as a link to it, or, for a file still to be written, as a link to its
// directory. Other values stay as given (SimGrid takes them or refuses them as usual).
std::string SmpirunWords::cfg_setting(const std::string& setting)
{
  const size_t colon = setting.find(':');
  if (colon == std::string::npos || setting.find_first_of(kSimGridSeparators, colon) == std::string::npos)
    return setting;
  const std::string key = setting.substr(0, colon + 1), value = setting.substr(colon + 1);
  const fs::path path(value), parent = path.parent_path(), name = path.filename();
  std::error_code ec;
  if (fs::exists(path, ec))
    return key + link(fs::absolute(path).string(), safe_name(value));
  if (!parent.empty() && fs::is_directory(parent, ec) && name.string().find_first_of(kSimGridSeparators) == std::string::npos)
    return key + link(fs::absolute(parent).string(), "dir") + "/" + name.string();
  return setting;
}

std::string SmpirunWords::placeholder(const std::string& word)
{
  changed_ = true;
  words_.push_back(word);
  return smpirun_placeholder(words_.size() - 1);
}

// haec-exec (next to haec) restores the placeholders, then runs the original wrapper command,
// whose library paths under an install directory with a blank go through a link.
std::string SmpirunWords::wrapper(const std::string& command)
{
  std::string rest = command, prefix = install_prefix();
  if (!safe(prefix) && !rest.empty()) {
    const std::string linked = link(prefix, "prefix");
    for (size_t at = rest.find(prefix); at != std::string::npos; at = rest.find(prefix, at + linked.size()))
      rest.replace(at, prefix.size(), linked);
  }
  if (words_.empty() || dry_)
    return rest;
  std::string file;
  for (const auto& w : words_)
    file += w + '\0';
  write_file_atomic(dir() + "/words", file);
  return link(self_dir() + "/haec-exec", "haec-exec") + " --restore " + dir() + "/words" + (rest.empty() ? "" : " " + rest);
}

} // namespace haec::cli
