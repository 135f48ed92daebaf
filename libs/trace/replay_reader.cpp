#include "replay_reader.hpp"

#include <cstring>

namespace haec::trace {
namespace {

bool is_space(char c) // std::isspace in the "C" locale, which boost::trim uses by default
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

std::string_view trimmed(std::string_view line)
{
  size_t end = line.size();
  while (end > 0 && is_space(line[end - 1]))
    --end;
  size_t begin = 0;
  while (begin < end && is_space(line[begin]))
    ++begin;
  return line.substr(begin, end - begin);
}

// boost::split(action, line, is_any_of(" \t"), token_compress_on): tokens between separators, a
// run of separators counting as one; an empty line gives one empty token.
void split(std::string_view line, std::vector<std::string>& action)
{
  size_t n = 0;
  auto put = [&](const char* from, size_t len) {
    if (n == action.size())
      action.emplace_back();
    // The vector is reused line after line: a rank's own number and often the action's name are
    // already there, and comparing costs less than std::string's general assignment.
    std::string& token = action[n++];
    if (token.size() != len || std::memcmp(token.data(), from, len) != 0)
      token.assign(from, len);
  };
  const char* p   = line.data();
  const char* end = p + line.size();
  while (true) {
    const char* sep = p;
    while (sep < end && *sep != ' ' && *sep != '\t')
      ++sep;
    put(p, static_cast<size_t>(sep - p));
    if (sep == end)
      break;
    p = sep + 1;
    while (p < end && (*p == ' ' || *p == '\t'))
      ++p;
  }
  action.resize(n);
}

} // namespace

std::vector<std::string> replay_fields(std::string line)
{
  std::vector<std::string> fields;
  const std::string_view t = trimmed(line);
  if (!t.empty())
    split(t, fields);
  return fields;
}

ReplayReader::ReplayReader(std::istream& in, size_t block_bytes) : in_(in), block_(block_bytes > 0 ? block_bytes : 1) {}

bool ReplayReader::next_line(std::string_view& line)
{
  spanning_.clear();
  while (true) {
    const char* from = block_.data() + begin_;
    if (const void* nl = std::memchr(from, '\n', end_ - begin_)) {
      const size_t len = static_cast<size_t>(static_cast<const char*>(nl) - from);
      begin_ += len + 1;
      if (spanning_.empty()) {
        line = std::string_view(from, len);
      } else {
        spanning_.append(from, len);
        line = spanning_;
      }
      return true;
    }
    spanning_.append(from, end_ - begin_);
    in_.read(block_.data(), static_cast<std::streamsize>(block_.size()));
    begin_ = 0;
    end_   = static_cast<size_t>(in_.gcount());
    if (end_ == 0) { // the stream ended before a newline: getline's eof
      line = spanning_;
      return false;
    }
  }
}

bool ReplayReader::next(std::vector<std::string>& action, const CommentFn& comment)
{
  std::string_view line;
  bool ended;
  auto is_comment = [&line] { return !line.empty() && line.front() == '#'; };
  do {
    ended = !next_line(line);
    ++lines_;
    line = trimmed(line);
    if (!ended && comment && is_comment()) {
      split(line, action);
      comment(action);
    }
  } while (!ended && (line.empty() || is_comment()));
  split(line, action);
  return !ended;
}

} // namespace haec::trace
