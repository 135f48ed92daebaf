#include "replay_reader.hpp"

#include <cstring>

namespace haec::trace {
namespace {

bool is_space(char c) // std::isspace in the "C" locale, which boost::trim uses by default
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

void trim(std::string& line)
{
  size_t end = line.size();
  while (end > 0 && is_space(line[end - 1]))
    --end;
  size_t begin = 0;
  while (begin < end && is_space(line[begin]))
    ++begin;
  line.erase(end);
  line.erase(0, begin);
}

// boost::split(action, line, is_any_of(" \t"), token_compress_on): tokens between separators, a
// run of separators counting as one; an empty line gives one empty token.
void split(const std::string& line, std::vector<std::string>& action)
{
  size_t n = 0;
  auto put = [&](const char* from, size_t len) {
    if (n == action.size())
      action.emplace_back();
    action[n++].assign(from, len);
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
  trim(line);
  std::vector<std::string> fields;
  if (!line.empty())
    split(line, fields);
  return fields;
}

bool next_replay_action(std::istream& in, std::string& line, std::vector<std::string>& action)
{
  do {
    std::getline(in, line);
    trim(line);
  } while (!in.eof() && (line.empty() || line.front() == '#'));
  split(line, action);
  return !in.eof();
}

bool next_replay_action(std::istream& in, std::string& line, std::vector<std::string>& action, size_t& lines,
                        const std::function<void(const std::vector<std::string>&)>& comment)
{
  auto is_comment = [&line] { return !line.empty() && line.front() == '#'; };
  do {
    std::getline(in, line);
    ++lines;
    trim(line);
    if (!in.eof() && is_comment()) {
      split(line, action);
      comment(action);
    }
  } while (!in.eof() && (line.empty() || is_comment()));
  split(line, action);
  return !in.eof();
}

} // namespace haec::trace
